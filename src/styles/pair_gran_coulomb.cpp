/* ----------------------------------------------------------------------
   dem-contact: faithful DEM contact laws for LAMMPS (plugin package)
   pair_style gran/coulomb: numerically exact Coulomb friction (Sakamaki,
   Krengel, Mueller, Chen, Matuttis) with a hooke or hertz normal law.

   This file computes the normal forces (with their dashpots, kept
   repulsive as in the paper's Eq. 7) and hands every contact to the
   friction fix, which the style makes and keeps last in the fix list.
------------------------------------------------------------------------- */

#include "pair_gran_coulomb.h"

#include "demc_citations.h"
#include "demc_restart_records.h"
#include "fix_coulomb_friction.h"

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

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>

using namespace LAMMPS_NS;
using demc::Vec3;
namespace cf = demc::coulomb;
namespace rt = demc::resistance;

/* ---------------------------------------------------------------------- */

PairGranCoulomb::PairGranCoulomb(LAMMPS *lmp) :
    PairGranDemc(lmp, "gran/coulomb"), iterate_tolerance(0.0), iterate_max_sweeps(0),
    friction(nullptr), fix_history(nullptr)
{
  if (lmp->citeme) lmp->citeme->add(demc::cite_sakamaki);
  prepare_style(S_COULOMB_SIZE);
  // the history holds a vector (odd under i<->j) and scalars (even): see transfer_history()
  nondefault_history_transfer = 1;
  // the package's energy layout and the friction solver's sweeps and residual
  delete[] pvector;
  nextra = E_COULOMB_SIZE;
  pvector = new double[nextra];
  for (int k = 0; k < nextra; k++) pvector[k] = 0.0;
}

PairGranCoulomb::~PairGranCoulomb()
{
  if (copymode) return;
  if (modify->get_fix_by_id(friction_fix_id())) modify->delete_fix(friction_fix_id());
  release_style(fix_history != nullptr);
}

/* ---------------------------------------------------------------------- */

void PairGranCoulomb::compute(int eflag, int vflag)
{
  begin_compute(eflag, vflag);
  friction->clear_contacts();
  // at setup the particles have not moved since the last step: no dashpots, no dissipation
  advance_step = (update->setupflag == 0);
  const int mode = advance_step ? cf::ADVANCE : repeats_last_step() ? cf::REPEAT : cf::SETUP;
  const double step_dt = advance_step ? dt : 0.0;
  // (the contact point's relative velocity before the kick is du / dt at a run's step)
  const double inv_step = advance_step ? 1.0 / dt : 0.0;
  const bool resisting = record_layout.torque >= 0;
  const double *xs = loop.xs, *omegas = loop.omegas;
  const int *type = atom->type;
  const double *radius = atom->radius;
  const int hsize = history_size;
  int **firsttouch = fix_history->firstflag;
  double **firsthistory = fix_history->firstvalue;
  double sum[E_SIZE] = {0.0};
  double damping = dissipated_damping, released = 0.0;

  for (int ii = 0; ii < list->inum; ii++) {
    const int i = list->ilist[ii];
    const double *xi = xs + 3 * i;
    int *touch = firsttouch[i];
    double *allhistory = firsthistory[i];
    const int *jlist = list->firstneigh[i];
    const int jnum = list->numneigh[i];
    for (int jj = 0; jj < jnum; jj++) {
      const int j = jlist[jj] & NEIGHMASK;
      const double *xj = xs + 3 * j;
      const double dx = xj[0] - xi[0], dy = xj[1] - xi[1], dz = xj[2] - xi[2];
      const double rsq = dx * dx + dy * dy + dz * dz;
      const double radsum = radius[i] + radius[j];
      double *history = &allhistory[hsize * jj];
      if (rsq >= radsum * radsum) {
        if (touch[jj]) {
          // the rolling and twisting springs' energy is released through their sliders
          if (resisting && advance_step)
            released += pair_weight(j) *
                cf::parting_energy(type_step(type[i], type[j]),
                                   cf::load_record(history, record_layout), 0.0);
          touch[jj] = 0;
          for (int k = 0; k < hsize; k++) history[k] = 0.0;
        }
        continue;
      }
      // (the start-of-step normal only for the rolling spring: the friction carries no
      // tangential force between steps)
      const cf::StepParams &p = type_step(type[i], type[j]);
      cf::StepGeometry g;
      g.c = sphere_contact(i, j, std::sqrt(rsq), advance_step, resisting);
      g.w_rel = resisting ? demc_vec(omegas + 3 * j) - demc_vec(omegas + 3 * i) : Vec3{0, 0, 0};
      g.r_eff = cf::effective_radius(radius[i], radius[j]);
      g.m_eff = demc::needs_effective_mass(p.dashpots) ? contact_effective_mass(i, j) : 0.0;
      g.dt = step_dt;
      cf::Record record = cf::load_record(history, record_layout);
      const cf::StepResult r = cf::contact_step(p, g, mode, record);
      if (advance_step) cf::store_record(history, record_layout, record);
      const double weight = pair_weight(j);
      // the normal force has no torque about the centres: the resistance's alone
      add_force(i, j, r.force, r.torque, -r.torque, i, j, r.normal_energy + r.resistance_stored);
      touch[jj] = 1;
      damping += weight * r.damping_work;
      released += weight * r.resistance_friction;
      friction->add_contact(i, j, r.row, weight, history,
                            inv_step * cf::tangential_part(g.c.du, g.c.n));
      sum[E_NORMAL] += weight * r.normal_energy;
      sum[E_TANGENTIAL] += weight * r.resistance_stored;
      sum[E_CONTACTS] += weight;
    }
  }
  dissipated_damping = damping;
  tangential_sum += released;
  for (int k = 0; k < E_SIZE; k++) pvector[k] = sum[k];
  pvector[E_FRICTION] = tangential_sum;
  pvector[E_DAMPING] = dissipated_damping;
}

