/* ----------------------------------------------------------------------
   dem-contact: faithful DEM contact laws for LAMMPS (plugin package)
   pair_style gran/kuhn: the Kuhn-Suzuki-Daouadji linear-frictional contact
   (Int. J. Numer. Anal. Methods Geomech., "Linear-frictional contact model
   for 3D discrete element simulations of granular systems").

   This file only does LAMMPS work: it reads geometry and movements, keeps
   per-contact history in fix neigh/history, tallies forces, torques,
   energies and virial. The contact law is demc::kuhn::step().
------------------------------------------------------------------------- */

#include "pair_gran_kuhn.h"

#include "kuhn_contact.h"

#include "atom.h"
#include "comm.h"
#include "error.h"
#include "fix.h"
#include "fix_dummy.h"
#include "fix_neigh_history.h"
#include "force.h"
#include "memory.h"
#include "modify.h"
#include "neigh_list.h"
#include "neighbor.h"
#include "update.h"

#include <cmath>
#include <cstring>

using namespace LAMMPS_NS;
using demc::Vec3;
namespace kuhn = demc::kuhn;

namespace {
const char *const HISTORY_ID = "DEMC_KUHN_HISTORY";
Vec3 vec(const double *a)
{
  return {a[0], a[1], a[2]};
}
Vec3 scaled(const double *a, double s)
{
  return {s * a[0], s * a[1], s * a[2]};
}
// keywords of pair_style, in the order of the demc::kuhn::Refinement bits
struct RefinementKeyword {
  const char *name;
  unsigned bit;
};
const RefinementKeyword REFINEMENT_KEYWORDS[] = {{"fresh", kuhn::FRESH},
                                                 {"elastic_slip", kuhn::ELASTIC_SLIP},
                                                 {"turn", kuhn::TURN},
                                                 {"project", kuhn::PROJECT},
                                                 {"twirl", kuhn::TWIRL}};
}    // namespace

/* ---------------------------------------------------------------------- */

PairGranKuhn::PairGranKuhn(LAMMPS *lmp) :
    Pair(lmp), kn(nullptr), kt(nullptr), mu(nullptr), damp_n(nullptr), damp_t(nullptr),
    refinements(kuhn::ALL), dt(0.0), dissipated_friction(0.0), dissipated_damping(0.0),
    fix_history(nullptr), onerad_dynamic(nullptr), onerad_frozen(nullptr),
    maxrad_dynamic(nullptr), maxrad_frozen(nullptr), neighprev(0)
{
  single_enable = 1;
  no_virial_fdotr_compute = 1;
  centroidstressflag = CENTROID_NOTAVAIL;
  finitecutflag = 1;
  restartinfo = 1;
  writedata = 1;
  single_extra = 8;
  svector = new double[single_extra];
  nextra = E_SIZE;
  pvector = new double[nextra];
  for (int k = 0; k < nextra; k++) pvector[k] = 0.0;
  // the history holds a vector (odd under i<->j) and scalars (even): see transfer_history()
  nondefault_history_transfer = 1;

  // The history fix's ID must be the same when a restart file is read back. LAMMPS's
  // instance_me counts pair objects over the whole process (every pair_style command and
  // every library instance adds one), so use the lowest index free in this instance instead.
  history_index = 0;
  while (modify->get_fix_by_id(history_fix_id()) ||
         modify->get_fix_by_id(history_fix_id() + "_DUMMY"))
    history_index++;
  // placeholder so that the history fix keeps its place in the fix list
  fix_dummy = dynamic_cast<FixDummy *>(
      modify->add_fix(history_fix_id() + "_DUMMY all DUMMY"));
}

/* ---------------------------------------------------------------------- */

PairGranKuhn::~PairGranKuhn()
{
  if (copymode) return;
  delete[] svector;
  delete[] pvector;
  modify->delete_fix(fix_history ? history_fix_id() : history_fix_id() + "_DUMMY");
  if (allocated) {
    memory->destroy(setflag);
    memory->destroy(cutsq);
    memory->destroy(kn);
    memory->destroy(kt);
    memory->destroy(mu);
    memory->destroy(damp_n);
    memory->destroy(damp_t);
    delete[] onerad_dynamic;
    delete[] onerad_frozen;
    delete[] maxrad_dynamic;
    delete[] maxrad_frozen;
  }
}

