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

#include "demc_citations.h"
#include "demc_restart_records.h"
#include "kuhn_contact.h"
#include "kuhn_keywords.h"

#include "atom.h"
#include "citeme.h"
#include "comm.h"
#include "error.h"
#include "fix.h"
#include "fix_neigh_history.h"
#include "force.h"
#include "memory.h"
#include "modify.h"
#include "neigh_list.h"
#include "neighbor.h"
#include "update.h"

#include <climits>
#include <cmath>
#include <cstring>

using namespace LAMMPS_NS;
using demc::Vec3;
namespace kuhn = demc::kuhn;
namespace rt = demc::resistance;
static_assert(int(PairGranKuhn::H_WDAMP) == int(KH_WDAMP) &&
                  int(PairGranKuhn::H_FDAMP_X) == int(KH_SIZE),
              "gran/kuhn's history begins with the shared Kuhn history");

/* ---------------------------------------------------------------------- */

PairGranKuhn::PairGranKuhn(LAMMPS *lmp) :
    PairGranDemc(lmp, "gran/kuhn"), refinements(kuhn::ALL), fix_history(nullptr)
{
  if (lmp->citeme) lmp->citeme->add(demc::cite_kuhn_suzuki_daouadji);
  prepare_style(S_KUHN_SIZE);
  // the history holds a vector (odd under i<->j) and scalars (even): see transfer_history()
  nondefault_history_transfer = 1;
}

/* ---------------------------------------------------------------------- */

PairGranKuhn::~PairGranKuhn()
{
  if (copymode) return;
  release_style(fix_history != nullptr);
}

/* ---------------------------------------------------------------------- */

void PairGranKuhn::compute(int eflag, int vflag)
{
  begin_compute(eflag, vflag);
  // at setup the particles have not moved since the last step: forces are
  // evaluated from the stored history without advancing it
  const bool advance = (update->setupflag == 0);
  const double *xs = loop.xs;
  const int *type = atom->type;
  const double *radius = atom->radius;
  int **firsttouch = fix_history->firstflag;
  double **firsthistory = fix_history->firstvalue;
  // sums kept in locals: stores to the force arrays would make the compiler reload members
  double sum[E_SIZE] = {0.0};
  double friction = tangential_sum, damping = dissipated_damping;
  const int hsize = history_size;    // values per contact (with rolling or twisting: more)

  /* Two passes over blocks of the neighbor list: the first finds the touching pairs (and
     releases the histories of pairs that parted) and asks the memory system for what each
     will need; the second runs the contact law on them. A contact's data (the partner's
     velocities, forces, torques and the history) is scattered in memory; in one pass the
     long arithmetic of each contact keeps the processor from issuing the next contact's
     loads early, so every cache miss was waited for in turn. */
  KuhnBuffer buf;
  for (int ii = 0; ii < list->inum; ii++) {
    const int i = list->ilist[ii];
    const double xi = xs[3 * i], yi = xs[3 * i + 1], zi = xs[3 * i + 2], radi = radius[i];
    int *touch = firsttouch[i];
    double *allhistory = firsthistory[i];
    const int *jlist = list->firstneigh[i];
    const int jnum = list->numneigh[i];
    for (int jj = 0; jj < jnum; jj++) {
      const int j = jlist[jj] & NEIGHMASK;
      const double *xj = xs + 3 * j;
      const double dx = xj[0] - xi, dy = xj[1] - yi, dz = xj[2] - zi;
      const double rsq = dx * dx + dy * dy + dz * dz;
      const double radsum = radi + radius[j];
      double *history = &allhistory[hsize * jj];
      if (rsq < radsum * radsum) {
        buf.add({i, j, rsq, touch + jj, history});
        prefetch_contact(j, history, hsize);
        if (buf.full()) flush_contacts(buf, advance, sum, friction, damping);
        continue;
      }
      if (touch[jj] == 0) continue;    // history is zero already
      // separation releases the energy the contact held
      friction += pair_weight(j) * parting_energy(i, j, history);
      touch[jj] = 0;
      for (int k = 0; k < hsize; k++) history[k] = 0.0;
    }
  }
  flush_contacts(buf, advance, sum, friction, damping);
  end_atom_energy();
  tangential_sum = friction;
  dissipated_damping = damping;
  for (int k = 0; k < E_SIZE; k++) pvector[k] = sum[k];
  pvector[E_FRICTION] = tangential_sum;
  pvector[E_DAMPING] = dissipated_damping;
  setup_done(advance);
}

