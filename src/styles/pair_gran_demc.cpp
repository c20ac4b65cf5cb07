/* ----------------------------------------------------------------------
   dem-contact: what the package's granular pair styles share (see header).
------------------------------------------------------------------------- */

#include "pair_gran_demc.h"

#include "demc_restart_entries.h"
#include "demc_restart_records.h"
#include "fix_demc_atom_energy.h"

#include "atom.h"
#include "comm.h"
#include "compute.h"
#include "error.h"
#include "fix.h"
#include "force.h"
#include "memory.h"
#include "modify.h"
#include "neigh_list.h"
#include "neighbor.h"
#include "update.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>

using namespace LAMMPS_NS;
using demc::Vec3;

/* ---------------------------------------------------------------------- */

PairGranDemc::PairGranDemc(LAMMPS *lmp, const char *name) :
    Pair(lmp), style_name(name), dt(0.0), history_index(0), tangential_sum(0.0),
    dissipated_damping(0.0), restart_histories_checked(true), onerad_dynamic(nullptr),
    maxrad_dynamic(nullptr), neighprev(0), atom_energy(nullptr), energy_per_atom(false),
    static_schedule(false), damp_n(nullptr), damp_t(nullptr), restitution(nullptr),
    restitution_t(nullptr), restart_has_restitution(false), freeze_groupbit(0)
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
  modify->add_fix(atom_energy_fix_id() + "_DUMMY all DUMMY");
}

PairGranDemc::~PairGranDemc()
{
  // (whichever of the two is in the list: a restart whose per-atom energy record stopped with an
  // error left the fix in the placeholder's place, though the pair style never took it)
  if (!copymode)
    for (const std::string &id : {atom_energy_fix_id(), atom_energy_fix_id() + "_DUMMY"})
      if (modify->get_fix_by_id(id)) modify->delete_fix(id);
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
  modify->add_fix(history_fix_id() + "_DUMMY all DUMMY");
}

void PairGranDemc::release_style(bool history_made,
                                 std::initializer_list<double **> coefficient_arrays)
{
  delete[] svector;
  // (a history fix whose creation stopped with an error, in unpack_restart(), is in the fix
  // list in the placeholder's place, though the pair style never got it)
  const std::string made = history_fix_id(), placeholder = made + "_DUMMY";
  if (!history_made && modify->get_fix_by_id(placeholder))
    modify->delete_fix(placeholder);
  else if (modify->get_fix_by_id(made))
    modify->delete_fix(made);
  if (!allocated) return;
  memory->destroy(setflag);
  memory->destroy(cutsq);
  for (double **a : coefficient_arrays) memory->destroy(a);
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
    error->all(FLERR,
               "Pair {} requires atom attributes radius, rmass, omega (e.g. atom_style sphere)",
               style_name);
  if (comm->ghost_velocity == 0)
    error->all(FLERR, "Pair {} requires ghost atoms store velocity: use comm_modify vel yes",
               style_name);
  check_overlapping_contact_laws();
  refuse_unfit_computes();
  neighbor->add_request(this, NeighConst::REQ_SIZE | NeighConst::REQ_HISTORY);
  restart_histories_checked = false;
  dt = update->dt;
  set_max_radii();
  if (atom_energy == nullptr) {
    atom_energy = dynamic_cast<FixDemcAtomEnergy *>(modify->replace_fix(
        atom_energy_fix_id() + "_DUMMY", atom_energy_fix_id() + " all DEMC/ATOM_ENERGY", 1));
    atom_energy->attach(this);
  }
}

/* ----------------------------------------------------------------------
   LAMMPS commands that cannot give the right numbers with these styles
   stop here instead of reporting wrong ones without a word:
   - those that take a pair's force to be single()'s fforce times the
     distance vector (central): for a contact that is its normal part only,
     so they would leave out the tangential forces (compute pair/local's
     force, fx, fy, fz are the normal part by its definition, and its p1,
     p2, p3 give the tangential force);
   - compute rattlers/atom with newton off: it counts a pair with a ghost
     atom on one side only, for the owned atom, so the ghost's owner misses
     that contact.
------------------------------------------------------------------------- */

