/* ----------------------------------------------------------------------
   dem-contact: what the package's granular pair styles share (see header).
------------------------------------------------------------------------- */

#include "pair_gran_demc.h"

#include "demc_restart_records.h"

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
#include <cstring>

using namespace LAMMPS_NS;
using demc::Vec3;

/* ---------------------------------------------------------------------- */

PairGranDemc::PairGranDemc(LAMMPS *lmp, const char *name) :
    Pair(lmp), style_name(name), dt(0.0), tangential_sum(0.0), dissipated_damping(0.0),
    onerad_dynamic(nullptr), maxrad_dynamic(nullptr), neighprev(0), history_fixes(lmp, name),
    coefficients(lmp, name), damping_table(lmp, name, coefficients),
    atom_energies(lmp, history_fixes.atom_energy_fix_id())
{
  single_enable = 1;
  no_virial_fdotr_compute = 1;
  centroidstressflag = CENTROID_NOTAVAIL;
  finitecutflag = 1;
  restartinfo = 1;
  nextra = E_SIZE;
  pvector = new double[nextra];
  for (int k = 0; k < nextra; k++) pvector[k] = 0.0;
  // placeholder: the per-atom energy fix is made at init (after a read_restart, so that it
  // receives its per-atom restart data) and keeps the place of the pair_style command
  atom_energies.add_placeholder();
}

PairGranDemc::~PairGranDemc()
{
  if (!copymode) atom_energies.remove();
  delete[] pvector;
  delete[] onerad_dynamic;
  delete[] maxrad_dynamic;
  if (copymode || !allocated) return;
  memory->destroy(setflag);
  memory->destroy(cutsq);
}

/* ---------------------------------------------------------------------- */

void PairGranDemc::prepare_style(int n_single_extra)
{
  writedata = 1;
  single_extra = n_single_extra;
  svector = new double[single_extra];
  // placeholder so that the history fix keeps its place in the fix list
  history_fixes.add_history_placeholder();
}

// (the coefficient arrays are released by their DemcCoefficient members)
void PairGranDemc::release_style(bool history_made)
{
  delete[] svector;
  history_fixes.delete_history_fix(history_made);
}

/* ---------------------------------------------------------------------- */

void PairGranDemc::allocate()
{
  allocated = 1;
  const int n = atom->ntypes;
  memory->create(setflag, n + 1, n + 1, "pair:setflag");
  for (int i = 1; i <= n; i++)
    for (int j = i; j <= n; j++) setflag[i][j] = 0;
  memory->create(cutsq, n + 1, n + 1, "pair:cutsq");
  onerad_dynamic = new double[n + 1];
  maxrad_dynamic = new double[n + 1];
  coefficients.allocate(n);
  resistance.allocate(n);
}

/* ----------------------------------------------------------------------
   pair_coeff I J c1 c2 mu [damping nu_n nu_t | restitution e x_t]
   [rolling ...] [twisting ...]: what the laws take alike
------------------------------------------------------------------------- */

std::vector<double> PairGranDemc::read_coeff_args(int narg, char **arg, const char *law_names,
                                                  demc::resistance::Params &rolling_twisting)
{
  if (narg < 5) coeff_usage_error(narg, law_names);
  std::vector<double> values(7, 0.0);    // c1 c2 mu damp_n damp_t restitution restitution_t
  for (int k = 0; k < 3; k++) values[k] = utils::numeric(FLERR, arg[2 + k], false, lmp);
  if (values[2] < 0.0)
    error->all(FLERR, "Pair_coeff {}: mu must be >= 0, got {}", style_name, values[2]);
  rolling_twisting = demc::resistance::Params();
  bool dashpot_set = false;
  for (int iarg = 5; iarg < narg;) {
    const int used = parse_resistance_keyword(lmp, "Pair_coeff " + style_name, narg, arg, iarg,
                                              rolling_twisting);
    iarg += used > 0 ? used
                     : read_dashpot_keyword(narg, arg, iarg, law_names, dashpot_set, values);
  }
  return values;
}