/* ----------------------------------------------------------------------
   the contact law on the touching pairs found by compute()'s first pass
------------------------------------------------------------------------- */

void PairGranKuhn::flush_contacts(KuhnBuffer &buf, bool advance, double *sum, double &friction,
                                  double &damping)
{
  LawTotals totals = {sum, friction, damping};
  const bool all_on = refinements == kuhn::ALL;
  if (resistance_on())    // (the general variant: any refinements, any damping)
    run_contact_law<false, true, true>(buf, advance, totals);
  else if (all_on && restitution_active)
    run_contact_law<true, true, false>(buf, advance, totals);
  else if (all_on)
    run_contact_law<true, false, false>(buf, advance, totals);
  else if (restitution_active)
    run_contact_law<false, true, false>(buf, advance, totals);
  else
    run_contact_law<false, false, false>(buf, advance, totals);
  buf.n = 0;
}

/* Three loops over the block: the geometry of every pair, the contact step, then the forces and
   torques added to the atoms. The geometry's loads (both atoms' positions, velocities, spins)
   are independent from pair to pair, and so are the force updates: in short loops the processor
   overlaps them across pairs, which the ~800 instructions of one contact's whole step kept it
   from doing. */
template <bool ALL_ON, bool RESTITUTION, bool RESIST>
void PairGranKuhn::run_contact_law(KuhnBuffer &buf, bool advance, LawTotals &totals)
{
  const kuhn::Phase phase =
      advance ? kuhn::ADVANCE : kuhn::REPEAT;
  demc::SphereContact geometry[KuhnBuffer::SIZE];
  kuhn::Outcome outcome[KuhnBuffer::SIZE];
  // the normal at the start of the step: read by the tilt (project) and the resistance only
  const bool old_normal = ALL_ON || RESIST || (refinements & kuhn::PROJECT) != 0;
  for (int k = 0; k < buf.n; k++) {
    const KuhnContact &t = buf.pairs[k];
    geometry[k] = sphere_contact(t.i, t.j, std::sqrt(t.rsq), advance, old_normal);
  }
  for (int k = 0; k < buf.n; k++)
    outcome[k] =
        step_contact<ALL_ON, RESTITUTION, RESIST>(buf.pairs[k], geometry[k], phase, totals);
  for (int k = 0; k < buf.n; k++) {
    const int i = buf.pairs[k].i, j = buf.pairs[k].j;
    const kuhn::Outcome &o = outcome[k];
    if (RESIST) {    // the force's torques and the resistance's couple
      const Vec3 axis = demc::sphere_torque_arm(geometry[k], o.force);
      add_force(i, j, o.force, geometry[k].arm_p * axis + o.torque,
                geometry[k].arm_q * axis - o.torque, i, j, o.Wn + o.Wt);
    } else {
      apply_force(i, j, geometry[k], o.force, i, j, o.Wn + o.Wt);
    }
    tally_atoms(i, j, o.Wn, o.Wt, o.work, o.damping);
  }
}

/* Contact t's step (geometry c) from its history, which a run's step replaces; the step's
   dissipation and energies into compute()'s sums. */
