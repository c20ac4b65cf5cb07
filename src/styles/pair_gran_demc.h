/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: what the package's granular pair styles share.

   PairGranDemc does the LAMMPS side that does not depend on the contact law:
   neighbor requests, cutoffs from particle radii, the geometry and
   movements of a contact over one step (the input of every kernel),
   applying a contact force with its torques, energy and virial tallies,
   the energy vector read by compute pair, and single()'s common part.
   Derived styles declare the law's coefficients (DemcCoefficient members),
   add its history and the kernel call.
   The rest comes in parts, each in its own files, to be read one at a time:
     pair_gran_demc_keywords.h  the keywords every style takes (energy/atom,
                                schedule, damping_cap, limit_damping)
     pair_gran_demc_history.h   the internal fixes' IDs and placeholders, the
                                guard against losing a restart's histories
     pair_gran_demc_checks.h    init's input checks (atoms, hybrid, computes)
     pair_gran_demc_coeffs.h    the coefficient arrays per type pair
     pair_gran_demc_damping.h   dashpots and restitution per type pair
     pair_gran_demc_energy.h    per-atom energies
     pair_gran_demc_loop.h      the contact loops' state and blocks
   Each part is given what it needs (LAMMPS, the style's name, the arrays it
   works on) through its constructor or its arguments. Most are members; the
   keywords and the loop's state are bases, as the styles' loops read their
   members by name.
------------------------------------------------------------------------- */

#ifndef DEMC_PAIR_GRAN_DEMC_H
#define DEMC_PAIR_GRAN_DEMC_H

#include "pair.h"

#include "atom.h"
#include "force.h"
#include "neigh_list.h"

#include "contact_geometry.h"
#include "kernel_common.h"
#include "pair_gran_demc_checks.h"
#include "pair_gran_demc_coeffs.h"
#include "pair_gran_demc_damping.h"
#include "pair_gran_demc_energy.h"
#include "pair_gran_demc_history.h"
#include "pair_gran_demc_keywords.h"
#include "pair_gran_demc_loop.h"
#include "resistance_table.h"

#include <string>
#include <vector>

// host code inlined even where GCC judges it too big (DEMC_FN_FLAT would make it device code too)
#if defined(__GNUC__)
#define DEMC_HOST_FLAT inline __attribute__((always_inline))
#else
#define DEMC_HOST_FLAT
#endif

namespace LAMMPS_NS {

/* the k < jnum with neighbor(k) == j, searched from the one after `prev` (pairs are usually
   asked for in list order), which becomes k; -1 if none. Any list: neighbor(k) gives the atom
   index. */
template <class Neighbor>
int demc_find_neighbor_slot(int jnum, int j, int &prev, Neighbor &&neighbor)
{
  for (int k = 0; k < jnum; k++) {
    prev = (prev + 1) % jnum;
    if (neighbor(prev) == j) return prev;
  }
  return -1;
}

class PairGranDemc : public Pair, protected DemcSharedKeywords, protected DemcContactLoop {
 public:
  PairGranDemc(class LAMMPS *, const char *style_name);
  ~PairGranDemc() override;
  void init_style() override;
  void reset_dt() override;
  double memory_usage() override;
  // the coefficients: restart files, write_data (a line per type pair: coeff_words())
  void write_restart(FILE *) override;
  void read_restart(FILE *) override;
  void write_data(FILE *) override;
  void write_data_all(FILE *) override;

  // layout of pvector (compute pair <style>): stored normal and tangential elastic energy,
  // cumulative friction and damping dissipation, contacts, sliding contacts
  enum EnergyIndex { E_NORMAL, E_TANGENTIAL, E_FRICTION, E_DAMPING, E_CONTACTS, E_SLIDING, E_SIZE };
  // what the Kokkos variants' loops take of the style at each compute(), after ev_init()
  // (PairGranDemcKokkosShared::load_views(); a helper, not a derived class, so public: the CUDA
  // compiler refuses a protected type in its signature)
  struct LoopInputs {
    double dt;
    int freeze_groupbit, maxeatom, maxvatom;
    demc::DashpotLimits dashpot_limits;
  };

 protected:
  std::string style_name;
  std::string running_style_name() const;    // style_name, with /kk for the Kokkos variants
  double dt;
  // this rank's cumulative sums: tangential (gran/kuhn: friction dissipation; gran/jaeger:
  // tangential work) and damping dissipation; kept in restart files by fix DEMC/ATOM_ENERGY
  double tangential_sum, dissipated_damping;
  double *onerad_dynamic, *maxrad_dynamic;
  int neighprev;