/* ----------------------------------------------------------------------
   the friction fix's results of the step: this rank's dissipated friction
   work and sliding contacts; sweeps and residual are global (kept on rank 0,
   as compute pair sums the vector over ranks)
------------------------------------------------------------------------- */

void PairGranCoulomb::friction_decided(double dissipated, double sliding, int sweeps,
                                       double residual)
{
  tangential_sum += dissipated;
  pvector[E_FRICTION] = tangential_sum;
  pvector[E_SLIDING] = sliding;
  pvector[E_SWEEPS] = comm->me == 0 ? sweeps : 0.0;
  pvector[E_RESIDUAL] = comm->me == 0 ? residual : 0.0;
}

void PairGranCoulomb::tally_friction(int i, int j, const Vec3 &f)
{
  if (!evflag) return;
  const double *xi = atom->x[i], *xj = atom->x[j];
  ev_tally_xyz(i, j, atom->nlocal, force->newton_pair, 0.0, 0.0, f.x, f.y, f.z, xi[0] - xj[0],
               xi[1] - xj[1], xi[2] - xj[2]);
}

/* ---------------------------------------------------------------------- */

void PairGranCoulomb::allocate()
{
  PairGranDemc::allocate();
  const int n = atom->ntypes;
  step_params.resize((n + 1) * (n + 1));
}

/* ----------------------------------------------------------------------
   pair_style gran/coulomb [iterate tol max_sweeps | iterate no]
                           [norotate group-ID]
------------------------------------------------------------------------- */

void PairGranCoulomb::settings(int narg, char **arg)
{
  reset_common_keywords();
  iterate_tolerance = 0.0;
  iterate_max_sweeps = 0;
  norotate_group.clear();
  int iarg = 0;
  while (iarg < narg) {
    const std::string word = arg[iarg];
    if (word == "iterate") {
      if (iarg + 2 > narg) utils::missing_cmd_args(FLERR, "pair_style gran/coulomb iterate", error);
      if (strcmp(arg[iarg + 1], "no") == 0) {
        iterate_tolerance = 0.0;
        iterate_max_sweeps = 0;
        iarg += 2;
        continue;
      }
      if (iarg + 3 > narg) utils::missing_cmd_args(FLERR, "pair_style gran/coulomb iterate", error);
      iterate_tolerance = utils::numeric(FLERR, arg[iarg + 1], false, lmp);
      iterate_max_sweeps = utils::inumeric(FLERR, arg[iarg + 2], false, lmp);
      if (!(iterate_tolerance > 0.0))
        error->all(FLERR, "Pair_style gran/coulomb iterate: the tolerance must be > 0, got {}",
                   arg[iarg + 1]);
      if (iterate_max_sweeps < 1)
        error->all(FLERR, "Pair_style gran/coulomb iterate: max_sweeps must be >= 1, got {}",
                   iterate_max_sweeps);
      iarg += 3;
    } else if (word == "norotate") {
      if (iarg + 2 > narg)
        utils::missing_cmd_args(FLERR, "pair_style gran/coulomb norotate", error);
      norotate_group = arg[iarg + 1];
      iarg += 2;
    } else if (word == "energy/atom") {
      error->all(FLERR, "Pair_style gran/coulomb does not support energy/atom");
    } else if (demc_is_dashpot_limit_keyword(word)) {
      error->all(FLERR, "{}", demc_coulomb_dashpot_limit_refusal("Pair_style gran/coulomb", word));
    } else {
      const int used = parse_common_keyword(narg, arg, iarg);
      if (used == 0) error->all(FLERR, "Unknown pair_style gran/coulomb keyword: {}", arg[iarg]);
      iarg += used;
    }
  }
}