template <bool ALL_ON, bool RESTITUTION, bool RESIST>
kuhn::Outcome PairGranKuhn::step_contact(const KuhnContact &t, const demc::SphereContact &c,
                                         kuhn::Phase phase, LawTotals &totals)
{
  const int i = t.i, j = t.j;
  const int pair_type = atom->type[i] * (atom->ntypes + 1) + atom->type[j];
  kuhn::Params folded;
  const kuhn::Params &p = kuhn::params_for_step<ALL_ON>(contact_params[pair_type], folded);
  kuhn::Law law = {&p, nullptr, dashpot_limits, nullptr};
  kuhn::Geometry g = {c.overlap, c.n, c.n_old, c.du, c.twirl, 0.0, {0.0, 0.0, 0.0}, 0.0};
  if (RESTITUTION) {
    law.restitution = &damping_table.pair_dashpots[pair_type];
    if (demc::needs_effective_mass(*law.restitution)) g.m_eff = contact_effective_mass(i, j);
  }
  if (RESIST) {
    const double *omega = loop.omegas, *radius = atom->radius;
    law.resist = &resistance_params[pair_type];
    g.w_rel = demc_vec(omega + 3 * j) - demc_vec(omega + 3 * i);
    g.r_eff = radius[i] * radius[j] / (radius[i] + radius[j]);
  }
  kuhn::Record rec = kuhn::read_record<RESIST>(t.history, record_layout);
  const kuhn::Outcome o = kuhn::contact_step(law, g, phase, dt, rec);
  const double weight = pair_weight(j);
  if (phase == kuhn::ADVANCE) {
    *t.touch = 1;
    kuhn::write_record<RESIST>(t.history, record_layout, rec);
    totals.friction += weight * o.friction;
    totals.damping += weight * o.damping;
  }
  if (!eflag_global) return o;    // compute pair reads the sums on energy steps only
  double *sum = totals.sum;
  sum[E_NORMAL] += weight * o.Wn;
  sum[E_TANGENTIAL] += weight * o.Wt;
  sum[E_CONTACTS] += weight;
  if (o.sliding) sum[E_SLIDING] += weight;
  return o;
}

/* the energy that the history of pair (i, j) holds (a contact about to part) */
double PairGranKuhn::parting_energy(int i, int j, const double *history) const
{
  const int *type = atom->type;
  const double *radius = atom->radius;
  const int pair_type = type[i] * (atom->ntypes + 1) + type[j];
  const rt::Params *resist = resistance_on() ? &resistance_params[pair_type] : nullptr;
  return kuhn::parting_energy(kt[type[i]][type[j]], resist,
                              kuhn::read_record(history, record_layout),
                              radius[i] * radius[j] / (radius[i] + radius[j]));
}

/* the history's layout: with rolling or twisting on any type pair, room for the springs and
   the torque in every contact's; the contact histories keep the layout of the first run */
void PairGranKuhn::set_history_layout()
{
  const int old_size = history_size;
  history_size = kuhn::place_resistance(resistance.models_in_use(setflag), H_SIZE, record_layout);
  if (fix_history != nullptr && history_size != old_size)
    error->all(FLERR,
               "Pair gran/kuhn: rolling or twisting cannot be switched on or off for all type "
               "pairs after a run (the contact histories are laid out for the first run's)");
}

/* ----------------------------------------------------------------------
   pair_style gran/kuhn [fresh yes/no] [elastic_slip yes/no] [turn yes/no]
                        [project yes/no] [twirl yes/no] [conventional]
                        [damping_cap yes/no] [limit_damping] [energy/atom yes/no] ...
------------------------------------------------------------------------- */

void PairGranKuhn::settings(int narg, char **arg)
{
  refinements = kuhn::ALL;
  reset_common_keywords();
  int iarg = 0;
  while (iarg < narg) {
    int used = parse_kuhn_refinement(lmp, "pair_style gran/kuhn", narg, arg, iarg, refinements);
    if (used == 0) used = parse_common_keyword(narg, arg, iarg);
    if (used == 0) error->all(FLERR, "Unknown pair_style gran/kuhn keyword: {}", arg[iarg]);
    iarg += used;
  }
}