void PairGranDemc::refuse_unfit_computes()
{
  for (const char *pattern : {"^group/group", "^stress/mop", "^stress/cartesian",
                              "^stress/cylinder", "^stress/spherical"})
    for (const auto *c : modify->get_compute_by_style(pattern))
      error->all(FLERR,
                 "Pair {}: compute {} ({}) takes each pair force to act along the line of "
                 "centres and would leave out the tangential contact forces. Sum compute "
                 "pair/local's fx fy fz (normal) and p1 p2 p3 (tangential) instead",
                 running_style_name(), c->id, c->style);
  if (force->newton_pair) return;
  for (const auto *c : modify->get_compute_by_style("^rattlers/atom"))
    error->all(FLERR,
               "Pair {}: compute {} ({}) miscounts contacts with newton off: it counts a "
               "contact with a ghost atom for the owned atom only. Use newton on (the CPU "
               "styles), or compute contact/atom",
               running_style_name(), c->id, c->style);
}

/* ----------------------------------------------------------------------
   A restart file's contact histories reach a pair style only through a
   history fix of the same ID and style: the one that wrote them. With
   another pair style (gran/kuhn <-> gran/jaeger, LAMMPS's gran/hooke/history,
   gran/hertz/history or granular, or the CPU <-> Kokkos variant), LAMMPS
   drops them at the first run with a line in the log, and every contact
   starts afresh: its tangential force, load history and work are lost.
   Stop instead. Called from init_one(): by then every pair (sub-)style has
   made its history fix in init_style() and taken its records, and LAMMPS
   frees the records only afterwards (Modify::init()).
------------------------------------------------------------------------- */

std::string PairGranDemc::running_style_name() const
{
  return style_name + (kokkosable ? "/kk" : "");
}

/* ---------------------------------------------------------------------- */

void PairGranDemc::check_restart_histories()
{
  if (restart_histories_checked) return;
  restart_histories_checked = true;
  const std::string me = running_style_name();
  for (const auto &e : demc_restart::unclaimed_peratom_entries(modify)) {
    if (!demc_restart::is_contact_history_style(e.style)) continue;
    error->all(FLERR,
               "Pair {}: the restart file holds contact histories written by another pair style "
               "or variant (fix ID {}, fix style {}), which pair {} cannot read: the run would go "
               "on with every contact fresh. Use the pair style that wrote the restart file, or "
               "drop the histories on purpose: write_data FILE nocoeff right after read_restart, "
               "then read_data FILE before the new pair style",
               me, e.id, e.style, me);
  }
}

/* ----------------------------------------------------------------------
   pair hybrid/overlay (or hybrid/scaled) with two contact laws on one type
   pair: each computes the whole contact force and keeps its own history, so
   the contact is counted twice (stiffness, friction limit, dissipation).
   A contact law overlaid with a style that is not one (e.g. lj/cut for
   cohesion, or tracker) is fine.
------------------------------------------------------------------------- */

void PairGranDemc::check_overlapping_contact_laws()
{
  auto *hybrid = dynamic_cast<PairHybrid *>(force->pair);
  if (hybrid == nullptr || force->pair == this) return;
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++) {
      const auto sub = demc_restart::hybrid_substyles(hybrid, i, j);
      bool mine = false;
      for (auto *p : sub.pairs) mine = mine || p == this;
      if (!mine) continue;
      for (size_t k = 0; k < sub.pairs.size(); k++) {
        if (sub.pairs[k] == this) continue;
        const bool law = dynamic_cast<PairGranDemc *>(sub.pairs[k]) != nullptr ||
            demc_restart::is_contact_law_keyword(sub.keywords[k]);
        if (law)
          error->all(
              FLERR,
              "Pair {}: atom types {} {} have two contact laws in pair_style {} ({} and {}): "
              "each adds its own contact force and keeps its own history, so every contact "
              "would count twice. Give each type pair one granular pair style",
              style_name, i, j, force->pair_style, style_name, sub.keywords[k]);
      }
    }
}

/* ---------------------------------------------------------------------- */

void PairGranDemc::begin_atom_energy_tally(int eflag)
{
  atom_energy->begin_step(eflag != 0);
}

void PairGranDemc::end_atom_energy_tally()
{
  atom_energy->end_step();
}

/* ----------------------------------------------------------------------
   pair_coeff I J c1 c2 mu [damping nu_n nu_t]: what both laws take alike
------------------------------------------------------------------------- */