  // ---- the parts (in this order: each is given the ones before) ----
  DemcHistoryFixes history_fixes;
  DemcCoefficientTable coefficients;    // the style's DemcCoefficient members, the dashpots
  DemcDampingTable damping_table;
  DemcAtomEnergyShares atom_energies;
  // rolling and twisting resistance per type pair (pair_coeff keywords rolling, twisting)
  DemcResistanceTable resistance;

  // the coefficient arrays and setflag, cutsq (coeff() and read_restart() call it once)
  virtual void allocate();
  // constructor and destructor work of a style whose history fix is made at init: per-contact
  // values of single(), write_data, a placeholder that keeps the fix's place in the fix list
  void prepare_style(int n_single_extra);
  void release_style(bool history_made);
  std::string history_fix_id() const { return history_fixes.history_fix_id(); }
  void check_restart_histories() { history_fixes.check_restart_histories(running_style_name()); }
  void set_max_radii();
  double contact_cutoff(int i, int j) const;
  // pair_style's keyword arguments after the law's own (DemcSharedKeywords)
  int parse_common_keyword(int narg, char **arg, int iarg)
  {
    return DemcSharedKeywords::parse_common_keyword(lmp, style_name, narg, arg, iarg);
  }

  /* pair_coeff I J c1 c2 mu [damping nu_n nu_t | restitution e x_t] [rolling ...]
     [twisting ...], read and checked for what the laws share (mu >= 0, the dashpots' values;
     the law checks c1 and c2): the values of the coefficient table's given coefficients (c1 c2
     mu, then damp_n damp_t restitution restitution_t; 0 for the dashpot keyword not given),
     and the rolling and twisting models. law_names: e.g. "kn kt mu" */
  std::vector<double> read_coeff_args(int narg, char **arg, const char *law_names,
                                      demc::resistance::Params &rolling_twisting);
  int read_dashpot_keyword(int narg, char **arg, int iarg, const char *law_names,
                           bool &dashpot_set, std::vector<double> &values);
  [[noreturn]] void coeff_usage_error(int narg, const char *law_names);
  // pair_coeff's type ranges: the given coefficients' values (DemcCoefficientTable::set())
  void set_coefficients(const char *types_i, const char *types_j,
                        const std::vector<double> &values);
  // init_one() of unset pair (i, j): the declared mixing rules and the dashpots'
  void mix_coefficients(int i, int j);
  // write_data's coefficients of type pair (i, j), after the types
  virtual std::string coeff_words(int i, int j) const;
  /* the settings' restart record, a record of the package's format (demc_restart_records.h;
     rank 0 writes); read_settings_record() (collective) returns its values */
  void write_settings_record(FILE *fp, const std::vector<double> &values) const;
  std::vector<double> read_settings_record(FILE *fp);
  LoopInputs loop_inputs() const
  {
    return {dt, damping_table.freeze_groupbit, maxeatom, maxvatom, dashpot_limits};
  }

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
  // the same in the pair style's own neighbor list (find_neighbor_index())
  bool find_single_slot(int i, int j, int &owner, int &slot)
  {
    return find_single_slot(
        i, j,
        [this](int a, int b) {
          return find_neighbor_index(a, b);
        },
        owner, slot);
  }
  int find_neighbor_index(int i, int j);

  // ---- the contact loops, once per compute() ----
  void begin_compute(int eflag, int vflag)
  {
    ev_init(eflag, vflag);
    loop = {flat(atom->x), flat(atom->v),      flat(atom->omega),
            flat(atom->f), flat(atom->torque), atom->type,
            atom->tag,     atom->nlocal,       force->newton_pair != 0};
    begin_atom_energy(eflag);
  }
  void begin_atom_energy(int eflag)
  {
    if (energy_per_atom) atom_energies.begin(eflag);
  }
  void end_atom_energy()
  {
    if (energy_per_atom) atom_energies.end();
  }

  // ---- the contact loops, once per contact ----
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
  // each contact gives half of its energies to p and to q (energy/atom yes)
  void tally_atoms(int p, int q, double stored_n, double stored_t, double work_t, double damp)
  {
    if (energy_per_atom) atom_energies.tally(p, q, stored_n, stored_t, work_t, damp);
  }
  // restitution damping: the pair's effective mass (a particle of fix freeze's group counts as
  // infinitely heavy)
  double contact_effective_mass(int i, int j) const
  {
    const double *rmass = atom->rmass;
    const int *mask = atom->mask;
    const int frozen = damping_table.freeze_groupbit;
    return demc::effective_mass(rmass[i], rmass[j], mask[i] & frozen, mask[j] & frozen);
  }
};

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

DEMC_HOST_FLAT demc::SphereContact PairGranDemc::sphere_contact(int p, int q, double r, bool advance,
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