/* ---------------------------------------------------------------------- */

void PairGranKuhn::compute(int eflag, int vflag)
{
  ev_init(eflag, vflag);
  // at setup the particles have not moved since the last step: forces are
  // evaluated from the stored history without advancing it
  const bool advance = (update->setupflag == 0);
  const double step_dt = advance ? dt : 0.0;

  double **x = atom->x;
  double **v = atom->v;
  double **f = atom->f;
  double **omega = atom->omega;
  double **torque = atom->torque;
  double *radius = atom->radius;
  int *type = atom->type;
  const int nlocal = atom->nlocal;
  const int newton_pair = force->newton_pair;

  for (int k = 0; k < E_FRICTION; k++) pvector[k] = 0.0;
  pvector[E_CONTACTS] = pvector[E_SLIDING] = 0.0;

  int *ilist = list->ilist;
  int *numneigh = list->numneigh;
  int **firstneigh = list->firstneigh;
  int **firsttouch = fix_history->firstflag;
  double **firsthistory = fix_history->firstvalue;

  kuhn::Params params;
  params.flags = refinements;
  params.eps = 1e-12;

  for (int ii = 0; ii < list->inum; ii++) {
    const int i = ilist[ii];
    const int itype = type[i];
    int *touch = firsttouch[i];
    double *allhistory = firsthistory[i];
    int *jlist = firstneigh[i];
    const int jnum = numneigh[i];

    for (int jj = 0; jj < jnum; jj++) {
      const int j = jlist[jj] & NEIGHMASK;
      const int jtype = type[j];
      double *history = &allhistory[H_SIZE * jj];
      // with newton off a pair with a ghost is computed on two ranks: count half on each
      const double weight = (newton_pair || j < nlocal) ? 1.0 : 0.5;

      const Vec3 delta = vec(x[j]) - vec(x[i]);    // from p = i towards q = j
      const double rsq = demc::norm2(delta);
      const double radsum = radius[i] + radius[j];
      if (rsq >= radsum * radsum) {
        // separation releases the stored tangential energy through slip
        if (touch[jj] && advance) {
          const double ft2 = history[H_FTX] * history[H_FTX] + history[H_FTY] * history[H_FTY] +
              history[H_FTZ] * history[H_FTZ];
          dissipated_friction += weight * ft2 / (2.0 * kt[itype][jtype]);
        }
        touch[jj] = 0;
        for (int k = 0; k < H_SIZE; k++) history[k] = 0.0;
        continue;
      }

      const double r = std::sqrt(rsq);
      kuhn::Motion m;
      m.zeta_new = radsum - r;
      m.zeta_old = touch[jj] ? history[H_ZETA] : 0.0;
      m.n = (1.0 / r) * delta;
      m.du_p = scaled(v[i], step_dt);
      m.du_q = scaled(v[j], step_dt);
      m.dth_p = scaled(omega[i], step_dt);
      m.dth_q = scaled(omega[j], step_dt);
      // positions at the start of the step: the integrators moved them by v*dt
      const Vec3 delta_old = delta - (m.du_q - m.du_p);
      m.n_old = (1.0 / demc::norm(delta_old)) * delta_old;
      // contact point at the middle of the overlap
      m.r_p = (radius[i] - 0.5 * m.zeta_new) * m.n;
      m.r_q = -(radius[j] - 0.5 * m.zeta_new) * m.n;
      m.dt = dt;

      params.kn = kn[itype][jtype];
      params.kt = kt[itype][jtype];
      params.mu = mu[itype][jtype];
      params.damp_n = advance ? damp_n[itype][jtype] : 0.0;
      params.damp_t = advance ? damp_t[itype][jtype] : 0.0;

      const Vec3 ft_old = {history[H_FTX], history[H_FTY], history[H_FTZ]};
      const kuhn::Result res = kuhn::step(params, m, ft_old);

      if (advance) {
        touch[jj] = 1;
        history[H_FTX] = res.ft.x;
        history[H_FTY] = res.ft.y;
        history[H_FTZ] = res.ft.z;
        history[H_ZETA] = m.zeta_new;
        history[H_WFRIC] += res.dWt_irrev;
        history[H_WDAMP] += res.dW_damp;
        dissipated_friction += weight * res.dWt_irrev;
        dissipated_damping += weight * res.dW_damp;
      }

      // force on i is res.force; j takes the reaction. Torques use the contact vectors.
      const Vec3 &F = res.force;
      const Vec3 tor_i = demc::cross(m.r_p, F);
      const Vec3 tor_j = demc::cross(m.r_q, -F);
      f[i][0] += F.x;
      f[i][1] += F.y;
      f[i][2] += F.z;
      torque[i][0] += tor_i.x;
      torque[i][1] += tor_i.y;
      torque[i][2] += tor_i.z;
      if (newton_pair || j < nlocal) {
        f[j][0] -= F.x;
        f[j][1] -= F.y;
        f[j][2] -= F.z;
        torque[j][0] += tor_j.x;
        torque[j][1] += tor_j.y;
        torque[j][2] += tor_j.z;
      }

      const double stored_t = demc::norm2(res.ft) / (2.0 * params.kt);
      pvector[E_NORMAL] += weight * res.Wn;
      pvector[E_TANGENTIAL] += weight * stored_t;
      pvector[E_CONTACTS] += weight;
      if (demc::norm(res.ft) >= params.mu * res.fn * (1.0 - 1e-9) && params.mu * res.fn > 0.0)
        pvector[E_SLIDING] += weight;
      if (evflag)
        ev_tally_xyz(i, j, nlocal, newton_pair, res.Wn + stored_t, 0.0, F.x, F.y, F.z, -delta.x,
                     -delta.y, -delta.z);
    }
  }
  pvector[E_FRICTION] = dissipated_friction;
  pvector[E_DAMPING] = dissipated_damping;
}

