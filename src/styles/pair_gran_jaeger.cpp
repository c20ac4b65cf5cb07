/* ----------------------------------------------------------------------
   dem-contact: faithful DEM contact laws for LAMMPS (plugin package)
   pair_style gran/jaeger: Jaeger's Hertz-Mindlin-Deresiewicz contact with
   an exact equivalent load history (M. R. Kuhn, "Implementation of the
   Jaeger contact model for discrete element simulations").

   LAMMPS work only: geometry and movements per contact, the history
   records, forces, torques, energies and virial. Each contact's step (open,
   trim, frame, shift, the contact law demc::jaeger::step(), force, parting)
   is demc::jaeger::contact_step() (kernels/jaeger_step.h), which the wall
   fixes and gran/jaeger/kk call too; the arena's records are its Store.
------------------------------------------------------------------------- */

#include "pair_gran_jaeger.h"

#include "jaeger_step.h"

#include "demc_citations.h"
#include "demc_restart_records.h"
#include "fix_jaeger_history.h"

#include "atom.h"
#include "citeme.h"
#include "comm.h"
#include "compute.h"
#include "error.h"
#include "force.h"
#include "memory.h"
#include "modify.h"
#include "neigh_list.h"
#include "update.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <functional>

using namespace LAMMPS_NS;
using demc::Vec3;
namespace jaeger = demc::jaeger;
namespace frame = demc::frame;

namespace {
using H = FixJaegerHistory;
namespace rt = demc::resistance;
static_assert(sizeof(jaeger::Point) == 4 * sizeof(double), "a history point is 4 doubles");

/* per type pair (index i * (n + 1) + j, both orders): material_of(i, j) for i <= j */
template <class MaterialOf>
std::vector<jaeger::Material> type_pair_table(int n, MaterialOf material_of)
{
  const int stride = n + 1;
  std::vector<jaeger::Material> table(stride * stride, jaeger::Material{});
  for (int i = 1; i <= n; i++)
    for (int j = i; j <= n; j++) table[i * stride + j] = table[j * stride + i] = material_of(i, j);
  return table;
}

// the arena's record of neighbor slot (i, jj): the Store of demc::jaeger::contact_step()
class ArenaStore {
 public:
  ArenaStore(FixJaegerHistory *fix, int i, int jj, int j, const int *type, int stride) :
      fix(fix), rec(fix->record(i, jj)), type(type), i(i), jj(jj), j(j), stride(stride)
  {
  }
  double *record() const { return rec; }
  double *open()
  {
    rec = fix->open(i, jj, INITIAL_RECORD_CAPACITY);
    rec[H::R_TYPES] = jaeger::type_pair_key(type[i], type[j], stride);
    return rec;
  }
  static int room(const double *r) { return static_cast<int>(r[H::R_CAPACITY]); }
  double *reserve(double *, int points) { return rec = fix->reserve(i, jj, points); }
  void close(double *) { fix->close(i, jj); }

 private:
  static constexpr int INITIAL_RECORD_CAPACITY = 8;    // points
  FixJaegerHistory *fix;
  double *rec;    // (read again per contact: an earlier pair's record may have moved the arena)
  const int *type;
  int i, jj, j, stride;
};
}    // namespace

/* ---------------------------------------------------------------------- */

PairGranJaeger::PairGranJaeger(LAMMPS *lmp) :
    PairGranDemc(lmp, "gran/jaeger"), check_materials(false), layout_fixed(-1), beta(0.0),
    prune(jaeger::kDefaultPrune), max_length(0), work_setting(WORK_AUTO), work(true),
    work_skipped(false), seed_work(false), last_energy_step(-1), energy_interval(0),
    carry_length(0), fix_history(nullptr)
{
  if (lmp->citeme) lmp->citeme->add(demc::cite_kuhn_jaeger);
  prepare_style(S_JAEGER_SIZE);
}

PairGranJaeger::~PairGranJaeger()
{
  if (copymode) return;
  release_style(fix_history != nullptr);
}

/* ---------------------------------------------------------------------- */