/* ----------------------------------------------------------------------
   pair_coeff I J hooke kn mu [keyword values ...]
   pair_coeff I J hertz E nu mu [keyword values ...]
   keywords: damping nu_n 0 | restitution e 0, rolling sds k_roll gamma_roll
   mu_roll, twisting sds k_twist gamma_twist mu_twist
------------------------------------------------------------------------- */

void PairGranCoulomb::coeff(int narg, char **arg)
{
  if (narg < 3)
    error->all(FLERR,
               "Pair_coeff gran/coulomb expects: I J hooke kn mu | I J hertz E nu mu "
               "[damping nu_n 0 | restitution e 0] [rolling sds k gamma mu] "
               "[twisting sds k gamma mu]");
  const std::string word = arg[2];
  int kind;
  if (word == "hooke")
    kind = cf::HOOKE;
  else if (word == "hertz")
    kind = cf::HERTZ;
  else
    error->all(FLERR, "Pair_coeff gran/coulomb: unknown normal law {} (expected hooke or hertz)",
               word);
  const int nlaw = kind == cf::HOOKE ? 2 : 3;    // kn mu | E nu mu
  if (narg < 3 + nlaw)
    error->all(FLERR,
               "Pair_coeff gran/coulomb expects: I J {} [damping nu_n 0 | restitution e 0] "
               "[rolling sds k gamma mu] [twisting sds k gamma mu], got {} arguments",
               kind == cf::HOOKE ? "hooke kn mu" : "hertz E nu mu", narg);
  double v[3];
  for (int k = 0; k < nlaw; k++) v[k] = utils::numeric(FLERR, arg[3 + k], false, lmp);
  const double one_c1 = v[0], one_c2 = kind == cf::HERTZ ? v[1] : 0.0, one_mu = v[nlaw - 1];
  if (kind == cf::HOOKE && !(one_c1 > 0.0))
    error->all(FLERR, "Pair_coeff gran/coulomb: kn must be > 0, got {}", one_c1);
  if (kind == cf::HERTZ && !(one_c1 > 0.0))
    error->all(FLERR, "Pair_coeff gran/coulomb: E must be > 0, got {}", one_c1);
  if (kind == cf::HERTZ && !(one_c2 > -1.0 && one_c2 < 0.5))
    error->all(FLERR, "Pair_coeff gran/coulomb: Poisson's ratio must be within (-1, 0.5), got {}",
               one_c2);
  if (!(one_mu >= 0.0))
    error->all(FLERR, "Pair_coeff gran/coulomb: mu must be >= 0, got {}", one_mu);
  double a = 0.0, b = 0.0;
  bool dashpot_set = false, damping = true;
  rt::Params r;
  for (int iarg = 3 + nlaw; iarg < narg;)
    iarg += parse_coeff_keyword(narg, arg, iarg, dashpot_set, a, b, damping, r);
  // law c1 c2 mu, then the dashpots: damp_n damp_t restitution restitution_t
  set_coefficients(arg[0], arg[1],
                   {(double) kind, one_c1, one_c2, one_mu, damping ? a : 0.0, 0.0,
                    damping ? 0.0 : a, 0.0});
  resistance.set(lmp, arg[0], arg[1], r);
}

