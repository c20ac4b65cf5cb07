/* -*- c++ -*- ----------------------------------------------------------
   dem-contact tests: what the tests of both Kokkos styles share: the
   thread count and command-line arguments, the run of the dense packing
   and what is read after it, per-atom values gathered over the ranks,
   relative differences, the consistency of the per-atom
   tallies, and the file through which the 2-thread run compares with the
   1-thread run.
------------------------------------------------------------------------- */

#ifndef DEMC_KOKKOS_TEST_SUPPORT_H
#define DEMC_KOKKOS_TEST_SUPPORT_H

#include "lammps_session.h"

#include "atom.h"
#include "compute.h"
#include "exceptions.h"
#include "fix.h"
#include "force.h"
#include "lammps.h"
#include "modify.h"
#include "neighbor.h"
#include "pair.h"
#include "update.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iomanip>
#include <string>
#include <vector>

namespace demc_test {

// OpenMP threads of this run (CTest runs every Kokkos test with 1 and with 2)
inline std::string threads()
{
  const char *t = std::getenv("DEMC_KOKKOS_THREADS");
  return t ? t : "1";
}

inline std::vector<std::string> kokkos_args()
{
  return {"-k",  "on",     "t",     threads(), "-sf",    "kk",
          "-pk", "kokkos", "neigh", "half",    "newton", "off"};
}

// per-atom values of `ncols` columns, indexed by atom ID, gathered over the ranks of comm
using PerAtomN = std::vector<std::vector<double>>;

inline PerAtomN gather(LammpsSession &s, MPI_Comm comm, int ncols,
                       const std::function<double(int, int)> &value)
{
  const auto *atom = s.lmp->atom;
  std::vector<double> mine;
  for (int i = 0; i < atom->nlocal; i++) {
    mine.push_back((double) atom->tag[i]);
    for (int k = 0; k < ncols; k++) mine.push_back(value(i, k));
  }
  int nprocs;
  MPI_Comm_size(comm, &nprocs);
  int count = (int) mine.size();
  std::vector<int> counts(nprocs), displs(nprocs, 0);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
  for (int p = 1; p < nprocs; p++) displs[p] = displs[p - 1] + counts[p - 1];
  std::vector<double> all(displs[nprocs - 1] + counts[nprocs - 1]);
  MPI_Allgatherv(mine.data(), count, MPI_DOUBLE, all.data(), counts.data(), displs.data(),
                 MPI_DOUBLE, comm);
  PerAtomN out((size_t) atom->natoms + 1, std::vector<double>(ncols, 0.0));
  for (size_t k = 0; k + ncols < all.size(); k += ncols + 1)
    for (int c = 0; c < ncols; c++) out[(size_t) all[k]][c] = all[k + 1 + c];
  return out;
}

inline double max_relative_difference_n(const PerAtomN &a, const PerAtomN &b)
{
  if (a.size() != b.size()) return INFINITY;
  double scale = 0.0, diff = 0.0;
  for (size_t i = 0; i < a.size(); i++)
    for (size_t k = 0; k < a[i].size(); k++) {
      scale = std::max(scale, std::fabs(a[i][k]));
      diff = std::max(diff, std::fabs(a[i][k] - b[i][k]));
    }
  return scale > 0.0 ? diff / scale : diff;
}

inline double relative(double a, double b)
{
  const double scale = std::max(std::fabs(a), std::fabs(b));
  return scale > 0.0 ? std::fabs(a - b) / scale : 0.0;
}

// what the tests of both styles read after a run of the dense packing
struct PackingOutcome {
  PerAtom forces, torques;
  std::vector<double> pvector;
  double pair_energy = 0.0;
  double virial[6] = {0, 0, 0, 0, 0, 0};
  PerAtomN stress, energy;             // compute stress/atom NULL pair, compute pe/atom pair
  std::vector<double> contact_sums;    // compute pair/local p1..pN and eng, summed
  long neighbor_builds = 0;
};

/* The dense packing (newton off) with the `pair` lines of `style` for `steps` steps; per-atom
   virial and energy, compute pair/local p1..p<n_local> and eng at the last step. Atoms are
   re-sorted every 20 steps: after a sort fix neigh/history/kk hands the history of many pairs
   (i,j) over to j (and negates it). `more` reads what else a test needs from the session. */
template <class Outcome>
Outcome run_packing(MPI_Comm comm, const std::vector<std::string> &args,
                    const std::vector<std::string> &pair, const std::string &style, int n_local,
                    int steps, const std::function<void(LammpsSession &, Outcome &)> &more = {})
{
  LammpsSession s(comm, args);
  s.load_plugin();
  s.commands(dense_packing_input(pair, false));
  s.command("atom_modify sort 20 0.0");
  std::string local = "compute pl all pair/local";
  for (int k = 1; k <= n_local; k++) local += " p" + std::to_string(k);
  s.commands({"compute e all pair " + style, "compute sa all stress/atom NULL pair",
              "compute pea all pe/atom pair", local + " eng",
              "compute pls all reduce sum c_pl[*] inputs local",
              "compute sas all reduce sum c_sa[*]", "compute peas all reduce sum c_pea",
              "thermo_style custom step pe c_e[*] c_sas[*] c_peas c_pls[*]",
              "thermo " + std::to_string(steps), "run " + std::to_string(steps)});
  Outcome o;
  o.forces = s.forces();
  o.torques = s.torques();
  o.pvector = s.pair_extra();
  o.pair_energy = s.pair_energy();
  MPI_Allreduce(s.lmp->force->pair->virial, o.virial, 6, MPI_DOUBLE, MPI_SUM, comm);
  auto *sa = s.lmp->modify->get_compute_by_id("sa");
  auto *pea = s.lmp->modify->get_compute_by_id("pea");
  auto *pls = s.lmp->modify->get_compute_by_id("pls");
  EXPECT_EQ(sa->invoked_peratom, s.lmp->update->ntimestep);
  EXPECT_EQ(pea->invoked_peratom, s.lmp->update->ntimestep);
  EXPECT_EQ(pls->invoked_vector, s.lmp->update->ntimestep);
  o.stress = gather(s, comm, 6, [&](int i, int k) {
    return sa->array_atom[i][k];
  });
  o.energy = gather(s, comm, 1, [&](int i, int) {
    return pea->vector_atom[i];
  });
  o.contact_sums.assign(pls->vector, pls->vector + pls->size_vector);
  o.neighbor_builds = (long) s.lmp->neighbor->ncalls;
  if (more) more(s, o);
  return o;
}

/* The Kokkos style on 2 ranks (kk2) against the CPU style and the Kokkos style on 1 rank:
   forces, torques, the energies of the pair vector and the per-atom virial to 1e-9, the
   contact count exactly. */
inline void expect_two_ranks_agree(const PackingOutcome &cpu1, const PackingOutcome &kk1,
                                   const PackingOutcome &kk2)
{
  for (const PackingOutcome *serial : {&cpu1, &kk1}) {
    const double df = max_relative_difference(serial->forces, kk2.forces);
    const double dt = max_relative_difference(serial->torques, kk2.torques);
    double dp = 0.0;
    for (size_t k = 0; k < 4; k++) dp = std::max(dp, relative(serial->pvector[k], kk2.pvector[k]));
    const double ds = max_relative_difference_n(serial->stress, kk2.stress);
    printf("[ measured ] 2 ranks kk vs 1 rank %s: forces %.3g torques %.3g pvector %.3g per-atom "
           "virial %.3g\n",
           serial == &cpu1 ? "cpu" : "kk", df, dt, dp, ds);
    EXPECT_LT(df, 1e-9);
    EXPECT_LT(dt, 1e-9);
    EXPECT_LT(dp, 1e-9);
    EXPECT_LT(ds, 1e-9);
    EXPECT_EQ(serial->pvector[4], kk2.pvector[4]);
  }
}

/* The per-atom virials add up to the global virial, per-atom energies to the pair energy.
   Outcome: a test's run result with stress and energy (per atom), virial and pair_energy. */
template <class Outcome> void expect_consistent_tallies(const Outcome &o)
{
  double sum[6] = {0, 0, 0, 0, 0, 0}, esum = 0.0, vscale = 0.0;
  for (size_t i = 1; i < o.stress.size(); i++) {
    for (int k = 0; k < 6; k++) sum[k] += o.stress[i][k];
    esum += o.energy[i][0];
  }
  for (int k = 0; k < 6; k++) vscale = std::max(vscale, std::fabs(o.virial[k]));
  ASSERT_GT(vscale, 0.0);
  for (int k = 0; k < 6; k++)
    EXPECT_NEAR(sum[k], -o.virial[k], 1e-10 * vscale) << k;    // stress/atom = -virial
  EXPECT_NEAR(esum, o.pair_energy, 1e-10 * std::fabs(o.pair_energy));
}

// the 1-thread run's forces and torques, for the 2-thread run (a CTest fixture orders them)
inline void write_result(const std::string &name, const PerAtom &forces, const PerAtom &torques)
{
  std::ofstream out(name);
  out << std::setprecision(17);
  for (size_t i = 0; i < forces.size(); i++)
    out << forces[i][0] << ' ' << forces[i][1] << ' ' << forces[i][2] << ' ' << torques[i][0] << ' '
        << torques[i][1] << ' ' << torques[i][2] << '\n';
}

inline bool read_result(const std::string &name, PerAtom &forces, PerAtom &torques)
{
  std::ifstream in(name);
  if (!in) return false;
  std::array<double, 3> f, t;
  while (in >> f[0] >> f[1] >> f[2] >> t[0] >> t[1] >> t[2]) {
    forces.push_back(f);
    torques.push_back(t);
  }
  return !forces.empty();
}

/* The 1-thread run writes its forces and torques to `file`; a run with more threads (after
   it: a CTest fixture, `first`) compares with them, to 1e-10 of the largest value. */
inline void compare_with_one_thread(const PackingOutcome &kk, const std::string &file,
                                    const std::string &first)
{
  if (threads() == "1") {
    std::remove(file.c_str());
    write_result(file, kk.forces, kk.torques);
    return;
  }
  PerAtom forces, torques;
  ASSERT_TRUE(read_result(file, forces, torques))
      << "no result of the 1-thread run in " << file << " (run " << first << " first)";
  const double df = max_relative_difference(forces, kk.forces);
  const double dt = max_relative_difference(torques, kk.torques);
  printf("[ measured ] 1 vs %s threads: forces %.3g torques %.3g\n", threads().c_str(), df, dt);
  EXPECT_LT(df, 1e-10);
  EXPECT_LT(dt, 1e-10);
}
/* with dashpots: one run of N + M steps that writes a restart file at step N (no setup in
   between) equals N steps read back from it and M steps on, to round-off: the first step after
   read_restart needs each contact's last dashpot force, which the record keeps (the half-step
   velocities it came from are not in the file) */
inline void expect_dashpots_continue_from_a_restart_file(const std::vector<std::string> &pair,
                                                         const std::string &name)
{
  const std::string stem = std::string(DEMC_TEST_OUTPUT_DIR) + "/" + name + "_t" + threads();
  PerAtom straight, resumed;
  {
    LammpsSession s(MPI_COMM_WORLD, kokkos_args());
    s.load_plugin();
    s.commands(dense_packing_input(pair, false));
    s.commands({"restart 150 " + stem + ".*.bin", "run 151"});
    straight = s.forces();
  }
  {
    LammpsSession s(MPI_COMM_WORLD, kokkos_args());
    s.load_plugin();
    s.commands({"read_restart " + stem + ".150.bin", "neighbor 0.0003 bin", "neigh_modify delay 0",
                "fix integrate all nve/sphere", "timestep 1e-5", "run 1"});
    resumed = s.forces();
  }
  std::remove((stem + ".150.bin").c_str());
  const double d = max_relative_difference(straight, resumed);
  printf("[ measured ] dashpots, one step after read_restart: %.3g\n", d);
  EXPECT_LT(d, 1e-12);    // (threads sum the forces in another order each run)
}


/* delete_atoms compress no, then a new atom that gets the deleted atom's ID (the largest): it
   starts without the deleted atom's contacts, as in the CPU style (tested there against a run
   that leaves no entry naming the deleted atom, on 1, 2 and 4 ranks). On the ranks of
   MPI_COMM_WORLD. */
inline void expect_reused_id_as_cpu_style(const std::vector<std::string> &pair)
{
  auto forces_after_reuse = [&](const std::vector<std::string> &args) {
    LammpsSession s(MPI_COMM_WORLD, args);
    s.load_plugin();
    // ranks side by side along x: on 2 ranks, contacts of atom 512 (a corner of the periodic
    // box) cross to the other process (with 1 2 1 or 1 1 2 they happen not to)
    s.command("processors * 1 1");
    s.commands(dense_packing_input(pair, false));
    s.command("run 100");
    s.commands(replace_last_atom_input({}));
    s.command("run 2");
    return s.forces();
  };
  const PerAtom cpu = forces_after_reuse({}), kk = forces_after_reuse(kokkos_args());
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me == 0) EXPECT_LT(max_relative_difference(cpu, kk), 1e-10);    // gathered on rank 0
}