void PairGranJaeger::compute(int eflag, int vflag)
{
  begin_compute(eflag, vflag);
  note_energy_step(eflag != 0);
  if (check_materials) convert_histories();
  // at setup nothing has moved since the last step: read the force off the history
  const bool advance = (update->setupflag == 0);
  const double *radius = atom->radius;
  for (int k = 0; k < E_SIZE; k++) pvector[k] = 0.0;
  double stored_tangential = 0.0;
  step_settings.beta = beta;
  step_settings.prune = prune;
  step_settings.max_length = max_length;
  step_settings.work = work;
  step_settings.carry_length = carry_length;
  step_settings.dt = dt;
  // the same for every contact of this computation (set here, not per contact)
  step_settings.advance = advance;
  step_settings.normal_energy = eflag || energy_per_atom;
  const bool seed = starts_work_sum(advance);
  step_settings.tangential_energy = eflag != 0 || seed;

  // two passes over blocks of the list, as gran/kuhn (see PairGranKuhn::compute())
  ContactBuffer buf;
  const double *xs = loop.xs;
  for (int ii = 0; ii < list->inum; ii++) {
    const int i = list->ilist[ii];
    const double xi = xs[3 * i], yi = xs[3 * i + 1], zi = xs[3 * i + 2], radi = radius[i];
    const int *jlist = list->firstneigh[i];
    const int jnum = list->numneigh[i];
    for (int jj = 0; jj < jnum; jj++) {
      const int j = jlist[jj] & NEIGHMASK;
      const double *xj = xs + 3 * j;
      const double dx = xj[0] - xi, dy = xj[1] - yi, dz = xj[2] - zi;
      const double rsq = dx * dx + dy * dy + dz * dz;
      const double radsum = radi + radius[j];
      const bool touching = rsq < radsum * radsum;
      double *rec = fix_history->record(i, jj);
      if (!touching && !(rec && advance)) continue;
      buf.add({i, j, jj, rsq, touching});
      prefetch_contact(j, rec, jaeger::kRecordPrefetch);
      if (buf.full()) flush_contacts(buf, advance, eflag != 0, stored_tangential);
    }
  }
  flush_contacts(buf, advance, eflag != 0, stored_tangential);
  end_atom_energy();
  if (seed) start_work_sum(stored_tangential);
  pvector[E_TANGENTIAL] = stored_tangential;
  // friction dissipation = all tangential work done minus what is stored now (work no: not known)
  pvector[E_FRICTION] = work ? tangential_sum - stored_tangential : 0.0;
  pvector[E_DAMPING] = dissipated_damping;
  setup_done(advance);
}

/* ----------------------------------------------------------------------
   the contact law on the pairs found by compute()'s first pass
------------------------------------------------------------------------- */

void PairGranJaeger::flush_contacts(ContactBuffer &buf, bool advance, bool energy,
                                    double &stored_tangential)
{
  jaeger::with_layout<jaeger::PairRecord>(resisting(), [&](auto layout) {
    using L = decltype(layout);
    prefetch_stack_tops<L>(buf);
    for (int k = 0; k < buf.n; k++)
      compute_contact<L>(buf.pairs[k], advance, energy, stored_tangential);
  });
  buf.n = 0;
}

/* The first pass asked for each record's header and first points; a step starts at the top of
   the stack, beyond those once a history has more than a few points. The headers have arrived
   by now: ask for the top points (jaeger::ask_for_top_points()). (A record moved by an
   earlier contact's growth in this block gives a stale address: a prefetch never faults.) */

template <class L> void PairGranJaeger::prefetch_stack_tops(const ContactBuffer &buf) const
{
  for (int k = 0; k < buf.n; k++) {
    const double *rec = fix_history->record(buf.pairs[k].i, buf.pairs[k].jj);
    if (rec)
      jaeger::ask_for_top_points<L>(rec, [](const double *p) {
        __builtin_prefetch(p, 1);
      });
  }
}

