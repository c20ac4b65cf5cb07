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

#include <cctype>
#include <cmath>

using namespace LAMMPS_NS;
using demc::Vec3;

namespace {
Vec3 vec(const double *a)
{
  return {a[0], a[1], a[2]};
}
}    // namespace

/* ---------------------------------------------------------------------- */

PairGranDemc::PairGranDemc(LAMMPS *lmp, const char *name) :
    Pair(lmp), style_name(name), dt(0.0), history_index(0), dissipated_damping(0.0),
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
}

PairGranDemc::~PairGranDemc()
{
  delete[] pvector;
  delete[] onerad_dynamic;
  delete[] maxrad_dynamic;
}

/* ----------------------------------------------------------------------
   The history fix's ID must be the same when a restart file is read back.
   LAMMPS's instance_me counts pair objects over the whole process (every
   pair_style command and every library instance adds one), so use the
   lowest index free in this LAMMPS instance instead.
------------------------------------------------------------------------- */

void PairGranDemc::choose_history_index()
{
  history_index = 0;
  while (modify->get_fix_by_id(history_fix_id()) ||
         modify->get_fix_by_id(history_fix_id() + "_DUMMY"))
    history_index++;
}

std::string PairGranDemc::history_fix_id() const
{
  std::string id = "DEMC_" + style_name + "_HISTORY";
  for (char &ch : id) ch = (ch == '/') ? '_' : (char) toupper(ch);
  return id + std::to_string(history_index);
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
  if (!atom->radius_flag || !atom->rmass_flag || !atom->omega_flag)
    error->all(FLERR, "Pair {} requires atom attributes radius, rmass, omega (e.g. atom_style sphere)",
               style_name);
  if (comm->ghost_velocity == 0)
    error->all(FLERR, "Pair {} requires ghost atoms store velocity: use comm_modify vel yes",
               style_name);
  neighbor->add_request(this, NeighConst::REQ_SIZE | NeighConst::REQ_HISTORY);
  dt = update->dt;
  set_max_radii();
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
  const int jnum = list->numneigh[i];
  const int *jlist = list->firstneigh[i];
  for (int k = 0; k < jnum; k++) {
    neighprev = (neighprev + 1) % jnum;    // pairs are usually asked for in list order
    if ((jlist[neighprev] & NEIGHMASK) == j) return neighprev;
  }
  return -1;
}

/* ----------------------------------------------------------------------
   movements over the step: velocity-Verlet moved every atom by v*dt with
   the half-step velocity that LAMMPS holds during the force computation;
   at setup (advance = false) nothing has moved
------------------------------------------------------------------------- */

PairGranDemc::Contact PairGranDemc::make_contact(int p, int q, double r, bool advance) const
{
  double **x = atom->x, **v = atom->v, **omega = atom->omega;
  const double *radius = atom->radius;
  Contact c;
  c.p = p;
  c.q = q;
  const Vec3 delta = vec(x[c.q]) - vec(x[c.p]);
  c.r = r;
  c.overlap = radius[c.p] + radius[c.q] - r;
  c.n = (1.0 / r) * delta;
  const double step = advance ? dt : 0.0;
  c.du_p = step * vec(v[c.p]);
  c.du_q = step * vec(v[c.q]);
  c.dth_p = step * vec(omega[c.p]);
  c.dth_q = step * vec(omega[c.q]);
  const Vec3 delta_old = delta - (c.du_q - c.du_p);
  c.n_old = (1.0 / demc::norm(delta_old)) * delta_old;
  c.r_p = (radius[c.p] - 0.5 * c.overlap) * c.n;
  c.r_q = -(radius[c.q] - 0.5 * c.overlap) * c.n;
  c.du = c.du_q - c.du_p + demc::cross(c.dth_q, c.r_q) - demc::cross(c.dth_p, c.r_p);
  return c;
}

/* ----------------------------------------------------------------------
   contact dashpots (force on p): nu_n on the normal and nu_t on the
   tangential part of the relative velocity du/dt
------------------------------------------------------------------------- */

Vec3 PairGranDemc::damping_force(const Contact &c, double nu_n, double nu_t) const
{
  if (dt <= 0.0 || (nu_n == 0.0 && nu_t == 0.0)) return {0.0, 0.0, 0.0};
  const double un = demc::dot(c.du, c.n);
  const Vec3 ut = c.du - un * c.n;
  return (1.0 / dt) * ((nu_n * un) * c.n + nu_t * ut);
}

double PairGranDemc::pair_weight(int j) const
{
  return (force->newton_pair || j < atom->nlocal) ? 1.0 : 0.5;
}

/* ---------------------------------------------------------------------- */

void PairGranDemc::apply_force(const Contact &c, const Vec3 &F, int i, int j, double energy)
{
  double **f = atom->f, **torque = atom->torque;
  const int nlocal = atom->nlocal;
  const int newton_pair = force->newton_pair;
  const Vec3 tor_p = demc::cross(c.r_p, F), tor_q = demc::cross(c.r_q, -F);
  auto add = [&](int k, const Vec3 &force_k, const Vec3 &torque_k) {
    f[k][0] += force_k.x;
    f[k][1] += force_k.y;
    f[k][2] += force_k.z;
    torque[k][0] += torque_k.x;
    torque[k][1] += torque_k.y;
    torque[k][2] += torque_k.z;
  };
  // i is always owned; j gets its share only if owned or newton on
  const bool update_j = newton_pair || j < nlocal;
  if (c.p == i || update_j) add(c.p, F, tor_p);
  if (c.q == i || update_j) add(c.q, -F, tor_q);
  if (evflag) {
    const Vec3 fi = (c.p == i) ? F : -F;
    const double *xi = atom->x[i], *xj = atom->x[j];
    ev_tally_xyz(i, j, nlocal, newton_pair, energy, 0.0, fi.x, fi.y, fi.z, xi[0] - xj[0],
                 xi[1] - xj[1], xi[2] - xj[2]);
  }
}

/* ---------------------------------------------------------------------- */

void PairGranDemc::write_double(FILE *fp, double value) const
{
  fwrite(&value, sizeof(double), 1, fp);
}

double PairGranDemc::read_double(FILE *fp)
{
  double value = 0.0;
  if (comm->me == 0) utils::sfread(FLERR, &value, sizeof(double), 1, fp, nullptr, error);
  MPI_Bcast(&value, 1, MPI_DOUBLE, 0, world);
  return value;
}

/* ---------------------------------------------------------------------- */

double PairGranDemc::memory_usage()
{
  return 2.0 * (atom->ntypes + 1) * sizeof(double);
}