/* balance between runs (under mpirun -np 2): the atoms, and the contact histories the history
   fix saved with them at the end of the first run, move to the other process; the Kokkos
   style's forces after the second run are the CPU style's without balance. */
inline void expect_balance_as_cpu_style(const std::vector<std::string> &pair)
{
  auto forces_after = [&](const std::vector<std::string> &args, const std::string &balance) {
    LammpsSession s(MPI_COMM_WORLD, args);
    s.load_plugin();
    s.command("processors * 1 1");
    s.commands(dense_packing_input(pair, false));
    s.command("run 100");
    if (!balance.empty()) s.command(balance);
    s.command("run 100");
    return s.forces();
  };
  const PerAtom cpu = forces_after({}, ""), kk = forces_after(kokkos_args(), "balance 1.0 x 0.2");
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me == 0) EXPECT_LT(max_relative_difference(cpu, kk), 1e-10);    // gathered on rank 0
}

/* The package's wall fixes (host fixes) next to the Kokkos pair style: two layers on a
   turning zplane, the lower one resting on it, drifting in x against an xplane that slides
   in y by a variable; 500 steps. Forces, torques and both fixes' vectors agree with the CPU
   pair style's run. `wall` is the fix style with its law's arguments; `bound` the relative
   agreement required (round-off by default). */