PairGranDemc::CoeffArgs PairGranDemc::read_coeff_args(int narg, char **arg, const char *law_names)
{
  if (narg != 5 && narg != 8)
    error->all(FLERR,
               "Pair_coeff {} expects: I J {} [damping nu_n nu_t | restitution e x_t], got {} "
               "arguments",
               style_name, law_names, narg);
  CoeffArgs c;
  for (int k = 0; k < 3; k++) c.law[k] = utils::numeric(FLERR, arg[2 + k], false, lmp);
  c.damp_n = c.damp_t = c.restitution = c.restitution_t = 0.0;
  if (c.law[2] < 0.0)
    error->all(FLERR, "Pair_coeff {}: mu must be >= 0, got {}", style_name, c.law[2]);
  if (narg == 5) return c;
  const bool damping = strcmp(arg[5], "damping") == 0;
  if (!damping && strcmp(arg[5], "restitution") != 0)
    error->all(FLERR, "Unknown pair_coeff {} keyword: {} (expected 'damping' or 'restitution')",
               style_name, arg[5]);
  const double a = utils::numeric(FLERR, arg[6], false, lmp);
  const double b = utils::numeric(FLERR, arg[7], false, lmp);
  const std::string problem = demc_damping_values_problem(!damping, a, b);
  if (!problem.empty()) error->all(FLERR, "Pair_coeff {}: {}", style_name, problem);
  (damping ? c.damp_n : c.restitution) = a;
  (damping ? c.damp_t : c.restitution_t) = b;
  return c;
}

/* ---------------------------------------------------------------------- */

std::string LAMMPS_NS::demc_damping_values_problem(bool restitution, double a, double b)
{
  if (!restitution)
    return (a < 0.0 || b < 0.0) ? fmt::format("damping coefficients must be >= 0, got {} {}", a, b)
                                : std::string();
  if (!(a > 0.0 && a <= 1.0))
    return fmt::format("the coefficient of restitution must be within (0, 1], got {}", a);
  if (b < 0.0) return fmt::format("the tangential dashpot ratio x_t must be >= 0, got {}", b);
  return {};
}

/* ----------------------------------------------------------------------
   keywords every style of the package takes: energy/atom yes|no,
   schedule static|dynamic, damping_cap yes|no, limit_damping
   returns the number of arguments used, 0 if arg[iarg] is not one
------------------------------------------------------------------------- */

int PairGranDemc::parse_common_keyword(int narg, char **arg, int iarg)
{
  const std::string keyword = arg[iarg];
  if (keyword == "limit_damping") {    // no value, as in LAMMPS's granular styles
    dashpot_limits.no_tension = true;
    return 1;
  }
  if (keyword != "energy/atom" && keyword != "schedule" && keyword != "damping_cap") return 0;
  if (iarg + 2 > narg)
    utils::missing_cmd_args(FLERR, "pair_style " + style_name + " " + keyword, error);
  const std::string value = arg[iarg + 1];
  if (keyword == "energy/atom") {
    energy_per_atom = utils::logical(FLERR, value, false, lmp);
  } else if (keyword == "damping_cap") {
    dashpot_limits.coulomb = utils::logical(FLERR, value, false, lmp);
  } else if (value == "static" || value == "dynamic") {
    static_schedule = (value == "static");
  } else {
    error->all(FLERR, "Pair_style {} schedule must be static or dynamic, got {}", style_name,
               value);
  }
  return 2;
}

// the shared keywords' values as bool (dim 0), for a style's extract()
void *PairGranDemc::extract_common(const char *name, int &dim)
{
  dim = 0;
  if (strcmp(name, "energy/atom") == 0) return (void *) &energy_per_atom;
  if (strcmp(name, "schedule/static") == 0) return (void *) &static_schedule;
  if (strcmp(name, "damping_cap") == 0) return (void *) &dashpot_limits.coulomb;
  if (strcmp(name, "limit_damping") == 0) return (void *) &dashpot_limits.no_tension;
  return nullptr;
}