template <class L>
void PairGranJaeger::compute_contact(const TouchingPair &t, bool advance, bool eflag,
                                     double &stored_tangential)
{
  const int i = t.i, j = t.j;
  const int pair = type_pair(i, j);
  const double weight = pair_weight(j);
  // records are oriented by atom IDs (p = smaller ID): any list order, any rank, same record
  const bool i_first = atom->tag[i] < atom->tag[j];
  const int atom_p = i_first ? i : j, atom_q = i_first ? j : i;
  // the frame carries the normal from step to step: no old normal needed
  const demc::SphereContact c = sphere_contact(atom_p, atom_q, std::sqrt(t.rsq), advance, false);
  const jaeger::Material mat = contact_material(i, j, pair);
  const demc::ContactDashpots &dashpots = damping_table.pair_dashpots[pair];
  const double m_eff = (t.touching && demc::needs_effective_mass(dashpots))
      ? contact_effective_mass(i, j)
      : 0.0;
  ArenaStore store(fix_history, i, t.jj, j, atom->type, atom->ntypes + 1);
  // (step_settings.advance: at a run's setup, the last step's dashpot force again, as the limits
  // left it (from the record: the half-step velocities it came from are gone), so that the run
  // continues as if there had been no break (PairGranDemc::setup_done()))
  const jaeger::StepSettings &s = step_settings;
  constexpr bool RESIST = L::resist >= 0;
  const rt::Params *resist = RESIST ? contact_resistance(pair) : nullptr;
  const Vec3 w_rel = (RESIST && resist)
      ? demc_vec(loop.omegas + 3 * atom_q) - demc_vec(loop.omegas + 3 * atom_p)
      : Vec3{0.0, 0.0, 0.0};
  const jaeger::StepContact sc = {c.n, c.du, c.overlap, c.twirl, m_eff, w_rel};
  const jaeger::StepOutcome o =
      jaeger::contact_step<L>(store, mat, sc, t.touching, dashpots, dashpot_limits, s, resist);
  tangential_sum += weight * o.work;
  fix_history->merges += o.merges;
  fix_history->pruned += o.pruned;
  if (o.parted) {
    tally_atoms(atom_p, atom_q, 0.0, 0.0, o.work, 0.0);
    return;
  }
  if (advance) dissipated_damping += weight * o.damping_work;
  stored_tangential += weight * o.ut;
  if (RESIST && resist) {    // the force's torques and the resistance's couple
    const Vec3 axis = demc::sphere_torque_arm(c, o.force);
    add_force(atom_p, atom_q, o.force, c.arm_p * axis + o.torque, c.arm_q * axis - o.torque, i, j,
              o.un + o.ut);
  } else {
    apply_force(atom_p, atom_q, c, o.force, i, j, o.un + o.ut);
  }
  tally_atoms(atom_p, atom_q, o.un, o.ut, o.work, o.damping_work);
  // (whether it slides only where counted: o.sliding, formed for every contact, is left unread)
  if (eflag) count_contact(jaeger::at_friction_limit(mat, o.res), weight, o.un);
}

/* ----------------------------------------------------------------------
   pvector's normal energy, contacts and sliding contacts (at the friction limit)
------------------------------------------------------------------------- */

void PairGranJaeger::count_contact(bool sliding, double weight, double normal_energy)
{
  pvector[E_NORMAL] += weight * normal_energy;
  pvector[E_CONTACTS] += weight;
  if (sliding) pvector[E_SLIDING] += weight;
}

/* ----------------------------------------------------------------------
   how long a history must be to carry U_t through its steps
   (demc::jaeger::stored_to_carry()): the steps between energy steps (a
   thermo step, or every step of a run whose fix deform of style variable, or
   fix ave/time of pe, asks for the energy every step), taken as the interval
   between the last two energy steps, or the steps since the last one if longer
------------------------------------------------------------------------- */

void PairGranJaeger::note_energy_step(bool energy)
{
  const bigint now = update->ntimestep;
  if (energy && now > last_energy_step) {    // (a run's setup repeats the last step)
    if (last_energy_step >= 0) energy_interval = now - last_energy_step;
    last_energy_step = now;
  }
  const bigint interval = std::max(energy_interval, now - last_energy_step);
  carry_length = energy_interval > 0 ? (int) std::min<bigint>(interval, MAXSMALLINT) : MAXSMALLINT;
}

/* ----------------------------------------------------------------------
   pair_style gran/jaeger [beta value] [prune tol] [history/max N] [work auto/yes/no]
                          [damping_cap yes/no] [limit_damping] [energy/atom yes/no] ...
------------------------------------------------------------------------- */

