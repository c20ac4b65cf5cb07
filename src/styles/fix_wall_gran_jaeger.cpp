/* ----------------------------------------------------------------------
   dem-contact: faithful DEM contact laws for LAMMPS (plugin package)
   fix wall/gran/jaeger: walls with Jaeger's Hertz-Mindlin-Deresiewicz
   contact.

   LAMMPS work only: the per-particle record (equivalent load history,
   contact frame, work) as the Store of pair_style gran/jaeger's contact
   step (demc::jaeger::contact_step(), kernels/jaeger_step.h), with the
   particle as p and the wall as q. Wall geometry, motion, force and
   energy output: FixWallGranDemc.
------------------------------------------------------------------------- */

#include "fix_wall_gran_jaeger.h"

#include "demc_citations.h"
#include "demc_exchange_room.h"
#include "jaeger_step.h"
#include "resistance_keywords.h"

#include "atom.h"
#include "citeme.h"
#include "comm.h"
#include "error.h"
#include "force.h"
#include "pair.h"

#include <algorithm>
#include <climits>
#include <cstring>

using namespace LAMMPS_NS;
using demc::Vec3;
namespace jaeger = demc::jaeger;
namespace frame = demc::frame;

namespace {
using W = FixWallGranJaeger;
// the fields of a wall record the driver reads and writes: the pair records' (only the stack
// starts later, after the material)
using Layout =
    jaeger::RecordLayout<jaeger::REC_LENGTH, jaeger::REC_QW, jaeger::REC_WORK, jaeger::REC_DAMPWORK,
                         jaeger::REC_STORED, jaeger::REC_FDAMP_X, W::W_HEADER>;
// with rolling or twisting resistance: its slots after the material, then the history
using ResistLayout = jaeger::WithResistance<Layout>;
namespace rt = demc::resistance;
constexpr int POINT = 4;    // doubles per history point
static_assert(sizeof(jaeger::Point) == POINT * sizeof(double), "a history point is 4 doubles");

int stack_length(const std::vector<double> &rec)
{
  return rec.empty() ? 0 : static_cast<int>(rec[W::W_LENGTH]);
}

// the part of a record that carries information (no spare capacity); header: the values before
// the history
int used_size(const std::vector<double> &rec, int header)
{
  return rec.empty() ? 0 : header + POINT * stack_length(rec);
}

int room_of(const std::vector<double> &rec, int header)
{
  return static_cast<int>((rec.size() - header) / POINT);
}

// a particle's record: the Store of demc::jaeger::contact_step()
class WallStore {
 public:
  WallStore(std::vector<double> &rec, int header, int side, int type, const jaeger::Material &mat) :
      rec(rec), header(header), side(side), type(type), mat(mat)
  {
  }
  double *record() { return rec.empty() ? nullptr : rec.data(); }
  double *open()
  {
    rec.assign(header + POINT * INITIAL_RECORD_CAPACITY, 0.0);
    rec[W::W_SIDE] = side;
    rec[W::W_TYPE] = type;
    rec[W::W_ESTAR] = mat.Estar;
    rec[W::W_GSTAR] = mat.Gstar;
    rec[W::W_MU] = mat.mu;
    return rec.data();
  }
  int room(const double *) const { return room_of(rec, header); }
  double *reserve(double *, int points)
  {
    rec.resize(header + POINT * static_cast<size_t>(points));
    return rec.data();
  }
  void close(double *) { rec.clear(); }

 private:
  static constexpr int INITIAL_RECORD_CAPACITY = 8;    // points
  std::vector<double> &rec;
  int header, side, type;
  const jaeger::Material &mat;
};

}    // namespace

/* ----------------------------------------------------------------------
   fix ID group wall/gran/jaeger E nu mu [damping nu_n nu_t | restitution e x_t]
       [beta b] [prune tol] [history/max N] [rolling sds k_roll gamma_roll mu_roll]
       [twisting sds k_twist gamma_twist mu_twist | twisting marshall]
       wallstyle args [wiggle ... | translate ... | rotate ...]
------------------------------------------------------------------------- */

