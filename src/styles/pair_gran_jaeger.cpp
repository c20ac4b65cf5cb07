/* ----------------------------------------------------------------------
   dem-contact: faithful DEM contact laws for LAMMPS (plugin package)
   pair_style gran/jaeger: Jaeger's Hertz-Mindlin-Deresiewicz contact with
   an exact equivalent load history (M. R. Kuhn, "Implementation of the
   Jaeger contact model for discrete element simulations").

   LAMMPS work only: geometry and movements per contact, the history
   records, forces, torques, energies and virial. Each contact's step (frame,
   shift, the contact law demc::jaeger::step(), force, parting) is the
   driver's of kernels/jaeger_driver.h, which the wall fixes and
   gran/jaeger/kk call too.
------------------------------------------------------------------------- */

#include "pair_gran_jaeger.h"

#include "jaeger_driver.h"

#include "demc_citations.h"
#include "demc_restart_records.h"
#include "fix_jaeger_history.h"

#include "atom.h"
#include "citeme.h"
#include "comm.h"
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
using Layout = jaeger::PairRecord;
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

jaeger::Stack stack_of(double *rec, int bounded_capacity)
{
  return jaeger::record_stack<Layout>(
      rec, bounded_capacity > 0 ? bounded_capacity : static_cast<int>(rec[H::R_CAPACITY]));
}
}    // namespace

/* ---------------------------------------------------------------------- */

PairGranJaeger::PairGranJaeger(LAMMPS *lmp) :
    PairGranDemc(lmp, "gran/jaeger"), youngs(nullptr), poisson(nullptr), mu(nullptr),
    estar(nullptr), gstar(nullptr), check_materials(false), beta(0.0),
    prune(jaeger::kDefaultPrune), max_length(0), work(true), last_energy_step(-1),
    energy_interval(0), carry_length(0), fix_history(nullptr)
{
  if (lmp->citeme) lmp->citeme->add(demc::cite_kuhn_jaeger);
  prepare_style(S_JAEGER_SIZE);
}

PairGranJaeger::~PairGranJaeger()
{
  if (copymode) return;
  release_style(fix_history != nullptr,
                {youngs, poisson, mu, damp_n, damp_t, restitution, restitution_t, estar, gstar});
}

/* ---------------------------------------------------------------------- */

void PairGranJaeger::allocate()
{
  allocate_base();
  const int n = atom->ntypes;
  memory->create(youngs, n + 1, n + 1, "pair:youngs");
  memory->create(poisson, n + 1, n + 1, "pair:poisson");
  memory->create(mu, n + 1, n + 1, "pair:mu");
  allocate_damping();
  memory->create(estar, n + 1, n + 1, "pair:estar");
  memory->create(gstar, n + 1, n + 1, "pair:gstar");
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
  prefetch_stack_tops(buf);
  for (int k = 0; k < buf.n; k++) compute_contact(buf.pairs[k], advance, energy, stored_tangential);
  buf.n = 0;
}

/* The first pass asked for each record's header and first points; a step starts at the top of
   the stack, beyond those once a history has more than a few points. The headers have arrived
   by now: ask for the top points (jaeger::ask_for_top_points()). (A record moved by an
   earlier contact's growth in this block gives a stale address: a prefetch never faults.) */

void PairGranJaeger::prefetch_stack_tops(const ContactBuffer &buf) const
{
  for (int k = 0; k < buf.n; k++) {
    const double *rec = fix_history->record(buf.pairs[k].i, buf.pairs[k].jj);
    if (rec)
      jaeger::ask_for_top_points<jaeger::PairRecord>(rec, [](const double *p) {
        __builtin_prefetch(p, 1);
      });
  }
}