inline void expect_walls_as_cpu_style(const std::vector<std::string> &pair, const std::string &wall,
                                      double bound = 1e-10)
{
  struct Outcome {
    PerAtom forces, torques;
    std::vector<double> walls;
  };
  auto run = [&](const std::vector<std::string> &args) {
    LammpsSession s(MPI_COMM_WORLD, args);
    s.load_plugin();
    s.commands({"units si",
                "atom_style sphere",
                "atom_modify map array",
                "boundary f p f",
                "newton off",
                "comm_modify vel yes",
                "region box block 0 0.0084 0 0.0084 0 0.008 units box",
                "create_box 1 box",
                "lattice sc 0.0021 origin 0.5 0.5 0.5",
                "region slab block 0 0.0084 0 0.0084 0 0.0042 units box",
                "create_atoms 1 region slab",
                "variable d atom 0.00196+0.00012*((id*7919)%101)/101",
                "set group all diameter v_d",
                "set group all density 2650",
                "region bottom block 0 0.0084 0 0.0084 0 0.0021 units box",
                "variable zz atom 0.5*v_d-5e-8",
                "set region bottom z v_zz",
                "velocity all create 1e14 87287 loop geom",
                "velocity all set 0.3 NULL NULL",
                "neighbor 0.0003 bin",
                "neigh_modify delay 0",
                "fix grav all gravity 9.81 vector 0 0 -1"});
    s.commands(pair);
    s.commands({"variable vy equal 0.2*sin(0.05*step)",
                "fix w all " + wall + " zplane 0 NULL rotate 50",
                "fix w2 all " + wall + " xplane 0 0.0084 translate 0 v_vy 0",
                "fix integrate all nve/sphere", "timestep 1e-5", "run 500"});
    Outcome o{s.forces(), s.torques(), {}};
    for (const char *id : {"w", "w2"}) {
      auto *fix = s.lmp->modify->get_fix_by_id(id);
      for (int k = 0; k < fix->size_vector; k++) o.walls.push_back(fix->compute_vector(k));
    }
    return o;
  };
  const Outcome cpu = run({}), kk = run(kokkos_args());
  EXPECT_LT(max_relative_difference(cpu.forces, kk.forces), bound);
  EXPECT_LT(max_relative_difference(cpu.torques, kk.torques), bound);
  ASSERT_EQ(cpu.walls.size(), kk.walls.size());
  for (size_t k = 0; k < cpu.walls.size(); k++)
    EXPECT_NEAR(cpu.walls[k], kk.walls[k], bound * std::max(std::fabs(cpu.walls[k]), 1e-12))
        << "wall vector " << k;
  // both walls dragged particles: friction dissipation and work (entries 6 and 11 of each
  // vector) well above round-off (here 3e-8 to 2e-6 J, against 3e-7 J of kinetic energy;
  // the x walls are first reached after 300 to 400 steps, the tangential dashpots within
  // Coulomb's limit)
  const size_t size = cpu.walls.size() / 2;
  for (size_t w : {size_t(0), size}) {
    EXPECT_GT(cpu.walls[w + 5], 1e-9) << "friction of wall " << w / size;
    EXPECT_GT(std::fabs(cpu.walls[w + 10]), 1e-9) << "work of wall " << w / size;
  }
}