/* one keyword of pair_coeff at arg[iarg]: the dashpot (once; a, b: its two values, damping:
   constant rather than restitution) or rolling / twisting resistance; returns the arguments
   used */
int PairGranCoulomb::parse_coeff_keyword(int narg, char **arg, int iarg, bool &dashpot_set,
                                         double &a, double &b, bool &damping, rt::Params &r)
{
  const char *kw = arg[iarg];
  if (strcmp(kw, "damping") == 0 || strcmp(kw, "restitution") == 0) {
    if (dashpot_set) error->all(FLERR, "Pair_coeff gran/coulomb: {} given twice or with the other dashpot keyword", kw);
    if (iarg + 3 > narg) utils::missing_cmd_args(FLERR, std::string("pair_coeff gran/coulomb ") + kw, error);
    dashpot_set = true;
    damping = strcmp(kw, "damping") == 0;
    a = utils::numeric(FLERR, arg[iarg + 1], false, lmp);
    b = utils::numeric(FLERR, arg[iarg + 2], false, lmp);
    const std::string problem = demc_damping_values_problem(!damping, a, b);
    if (!problem.empty()) error->all(FLERR, "Pair_coeff gran/coulomb: {}", problem);
    if (b != 0.0)
      error->all(FLERR,
                 "Pair_coeff gran/coulomb: the tangential dashpot ({} {} {}) must be 0: the "
                 "friction alone acts tangentially (a dashpot would pass Coulomb's limit)",
                 kw, a, b);
    return 3;
  }
  const int used = parse_resistance_keyword(lmp, "Pair_coeff gran/coulomb", narg, arg, iarg, r);
  if (used == 0)
    error->all(FLERR,
               "Unknown pair_coeff gran/coulomb keyword: {} (expected 'damping', 'restitution', "
               "'rolling' or 'twisting')",
               kw);
  // Marshall's twisting is made of the tangential spring, which exact Coulomb friction has not
  if (r.twisting == rt::TWISTING_MARSHALL)
    error->all(FLERR,
               "Pair_coeff gran/coulomb: twisting marshall takes its stiffness and dashpot from a "
               "tangential spring, which gran/coulomb does not have: use twisting sds");
  return used;
}

/* ---------------------------------------------------------------------- */

void PairGranCoulomb::init_style()
{
  if (lmp->kokkos && !kokkosable)
    error->all(FLERR,
               "Pair gran/coulomb does not run with Kokkos enabled: use its Kokkos variant "
               "gran/coulomb/kk (-sf kk or the suffix command)");
  PairGranDemc::init_style();
  const int old_size = history_size;
  set_history_layout();
  if (fix_history != nullptr && history_size != old_size)
    error->all(FLERR,
               "Pair gran/coulomb: rolling or twisting cannot be switched on or off for all type "
               "pairs after a run (the contact histories are laid out for the first run's)");
  if (fix_history == nullptr) {
    auto cmd = fmt::format("{} all {} {}", history_fix_id(), history_fix_style(), history_size);
    fix_history =
        dynamic_cast<FixNeighHistory *>(modify->replace_fix(history_fix_id() + "_DUMMY", cmd, 1));
    fix_history->pair = this;
  }
  damping_table.init_restitution(running_style_name(), atom->ntypes, setflag);
  restitution_active = damping_table.any_restitution(atom->ntypes, setflag);
  place_friction_fix();
}

/* the history's layout: with rolling or twisting on any type pair, room for the springs and
   the torque in every contact's */
void PairGranCoulomb::set_history_layout()
{
  const bool any = rt::active(resistance.models_in_use(setflag));
  history_size = any ? H_RESISTANCE_SIZE : H_SIZE;
  record_layout = any ? cf::RecordLayout{H_FDAMP, H_ROLL, H_TWIST, H_TORQUE}
                      : cf::RecordLayout{H_FDAMP, -1, -1, -1};
}

/* the friction fix must come after every fix that adds force: at the end of the list (made
   again there if a fix was defined after it since the last init) */
