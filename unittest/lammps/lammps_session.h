/* Test helper: one LAMMPS instance on a communicator, driven through its
   C++ interface, with the package's plugin loaded. Reads back per-atom data
   gathered over all ranks of the instance, indexed by atom ID. */

#ifndef DEMC_TEST_LAMMPS_SESSION_H
#define DEMC_TEST_LAMMPS_SESSION_H

#include <mpi.h>

#include <array>
#include <functional>
#include <string>
#include <vector>

namespace LAMMPS_NS {
class LAMMPS;
}

namespace demc_test {

using PerAtom = std::vector<std::array<double, 3>>;    // index: atom ID (0 unused)

class LammpsSession {
 public:
  // extra_args: command-line switches such as {"-k", "on", "t", "2", "-sf", "kk"}
  explicit LammpsSession(MPI_Comm comm = MPI_COMM_WORLD, std::vector<std::string> extra_args = {});
  ~LammpsSession();
  LammpsSession(const LammpsSession &) = delete;
  LammpsSession &operator=(const LammpsSession &) = delete;

  void command(const std::string &line);
  void commands(const std::vector<std::string> &lines);
  void load_plugin();

  PerAtom forces() const;
  PerAtom torques() const;
  PerAtom positions() const;
  double pair_energy() const;    // eng_vdwl summed over ranks (energy of the last tallied step)
  std::vector<double> pair_extra() const;    // pvector summed over ranks
  bool has_style(const std::string &category, const std::string &name) const;
  int nprocs() const;

  LAMMPS_NS::LAMMPS *lmp = nullptr;

 private:
  PerAtom gather(double **values) const;
  MPI_Comm comm_;
};

// largest |a - b| over all atoms and components, relative to the largest |a|
double max_relative_difference(const PerAtom &a, const PerAtom &b);

// an input that makes a small dense, colliding, periodic packing of polydisperse spheres
// whose set-up does not depend on the number of ranks (velocities with loop geom,
// radii from atom IDs)
std::vector<std::string> dense_packing_input(const std::vector<std::string> &pair_style_lines,
                                             bool newton_pair);

// after a run of dense_packing_input(): atom 512 (the largest ID) deleted with compress no, the
// commands `between`, then a new atom of its size at its place, which create_atoms gives ID 512
std::vector<std::string> replace_last_atom_input(const std::vector<std::string> &between);

// computes "ke", "erot" and "e" (compute pair STYLE) and a thermo line that tallies energy
std::vector<std::string> energy_computes(const std::string &pair_style);
// the sums over all atoms of the package's per-atom energy columns (fix DEMC/ATOM_ENERGY of the
// pair style whose history fix is history_id), compared with the pair's global vector:
// returns the largest difference relative to the largest global value
double atom_energy_mismatch(LammpsSession &s, const std::string &history_id);
// 300 steps of `input` (energy/atom yes) with energy_computes(pair_style), newton on and off:
// the friction dissipation must be > 0 and atom_energy_mismatch() below 1e-10
void expect_atom_energies_sum_to_global(
    const std::function<std::vector<std::string>(bool newton)> &input,
    const std::string &pair_style, const std::string &history_id);
// kinetic (translation + rotation) + stored elastic + dissipated (pair vector entries 1-4)
double total_energy(LammpsSession &s);
// the dense packing (newton on) with `pair_lines` of style `pair_style`, `steps` steps of `dt`:
// total_energy() before (e0) and after (e1), and compute pair's vector after
struct EnergyBalance {
  double e0, e1;
  std::vector<double> pair;
  double drift() const { return (e1 - e0) / e0; }
};
EnergyBalance packing_energy_balance(const std::vector<std::string> &pair_lines,
                                     const std::string &pair_style, double dt, int steps);
// the largest |F_t| / F_n over the contacts, from compute `pair_local` (pair/local p5 p1 p2 p3)
double largest_friction_ratio(LammpsSession &s, const std::string &pair_local);

/* Restitution damping with rigid bodies. The test build of LAMMPS has no RIGID package; the
   styles check Fix::rigid_flag, which fix rigid, rigid/small and their variants set, so a fix
   style that sets it and does nothing else ("demc_test/rigid") stands in for them. For two
   spheres under the lines `laws` (a pair style, a wall fix), where "{}" stands for the damping
   words, and a rigid-body fix "clump": with "restitution 0.5 0" the run must stop with an error
   that starts with `who` (e.g. "Pair gran/kuhn") and names the fix; with "damping 1 1" it must
   run. extra_args: LAMMPS's command-line switches (Kokkos). */
void expect_restitution_refuses_rigid_bodies(const std::vector<std::string> &extra_args,
                                             const std::string &who,
                                             const std::vector<std::string> &laws);

/* Atom sorting (atom_modify sort, which reorders the atoms on re-neighboring steps, carrying
   each atom's contact histories along) changes nothing: the dense packing under the lines
   `pair`, re-neighbored every step, sorted every 7 steps (5 mm bins) against never, gives after 200 steps
   the same forces, torques and pair vector to 1e-9 (the order in which forces are summed
   differs, nothing else). With atom_energy_fix (the ID of the pair's fix DEMC/ATOM_ENERGY, for
   energy/atom yes) its per-atom columns too. */
void expect_sorting_changes_nothing(const std::vector<std::string> &pair,
                                    const std::string &atom_energy_fix = "");

/* pair_write cannot tabulate a contact law with history: under the lines `pair` (pair_style,
   pair_coeff) it must stop with an error that names the style `who` ("gran/kuhn"), both with
   one atom (pair_write's atom 1 does not exist) and with two touching atoms after a run. */
void expect_pair_write_refused(const std::vector<std::string> &extra_args, const std::string &who,
                               const std::vector<std::string> &pair);

/* Call body(comm) with a communicator of the first nranks ranks of MPI_COMM_WORLD; the other
   ranks skip it. For comparing rank counts within one job. */
template <class Body> void with_first_ranks(int nranks, Body &&body)
{
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm sub;
  MPI_Comm_split(MPI_COMM_WORLD, me < nranks ? 0 : MPI_UNDEFINED, me, &sub);
  if (sub == MPI_COMM_NULL) return;
  body(sub);
  MPI_Comm_free(&sub);
}

/* Call body(session) with a LAMMPS instance (plugin loaded) on the first nranks ranks of
   MPI_COMM_WORLD; the other ranks skip it. */
template <class Body> void on_first_ranks(int nranks, Body &&body)
{
  with_first_ranks(nranks, [&](MPI_Comm sub) {
    LammpsSession s(sub);
    s.load_plugin();
    body(s);
  });
}

}    // namespace demc_test

#endif