/* ----------------------------------------------------------------------
   pair_coeff I J kn kt mu [damping nu_n nu_t | restitution e x_t]
                           [rolling sds k gamma mu] [twisting sds k gamma mu | marshall]
------------------------------------------------------------------------- */

void PairGranKuhn::coeff(int narg, char **arg)
{
  rt::Params rolling_twisting;
  const std::vector<double> c = read_coeff_args(narg, arg, "kn kt mu", rolling_twisting);
  if (c[0] <= 0.0) error->all(FLERR, "Pair_coeff gran/kuhn: kn must be > 0, got {}", c[0]);
  if (c[1] <= 0.0) error->all(FLERR, "Pair_coeff gran/kuhn: kt must be > 0, got {}", c[1]);
  set_coefficients(arg[0], arg[1], c);
  resistance.set(lmp, arg[0], arg[1], rolling_twisting);
}

/* ---------------------------------------------------------------------- */

void PairGranKuhn::init_style()
{
  PairGranDemc::init_style();
  set_history_layout();
  // the history fix replaces the placeholder made in the constructor
  if (fix_history == nullptr) {
    auto cmd = fmt::format("{} all DEMC/NEIGH_HISTORY {}", history_fix_id(), history_size);
    fix_history =
        dynamic_cast<FixNeighHistory *>(modify->replace_fix(history_fix_id() + "_DUMMY", cmd, 1));
    fix_history->pair = this;
  }
  damping_table.init_restitution(running_style_name(), atom->ntypes, setflag);
  restitution_active = damping_table.any_restitution(atom->ntypes, setflag);
}

/* ----------------------------------------------------------------------
   unlike types: springs in series for the stiffnesses (like types keep
   theirs), geometric means for friction and damping (DemcDampingTable::mix())
------------------------------------------------------------------------- */

double PairGranKuhn::init_one(int i, int j)
{
  check_restart_histories();    // once per init, after every history fix is made
  // Pair::init() has checked that i,i and j,j are set
  if (setflag[i][j] == 0) mix_coefficients(i, j);
  coefficients.mirror(i, j);
  resistance.init_pair(lmp, "gran/kuhn", i, j, setflag[i][j] == 0);
  // restitution damping is added by the style (its dashpots depend on the masses): the
  // kernel's constant dashpots are 0 then
  damping_table.set_pair_dashpots(i, j, atom->ntypes, false);
  const int stride = atom->ntypes + 1;
  contact_params.resize(stride * stride);
  const double nu_n = damping_table.damp_n[i][j], nu_t = damping_table.damp_t[i][j];
  const kuhn::Params ij = {kn[i][j], kt[i][j], mu[i][j], nu_n, nu_t, refinements};
  contact_params[i * stride + j] = contact_params[j * stride + i] = ij;
  // twisting marshall takes the law's tangential spring, dashpot and friction coefficient
  resistance_params.resize(stride * stride);
  resistance_params[i * stride + j] = resistance_params[j * stride + i] =
      kuhn::resistance_for(resistance.at(i, j), kt[i][j], nu_t, mu[i][j]);
  return contact_cutoff(i, j);
}

/* ----------------------------------------------------------------------
   history of pair (i,j) seen from j: the tangential and dashpot forces change
   sign (they act on the other particle), overlap and work do not
------------------------------------------------------------------------- */

void PairGranKuhn::transfer_history(double *source, double *target, int, int)
{
  // (the rolling spring and the twisting angle are even: w_q - w_p and n both change sign)
  for (int k = 0; k < history_size; k++) target[k] = source[k];
  target[H_FTX] = -source[H_FTX];
  target[H_FTY] = -source[H_FTY];
  target[H_FTZ] = -source[H_FTZ];
  target[H_FDAMP_X] = -source[H_FDAMP_X];
  target[H_FDAMP_Y] = -source[H_FDAMP_Y];
  target[H_FDAMP_Z] = -source[H_FDAMP_Z];
  const int torque = record_layout.torque;
  if (torque >= 0)
    for (int k = 0; k < 3; k++) target[torque + k] = -source[torque + k];
}