void PairGranJaeger::settings(int narg, char **arg)
{
  beta = 0.0;
  prune = jaeger::kDefaultPrune;
  max_length = 0;
  work_setting = WORK_AUTO;
  reset_common_keywords();
  int iarg = 0;
  while (iarg < narg) {
    const int used = parse_common_keyword(narg, arg, iarg);
    if (used) {
      iarg += used;
      continue;
    }
    if (iarg + 2 > narg)
      utils::missing_cmd_args(FLERR, fmt::format("pair_style gran/jaeger {}", arg[iarg]), error);
    if (strcmp(arg[iarg], "beta") == 0) {
      beta = utils::numeric(FLERR, arg[iarg + 1], false, lmp);
      if (beta < 0.0 || beta > 2.0)
        error->all(FLERR, "Pair_style gran/jaeger: beta must be within [0, 2], got {}", beta);
    } else if (strcmp(arg[iarg], "prune") == 0) {
      prune = utils::numeric(FLERR, arg[iarg + 1], false, lmp);
      if (!(prune >= 0.0 && prune < 1.0))
        error->all(FLERR, "Pair_style gran/jaeger: prune must be within [0, 1), got {}", prune);
    } else if (strcmp(arg[iarg], "history/max") == 0) {
      max_length = utils::inumeric(FLERR, arg[iarg + 1], false, lmp);
      if (max_length < 2)
        error->all(FLERR, "Pair_style gran/jaeger: history/max must be >= 2 points, got {}",
                   max_length);
    } else if (strcmp(arg[iarg], "work") == 0) {
      work_setting = strcmp(arg[iarg + 1], "auto") == 0      ? WORK_AUTO
          : utils::logical(FLERR, arg[iarg + 1], false, lmp) ? WORK_YES
                                                             : WORK_NO;
    } else
      error->all(FLERR, "Unknown pair_style gran/jaeger keyword: {}", arg[iarg]);
    iarg += 2;
  }
  if (energy_per_atom && work_setting == WORK_NO)
    error->all(FLERR,
               "Pair_style gran/jaeger: energy/atom yes needs work yes or auto (the per-atom "
               "friction dissipation is the tangential work minus the stored energy)");
}

/* ----------------------------------------------------------------------
   pair_coeff I J E nu mu [damping nu_n nu_t | restitution e x_t]
------------------------------------------------------------------------- */

void PairGranJaeger::coeff(int narg, char **arg)
{
  demc::resistance::Params rolling_twisting;
  const std::vector<double> c = read_coeff_args(narg, arg, "E nu mu", rolling_twisting);
  const double e_one = c[0], nu_one = c[1];
  if (e_one <= 0.0) error->all(FLERR, "Pair_coeff gran/jaeger: E must be > 0, got {}", e_one);
  if (nu_one <= -1.0 || nu_one >= 0.5)
    error->all(FLERR, "Pair_coeff gran/jaeger: nu must be within (-1, 0.5), got {}", nu_one);
  set_coefficients(arg[0], arg[1], c);
  resistance.set(lmp, arg[0], arg[1], rolling_twisting);
}

/* ---------------------------------------------------------------------- */

void PairGranJaeger::init_style()
{
  PairGranDemc::init_style();
  resolve_work();
  if (fix_history == nullptr) {
    auto cmd = fmt::format("{} all DEMC/JAEGER_HISTORY", history_fix_id());
    fix_history =
        dynamic_cast<FixJaegerHistory *>(modify->replace_fix(history_fix_id() + "_DUMMY", cmd, 1));
  }
  fix_history->pair = this;
  set_record_layout();
  fix_history->header = record_header();
  damping_table.init_restitution(running_style_name(), atom->ntypes, setflag);
}

/* work auto: the integral costs a good part of the step where contacts slip, and only the
   friction dissipation and the per-contact work read it (compute pair, compute pair/local, the
   per-atom energies); a run without any of them skips it. Those sums are cumulative, so a run
   that integrates it after runs that did not (work auto, or work no before pair_style was given
   again) counts from its start: said once. */
void PairGranJaeger::resolve_work()
{
  work = work_setting == WORK_YES ||
      (work_setting == WORK_AUTO && (energy_per_atom || work_is_read()));
  if (!work) {
    work_skipped = true;
    return;
  }
  if (!work_skipped) return;
  if (comm->me == 0)
    error->warning(FLERR,
                   "Pair {}: the tangential work is integrated from this run on (earlier runs "
                   "skipped it: work auto with nothing to read it, or work no); the friction "
                   "dissipation and each contact's work count from here. Use work yes from the "
                   "first run to integrate it throughout",
                   running_style_name());
  work_skipped = false;
  seed_work = true;
}

// a compute that can read the friction dissipation or a contact's work: any compute pair or
// pair/local (whichever pair style it names)
bool PairGranJaeger::work_is_read() const
{
  for (const Compute *c : modify->get_compute_list())
    if (utils::strmatch(c->style, "^pair$") || utils::strmatch(c->style, "^pair/local$"))
      return true;
  return false;
}