/* ---------------------------------------------------------------------- */

void PairGranKuhn::allocate()
{
  allocated = 1;
  const int n = atom->ntypes;
  memory->create(setflag, n + 1, n + 1, "pair:setflag");
  for (int i = 1; i <= n; i++)
    for (int j = i; j <= n; j++) setflag[i][j] = 0;
  memory->create(cutsq, n + 1, n + 1, "pair:cutsq");
  memory->create(kn, n + 1, n + 1, "pair:kn");
  memory->create(kt, n + 1, n + 1, "pair:kt");
  memory->create(mu, n + 1, n + 1, "pair:mu");
  memory->create(damp_n, n + 1, n + 1, "pair:damp_n");
  memory->create(damp_t, n + 1, n + 1, "pair:damp_t");
  onerad_dynamic = new double[n + 1];
  onerad_frozen = new double[n + 1];
  maxrad_dynamic = new double[n + 1];
  maxrad_frozen = new double[n + 1];
}

/* ----------------------------------------------------------------------
   pair_style gran/kuhn [fresh yes/no] [elastic_slip yes/no] [turn yes/no]
                        [project yes/no] [twirl yes/no] [conventional]
------------------------------------------------------------------------- */

void PairGranKuhn::settings(int narg, char **arg)
{
  refinements = kuhn::ALL;
  int iarg = 0;
  while (iarg < narg) {
    if (strcmp(arg[iarg], "conventional") == 0) {
      refinements = 0u;
      iarg++;
      continue;
    }
    bool known = false;
    for (const auto &kw : REFINEMENT_KEYWORDS) {
      if (strcmp(arg[iarg], kw.name) != 0) continue;
      if (iarg + 2 > narg) utils::missing_cmd_args(FLERR, "pair_style gran/kuhn " + std::string(kw.name), error);
      if (utils::logical(FLERR, arg[iarg + 1], false, lmp))
        refinements |= kw.bit;
      else
        refinements &= ~kw.bit;
      known = true;
      iarg += 2;
    }
    if (!known) error->all(FLERR, "Unknown pair_style gran/kuhn keyword: {}", arg[iarg]);
  }
}