/* Restitution damping e = 0.5 against a particle held by fix freeze (it counts as infinitely
   heavy): a sphere thrown at it bounces back with e times its speed, as in the CPU style.
   law: the pair_coeff values before "restitution". */
inline void expect_frozen_restitution_as_cpu_style(const std::string &style, const std::string &law)
{
  auto throw_at_frozen = [&](const std::vector<std::string> &args) {
    LammpsSession s(MPI_COMM_WORLD, args);
    s.load_plugin();
    s.commands({"units si",
                "atom_style sphere",
                "atom_modify map array",
                "boundary f f f",
                "newton off",
                "comm_modify vel yes",
                "region box block -2 2 -2 2 -2 2 units box",
                "create_box 1 box",
                "create_atoms 1 single -0.5001 0 0 units box",
                "create_atoms 1 single 0.5001 0 0 units box",
                "set group all diameter 1.0",
                "set group all density 1000",
                "velocity all set 0 0 0",
                "set atom 1 vx 0.5",
                "pair_style " + style,
                "pair_coeff * * " + law + " restitution 0.5 0",
                "group target id 2",
                "group moving id 1",
                "fix hold target freeze",
                "fix integrate moving nve/sphere",
                "timestep 1e-5",
                "run 30000"});
    auto *atom = s.lmp->atom;
    return atom->v[atom->map(1)][0];
  };
  const double cpu = throw_at_frozen({}), kk = throw_at_frozen(kokkos_args());
  EXPECT_NEAR(cpu, -0.25, 0.5e-3) << style;    // e = 0.5 of 0.5 m/s, back
  EXPECT_NEAR(kk, cpu, 1e-12) << style;
}