/* the records' layout: with rolling or twisting on any type pair, the resistance's slots in
   every record; fixed by the first run (or the restart file's records) */
void PairGranJaeger::set_record_layout()
{
  const bool any = rt::active(resistance.models_in_use(setflag));
  if (layout_fixed >= 0 && (layout_fixed != 0) != any)
    error->all(FLERR,
               "Pair gran/jaeger: rolling or twisting cannot be switched on or off for all type "
               "pairs after a run or read_restart (the contact records are laid out for {})",
               layout_fixed ? "rolling or twisting" : "neither");
  layout_fixed = any ? 1 : 0;
}

int PairGranJaeger::record_header() const
{
  return resisting() ? jaeger::PairResistRecord::header : jaeger::PairRecord::header;
}

/* ----------------------------------------------------------------------
   effective moduli: an explicitly set pair uses its (E, nu) for both
   bodies; unlike types mix the two types' materials (E*, G* rules of the
   Hertz-Mindlin contact), written as the one material (E, nu) on both
   bodies that has the same E* and G*: with kappa = E* / G* =
   (2 - nu) / (2 (1 - nu)) for like bodies, nu = (2 - 2 kappa)/(1 - 2 kappa),
   E = 2 (1 - nu^2) E*; friction and damping take geometric means (a type
   with constant dashpots and one with restitution damping: no mixing rule)
------------------------------------------------------------------------- */

double PairGranJaeger::init_one(int i, int j)
{
  check_restart_histories();    // once per init, after every history fix is made
  check_materials = true;       // the first compute() compares them with the histories'
  const jaeger::Material m = type_pair_material(i, j);
  if (setflag[i][j] == 0) {
    mix_coefficients(i, j);
    const double kappa = m.Estar / m.Gstar;
    poisson[i][j] = (2.0 - 2.0 * kappa) / (1.0 - 2.0 * kappa);
    youngs[i][j] = 2.0 * (1.0 - poisson[i][j] * poisson[i][j]) * m.Estar;
  }
  estar[i][j] = m.Estar;
  gstar[i][j] = m.Gstar;
  coefficients.mirror(i, j);
  resistance.init_pair(lmp, "gran/jaeger", i, j, setflag[i][j] == 0);
  const int stride = atom->ntypes + 1;
  pair_materials.resize(stride * stride);
  pair_materials[i * stride + j] = pair_materials[j * stride + i] = m;
  damping_table.set_pair_dashpots(i, j, atom->ntypes, true);
  return contact_cutoff(i, j);
}

/* ---------------------------------------------------------------------- */

jaeger::Material PairGranJaeger::type_pair_material(int i, int j) const
{
  double e1 = youngs[i][j], nu1 = poisson[i][j], e2 = e1, nu2 = nu1, mu_ij = mu[i][j];
  if (setflag[i][j] == 0) {
    e1 = youngs[i][i];
    nu1 = poisson[i][i];
    e2 = youngs[j][j];
    nu2 = poisson[j][j];
    mu_ij = std::sqrt(mu[i][i] * mu[j][j]);
  }
  return jaeger::material(jaeger::effective_young(e1, nu1, e2, nu2),
                          jaeger::effective_shear(e1, nu1, e2, nu2), 0.0, mu_ij);
}

/* ---------------------------------------------------------------------- */

int PairGranJaeger::material_key(int i, int j) const
{
  return jaeger::type_pair_key(atom->type[i], atom->type[j], atom->ntypes + 1);
}

int PairGranJaeger::history_key(const double *rec, int now) const
{
  return jaeger::stored_type_pair_key(rec[H::R_TYPES], now, atom->ntypes + 1);
}

bool PairGranJaeger::record_material(const double *rec, jaeger::Material &mat) const
{
  const size_t table = (size_t) (atom->ntypes + 1) * (atom->ntypes + 1);
  const int key = jaeger::stored_type_pair_key(rec[H::R_TYPES], 0, atom->ntypes + 1);
  for (const auto *materials : {&history_materials, &pair_materials})
    if (key > 0 && materials->size() == table && (*materials)[key].Estar > 0.0) {
      mat = (*materials)[key];
      return true;
    }
  return false;
}

