/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: what the package's granular pair styles share.

   PairGranDemc does the LAMMPS side that does not depend on the contact law:
   input checks, neighbor requests, cutoffs from particle radii, the
   geometry and movements of a contact over one step (the input of every
   kernel), applying a contact force with its torques, energy and virial
   tallies, the energy vector read by compute pair, and the unique ID of a
   style's history fix. Derived styles add the law's coefficients, history
   and the kernel call.
------------------------------------------------------------------------- */

#ifndef DEMC_PAIR_GRAN_DEMC_H
#define DEMC_PAIR_GRAN_DEMC_H

#include "pair.h"

#include "atom.h"
#include "force.h"
#include "neigh_list.h"

#include "contact_geometry.h"
#include "kernel_common.h"

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

// host code inlined even where GCC judges it too big (DEMC_FN_FLAT would make it device code too)
#if defined(__GNUC__)
#define DEMC_HOST_FLAT inline __attribute__((always_inline))
#else
#define DEMC_HOST_FLAT
#endif

namespace LAMMPS_NS {

class PairGranDemc : public Pair {
 public:
  PairGranDemc(class LAMMPS *, const char *style_name);
  ~PairGranDemc() override;
  void init_style() override;
  void reset_dt() override;
  double memory_usage() override;

  // layout of pvector (compute pair <style>): stored normal and tangential elastic energy,
  // cumulative friction and damping dissipation, contacts, sliding contacts
  enum EnergyIndex { E_NORMAL, E_TANGENTIAL, E_FRICTION, E_DAMPING, E_CONTACTS, E_SLIDING, E_SIZE };

 protected:
  // the Kokkos styles' helper
  template <class DeviceType> friend struct PairGranDemcKokkosShared;
  std::string style_name;
  std::string running_style_name() const;    // style_name, with /kk for the Kokkos variants
  double dt;
  int history_index;    // makes the history fix ID unique within this LAMMPS instance
  // this rank's cumulative sums: tangential (gran/kuhn: friction dissipation; gran/jaeger:
  // tangential work) and damping dissipation; kept in restart files by fix DEMC/ATOM_ENERGY
  double tangential_sum, dissipated_damping;
  friend class FixDemcAtomEnergy;
  double *onerad_dynamic, *maxrad_dynamic;
  int neighprev;