void PairGranCoulomb::place_friction_fix()
{
  const auto &fixes = modify->get_fix_list();
  Fix *existing = modify->get_fix_by_id(friction_fix_id());
  if (existing == nullptr || fixes.back() != existing) {
    if (existing) modify->delete_fix(friction_fix_id());
    existing = modify->add_fix(friction_fix_id() + " all DEMC/COULOMB_FRICTION");
  }
  friction = dynamic_cast<FixCoulombFriction *>(existing);
  friction->pair = this;
}

/* ----------------------------------------------------------------------
   unlike types: one normal law for both; hooke: springs in series; hertz:
   1/E* = (1 - nu_i^2)/E_i + (1 - nu_j^2)/E_j; geometric means for friction
   and damping
------------------------------------------------------------------------- */

double PairGranCoulomb::init_one(int i, int j)
{
  check_restart_histories();
  if (setflag[i][j] == 0) {
    if (law[i][i] != law[j][j])
      error->all(FLERR,
                 "Pair gran/coulomb: types {} and {} have different normal laws: set pair_coeff "
                 "{} {} explicitly",
                 i, j, i, j);
    law[i][j] = law[i][i];
    if (static_cast<int>(law[i][j]) == cf::HOOKE) {
      c1[i][j] = 2.0 * c1[i][i] * c1[j][j] / (c1[i][i] + c1[j][j]);
      c2[i][j] = 0.0;
    } else {
      // the E and nu of the pair that give the same E* as the two materials (nu: the mean)
      const double inv_estar =
          (1.0 - c2[i][i] * c2[i][i]) / c1[i][i] + (1.0 - c2[j][j] * c2[j][j]) / c1[j][j];
      c2[i][j] = 0.5 * (c2[i][i] + c2[j][j]);
      c1[i][j] = 2.0 * (1.0 - c2[i][j] * c2[i][j]) / inv_estar;
    }
    mix_coefficients(i, j);
  }
  resistance.init_pair(lmp, "gran/coulomb", i, j, setflag[i][j] == 0);
  const int kind = static_cast<int>(law[i][j]);
  kfactor[i][j] = cf::stiffness_factor(kind, c1[i][j], c2[i][j]);
  coefficients.mirror(i, j);
  damping_table.set_pair_dashpots(i, j, atom->ntypes, kind == cf::HERTZ);
  const int stride = atom->ntypes + 1;
  step_params[i * stride + j] = {kind, kfactor[i][j], mu[i][j],
                                 damping_table.pair_dashpots[i * stride + j],
                                 resistance.at(i, j)};
  step_params[j * stride + i] = step_params[i * stride + j];
  return contact_cutoff(i, j);
}

/* history of pair (i,j) seen from j: the friction force and the resistance's torque change
   sign; the state, the dashpot force, the rolling spring and the twisting angle do not (w_q -
   w_p and n both change sign) */
void PairGranCoulomb::transfer_history(double *source, double *target, int, int)
{
  for (int k = 0; k < history_size; k++) target[k] = source[k];
  for (int k = H_FX; k <= H_FZ; k++) target[k] = -source[k];
  if (history_size == H_RESISTANCE_SIZE)
    for (int k = H_TORQUE; k < H_TORQUE + 3; k++) target[k] = -source[k];
}

/* ---------------------------------------------------------------------- */

void PairGranCoulomb::read_restart(FILE *fp)
{
  PairGranDemc::read_restart(fp);
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++)
      if (setflag[i][j])
        demc_restart::checked_int(
            lmp, law[i][j], cf::HOOKE, cf::HERTZ,
            fmt::format("Pair gran/coulomb: normal law of types {} {}", i, j));
}

/* ----------------------------------------------------------------------
   settings (rank 0 writes): a record (write_settings_record()) of the
   common keywords, the iteration's tolerance and sweeps, the norotate
   group's name (its length, then a character a value), then each type
   pair's rolling and twisting (i <= j, RESISTANCE_VALUES each)
------------------------------------------------------------------------- */

void PairGranCoulomb::write_restart_settings(FILE *fp)
{
  std::vector<double> values = {common_keywords_code(), iterate_tolerance,
                                (double) iterate_max_sweeps, (double) norotate_group.size()};
  for (const char ch : norotate_group) values.push_back((double) (unsigned char) ch);
  resistance.append_values(values);
  write_settings_record(fp, values);
}