FixWallGranJaeger::FixWallGranJaeger(LAMMPS *lmp, int narg, char **arg) :
    FixWallGranDemc(lmp, narg, arg), youngs(0.0), poisson(0.0), mu(0.0), beta(0.0),
    prune(jaeger::kDefaultPrune), max_length(0)
{
  if (lmp->citeme) lmp->citeme->add(demc::cite_kuhn_jaeger);
  if (narg < 7)
    error->all(FLERR,
               "Fix {} expects: E nu mu [damping nu_n nu_t | restitution e x_t] [beta b] "
               "[history/max N] wallstyle args [keyword value ...]",
               style);
  youngs = utils::numeric(FLERR, arg[3], false, lmp);
  poisson = utils::numeric(FLERR, arg[4], false, lmp);
  mu = utils::numeric(FLERR, arg[5], false, lmp);
  parse_wall(narg, arg, 6);
  if (youngs <= 0.0) error->all(FLERR, law_error("E must be > 0, got {}"), youngs);
  if (poisson <= -1.0 || poisson >= 0.5)
    error->all(FLERR, law_error("nu must be within (-1, 0.5), got {}"), poisson);
  if (mu < 0.0) error->all(FLERR, law_error("mu must be >= 0, got {}"), mu);

  maxexchange_dynamic = 1;
  maxexchange = 1;
  FixWallGranJaeger::grow_arrays(atom->nmax);
  atom->add_callback(Atom::GROW);
  atom->add_callback(Atom::RESTART);
}

FixWallGranJaeger::~FixWallGranJaeger()
{
  atom->delete_callback(id, Atom::GROW);
  atom->delete_callback(id, Atom::RESTART);
}

/* ---------------------------------------------------------------------- */

int FixWallGranJaeger::law_keyword(int narg, char **arg, int iarg)
{
  const int used = parse_damping_keyword(narg, arg, iarg, true);
  if (used) return used;
  const int resist = parse_resistance_keyword(lmp, "fix " + std::string(style), narg, arg, iarg,
                                              resistance);
  if (resist) return resist;
  const bool known = strcmp(arg[iarg], "beta") == 0 || strcmp(arg[iarg], "prune") == 0 ||
      strcmp(arg[iarg], "history/max") == 0;
  if (!known) return 0;
  if (iarg + 2 > narg)
    utils::missing_cmd_args(FLERR, fmt::format("fix {} {}", style, arg[iarg]), error);
  if (strcmp(arg[iarg], "beta") == 0) {
    beta = utils::numeric(FLERR, arg[iarg + 1], false, lmp);
    if (beta < 0.0 || beta > 2.0)
      error->all(FLERR, law_error("beta must be within [0, 2], got {}"), beta);
  } else if (strcmp(arg[iarg], "prune") == 0) {
    prune = utils::numeric(FLERR, arg[iarg + 1], false, lmp);
    if (!(prune >= 0.0 && prune < 1.0))
      error->all(FLERR, law_error("prune must be within [0, 1), got {}"), prune);
  } else {
    max_length = utils::inumeric(FLERR, arg[iarg + 1], false, lmp);
    if (max_length < 2)
      error->all(FLERR, law_error("history/max must be >= 2 points, got {}"), max_length);
  }
  return 2;
}

/* ----------------------------------------------------------------------
   effective moduli of particle type t and the wall: with pair_style
   gran/jaeger the type's E, nu (its pair_coeff t t) and the wall's;
   otherwise the wall's E, nu for both bodies
------------------------------------------------------------------------- */

void FixWallGranJaeger::init()
{
  FixWallGranDemc::init();
  init_records_from_restart();
  Pair *pair = force->pair_match("gran/jaeger", 0);
  int dim = 0;
  auto **pe = pair ? (double **) pair->extract("E", dim) : nullptr;
  auto **pnu = pair ? (double **) pair->extract("nu", dim) : nullptr;
  const int ntypes = atom->ntypes;
  estar.assign(ntypes + 1, 0.0);
  gstar.assign(ntypes + 1, 0.0);
  for (int t = 1; t <= ntypes; t++) {
    const double e = (pe && pnu) ? pe[t][t] : youngs, nu = (pe && pnu) ? pnu[t][t] : poisson;
    estar[t] = jaeger::effective_young(youngs, poisson, e, nu);
    gstar[t] = jaeger::effective_shear(youngs, poisson, e, nu);
  }
}

// the wall has infinite radius: the effective radius is the particle's
jaeger::Material FixWallGranJaeger::material(int i) const
{
  const int t = atom->type[i];
  return jaeger::material(estar[t], gstar[t], atom->radius[i], mu);
}

/* ---------------------------------------------------------------------- */

int FixWallGranJaeger::history_side(int i) const
{
  return records[i].empty() ? NO_SIDE : static_cast<int>(records[i][W_SIDE]);
}