/* the dashpot keyword at arg[iarg] (once) into values[3..6]; returns the arguments used */
int PairGranDemc::read_dashpot_keyword(int narg, char **arg, int iarg, const char *law_names,
                                       bool &dashpot_set, std::vector<double> &values)
{
  const bool dashpots = strcmp(arg[iarg], "damping") == 0;
  if (!dashpots && strcmp(arg[iarg], "restitution") != 0)
    error->all(FLERR,
               "Unknown pair_coeff {} keyword: {} (expected 'damping', 'restitution', 'rolling' "
               "or 'twisting')",
               style_name, arg[iarg]);
  if (dashpot_set)
    error->all(FLERR, "Pair_coeff {}: {} given twice or with the other dashpot keyword",
               style_name, arg[iarg]);
  if (iarg + 3 > narg) coeff_usage_error(narg, law_names);
  dashpot_set = true;
  const double a = utils::numeric(FLERR, arg[iarg + 1], false, lmp);
  const double b = utils::numeric(FLERR, arg[iarg + 2], false, lmp);
  const std::string problem = demc_damping_values_problem(!dashpots, a, b);
  if (!problem.empty()) error->all(FLERR, "Pair_coeff {}: {}", style_name, problem);
  values[dashpots ? 3 : 5] = a;
  values[dashpots ? 4 : 6] = b;
  return 3;
}

void PairGranDemc::coeff_usage_error(int narg, const char *law_names)
{
  error->all(FLERR,
             "Pair_coeff {} expects: I J {} [damping nu_n nu_t | restitution e x_t] [rolling sds "
             "k gamma mu] [twisting sds k gamma mu | twisting marshall], got {} arguments",
             style_name, law_names, narg);
}

void PairGranDemc::set_coefficients(const char *types_i, const char *types_j,
                                    const std::vector<double> &values)
{
  if (!allocated) allocate();
  coefficients.set(types_i, types_j, setflag, values);
}

void PairGranDemc::mix_coefficients(int i, int j)
{
  coefficients.mix(i, j);
  damping_table.mix(i, j);
}

/* ----------------------------------------------------------------------
   restart files: the settings (the style's write_restart_settings()),
   then the coefficients of the set type pairs
------------------------------------------------------------------------- */

void PairGranDemc::write_restart(FILE *fp)
{
  write_restart_settings(fp);
  coefficients.write_restart(fp, setflag, atom->ntypes);
}

void PairGranDemc::read_restart(FILE *fp)
{
  read_restart_settings(fp);
  allocate();
  coefficients.read_restart(fp, setflag, atom->ntypes);
}

void PairGranDemc::write_settings_record(FILE *fp, const std::vector<double> &values) const
{
  demc_restart::write_file_record(fp, values);
}

std::vector<double> PairGranDemc::read_settings_record(FILE *fp)
{
  return demc_restart::read_file_record(lmp, fp, "Pair " + style_name + " settings");
}

/* ---------------------------------------------------------------------- */

std::string PairGranDemc::coeff_words(int i, int j) const
{
  return coefficients.law_words(i, j) + " " + damping_table.words(i, j) +
      resistance.coeff_words(i, j);
}

void PairGranDemc::write_data(FILE *fp)
{
  for (int i = 1; i <= atom->ntypes; i++) fprintf(fp, "%d %s\n", i, coeff_words(i, i).c_str());
}

// every pair, mixed ones included (read_data needs them all)
void PairGranDemc::write_data_all(FILE *fp)
{
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++)
      fprintf(fp, "%d %d %s\n", i, j, coeff_words(i, j).c_str());
}

/* ---------------------------------------------------------------------- */

void PairGranDemc::init_style()
{
  demc_check_atom_requirements(lmp, style_name);
  demc_check_overlapping_contact_laws(lmp, this, style_name);
  demc_refuse_unfit_computes(lmp, running_style_name());
  neighbor->add_request(this, NeighConst::REQ_SIZE | NeighConst::REQ_HISTORY);
  history_fixes.begin_init();
  dt = update->dt;
  set_max_radii();
  atom_energies.attach(&tangential_sum, &dissipated_damping);
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
  return demc_find_neighbor_slot(list->numneigh[i], j, neighprev, [jlist](int k) {
    return jlist[k] & NEIGHMASK;
  });
}

/* ---------------------------------------------------------------------- */

double PairGranDemc::memory_usage()
{
  const double types = atom->ntypes + 1;
  return 2.0 * types * sizeof(double) + coefficients.size() * types * types * sizeof(double);
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