void PairGranCoulomb::read_restart_settings(FILE *fp)
{
  using demc_restart::checked_int;
  const std::string who = "Pair gran/coulomb settings";
  const std::vector<double> values = read_settings_record(fp);
  resistance.allocate(atom->ntypes);
  checked_int(lmp, (double) values.size(), 4, INT_MAX, who + ": values");
  const long len = checked_int(lmp, values[3], 0, (long) values.size() - 4,
                               who + ": length of the norotate group's name");
  const long size = 4 + len + resistance.values_size();
  checked_int(lmp, (double) values.size(), size, size, who + ": values");
  std::string name;
  for (long k = 0; k < len; k++)
    name.push_back((char) checked_int(lmp, values[4 + k], 1, 255, who + ": group name"));
  norotate_group = name;
  resistance.read_values(lmp, values.data() + 4 + len, who);
  set_common_keywords((double) checked_int(lmp, values[0], 0, 27, who + ": keywords"));
  first_setup_after_restart = true;
  iterate_tolerance = values[1];
  if (!(iterate_tolerance >= 0.0))
    error->all(FLERR, "{}: the restart file holds iterate tolerance {}", who, iterate_tolerance);
  iterate_max_sweeps =
      (int) checked_int(lmp, values[2], iterate_tolerance > 0.0 ? 1 : 0, INT_MAX, who + ": sweeps");
}

/* ---------------------------------------------------------------------- */

std::string PairGranCoulomb::coeff_words(int i, int j) const
{
  const double e = damping_table.restitution[i][j], nu_n = damping_table.damp_n[i][j];
  const std::string damping = e > 0.0 ? fmt::format("restitution {:.17g} 0", e)
                                      : fmt::format("damping {:.17g} 0", nu_n);
  const std::string extra = resistance.coeff_words(i, j);
  if (static_cast<int>(law[i][j]) == cf::HOOKE)
    return fmt::format("hooke {:.17g} {:.17g} {}{}", c1[i][j], mu[i][j], damping, extra);
  return fmt::format("hertz {:.17g} {:.17g} {:.17g} {}{}", c1[i][j], c2[i][j], mu[i][j], damping,
                     extra);
}

/* ----------------------------------------------------------------------
   per-contact state for compute pair/local: returns the stored normal
   energy; svector: LAMMPS's granular layout and the package's (friction force
   on i, its magnitude, elastic fn, mobilised friction |F_t| / (mu fn)), then
   the state (1 sticking, 2 sliding)
------------------------------------------------------------------------- */

double PairGranCoulomb::single(int i, int j, int itype, int jtype, double rsq, double, double,
                               double &fforce)
{
  begin_single(i, j, rsq, fforce);
  const double radsum = atom->radius[i] + atom->radius[j];
  int owner, slot;
  const bool found =
      list && fix_history && fix_history->firstvalue && find_single_slot(i, j, owner, slot);
  if (rsq >= radsum * radsum || !found) return 0.0;
  return single_from_history(i, j, itype, jtype, rsq,
                             &fix_history->firstvalue[owner][history_size * slot],
                             (owner == i) ? 1.0 : -1.0, fforce);
}

// (the history holds the friction force on its list's owner)
double PairGranCoulomb::single_from_history(int i, int j, int itype, int jtype, double rsq,
                                            const double *h, double sign, double &fforce)
{
  const double radsum = atom->radius[i] + atom->radius[j];
  const double r = std::sqrt(rsq), overlap = radsum - r;
  const int kind = static_cast<int>(law[itype][jtype]);
  const double k = cf::contact_stiffness(kind, kfactor[itype][jtype],
                                         cf::effective_radius(atom->radius[i], atom->radius[j]));
  const cf::NormalForce nf = cf::normal_force(kind, k, overlap);
  const Vec3 ft = {sign * h[H_FX], sign * h[H_FY], sign * h[H_FZ]};
  fforce = nf.elastic / r;
  set_single_forces(ft, nf.elastic, mu[itype][jtype]);
  svector[S_STATE] = h[H_STATE];
  return nf.energy;
}

/* ---------------------------------------------------------------------- */

void *PairGranCoulomb::extract(const char *str, int &dim)
{
  dim = 2;
  if (double **a = coefficients.extract(str)) return (void *) a;
  dim = 0;
  if (strcmp(str, "iterate/tolerance") == 0) return (void *) &iterate_tolerance;
  return extract_common(str, dim);
}