/* delete_atoms between runs, Kokkos style against the CPU style. With compress no the atoms
   keep their IDs, the histories follow them, and the forces after another 100 steps are the CPU
   style's, also when a new atom then takes the deleted atom's ID; with compress yes (renumbered
   atoms) the next run stops with the history fix's error instead of attaching histories to
   other pairs. */
inline void expect_delete_atoms_handled(const std::vector<std::string> &pair)
{
  auto forces_after_delete = [&](const std::vector<std::string> &args) {
    LammpsSession s(MPI_COMM_WORLD, args);
    s.load_plugin();
    s.commands(dense_packing_input(pair, false));
    s.commands({"run 100", "region cut block 0 3 0 3 0 3", "delete_atoms region cut compress no",
                "run 100"});
    return s.forces();
  };
  EXPECT_LT(max_relative_difference(forces_after_delete({}), forces_after_delete(kokkos_args())),
            1e-10);
  expect_reused_id_as_cpu_style(pair);
  LammpsSession s(MPI_COMM_WORLD, kokkos_args());
  s.load_plugin();
  s.commands(dense_packing_input(pair, false));
  s.commands({"run 100", "region cut block 0 3 0 3 0 3", "delete_atoms region cut"});
  try {
    s.command("run 10");
    ADD_FAILURE() << "no error after delete_atoms renumbered the atoms";
  } catch (LAMMPS_NS::LAMMPSException &e) {
    EXPECT_NE(std::string(e.what()).find("atom IDs have changed"), std::string::npos) << e.what();
  }
}

}    // namespace demc_test

#endif