void FixWallGranJaeger::keep_material(std::vector<double> &rec, const jaeger::Material &mat)
{
  if (rec.empty()) return;
  const jaeger::Material old = jaeger::material(rec[W_ESTAR], rec[W_GSTAR], mat.R, rec[W_MU]);
  const int room = room_of(rec, record_header());
  cumulative[C_WORK] += jaeger::with_layout<Layout>(resisting(), [&](auto layout) {
    // a history longer than history/max is shortened first, with the material it was made
    // with, as the pair styles do (gran/jaeger/kk can shorten it only so)
    jaeger::trim_record<decltype(layout)>(old, rec.data(), room, max_length);
    // the stored energy the new material makes of the unchanged field: work, not friction
    return jaeger::move_to_material<decltype(layout)>(rec.data(), room, old, mat);
  });
  rec[W_ESTAR] = mat.Estar;
  rec[W_GSTAR] = mat.Gstar;
  rec[W_MU] = mat.mu;
}

// friction dissipation = all tangential work done minus what is stored now
double FixWallGranJaeger::friction_dissipation(double stored_tangential) const
{
  return cumulative[C_WORK] - stored_tangential;
}

/* ----------------------------------------------------------------------
   the contact step of particle c.p with surface `side`, touching or parting;
   at setup (advance = false) the force is read off the record without
   changing it
------------------------------------------------------------------------- */

jaeger::StepOutcome FixWallGranJaeger::step(const Contact &c, int side, bool touching,
                                            bool advance)
{
  std::vector<double> &rec = records[c.p];
  const jaeger::Material mat = material(c.p);
  keep_material(rec, mat);
  WallStore store(rec, record_header(), side, atom->type[c.p], mat);
  jaeger::StepSettings s;
  s.beta = beta;
  s.prune = prune;
  s.max_length = max_length;
  s.work = true;
  s.carry_length = 0;    // (U_t is carried on every step: the fix tallies it on every step)
  s.dt = dt;
  s.advance = advance;
  // (at a run's setup the last step's dashpot force again, as the limits left it: W_FDAMP_X)
  // against the wall (infinite mass) the effective mass is the particle's; the wall turns with
  // its rotation over the step
  const bool resisting = this->resisting();
  const Vec3 w_rel = resisting ? (1.0 / dt) * c.dth_q - demc_vec(atom->omega[c.p])
                               : Vec3{0.0, 0.0, 0.0};
  const jaeger::StepContact sc = {c.n,     c.du, c.overlap, demc::contact_twirl(c), atom->rmass[c.p],
                                  w_rel};
  const jaeger::StepOutcome o = jaeger::with_layout<Layout>(resisting, [&](auto layout) {
    return jaeger::contact_step<decltype(layout)>(store, mat, sc, touching, dashpots,
                                                  dashpot_limits, s,
                                                  resisting ? &resistance : nullptr);
  });
  cumulative[C_WORK] += o.work;
  if (advance) cumulative[C_DAMPING] += o.damping_work;
  return o;
}

int FixWallGranJaeger::record_header() const
{
  return resisting() ? ResistLayout::header : W_HEADER;
}

FixWallGranDemc::Touch FixWallGranJaeger::touch(const Contact &c, int side, bool advance)
{
  const jaeger::StepOutcome o = step(c, side, true, advance);
  return {o.force, o.un, o.ut, o.sliding, o.torque};
}

/* separation: the contact step to an open contact adds the work done while the springs leave;
   what was stored then counts as dissipated. At setup, or with the surface out of reach, the
   record goes without a last step. */

void FixWallGranJaeger::part(const Contact &c, bool advance)
{
  if (advance && !records[c.p].empty()) step(c, history_side(c.p), false, true);
  records[c.p].clear();
}

/* ---------------------------------------------------------------------- */

void FixWallGranJaeger::post_force(int vflag)
{
  FixWallGranDemc::post_force(vflag);
  update_maxexchange();
}

// records grow: room in Comm::exchange() for the largest one this rank may send (it only grows)
void FixWallGranJaeger::update_maxexchange()
{
  const int header = record_header();
  int largest = 0;
  for (int i = 0; i < atom->nlocal; i++)
    largest = std::max(largest, used_size(records[i], header));
  maxexchange = demc_exchange::exchange_room(largest + 1, maxexchange);
}