void PairGranJaeger::compute_contact(const TouchingPair &t, bool advance, bool eflag,
                                     double &stored_tangential)
{
  const tagint *tag = atom->tag;
  const int i = t.i, j = t.j, jj = t.jj;
  const bool touching = t.touching;
  const double rsq = t.rsq;
  // read again: opening or growing an earlier pair's record may have moved the arena
  double *rec = fix_history->record(i, jj);
  const int pair = type_pair(i, j);
  const double weight = pair_weight(j);
  // records are oriented by atom IDs (p = smaller ID): any list order, any rank, same record
  const bool i_first = tag[i] < tag[j];
  const int atom_p = i_first ? i : j, atom_q = i_first ? j : i;
  // the frame carries the normal from step to step: no old normal needed
  const demc::SphereContact c = sphere_contact(atom_p, atom_q, std::sqrt(rsq), advance, false);
  const jaeger::Material mat = contact_material(i, j, pair);
  if (!touching) {
    // parting: the last step still does work as the springs leave (kernel clears the stack)
    const double work = part(rec, c, mat);
    tangential_sum += weight * work;
    tally_atoms(atom_p, atom_q, 0.0, 0.0, work, 0.0);
    fix_history->close(i, jj);
    return;
  }

  const frame::Quat q = jaeger::contact_frame<Layout>(rec, rec != nullptr, advance, c.n, c.twirl);
  if (!rec && advance) {
    rec = fix_history->open(i, jj, INITIAL_CAPACITY);
    rec[H::R_WORK] = rec[H::R_DAMPWORK] = rec[H::R_STORED] = 0.0;
    rec[H::R_FDAMP_X] = rec[H::R_FDAMP_Y] = rec[H::R_FDAMP_Z] = 0.0;
    rec[H::R_PRUNE_FORCE] = rec[H::R_PRUNE_SHIFT] = 0.0;
    rec[H::R_TYPES] = material_key(i, j);
  }

  jaeger::StepResult res;
  double *hist = rec;
  if (advance) {
    const jaeger::Vec2 ds =
        jaeger::step_shift(q, c.du, c.n, c.overlap, jaeger::record_length<Layout>(rec) == 0);
    if (max_length > 0 && hist[H::R_LENGTH] > max_length) trim(hist, mat);
    // room for the one point a step can push; with history/max, records still grow only as
    // their histories do (memory follows the lengths, not the bound), while the kernel is
    // told the bound: it merges only when a history reaches it
    const int length = (int) hist[H::R_LENGTH];
    const int room = max_length > 0 ? std::min(length + 1, max_length) : length + 1;
    // (the record's own capacity first: it rarely has to grow)
    if (hist[H::R_CAPACITY] < room) hist = fix_history->reserve(i, jj, room);
    jaeger::Stack st = stack_of(hist, max_length);
    res = jaeger::advance_record<Layout>(mat, hist, st, q, c.overlap, ds, beta, work, carry_length,
                                         prune);
    tangential_sum += weight * res.work;
    fix_history->merges += res.merges;
    fix_history->pruned += res.pruned;
  } else {
    const jaeger::Stack st = hist ? stack_of(hist, 0) : jaeger::Stack{};
    res = jaeger::stored_force(mat, hist ? &st : nullptr, c.overlap);
  }

  const demc::ContactDashpots &dashpots = pair_dashpots[pair];
  const double m_eff = demc::needs_effective_mass(dashpots) ? contact_effective_mass(i, j) : 0.0;
  // at the first setup after read_restart, the last step's dashpot force again, as the limits
  // left it (from the record: the half-step velocities it came from are gone), so that the run
  // continues as if there had been no break (see setup_repeats_dashpots)
  const jaeger::ContactForce f =
      jaeger::assemble_force<Layout>(hist, q, res, c.n, c.du, c.overlap, mat, dashpots,
                                     dashpot_limits, m_eff, dt, advance, repeats_dashpots(advance));
  const Vec3 force = f.force;
  const double dwd = f.damping_work;
  if (advance) dissipated_damping += weight * dwd;

  // energies and counts only where they are read: compute pair (an energy step) and
  // the per-atom energies
  const double un = (eflag || energy_per_atom) ? jaeger::normal_energy(mat, c.overlap) : 0.0;
  const double ut = (eflag && hist) ? stored_tangential_energy(hist, mat) : 0.0;
  stored_tangential += weight * ut;
  apply_force(atom_p, atom_q, c, force, i, j, un + ut);
  tally_atoms(atom_p, atom_q, un, ut, advance ? res.work : 0.0, dwd);
  if (eflag) count_contact(mat, res, weight, un);
}

