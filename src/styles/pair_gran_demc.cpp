/* ----------------------------------------------------------------------
   dem-contact: what the package's granular pair styles share (see header).
------------------------------------------------------------------------- */

#include "pair_gran_demc.h"

#include "atom.h"
#include "comm.h"
#include "error.h"
#include "fix.h"
#include "force.h"
#include "memory.h"
#include "modify.h"
#include "neigh_list.h"
#include "neighbor.h"
#include "update.h"

#include <algorithm>
#include <cmath>

using namespace LAMMPS_NS;
using demc::Vec3;

/* ---------------------------------------------------------------------- */

PairGranDemc::PairGranDemc(LAMMPS *lmp, const char *name) :
    Pair(lmp), style_name(name), dt(0.0), tangential_sum(0.0), dissipated_damping(0.0),
    onerad_dynamic(nullptr), maxrad_dynamic(nullptr), neighprev(0)
{
  single_enable = 1;
  no_virial_fdotr_compute = 1;
  centroidstressflag = CENTROID_NOTAVAIL;
  finitecutflag = 1;
  restartinfo = 1;
  nextra = E_SIZE;
  pvector = new double[nextra];
  for (int k = 0; k < nextra; k++) pvector[k] = 0.0;
  choose_history_index();
  // placeholder: the per-atom energy fix is made at init (after a read_restart, so that it
  // receives its per-atom restart data) and keeps the place of the pair_style command
  add_atom_energy_placeholder();
}

PairGranDemc::~PairGranDemc()
{
  if (!copymode) delete_atom_energy_fix();
  delete[] pvector;
  delete[] onerad_dynamic;
  delete[] maxrad_dynamic;
}

/* ---------------------------------------------------------------------- */

void PairGranDemc::prepare_style(int n_single_extra)
{
  writedata = 1;
  single_extra = n_single_extra;
  svector = new double[single_extra];
  // placeholder so that the history fix keeps its place in the fix list
  add_history_placeholder();
}

void PairGranDemc::release_style(bool history_made,
                                 std::initializer_list<double **> coefficient_arrays)
{
  delete[] svector;
  delete_history_fix(history_made);
  if (!allocated) return;
  memory->destroy(setflag);
  memory->destroy(cutsq);
  for (double **a : coefficient_arrays) memory->destroy(a);
}

/* ---------------------------------------------------------------------- */

void PairGranDemc::allocate_base()
{
  allocated = 1;
  const int n = atom->ntypes;
  memory->create(setflag, n + 1, n + 1, "pair:setflag");
  for (int i = 1; i <= n; i++)
    for (int j = i; j <= n; j++) setflag[i][j] = 0;
  memory->create(cutsq, n + 1, n + 1, "pair:cutsq");
  onerad_dynamic = new double[n + 1];
  maxrad_dynamic = new double[n + 1];
}

/* ---------------------------------------------------------------------- */

void PairGranDemc::init_style()
{
  demc_check_atom_requirements(lmp, style_name);
  demc_check_overlapping_contact_laws(lmp, this, style_name);
  demc_refuse_unfit_computes(lmp, running_style_name());
  neighbor->add_request(this, NeighConst::REQ_SIZE | NeighConst::REQ_HISTORY);
  restart_histories_checked = false;
  dt = update->dt;
  set_max_radii();
  attach_atom_energy_fix();
}

/* ---------------------------------------------------------------------- */

std::string PairGranDemc::running_style_name() const
{
  return style_name + (kokkosable ? "/kk" : "");
}

void PairGranDemc::reset_dt()
{
  dt = update->dt;
}

/* ----------------------------------------------------------------------
   largest radius per type, including particles that fix pour or fix
   deposit will insert later: the neighbor cutoff follows from them
------------------------------------------------------------------------- */

void PairGranDemc::set_max_radii()
{
  auto inserters = modify->get_fix_by_style("^pour");
  for (auto *ifix : modify->get_fix_by_style("^deposit")) inserters.push_back(ifix);
  for (int i = 1; i <= atom->ntypes; i++) {
    onerad_dynamic[i] = 0.0;
    for (auto *ifix : inserters) {
      int itype = i;
      const double maxrad = *((double *) ifix->extract("radius", itype));
      if (maxrad > 0.0) onerad_dynamic[i] = MAX(onerad_dynamic[i], maxrad);
    }
  }
  const double *radius = atom->radius;
  const int *type = atom->type;
  for (int i = 0; i < atom->nlocal; i++)
    onerad_dynamic[type[i]] = MAX(onerad_dynamic[type[i]], radius[i]);
  MPI_Allreduce(&onerad_dynamic[1], &maxrad_dynamic[1], atom->ntypes, MPI_DOUBLE, MPI_MAX, world);
}

double PairGranDemc::contact_cutoff(int i, int j) const
{
  return maxrad_dynamic[i] + maxrad_dynamic[j];
}

/* ---------------------------------------------------------------------- */

int PairGranDemc::find_neighbor_index(int i, int j)
{
  const int *jlist = list->firstneigh[i];
  return find_neighbor_slot(list->numneigh[i], j, [jlist](int k) {
    return jlist[k] & NEIGHMASK;
  });
}

/* ---------------------------------------------------------------------- */

double PairGranDemc::memory_usage()
{
  return 2.0 * (atom->ntypes + 1) * sizeof(double);
}

/* ----------------------------------------------------------------------
   the start of every single(): svector and fforce zeroed. single()
   describes a contact as it is: compute pair/local, compute fabric and
   the like pass two atoms and their own squared distance. pair_write
   passes atoms 0 and 1 (which need not exist) at the distances of its
   table: a law whose force depends on the contact's history and on the
   particles' motion cannot answer that, so the command stops instead of
   writing a table of zeros. (error->one: callers of single() may run it on
   one processor only.)
------------------------------------------------------------------------- */

void PairGranDemc::begin_single(int i, int j, double rsq, double &fforce)
{
  for (int k = 0; k < single_extra; k++) svector[k] = 0.0;
  fforce = 0.0;
  const int nall = atom->nlocal + atom->nghost;
  bool own_distance = i >= 0 && i < nall && j >= 0 && j < nall;
  if (own_distance) {
    const double *xi = atom->x[i], *xj = atom->x[j];
    const double dx = xi[0] - xj[0], dy = xi[1] - xj[1], dz = xi[2] - xj[2];
    const double d2 = dx * dx + dy * dy + dz * dz;
    own_distance = std::fabs(d2 - rsq) <= 1e-9 * std::max(d2, rsq);
  }
  if (!own_distance)
    error->one(FLERR,
               "Pair {} cannot be tabulated (pair_write): its force depends on each contact's "
               "history and on the particles' motion, not on the distance alone (asked for atoms "
               "{} and {} at a distance that is not theirs)",
               running_style_name(), i, j);
}

void PairGranDemc::set_single_forces(const Vec3 &ft_on_i, double fn, double mu)
{
  const double ft = demc::norm(ft_on_i);
  const double limit = mu * fn;
  svector[S_FTX] = ft_on_i.x;
  svector[S_FTY] = ft_on_i.y;
  svector[S_FTZ] = ft_on_i.z;
  svector[S_FT] = ft;
  svector[S_FN] = fn;
  svector[S_MOBILISED] = (limit > 0.0) ? ft / limit : 0.0;
}