void PairGranDemc::tally_atom_shares(int p, int q, double stored_n, double stored_t, double work_t,
                                     double damp)
{
  const double h = 0.5;
  atom_energy->add(p, h * stored_n, h * stored_t, h * work_t, h * damp);
  atom_energy->add(q, h * stored_n, h * stored_t, h * work_t, h * damp);
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

void PairGranDemc::write_settings_record(FILE *fp, int version,
                                         const std::vector<double> &values) const
{
  write_double(fp, demc_restart::record_marker());
  write_double(fp, version);
  write_double(fp, (double) values.size());
  fwrite(values.data(), sizeof(double), values.size(), fp);
}

bool PairGranDemc::read_settings_record(FILE *fp, int newest, std::vector<double> &values)
{
  int versioned = 0;
  if (comm->me == 0) {
    double first = 0.0;
    utils::sfread(FLERR, &first, sizeof(double), 1, fp, nullptr, error);
    versioned = demc_restart::is_record_marker(first) ? 1 : 0;
    if (!versioned && fseek(fp, -(long) sizeof(double), SEEK_CUR) != 0)
      error->one(FLERR, "Pair {}: cannot read the restart file's settings again", style_name);
  }
  MPI_Bcast(&versioned, 1, MPI_INT, 0, world);
  if (!versioned) return false;
  const std::string who = "Pair " + style_name + " settings";
  demc_restart::checked_version(lmp, read_double(fp), newest, who);
  const long n = demc_restart::checked_int(lmp, read_double(fp), 0, 1L << 24, who + ": values");
  values.resize(n);
  for (double &v : values) v = read_double(fp);
  return true;
}

/* ---------------------------------------------------------------------- */

void PairGranDemc::set_coefficients(const char *types_i, const char *types_j,
                                    std::initializer_list<std::pair<double **, double>> values)
{
  int ilo, ihi, jlo, jhi;
  utils::bounds(FLERR, types_i, 1, atom->ntypes, ilo, ihi, error);
  utils::bounds(FLERR, types_j, 1, atom->ntypes, jlo, jhi, error);
  int count = 0;
  for (int i = ilo; i <= ihi; i++)
    for (int j = MAX(jlo, i); j <= jhi; j++) {
      for (const auto &v : values) v.first[i][j] = v.second;
      setflag[i][j] = 1;
      count++;
    }
  if (count == 0) error->all(FLERR, "Incorrect args for pair coefficients" + utils::errorurl(21));
}

/* ----------------------------------------------------------------------
   the coefficients of the type pairs for restart files (rank 0 writes,
   rank 0 reads and broadcasts)
------------------------------------------------------------------------- */

void PairGranDemc::write_coefficients(FILE *fp, const std::vector<double **> &arrays) const
{
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++) {
      fwrite(&setflag[i][j], sizeof(int), 1, fp);
      if (!setflag[i][j]) continue;
      for (double **a : arrays) write_double(fp, a[i][j]);
    }
}

void PairGranDemc::read_coefficients(FILE *fp, const std::vector<double **> &arrays)
{
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++) {
      if (comm->me == 0) utils::sfread(FLERR, &setflag[i][j], sizeof(int), 1, fp, nullptr, error);
      MPI_Bcast(&setflag[i][j], 1, MPI_INT, 0, world);
      if (!setflag[i][j]) continue;
      for (double **a : arrays) a[i][j] = read_double(fp);
    }
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

/* ---------------------------------------------------------------------- */

void LAMMPS_NS::demc_refuse_rigid_bodies(LAMMPS *lmp, const std::string &who)
{
  for (const auto &fix : lmp->modify->get_fix_list())
    if (fix->rigid_flag)
      lmp->error->all(FLERR,
                      "{}: restitution damping does not support fix {} ({}): the effective mass "
                      "would be the particle's, not its rigid body's",
                      who, fix->id, fix->style);
}

/* ----------------------------------------------------------------------
   contact damping per type pair (both laws)
------------------------------------------------------------------------- */

void PairGranDemc::allocate_damping()
{
  const int n = atom->ntypes;
  memory->create(damp_n, n + 1, n + 1, "pair:damp_n");
  memory->create(damp_t, n + 1, n + 1, "pair:damp_t");
  memory->create(restitution, n + 1, n + 1, "pair:restitution");
  memory->create(restitution_t, n + 1, n + 1, "pair:restitution_t");
}

PairGranDemc::DampingKind PairGranDemc::damping_kind(int i) const
{
  if (damp_n[i][i] > 0.0 || damp_t[i][i] > 0.0) return DASHPOTS;
  if (restitution[i][i] > 0.0 && restitution[i][i] < 1.0) return RESTITUTION;
  return NO_DAMPING;
}