/* ----------------------------------------------------------------------
   settings (the cumulative sums go to the restart file through fix
   DEMC/ATOM_ENERGY: this is called on rank 0 only, where no collective
   communication is possible): a record (write_settings_record()) of the
   refinement bits, the common keywords and each type pair's rolling and
   twisting (i <= j, RESISTANCE_VALUES each)
------------------------------------------------------------------------- */

void PairGranKuhn::write_restart_settings(FILE *fp)
{
  std::vector<double> values = {(double) refinements, common_keywords_code()};
  resistance.append_values(values);
  write_settings_record(fp, values);
}

/* ---------------------------------------------------------------------- */

void PairGranKuhn::read_restart_settings(FILE *fp)
{
  const std::string who = "Pair gran/kuhn settings";
  const std::vector<double> values = read_settings_record(fp);
  resistance.allocate(atom->ntypes);
  const long size = 2 + resistance.values_size();
  demc_restart::checked_int(lmp, (double) values.size(), size, size, who + ": values");
  refinements = (unsigned) demc_restart::checked_int(lmp, values[0], 0, INT_MAX,
                                                     who + ": refinements");
  resistance.read_values(lmp, values.data() + 2, who);
  set_common_keywords(
      (double) demc_restart::checked_int(lmp, values[1], 0, 27, who + ": keywords"));
}

/* ----------------------------------------------------------------------
   per-contact state for compute pair/local, compute fabric and the like:
   returns the stored elastic energy; fforce: the elastic normal force over
   r; svector: see SingleIndex and KuhnSingleIndex
------------------------------------------------------------------------- */

double PairGranKuhn::single(int i, int j, int itype, int jtype, double rsq, double, double,
                            double &fforce)
{
  begin_single(i, j, rsq, fforce);
  const double radsum = atom->radius[i] + atom->radius[j];
  int owner, slot;
  const bool found =
      list && fix_history && fix_history->firstvalue && find_single_slot(i, j, owner, slot);
  if (rsq >= radsum * radsum || !found) return 0.0;
  // the history of j's list holds the force on j
  return single_from_history(itype, jtype, rsq, radsum,
                             &fix_history->firstvalue[owner][history_size * slot],
                             owner == i ? 1.0 : -1.0, fforce);
}

/* ----------------------------------------------------------------------
   single()'s quantities from one contact's history (shared with gran/kuhn/kk);
   ft_sign: -1 if the history holds the tangential force on j
------------------------------------------------------------------------- */

double PairGranKuhn::single_from_history(int itype, int jtype, double rsq, double radsum,
                                         const double *history, double ft_sign, double &fforce)
{
  const double r = std::sqrt(rsq);
  const double fn = kn[itype][jtype] * (radsum - r);
  const Vec3 ft = ft_sign * Vec3{history[H_FTX], history[H_FTY], history[H_FTZ]};
  const double stored_t = demc::norm2(ft) / (2.0 * kt[itype][jtype]);
  fforce = fn / r;    // force on i = fforce * (x_i - x_j): the elastic normal part
  set_single_forces(ft, fn, mu[itype][jtype]);
  svector[S_STORED_T] = stored_t;
  svector[S_FRICTION] = history[H_WFRIC];
  svector[S_DAMPING] = history[H_WDAMP];
  return 0.5 * fn * fn / kn[itype][jtype] + stored_t;
}

/* ---------------------------------------------------------------------- */

void *PairGranKuhn::extract(const char *str, int &dim)
{
  dim = 2;
  if (double **a = coefficients.extract(str)) return (void *) a;
  dim = 0;
  if (strcmp(str, "refinements") == 0) return (void *) &refinements;
  return extract_common(str, dim);
}