/* ----------------------------------------------------------------------
   pvector's normal energy, contacts and sliding contacts (at the friction limit)
------------------------------------------------------------------------- */

void PairGranJaeger::count_contact(const jaeger::Material &mat, const jaeger::StepResult &res,
                                   double weight, double normal_energy)
{
  pvector[E_NORMAL] += weight * normal_energy;
  pvector[E_CONTACTS] += weight;
  if (jaeger::at_friction_limit(mat, res)) pvector[E_SLIDING] += weight;
}

/* ----------------------------------------------------------------------
   a history longer than history/max (set smaller after the contact formed,
   e.g. after read_restart) is shortened by the kernel's own merges, which
   keep the force
------------------------------------------------------------------------- */

void PairGranJaeger::trim(double *rec, const jaeger::Material &mat)
{
  jaeger::Stack st = stack_of(rec, 0);
  fix_history->merges += jaeger::shorten_to(mat, st, max_length);
  rec[H::R_LENGTH] = st.n;
  rec[H::R_STORED] = -1.0;    // the merges moved springs: no longer known
}

/* ----------------------------------------------------------------------
   U_t of a contact: carried by the record (work yes), else from the whole
   history (O(length))
------------------------------------------------------------------------- */

double PairGranJaeger::stored_tangential_energy(double *rec, const jaeger::Material &mat) const
{
  return jaeger::record_stored_energy<Layout>(mat, rec, stack_of(rec, max_length));
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
   the tangential work of a contact's last step, as it opens
------------------------------------------------------------------------- */

double PairGranJaeger::part(double *rec, const demc::SphereContact &c,
                            const jaeger::Material &mat) const
{
  jaeger::Stack st = stack_of(rec, max_length);
  return jaeger::parting_work<Layout>(mat, rec, st, c.n, c.twirl, c.du, c.overlap, beta, work);
}

/* ----------------------------------------------------------------------
   pair_style gran/jaeger [beta value] [prune tol] [history/max N] [work yes/no]
                          [damping_cap yes/no] [limit_damping] [energy/atom yes/no] ...
------------------------------------------------------------------------- */

void PairGranJaeger::settings(int narg, char **arg)
{
  beta = 0.0;
  prune = jaeger::kDefaultPrune;
  max_length = 0;
  work = true;
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
      work = utils::logical(FLERR, arg[iarg + 1], false, lmp);
    } else
      error->all(FLERR, "Unknown pair_style gran/jaeger keyword: {}", arg[iarg]);
    iarg += 2;
  }
  if (energy_per_atom && !work)
    error->all(FLERR,
               "Pair_style gran/jaeger: energy/atom yes needs work yes (the per-atom "
               "friction dissipation is the tangential work minus the stored energy)");
}

/* ----------------------------------------------------------------------
   pair_coeff I J E nu mu [damping nu_n nu_t | restitution e x_t]
------------------------------------------------------------------------- */

void PairGranJaeger::coeff(int narg, char **arg)
{
  const CoeffArgs c = read_coeff_args(narg, arg, "E nu mu");
  const double e_one = c.law[0], nu_one = c.law[1];
  if (e_one <= 0.0) error->all(FLERR, "Pair_coeff gran/jaeger: E must be > 0, got {}", e_one);
  if (nu_one <= -1.0 || nu_one >= 0.5)
    error->all(FLERR, "Pair_coeff gran/jaeger: nu must be within (-1, 0.5), got {}", nu_one);
  if (!allocated) allocate();
  set_coefficients(arg[0], arg[1],
                   {{youngs, e_one},
                    {poisson, nu_one},
                    {mu, c.law[2]},
                    {damp_n, c.damp_n},
                    {damp_t, c.damp_t},
                    {restitution, c.restitution},
                    {restitution_t, c.restitution_t}});
}

/* ---------------------------------------------------------------------- */

void PairGranJaeger::init_style()
{
  PairGranDemc::init_style();
  if (fix_history == nullptr) {
    auto cmd = fmt::format("{} all DEMC/JAEGER_HISTORY", history_fix_id());
    fix_history =
        dynamic_cast<FixJaegerHistory *>(modify->replace_fix(history_fix_id() + "_DUMMY", cmd, 1));
  }
  fix_history->pair = this;
  init_restitution_damping();
}