/* ----------------------------------------------------------------------
   pair_coeff I J kn kt mu [damping nu_n nu_t]
------------------------------------------------------------------------- */

void PairGranKuhn::coeff(int narg, char **arg)
{
  if (narg != 5 && narg != 8)
    error->all(FLERR, "Pair_coeff gran/kuhn expects: I J kn kt mu [damping nu_n nu_t], got {} arguments",
               narg);
  if (!allocated) allocate();

  int ilo, ihi, jlo, jhi;
  utils::bounds(FLERR, arg[0], 1, atom->ntypes, ilo, ihi, error);
  utils::bounds(FLERR, arg[1], 1, atom->ntypes, jlo, jhi, error);

  const double kn_one = utils::numeric(FLERR, arg[2], false, lmp);
  const double kt_one = utils::numeric(FLERR, arg[3], false, lmp);
  const double mu_one = utils::numeric(FLERR, arg[4], false, lmp);
  double dn_one = 0.0, dt_one = 0.0;
  if (narg == 8) {
    if (strcmp(arg[5], "damping") != 0)
      error->all(FLERR, "Unknown pair_coeff gran/kuhn keyword: {} (expected 'damping')", arg[5]);
    dn_one = utils::numeric(FLERR, arg[6], false, lmp);
    dt_one = utils::numeric(FLERR, arg[7], false, lmp);
  }
  if (kn_one <= 0.0) error->all(FLERR, "Pair_coeff gran/kuhn: kn must be > 0, got {}", kn_one);
  if (kt_one <= 0.0) error->all(FLERR, "Pair_coeff gran/kuhn: kt must be > 0, got {}", kt_one);
  if (mu_one < 0.0) error->all(FLERR, "Pair_coeff gran/kuhn: mu must be >= 0, got {}", mu_one);
  if (dn_one < 0.0 || dt_one < 0.0)
    error->all(FLERR, "Pair_coeff gran/kuhn: damping coefficients must be >= 0, got {} {}",
               dn_one, dt_one);

  int count = 0;
  for (int i = ilo; i <= ihi; i++) {
    for (int j = MAX(jlo, i); j <= jhi; j++) {
      kn[i][j] = kn_one;
      kt[i][j] = kt_one;
      mu[i][j] = mu_one;
      damp_n[i][j] = dn_one;
      damp_t[i][j] = dt_one;
      setflag[i][j] = 1;
      count++;
    }
  }
  if (count == 0) error->all(FLERR, "Incorrect args for pair coefficients" + utils::errorurl(21));
}

/* ---------------------------------------------------------------------- */

void PairGranKuhn::init_style()
{
  if (!atom->radius_flag || !atom->rmass_flag || !atom->omega_flag)
    error->all(FLERR, "Pair gran/kuhn requires atom attributes radius, rmass, omega "
                      "(e.g. atom_style sphere)");
  if (comm->ghost_velocity == 0)
    error->all(FLERR, "Pair gran/kuhn requires ghost atoms store velocity: use comm_modify vel yes");

  neighbor->add_request(this, NeighConst::REQ_SIZE | NeighConst::REQ_HISTORY);
  dt = update->dt;

  // the history fix replaces the placeholder made in the constructor
  if (fix_history == nullptr) {
    auto cmd = fmt::format("{} all DEMC/NEIGH_HISTORY {}", history_fix_id(), (int) H_SIZE);
    fix_history = dynamic_cast<FixNeighHistory *>(
        modify->replace_fix(history_fix_id() + "_DUMMY", cmd, 1));
    fix_history->pair = this;
  }
  set_max_radii();
}

/* ----------------------------------------------------------------------
   largest radius per type, including particles that fix pour or fix
   deposit will insert later: the neighbor cutoff follows from them
------------------------------------------------------------------------- */