  void allocate_base();
  // constructor and destructor work of a style whose history fix is made at init: per-contact
  // values of single(), write_data, a placeholder that keeps the fix's place in the fix list
  void prepare_style(int n_single_extra);
  void release_style(bool history_made, std::initializer_list<double **> coefficient_arrays);
  void set_max_radii();
  double contact_cutoff(int i, int j) const;
  std::string history_fix_id() const;
  std::string atom_energy_fix_id() const { return history_fix_id() + "_ATOM_ENERGY"; }
  void choose_history_index();
  // init: stop with an error instead of losing contact histories without notice
  bool restart_histories_checked;    // reset by init_style(), set by the first init_one()
  // call at the top of init_one(): every style's history fix exists then
  void check_restart_histories();
  void check_overlapping_contact_laws();    // pair hybrid/overlay: one contact law per type pair
  // stop if a compute cannot give the right numbers (compute group/group, stress/mop, ...)
  void refuse_unfit_computes();
  // the start of every single(): svector and fforce zeroed, and a stop unless asked about atoms
  // i and j at their own distance (pair_write is not)
  void begin_single(int i, int j, double rsq, double &fforce);
  /* single()'s extra values. The first four are LAMMPS's granular styles' layout, which its
     commands read (compute fabric force/tangential takes svector[3] as |Ft|): the tangential
     force on i and its magnitude. Then the normal force and the mobilised friction, then each
     law's own (from S_LAW). */
  enum SingleIndex { S_FTX, S_FTY, S_FTZ, S_FT, S_FN, S_MOBILISED, S_LAW };
  // svector[S_FTX..S_MOBILISED] from the tangential force on i, the normal force and mu
  void set_single_forces(const demc::Vec3 &ft_on_i, double fn, double mu);
  /* the history slot of pair (i, j) for single(): in i's list (owner = i), or else in j's list
     (owner = j; a command's own neighbor list need not hold a pair on the same side as the pair
     style's); only owned atoms have lists. slot_in(a, b) gives b's slot in a's list, -1 if
     none. False if neither holds it. */
  template <class SlotIn>
  bool find_single_slot(int i, int j, SlotIn &&slot_in, int &owner, int &slot)
  {
    const int nlocal = atom->nlocal;
    owner = i;
    slot = (i >= 0 && i < nlocal) ? slot_in(i, j) : -1;
    if (slot >= 0) return true;
    if (j < 0 || j >= nlocal) return false;
    owner = j;
    slot = slot_in(j, i);
    return slot >= 0;
  }
  class FixDemcAtomEnergy *atom_energy;
  // per-atom energies (keyword energy/atom yes; off by default for their cost): begin and
  // end each compute(); each contact gives half to p and q
  bool energy_per_atom;
  /* keyword schedule: how the Kokkos variants share the neighbor list among host threads
     (dynamic: blocks handed out as threads become free; static: fixed shares, so that the
     sums of forces, formed in thread copies, are the same bit for bit in every run).
     Without Kokkos a rank runs one thread and the keyword has no effect. */
  bool static_schedule;
  /* keywords damping_cap yes|no (default yes: the tangential dashpot's force counts towards
     Coulomb's limit) and limit_damping (the normal dashpot never makes the normal force
     attractive): demc::limit_dashpot_force() */
  demc::DashpotLimits dashpot_limits;
  /* Each record keeps the dashpot force of its contact's last step. Only the first setup after
     read_restart repeats it, so that the run continues as the one that went straight on; any
     other setup (a run after a run) sees velocities that the input may have set since, which
     that force does not know of, and has no dashpot force, as without the record. */
  bool setup_repeats_dashpots = false;
  bool repeats_dashpots(bool advance) const { return !advance && setup_repeats_dashpots; }
  void setup_done(bool advance)
  {
    if (!advance) setup_repeats_dashpots = false;
  }
  void reset_common_keywords()    // at the start of settings()
  {
    energy_per_atom = false;
    static_schedule = false;
    dashpot_limits = demc::DashpotLimits();
  }
  int parse_common_keyword(int narg, char **arg, int iarg);
  /* energy/atom, schedule, damping_cap no and limit_damping as one number of a restart file's
     settings: bits 1, 2, 8 and 16 (gran/kuhn adds bit 4 for its own use). A file written before
     a keyword was kept holds 0 in its bit, which reads as the keyword's default: schedule
     dynamic, damping_cap yes, no limit_damping. */
  double common_keywords_code() const
  {
    return (energy_per_atom ? 1.0 : 0.0) + (static_schedule ? 2.0 : 0.0) +
        (dashpot_limits.coulomb ? 0.0 : 8.0) + (dashpot_limits.no_tension ? 16.0 : 0.0);
  }
  void set_common_keywords(double code)
  {
    const int bits = static_cast<int>(code);
    energy_per_atom = (bits & 1) != 0;
    static_schedule = (bits & 2) != 0;
    dashpot_limits.coulomb = (bits & 8) == 0;
    dashpot_limits.no_tension = (bits & 16) != 0;
  }
  // "energy/atom", "schedule/static", "damping_cap", "limit_damping"
  void *extract_common(const char *name, int &dim);
  // pair_coeff I J c1 c2 mu [damping nu_n nu_t | restitution e x_t], read and checked for what
  // both laws share
  struct CoeffArgs {
    double law[3];            // c1 c2 mu; mu checked >= 0, the law checks c1 and c2
    double damp_n, damp_t;    // 0 without the keyword; checked >= 0
    // coefficient of restitution in (0, 1] and the tangential to normal dashpot ratio (>= 0);
    // 0 0 without the keyword
    double restitution, restitution_t;
  };
  CoeffArgs read_coeff_args(int narg, char **arg, const char *law_names);    // e.g. "kn kt mu"
  /* Contact damping per type pair, both laws: constant dashpots damp_n, damp_t, or a
     coefficient of restitution (0: none) and the tangential ratio; the kernel's ContactDashpots
     per type pair (index i * (n + 1) + j) after init_one. */
  double **damp_n, **damp_t, **restitution, **restitution_t;
  bool restart_has_restitution;    // read_restart_settings(): the file's coefficients hold them
  std::vector<demc::ContactDashpots> pair_dashpots;
  void allocate_damping();    // from the style's allocate()
  // init_one() of an unset pair: geometric means (see mix_damping())
  void mix_damping(int i, int j);
  // init_one(): pair_dashpots of (i, j) and (j, i); hertz: the Hertz restitution factor, else
  // the linear spring's
  void set_pair_dashpots(int i, int j, bool hertz);
  // the kind of damping of type i (for mixing): none, constant dashpots, restitution (e < 1)
  enum DampingKind { NO_DAMPING, DASHPOTS, RESTITUTION };
  DampingKind damping_kind(int i) const;
  bool any_restitution_damping() const;
  std::string damping_words(int i,
                            int j) const;    // write_data: "damping ..." or "restitution ..."
  // restitution damping at init_style: no rigid bodies; fix freeze's group (its particles count
  // as infinitely heavy in the effective mass, as in pair_style granular), 0 without
  void init_restitution_damping();
  int freeze_groupbit;
  double contact_effective_mass(int i, int j) const
  {
    const double *rmass = atom->rmass;
    const int *mask = atom->mask;
    return demc::effective_mass(rmass[i], rmass[j], mask[i] & freeze_groupbit,
                                mask[j] & freeze_groupbit);
  }
  // a touching pair found by a contact loop's first pass, for its second
  struct TouchingPair {
    int i, j, jj;    // list position (i, jj), partner j
    double rsq;
    bool touching;    // (a pair that parted may also need its last step)
  };
  template <class Entry, int N = 32> struct BufferOf {    // N touching pairs at most
    static constexpr int SIZE = N;
    Entry pairs[SIZE];
    int n = 0;
    void add(const Entry &t) { pairs[n++] = t; }
    bool full() const { return n == SIZE; }
  };
  using ContactBuffer = BufferOf<TouchingPair>;
  // ask the caches for what the contact law will read and write of partner j and the history
  void prefetch_contact(int j, const double *history, int history_size) const
  {
    __builtin_prefetch(loop.vs + 3 * j);
    __builtin_prefetch(loop.omegas + 3 * j);
    __builtin_prefetch(loop.fs + 3 * j, 1);
    __builtin_prefetch(loop.torques + 3 * j, 1);
    if (history == nullptr) return;
    for (int k = 0; k < history_size; k += 8) __builtin_prefetch(history + k, 1);
    __builtin_prefetch(history + history_size - 1, 1);
  }
  /* LAMMPS state the inner loops read, copied once per compute() by begin_compute(): the
     compiler cannot keep atom->f etc. in registers across the force stores by itself.
     LAMMPS's per-atom 3-vectors are contiguous blocks, row k at [0] + 3 k: they are read as
     flat arrays, as reading a row through its row pointer is one more scattered load (a
     cache miss for a distant partner). */
  struct LoopState {
    const double *xs, *vs, *omegas;
    double *fs, *torques;
    int nlocal;
    bool newton;
  } loop;
  static double *flat(double **a) { return a ? a[0] : nullptr; }
  void begin_compute(int eflag, int vflag)
  {
    ev_init(eflag, vflag);
    loop = {flat(atom->x),      flat(atom->v), flat(atom->omega),      flat(atom->f),
            flat(atom->torque), atom->nlocal,  force->newton_pair != 0};
    begin_atom_energy(eflag);
  }
  void begin_atom_energy(int eflag)
  {
    if (energy_per_atom) begin_atom_energy_tally(eflag);
  }
  void end_atom_energy()
  {
    if (energy_per_atom) end_atom_energy_tally();
  }
  void tally_atoms(int p, int q, double stored_n, double stored_t, double work_t, double damp)
  {
    if (energy_per_atom) tally_atom_shares(p, q, stored_n, stored_t, work_t, damp);
  }
  void begin_atom_energy_tally(int eflag);
  void end_atom_energy_tally();
  void tally_atom_shares(int p, int q, double stored_n, double stored_t, double work_t,
                         double damp);
  int find_neighbor_index(int i, int j);
  // the k < jnum with neighbor(k) == j, searched from the one after the last found (pairs are
  // usually asked for in list order); -1 if none. Any list: neighbor(k) gives the atom index.
  template <class Neighbor> int find_neighbor_slot(int jnum, int j, Neighbor &&neighbor)
  {
    for (int k = 0; k < jnum; k++) {
      neighprev = (neighprev + 1) % jnum;
      if (neighbor(neighprev) == j) return neighprev;
    }
    return -1;
  }