/* ----------------------------------------------------------------------
   effective moduli: an explicitly set pair uses its (E, nu) for both
   bodies; unlike types mix the two types' materials (E*, G* rules of the
   Hertz-Mindlin contact); friction and damping take geometric means (a type
   with constant dashpots and one with restitution damping: no mixing rule)
------------------------------------------------------------------------- */

double PairGranJaeger::init_one(int i, int j)
{
  check_restart_histories();    // once per init, after every history fix is made
  check_materials = true;       // the first compute() compares them with the histories'
  const jaeger::Material m = type_pair_material(i, j);
  if (setflag[i][j] == 0) {
    mu[i][j] = m.mu;
    mix_damping(i, j);
  }
  estar[i][j] = estar[j][i] = m.Estar;
  gstar[i][j] = gstar[j][i] = m.Gstar;
  for (double **a : {youngs, poisson, mu, damp_n, damp_t, restitution, restitution_t})
    a[j][i] = a[i][j];
  const int stride = atom->ntypes + 1;
  pair_materials.resize(stride * stride);
  pair_materials[i * stride + j] = pair_materials[j * stride + i] = m;
  set_pair_dashpots(i, j, true);
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
      if (!known) continue;
      const jaeger::Material &from = history_materials[before], &to = pair_materials[now];
      // (E* = 0: not known, e.g. a type pair without coefficients in a restart file)
      if (!(from.Estar > 0.0) || jaeger::same_material(from, to)) continue;
      const double R = jaeger::effective_radius(radius[i], radius[j]);
      jaeger::Stack st = stack_of(rec, 0);
      // the stored energy the new material makes of the unchanged field: work done on the
      // contact by the change, not friction (see demc::jaeger::change_material())
      const double work =
          jaeger::change_material(jaeger::with_radius(from, R), jaeger::with_radius(to, R), st);
      rec[H::R_WORK] += work;
      rec[H::R_STORED] = -1.0;    // U_t of the new material: taken from the history
      tangential_sum += pair_weight(j) * work;
      tally_atoms(tag[i] < tag[j] ? i : j, tag[i] < tag[j] ? j : i, 0.0, 0.0, work, 0.0);
    }
  }
  history_materials = pair_materials;
}

/* ---------------------------------------------------------------------- */