void PairGranKuhn::set_max_radii()
{
  auto inserters = modify->get_fix_by_style("^pour");
  for (auto *ifix : modify->get_fix_by_style("^deposit")) inserters.push_back(ifix);
  for (int i = 1; i <= atom->ntypes; i++) {
    onerad_dynamic[i] = onerad_frozen[i] = 0.0;
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

/* ----------------------------------------------------------------------
   unlike types: springs in series for the stiffnesses (like types keep
   theirs), geometric means for friction and damping
------------------------------------------------------------------------- */

double PairGranKuhn::init_one(int i, int j)
{
  if (setflag[i][j] == 0) {    // Pair::init() has checked that i,i and j,j are set
    auto series = [](double a, double b) { return 2.0 * a * b / (a + b); };
    kn[i][j] = series(kn[i][i], kn[j][j]);
    kt[i][j] = series(kt[i][i], kt[j][j]);
    mu[i][j] = std::sqrt(mu[i][i] * mu[j][j]);
    damp_n[i][j] = std::sqrt(damp_n[i][i] * damp_n[j][j]);
    damp_t[i][j] = std::sqrt(damp_t[i][i] * damp_t[j][j]);
  }
  kn[j][i] = kn[i][j];
  kt[j][i] = kt[i][j];
  mu[j][i] = mu[i][j];
  damp_n[j][i] = damp_n[i][j];
  damp_t[j][i] = damp_t[i][j];
  return maxrad_dynamic[i] + maxrad_dynamic[j];
}

/* ----------------------------------------------------------------------
   history of pair (i,j) seen from j: the tangential force changes sign
   (it acts on the other particle), overlap and work do not
------------------------------------------------------------------------- */

void PairGranKuhn::transfer_history(double *source, double *target, int, int)
{
  for (int k = 0; k < H_SIZE; k++) target[k] = source[k];
  target[H_FTX] = -source[H_FTX];
  target[H_FTY] = -source[H_FTY];
  target[H_FTZ] = -source[H_FTZ];
}

/* ---------------------------------------------------------------------- */

void PairGranKuhn::write_restart(FILE *fp)
{
  write_restart_settings(fp);
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++) {
      fwrite(&setflag[i][j], sizeof(int), 1, fp);
      if (setflag[i][j]) {
        fwrite(&kn[i][j], sizeof(double), 1, fp);
        fwrite(&kt[i][j], sizeof(double), 1, fp);
        fwrite(&mu[i][j], sizeof(double), 1, fp);
        fwrite(&damp_n[i][j], sizeof(double), 1, fp);
        fwrite(&damp_t[i][j], sizeof(double), 1, fp);
      }
    }
}

/* ---------------------------------------------------------------------- */

void PairGranKuhn::read_restart(FILE *fp)
{
  read_restart_settings(fp);
  allocate();
  const int me = comm->me;
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++) {
      if (me == 0) utils::sfread(FLERR, &setflag[i][j], sizeof(int), 1, fp, nullptr, error);
      MPI_Bcast(&setflag[i][j], 1, MPI_INT, 0, world);
      if (!setflag[i][j]) continue;
      double c[5];
      if (me == 0) utils::sfread(FLERR, c, sizeof(double), 5, fp, nullptr, error);
      MPI_Bcast(c, 5, MPI_DOUBLE, 0, world);
      kn[i][j] = c[0];
      kt[i][j] = c[1];
      mu[i][j] = c[2];
      damp_n[i][j] = c[3];
      damp_t[i][j] = c[4];
    }
}

/* ----------------------------------------------------------------------
   settings and the system's cumulative dissipation (summed over ranks:
   rank 0 carries the total after a restart)
------------------------------------------------------------------------- */

void PairGranKuhn::write_restart_settings(FILE *fp)
{
  double sums[2] = {dissipated_friction, dissipated_damping}, total[2];
  MPI_Reduce(sums, total, 2, MPI_DOUBLE, MPI_SUM, 0, world);
  fwrite(&refinements, sizeof(unsigned), 1, fp);
  fwrite(total, sizeof(double), 2, fp);
}

/* ---------------------------------------------------------------------- */

void PairGranKuhn::read_restart_settings(FILE *fp)
{
  double total[2] = {0.0, 0.0};
  if (comm->me == 0) {
    utils::sfread(FLERR, &refinements, sizeof(unsigned), 1, fp, nullptr, error);
    utils::sfread(FLERR, total, sizeof(double), 2, fp, nullptr, error);
  }
  MPI_Bcast(&refinements, 1, MPI_UNSIGNED, 0, world);
  dissipated_friction = (comm->me == 0) ? total[0] : 0.0;
  dissipated_damping = (comm->me == 0) ? total[1] : 0.0;
}