/* ----------------------------------------------------------------------
   per-atom records: grow, move and migrate with the atoms, and go to
   restart files; only the used part of a record is sent
------------------------------------------------------------------------- */

void FixWallGranJaeger::grow_arrays(int nmax)
{
  records.resize(nmax);
}

void FixWallGranJaeger::copy_arrays(int i, int j, int)
{
  if (i != j) records[j] = records[i];
}

void FixWallGranJaeger::set_arrays(int i)
{
  records[i].clear();
}

int FixWallGranJaeger::exchange_size(int i) const
{
  return used_size(records[i], record_header()) + 1;
}

int FixWallGranJaeger::pack_exchange(int i, double *buf)
{
  const int n = used_size(records[i], record_header());
  buf[0] = n;
  std::copy(records[i].begin(), records[i].begin() + n, buf + 1);
  return n + 1;
}

/* A record is sent as its used part, header + 4 n values for a history of n points. */

int FixWallGranJaeger::unpack_exchange(int nlocal, double *buf)
{
  const int n = static_cast<int>(buf[0]);
  records[nlocal].assign(buf + 1, buf + 1 + n);
  maxexchange = demc_exchange::exchange_room(n + 1, maxexchange);
  return n + 1;
}

/* Restart: records spread evenly over the atoms' restart slots (demc_restart_records.h), so
   that reading a file back needs memory for the mean record, not the longest. */

int FixWallGranJaeger::maxsize_restart()
{
  // called by Modify::write_restart() on every rank before the atoms' records are packed
  // (records of a file read since, not yet taken by an init(): write_restart noinit)
  init_records_from_restart();
  restart_out.build(lmp, [this](int i) {
    return std::make_pair(records[i].data(), (long) used_size(records[i], record_header()));
  });
  return restart_out.max_record_size(lmp);
}

int FixWallGranJaeger::size_restart(int nlocal)
{
  return restart_out.record_size(lmp, nlocal);
}

int FixWallGranJaeger::pack_restart(int i, double *buf)
{
  const int n = restart_out.pack(i, buf);
  if (i == atom->nlocal - 1) restart_out.clear();
  return n;
}

void FixWallGranJaeger::unpack_restart(int nlocal, int nth)
{
  restart_in.take(lmp, nlocal, nth, law_error("wall contact history"));
}

void FixWallGranJaeger::restore_record(int i, std::vector<double> &rec)
{
  if (!rec.empty()) {
    using demc_restart::checked_int;
    const long n = (long) rec.size();
    const int header = record_header();
    checked_int(lmp, (double) n, header, INT_MAX, law_error("wall contact history size"));
    const long length =
        checked_int(lmp, rec[W_LENGTH], 0, (n - header) / POINT, law_error("history length"));
    checked_int(lmp, (double) n, header + POINT * length, header + POINT * length,
                law_error("wall contact history size for its length (with or without rolling "
                          "or twisting as the fix that wrote it)"));
    checked_int(lmp, rec[W_SIDE], LO_SIDE, HI_SIDE, law_error("wall side of a contact"));
    checked_int(lmp, rec[W_TYPE], 0, INT_MAX, law_error("particle type of a contact"));
  }
  records[i] = std::move(rec);
}

void FixWallGranJaeger::restore_exchanged(int i, const double *buf, long n)
{
  demc_restart::checked_int(lmp, (double) n, 1, INT_MAX, law_error("wall record size"));
  demc_restart::checked_int(lmp, buf[0], n - 1, n - 1, law_error("wall record size"));
  std::vector<double> rec(buf + 1, buf + n);
  restore_record(i, rec);
}

// the records of a restart file that sit with other atoms, to their atoms (collective)
void FixWallGranJaeger::init_records_from_restart()
{
  restart_in.assemble(
      lmp, [this](int i, std::vector<double> &rec) { restore_record(i, rec); },
      law_error("wall contact history"));
  update_maxexchange();
}

/* ---------------------------------------------------------------------- */

void *FixWallGranJaeger::extract(const char *str, int &dim)
{
  dim = 1;
  if (strcmp(str, "estar") == 0) return (void *) estar.data();
  if (strcmp(str, "gstar") == 0) return (void *) gstar.data();
  dim = 0;
  return nullptr;
}

double FixWallGranJaeger::memory_usage()
{
  double bytes = (double) records.capacity() * sizeof(std::vector<double>);
  for (const auto &rec : records) bytes += (double) rec.capacity() * sizeof(double);
  return bytes + contacts_memory();
}