void PairGranJaeger::write_restart(FILE *fp)
{
  write_restart_settings(fp);
  write_law_coefficients(fp, {youngs, poisson, mu});
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

void PairGranJaeger::read_restart(FILE *fp)
{
  read_restart_settings(fp);
  allocate();
  read_law_coefficients(fp, {youngs, poisson, mu});
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
   keywords, work (1: yes), the histories' materials and the pruning
   tolerance
------------------------------------------------------------------------- */

void PairGranJaeger::write_restart_settings(FILE *fp)
{
  std::vector<double> values = {beta, (double) max_length, common_keywords_code(),
                                work ? 1.0 : 0.0};
  write_history_materials(values);
  values.push_back(prune);
  write_settings_record(fp, values);
}

void PairGranJaeger::read_restart_settings(FILE *fp)
{
  using demc_restart::checked_int;
  const std::string who = "Pair gran/jaeger settings";
  const std::vector<double> values = read_settings_record(fp);
  const long pairs = (long) atom->ntypes * (atom->ntypes + 1) / 2;
  checked_int(lmp, (double) values.size(), 5 + 3 * pairs, 5 + 3 * pairs, who + ": values");
  size_t k = 0;
  auto next = [&]() { return values[k++]; };
  beta = next();
  max_length = (int) checked_int(lmp, next(), 0, INT_MAX, who + ": history/max");
  set_common_keywords((double) checked_int(lmp, next(), 0, 27, who + ": keywords"));
  setup_repeats_dashpots = true;
  work = checked_int(lmp, next(), 0, 1, who + ": work") != 0;
  read_history_materials(next);
  prune = next();
  if (!(prune >= 0.0 && prune < 1.0))
    error->all(FLERR, "{}: the restart file's pruning tolerance {} is not within [0, 1)", who,
               prune);
}

/* ---------------------------------------------------------------------- */

void PairGranJaeger::write_data(FILE *fp)
{
  for (int i = 1; i <= atom->ntypes; i++)
    fprintf(fp, "%d %.17g %.17g %.17g %s\n", i, youngs[i][i], poisson[i][i], mu[i][i],
            damping_words(i, i).c_str());
}

/* ----------------------------------------------------------------------
   every pair, mixed ones included (read_data needs them all): a mixed pair
   is written as the one material (E, nu) on both bodies that has the same
   E* and G*. With kappa = E* / G* = (2 - nu) / (2 (1 - nu)) for like bodies:
   nu = (2 - 2 kappa)/(1 - 2 kappa), E = 2 (1 - nu^2) E*.
------------------------------------------------------------------------- */

void PairGranJaeger::write_data_all(FILE *fp)
{
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++) {
      double e = youngs[i][j], nu = poisson[i][j];
      if (!setflag[i][j]) {
        const double kappa = estar[i][j] / gstar[i][j];
        nu = (2.0 - 2.0 * kappa) / (1.0 - 2.0 * kappa);
        e = 2.0 * (1.0 - nu * nu) * estar[i][j];
      }
      fprintf(fp, "%d %d %.17g %.17g %.17g %s\n", i, j, e, nu, mu[i][j],
              damping_words(i, j).c_str());
    }
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
  const double *radius = atom->radius;
  const double radsum = radius[i] + radius[j];
  int owner, slot;
  const bool found = list && fix_history && find_single_slot(i, j, owner, slot);
  if (rsq >= radsum * radsum || !found) return 0.0;
  const double r = std::sqrt(rsq);
  const jaeger::Material mat = contact_material(i, j);
  const double P = jaeger::hertz_force(mat, radsum - r);
  fforce = P / r;    // force on i = fforce * (x_i - x_j): the normal part
  Vec3 T = {0.0, 0.0, 0.0};
  double ut = 0.0;
  double *rec = fix_history->record(owner, slot);
  if (rec && rec[H::R_LENGTH] > 0.0) {
    const jaeger::Stack st = stack_of(rec, max_length);
    const jaeger::Point &top = st.pts[st.n - 1];
    // T acts on p (the smaller ID), whichever list holds the pair; report it as the force on i
    const double sign = atom->tag[i] < atom->tag[j] ? 1.0 : -1.0;
    T = sign * frame::to_global(frame::load(rec + H::R_QW), top.tx, top.ty);
    ut = stored_tangential_energy(rec, mat);
    svector[S_STORED_T] = ut;
    svector[S_WORK] = rec[H::R_WORK];
    svector[S_LENGTH] = st.n;
  }
  set_single_forces(T, P, mat.mu);
  return jaeger::normal_energy(mat, radsum - r) + ut;
}

/* ---------------------------------------------------------------------- */

void *PairGranJaeger::extract(const char *str, int &dim)
{
  dim = 2;
  if (strcmp(str, "E") == 0) return (void *) youngs;
  if (strcmp(str, "nu") == 0) return (void *) poisson;
  if (strcmp(str, "mu") == 0) return (void *) mu;
  if (strcmp(str, "estar") == 0) return (void *) estar;
  if (strcmp(str, "gstar") == 0) return (void *) gstar;
  if (strcmp(str, "restitution") == 0) return (void *) restitution;
  if (strcmp(str, "restitution_t") == 0) return (void *) restitution_t;
  dim = 0;
  if (strcmp(str, "beta") == 0) return (void *) &beta;
  if (strcmp(str, "prune") == 0) return (void *) &prune;
  if (strcmp(str, "history/max") == 0) return (void *) &max_length;
  if (strcmp(str, "work") == 0) return (void *) &work;
  return extract_common(str, dim);
}

double PairGranJaeger::memory_usage()
{
  return PairGranDemc::memory_usage() +
      9.0 * (atom->ntypes + 1) * (atom->ntypes + 1) * sizeof(double);
}