/* dashpots of an unset pair: geometric means. A type without damping next to one with
   restitution counts as e = 1, x_t = 0 (undamped); constant dashpots and restitution have no
   mixing rule. */
void PairGranDemc::mix_damping(int i, int j)
{
  const DampingKind ki = damping_kind(i), kj = damping_kind(j);
  if ((ki == DASHPOTS && kj == RESTITUTION) || (ki == RESTITUTION && kj == DASHPOTS))
    error->all(FLERR,
               "Pair {}: types {} and {} have different kinds of damping (constant dashpots and "
               "restitution): no mixing rule; set pair_coeff {} {} explicitly",
               style_name, i, j, i, j);
  for (double **a : {damp_n, damp_t}) a[i][j] = std::sqrt(a[i][i] * a[j][j]);
  restitution[i][j] = restitution_t[i][j] = 0.0;
  if (ki != RESTITUTION && kj != RESTITUTION) return;
  auto e_of = [&](int t) {
    return damping_kind(t) == RESTITUTION ? restitution[t][t] : 1.0;
  };
  auto ratio_of = [&](int t) {
    return damping_kind(t) == RESTITUTION ? restitution_t[t][t] : 0.0;
  };
  restitution[i][j] = std::sqrt(e_of(i) * e_of(j));
  restitution_t[i][j] = std::sqrt(ratio_of(i) * ratio_of(j));
}

void PairGranDemc::set_pair_dashpots(int i, int j, bool hertz)
{
  demc::ContactDashpots d;
  d.nu_n = damp_n[i][j];
  d.nu_t = damp_t[i][j];
  if (restitution[i][j] > 0.0) {
    const double e = restitution[i][j];
    d.restitution_factor = hertz ? demc::hertz_restitution_factor(e)
                                 : demc::linear_restitution_factor(e);
    d.tangential_ratio = restitution_t[i][j];
  }
  const int stride = atom->ntypes + 1;
  pair_dashpots.resize(stride * stride);
  pair_dashpots[i * stride + j] = pair_dashpots[j * stride + i] = d;
}

/* a type pair whose dashpots depend on the masses (restitution e < 1): a type with it (then
   its unset pairs mix to e < 1 too), or a pair set with it. Called before init_one(), which
   fills the unset pairs: their values are not read. */
bool PairGranDemc::any_restitution_damping() const
{
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++) {
      if (i == j && damping_kind(i) == RESTITUTION) return true;
      if (i != j && setflag[i][j] && restitution[i][j] > 0.0 && restitution[i][j] < 1.0)
        return true;
    }
  return false;
}

// pair_coeff's damping keyword and values of type pair i, j
std::string PairGranDemc::damping_words(int i, int j) const
{
  if (restitution[i][j] > 0.0)
    return fmt::format("restitution {:.17g} {:.17g}", restitution[i][j], restitution_t[i][j]);
  return fmt::format("damping {:.17g} {:.17g}", damp_n[i][j], damp_t[i][j]);
}

void PairGranDemc::init_restitution_damping()
{
  freeze_groupbit = 0;
  if (!any_restitution_damping()) return;
  demc_refuse_rigid_bodies(lmp, "Pair " + running_style_name());
  const auto freezes = modify->get_fix_by_style("^freeze");
  if (freezes.size() > 1)
    error->all(FLERR, "Pair {}: restitution damping allows one fix freeze only",
               running_style_name());
  if (!freezes.empty()) freeze_groupbit = freezes.front()->groupbit;
}

void PairGranDemc::write_law_coefficients(FILE *fp, std::vector<double **> law) const
{
  law.insert(law.end(), {damp_n, damp_t, restitution, restitution_t});
  write_coefficients(fp, law);
}

void PairGranDemc::read_law_coefficients(FILE *fp, std::vector<double **> law,
                                         bool with_restitution)
{
  law.insert(law.end(), {damp_n, damp_t});
  if (with_restitution) law.insert(law.end(), {restitution, restitution_t});
  read_coefficients(fp, law);
  if (with_restitution) return;
  for (int i = 0; i <= atom->ntypes; i++)
    for (int j = 0; j <= atom->ntypes; j++) restitution[i][j] = restitution_t[i][j] = 0.0;
}