  // the contact of spheres p and q at centre distance r, in the kernels' compact form
  // (old_normal: see demc::sphere_contact())
  demc::SphereContact sphere_contact(int p, int q, double r, bool advance,
                                     bool old_normal = true) const;
  // add force on p (and -force on q) with torques; tally energy and virial for list pair (i, j)
  void apply_force(int p, int q, const demc::SphereContact &c, const demc::Vec3 &force_on_p, int i,
                   int j, double energy)
  {
    const demc::Vec3 axis = demc::sphere_torque_arm(c, force_on_p);
    add_force(p, q, force_on_p, c.arm_p * axis, c.arm_q * axis, i, j, energy);
  }
  // force F on p and -F on q with the given torques
  void add_force(int p, int q, const demc::Vec3 &F, const demc::Vec3 &tor_p,
                 const demc::Vec3 &tor_q, int i, int j, double energy);
  double pair_weight(int j) const;    // 1, or 1/2 for a pair computed on two ranks (newton off)

  void write_double(FILE *fp, double value) const;
  double read_double(FILE *fp);
  /* the settings' restart record: the package's marker, a format version, the number of
     values, the values (rank 0 writes). read_settings_record() (collective) reads one when the
     file holds one here and refuses a version newer than `newest`; otherwise (a file written
     before settings had markers, whose first value is never the marker) it leaves the file
     where it was and returns false. */
  void write_settings_record(FILE *fp, int version, const std::vector<double> &values) const;
  bool read_settings_record(FILE *fp, int newest, std::vector<double> &values);
  // pair_coeff's type ranges: set each array to its value for every i <= j in them
  void set_coefficients(const char *types_i, const char *types_j,
                        std::initializer_list<std::pair<double **, double>> values);
  // per type pair i <= j: setflag, then (if set) one value of each coefficient array
  void write_coefficients(FILE *fp, const std::vector<double **> &arrays) const;
  void read_coefficients(FILE *fp, const std::vector<double **> &arrays);
  // restart files: the law's coefficient arrays, then the dashpots' (a file written before
  // restitution damping, with_restitution false, holds the constant dashpots only)
  void write_law_coefficients(FILE *fp, std::vector<double **> law) const;
  void read_law_coefficients(FILE *fp, std::vector<double **> law, bool with_restitution);
};

/* Restitution damping needs each contact's effective mass, which for a particle of a rigid body
   is the body's: stop with an error naming `who` (e.g. "Pair gran/jaeger") if a rigid-body fix
   exists. */
void demc_refuse_rigid_bodies(class LAMMPS *lmp, const std::string &who);

/* The values of a damping (nu_n nu_t >= 0) or restitution (e in (0, 1], x_t >= 0) keyword: what is
   wrong with them, "" if nothing (pair_coeff and the wall fixes word it alike) */
std::string demc_damping_values_problem(bool restitution, double a, double b);

// ---- inline: called once per contact and step ----

inline demc::Vec3 demc_vec(const double *a)
{
  return {a[0], a[1], a[2]};
}

/* ----------------------------------------------------------------------
   movements over the step: velocity-Verlet moved every atom by v*dt with
   the half-step velocity that LAMMPS holds during the force computation;
   at setup (advance = false) nothing has moved
------------------------------------------------------------------------- */

inline demc::SphereContact PairGranDemc::sphere_contact(int p, int q, double r, bool advance,
                                                        bool old_normal) const
{
  const double *x = loop.xs, *v = loop.vs, *omega = loop.omegas;
  const double *radius = atom->radius;
  return demc::sphere_contact(demc_vec(x + 3 * p), demc_vec(x + 3 * q), radius[p], radius[q], r,
                              demc_vec(v + 3 * p), demc_vec(v + 3 * q), demc_vec(omega + 3 * p),
                              demc_vec(omega + 3 * q), advance ? dt : 0.0, old_normal);
}

inline double PairGranDemc::pair_weight(int j) const
{
  return (loop.newton || j < loop.nlocal) ? 1.0 : 0.5;
}

/* ---------------------------------------------------------------------- */

inline void PairGranDemc::add_force(int p, int q, const demc::Vec3 &F, const demc::Vec3 &tor_p,
                                    const demc::Vec3 &tor_q, int i, int j, double energy)
{
  double *f = loop.fs, *torque = loop.torques;
  const int nlocal = loop.nlocal;
  const int newton_pair = loop.newton ? 1 : 0;
  auto add = [&](int k, const demc::Vec3 &force_k, const demc::Vec3 &torque_k) {
    f[3 * k] += force_k.x;
    f[3 * k + 1] += force_k.y;
    f[3 * k + 2] += force_k.z;
    torque[3 * k] += torque_k.x;
    torque[3 * k + 1] += torque_k.y;
    torque[3 * k + 2] += torque_k.z;
  };
  // i is always owned; j gets its share only if owned or newton on
  const bool update_j = newton_pair || j < nlocal;
  if (p == i || update_j) add(p, F, tor_p);
  if (q == i || update_j) add(q, -F, tor_q);
  if (evflag) {
    const demc::Vec3 fi = (p == i) ? F : -F;
    const double *xi = loop.xs + 3 * i, *xj = loop.xs + 3 * j;
    ev_tally_xyz(i, j, nlocal, newton_pair, energy, 0.0, fi.x, fi.y, fi.z, xi[0] - xj[0],
                 xi[1] - xj[1], xi[2] - xj[2]);
  }
}

}    // namespace LAMMPS_NS

#endif