/* ----------------------------------------------------------------------
   first compute() after an init: every history made with another material
   than its contact's now (the coefficients of its type pair changed, or its
   atoms changed type) is moved to the new one: the same spring field, slopes
   beyond a smaller friction cone returned onto it
------------------------------------------------------------------------- */

void PairGranJaeger::convert_histories()
{
  check_materials = false;
  const bool known = history_materials.size() == pair_materials.size();
  const tagint *tag = atom->tag;
  const double *radius = atom->radius;
  for (int ii = 0; ii < list->inum; ii++) {
    const int i = list->ilist[ii];
    for (int jj = 0; jj < list->numneigh[i]; jj++) {
      double *rec = fix_history->record(i, jj);
      if (rec == nullptr) continue;
      const int j = list->firstneigh[i][jj] & NEIGHMASK;
      const int now = material_key(i, j), before = history_key(rec, now);
      rec[H::R_TYPES] = now;
      // a history longer than history/max (a smaller bound since the last run, or in the
      // restart file) is shortened first, with the material it was made with, as gran/jaeger/kk
      // shortens it when it reads it (its records have no room for more)
      const jaeger::Material &made_with = known ? history_materials[before] : pair_materials[now];
      fix_history->merges += jaeger::with_layout<jaeger::PairRecord>(resisting(), [&](auto layout) {
        return jaeger::trim_record<decltype(layout)>(made_with, rec, ArenaStore::room(rec),
                                                     max_length);
      });
      if (!known) continue;
      const double R = jaeger::effective_radius(radius[i], radius[j]);
      // the stored energy the new material makes of the unchanged field: work done on the
      // contact by the change, not friction (see demc::jaeger::change_material())
      const double work = jaeger::with_layout<jaeger::PairRecord>(resisting(), [&](auto layout) {
        return jaeger::move_to_material<decltype(layout)>(
          rec, ArenaStore::room(rec), jaeger::with_radius(history_materials[before], R),
          jaeger::with_radius(pair_materials[now], R));
      });
      if (work == 0.0) continue;
      tangential_sum += pair_weight(j) * work;
      tally_atoms(tag[i] < tag[j] ? i : j, tag[i] < tag[j] ? j : i, 0.0, 0.0, work, 0.0);
    }
  }
  history_materials = pair_materials;
}

/* ----------------------------------------------------------------------
   the materials the histories were made with, per type pair i <= j (E*, G*,
   mu): after a pair_coeff without a run since, they are not the
   coefficients' (the histories are moved at the next run's first compute).
   In the settings: pair hybrid writes only those of its sub-styles
------------------------------------------------------------------------- */

void PairGranJaeger::write_history_materials(std::vector<double> &out) const
{
  const int n = atom->ntypes, stride = n + 1;
  const auto &table = (int) history_materials.size() == stride * stride ? history_materials
                                                                        : pair_materials;
  const bool known = (int) table.size() == stride * stride;
  for (int i = 1; i <= n; i++)
    for (int j = i; j <= n; j++) {
      const jaeger::Material m = known ? table[i * stride + j] : jaeger::Material{};
      out.insert(out.end(), {m.Estar, m.Gstar, m.mu});
    }
}

/* ----------------------------------------------------------------------
   the materials the histories in a restart file were made with (in the
   settings, so that pair hybrid, which keeps no coefficients, keeps them)
------------------------------------------------------------------------- */

void PairGranJaeger::read_history_materials(const std::function<double()> &next)
{
  // (in the order written: i <= j row by row)
  history_materials = type_pair_table(atom->ntypes, [&next](int, int) {
    const double estar_ij = next(), gstar_ij = next(), mu_ij = next();
    return (estar_ij > 0.0 && gstar_ij > 0.0) ? jaeger::material(estar_ij, gstar_ij, 0.0, mu_ij)
                                              : jaeger::Material{};
  });
}

/* ----------------------------------------------------------------------
   settings (rank 0 only; the cumulative sums travel with fix DEMC/ATOM_ENERGY):
   a record (write_settings_record()) of beta, history/max, the common
   keywords, work (WorkSetting, + 3 where a run skipped the integral), the
   histories' materials and the pruning tolerance
------------------------------------------------------------------------- */

void PairGranJaeger::write_restart_settings(FILE *fp)
{
  // (work: the setting, plus 3 where a run skipped the integral)
  std::vector<double> values = {beta, (double) max_length, common_keywords_code(),
                                (double) (work_setting + (work_skipped ? 3 : 0))};
  write_history_materials(values);
  values.push_back(prune);
  resistance.append_values(values);
  write_settings_record(fp, values);
}