/* ---------------------------------------------------------------------- */

void PairGranKuhn::write_data(FILE *fp)
{
  for (int i = 1; i <= atom->ntypes; i++)
    fprintf(fp, "%d %.17g %.17g %.17g damping %.17g %.17g\n", i, kn[i][i], kt[i][i], mu[i][i],
            damp_n[i][i], damp_t[i][i]);
}

/* ---------------------------------------------------------------------- */

void PairGranKuhn::write_data_all(FILE *fp)
{
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++)
      fprintf(fp, "%d %d %.17g %.17g %.17g damping %.17g %.17g\n", i, j, kn[i][j], kt[i][j],
              mu[i][j], damp_n[i][j], damp_t[i][j]);
}

/* ---------------------------------------------------------------------- */

void PairGranKuhn::reset_dt()
{
  dt = update->dt;
}

/* ---------------------------------------------------------------------- */

std::string PairGranKuhn::history_fix_id() const
{
  return fmt::format("{}{}", HISTORY_ID, history_index);
}

/* ----------------------------------------------------------------------
   the history of pair (i,j) in i's neighbor list, or nullptr
------------------------------------------------------------------------- */

double *PairGranKuhn::find_history(int i, int j)
{
  const int jnum = list->numneigh[i];
  const int *jlist = list->firstneigh[i];
  for (int k = 0; k < jnum; k++) {
    neighprev = (neighprev + 1) % jnum;    // pairs are usually asked for in list order
    if ((jlist[neighprev] & NEIGHMASK) == j)
      return &fix_history->firstvalue[i][H_SIZE * neighprev];
  }
  return nullptr;
}

/* ----------------------------------------------------------------------
   per-contact state for compute pair/local: returns the stored elastic
   energy; svector = fn, ft (3), mobilised friction |ft|/(mu fn),
   cumulative friction and damping dissipation of this contact, stored
   tangential energy
------------------------------------------------------------------------- */

double PairGranKuhn::single(int i, int j, int itype, int jtype, double rsq, double, double,
                            double &fforce)
{
  for (int k = 0; k < single_extra; k++) svector[k] = 0.0;
  fforce = 0.0;
  const double radsum = atom->radius[i] + atom->radius[j];
  const double *history = find_history(i, j);
  if (rsq >= radsum * radsum || history == nullptr) return 0.0;

  const double r = std::sqrt(rsq);
  const double fn = kn[itype][jtype] * (radsum - r);
  const Vec3 ft = {history[H_FTX], history[H_FTY], history[H_FTZ]};
  const double stored_t = demc::norm2(ft) / (2.0 * kt[itype][jtype]);
  const double limit = mu[itype][jtype] * fn;
  fforce = fn / r;    // force on i = fforce * (x_i - x_j): the elastic normal part
  svector[0] = fn;
  svector[1] = ft.x;
  svector[2] = ft.y;
  svector[3] = ft.z;
  svector[4] = (limit > 0.0) ? demc::norm(ft) / limit : 0.0;
  svector[5] = history[H_WFRIC];
  svector[6] = history[H_WDAMP];
  svector[7] = stored_t;
  return 0.5 * fn * fn / kn[itype][jtype] + stored_t;
}

/* ---------------------------------------------------------------------- */

void *PairGranKuhn::extract(const char *str, int &dim)
{
  dim = 2;
  if (strcmp(str, "kn") == 0) return (void *) kn;
  if (strcmp(str, "kt") == 0) return (void *) kt;
  if (strcmp(str, "mu") == 0) return (void *) mu;
  dim = 0;
  if (strcmp(str, "refinements") == 0) return (void *) &refinements;
  return nullptr;
}

/* ---------------------------------------------------------------------- */

double PairGranKuhn::memory_usage()
{
  return 5.0 * (atom->ntypes + 1) * (atom->ntypes + 1) * sizeof(double);
}