void PairGranJaeger::read_restart_settings(FILE *fp)
{
  using demc_restart::checked_int;
  const std::string who = "Pair gran/jaeger settings";
  const std::vector<double> values = read_settings_record(fp);
  const long pairs = (long) atom->ntypes * (atom->ntypes + 1) / 2;
  resistance.allocate(atom->ntypes);
  const long size = 5 + 3 * pairs + resistance.values_size();
  checked_int(lmp, (double) values.size(), size, size, who + ": values");
  size_t k = 0;
  auto next = [&]() { return values[k++]; };
  beta = next();
  max_length = (int) checked_int(lmp, next(), 0, INT_MAX, who + ": history/max");
  set_common_keywords((double) checked_int(lmp, next(), 0, 27, who + ": keywords"));
  const int work_code = (int) checked_int(lmp, next(), 0, 5, who + ": work");
  work_setting = work_code % 3;
  work_skipped = work_code >= 3;
  read_history_materials(next);
  prune = next();
  if (!(prune >= 0.0 && prune < 1.0))
    error->all(FLERR, "{}: the restart file's pruning tolerance {} is not within [0, 1)", who,
               prune);
  // the type pairs' rolling and twisting, which lay out the file's contact records
  resistance.read_values(lmp, values.data() + k, who);
  layout_fixed = resistance.any_active() ? 1 : 0;
}

/* ----------------------------------------------------------------------
   per-contact state for compute pair/local, compute fabric and the like:
   returns the stored elastic energy; fforce: the Hertz normal force over r;
   svector: see SingleIndex and JaegerSingleIndex
------------------------------------------------------------------------- */

double PairGranJaeger::single(int i, int j, int itype, int jtype, double rsq, double, double,
                              double &fforce)
{
  begin_single(i, j, rsq, fforce);
  int owner, slot;
  if (!(list && fix_history && find_single_slot(i, j, owner, slot))) return 0.0;
  return single_of_record(i, j, rsq, fix_history->record(owner, slot), fforce);
}

/* (for gran/jaeger/kk too: its record read off the device) */

double PairGranJaeger::single_of_record(int i, int j, double rsq, const double *rec,
                                        double &fforce)
{
  const double radsum = atom->radius[i] + atom->radius[j];
  if (rsq >= radsum * radsum) return 0.0;
  const double r = std::sqrt(rsq);
  const jaeger::Material mat = contact_material(i, j);
  const double P = jaeger::hertz_force(mat, radsum - r);
  fforce = P / r;    // force on i = fforce * (x_i - x_j): the normal part
  Vec3 T = {0.0, 0.0, 0.0};
  double ut = 0.0;
  if (rec && rec[H::R_LENGTH] > 0.0) {
    const int n = jaeger::record_length<jaeger::PairRecord>(rec);
    const jaeger::Stack st =
        jaeger::with_layout<jaeger::PairRecord>(resisting(), [rec, n](auto layout) {
          return jaeger::record_stack<decltype(layout)>(const_cast<double *>(rec), n);
        });
    const jaeger::Point &top = st.pts[n - 1];
    // T acts on p (the smaller ID), whichever list holds the pair; report it as the force on i
    const double sign = atom->tag[i] < atom->tag[j] ? 1.0 : -1.0;
    T = sign * frame::to_global(frame::load(rec + H::R_QW), top.tx, top.ty);
    ut = jaeger::stored_energy(mat, st, rec[H::R_STORED]);
    svector[S_STORED_T] = ut;
    svector[S_WORK] = rec[H::R_WORK];
    svector[S_LENGTH] = n;
  }
  set_single_forces(T, P, mat.mu);
  return jaeger::normal_energy(mat, radsum - r) + ut;
}

/* ---------------------------------------------------------------------- */

void *PairGranJaeger::extract(const char *str, int &dim)
{
  dim = 2;
  if (double **a = coefficients.extract(str)) return (void *) a;
  dim = 0;
  if (strcmp(str, "beta") == 0) return (void *) &beta;
  if (strcmp(str, "prune") == 0) return (void *) &prune;
  if (strcmp(str, "history/max") == 0) return (void *) &max_length;
  if (strcmp(str, "work") == 0) return (void *) &work_setting;    // (int: WorkSetting)
  return extract_common(str, dim);
}
