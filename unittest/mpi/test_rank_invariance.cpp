/* Layer (c): run under mpirun. The same dense, colliding packing is run on
   sub-communicators of 1, 2 and 4 ranks (as many as the launch provides) in one
   job; per-atom forces and torques after 200 steps must agree to 1e-9 of the
   largest value (LAMMPS's own noise floor between rank counts is ~2e-11). */
#include "lammps_session.h"

#include "atom.h"
#include "exceptions.h"
#include "fix.h"
#include "modify.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>

using namespace demc_test;

namespace {

struct Outcome {
  PerAtom forces, torques;
};

// run the input on the first `nranks` ranks of the world; results valid on world rank 0
Outcome run_on(int nranks, const std::vector<std::string> &input, int steps)
{
  Outcome out;
  on_first_ranks(nranks, [&](LammpsSession &s) {
    s.commands(input);
    s.command("run " + std::to_string(steps));
    out.forces = s.forces();
    out.torques = s.torques();
  });
  return out;
}

void expect_rank_invariant(const std::vector<std::string> &pair_lines, bool newton)
{
  int world, me;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const auto input = dense_packing_input(pair_lines, newton);
  const Outcome serial = run_on(1, input, 200);
  for (int n : {2, 4}) {
    if (n > world) continue;
    const Outcome par = run_on(n, input, 200);
    if (me == 0) {
      const double df = max_relative_difference(serial.forces, par.forces);
      const double dt = max_relative_difference(serial.torques, par.torques);
      std::printf("[ ranks    ] 1 against %d ranks, newton %s: forces %.1e, torques %.1e of the "
                  "largest\n",
                  n, newton ? "on" : "off", df, dt);
      EXPECT_LT(df, 1e-9) << n << " ranks";
      EXPECT_LT(dt, 1e-9) << n << " ranks";
    }
  }
  if (me == 0) {
    // the run must have produced contacts, or the comparison proves nothing
    double largest = 0.0;
    for (const auto &f : serial.forces)
      largest = std::max({largest, std::fabs(f[0]), std::fabs(f[1])});
    EXPECT_GT(largest, 0.0);
  }
}

// gran/kuhn and gran/jaeger on the dense packing
std::vector<std::vector<std::string>> both_styles()
{
  return {{"pair_style gran/kuhn", "pair_coeff * * 2.0e3 2.0e3 0.5 damping 0.002 0.001"},
          {"pair_style gran/jaeger", "pair_coeff * * 1e7 0.3 0.5 damping 0.002 0.001"}};
}

}    // namespace

TEST(RankInvariance, HookeHistoryNewtonOn)
{
  expect_rank_invariant(
      {"pair_style gran/hooke/history 2.0e3 NULL 50.0 NULL 0.5 1", "pair_coeff * *"}, true);
}

TEST(RankInvariance, HookeHistoryNewtonOff)
{
  expect_rank_invariant(
      {"pair_style gran/hooke/history 2.0e3 NULL 50.0 NULL 0.5 1", "pair_coeff * *"}, false);
}

TEST(RankInvariance, GranKuhnNewtonOn)
{
  expect_rank_invariant(
      {"pair_style gran/kuhn", "pair_coeff * * 2.0e3 2.0e3 0.5 damping 0.002 0.001"}, true);
}

TEST(RankInvariance, GranKuhnNewtonOff)
{
  expect_rank_invariant(
      {"pair_style gran/kuhn", "pair_coeff * * 2.0e3 2.0e3 0.5 damping 0.002 0.001"}, false);
}

// with rolling and twisting resistance (their springs travel with the pair's history)
TEST(RankInvariance, GranKuhnRollingTwisting)
{
  for (const bool newton : {true, false})
    expect_rank_invariant({"pair_style gran/kuhn",
                           "pair_coeff * * 2.0e3 2.0e3 0.5 damping 0.002 0.001 rolling sds 2.0e3 "
                           "0.01 0.1 twisting sds 1e-5 1e-10 3e-5"},
                          newton);
}

// Marshall's twisting takes the tangential spring's coefficients
TEST(RankInvariance, GranKuhnRollingMarshall)
{
  expect_rank_invariant({"pair_style gran/kuhn",
                         "pair_coeff * * 2.0e3 2.0e3 0.5 damping 0.002 0.001 rolling sds 2.0e3 "
                         "0.01 0.1 twisting marshall"},
                        true);
}

TEST(RankInvariance, GranJaegerNewtonOn)
{
  expect_rank_invariant(
      {"pair_style gran/jaeger", "pair_coeff * * 1e7 0.3 0.5 damping 0.002 0.001"}, true);
}

TEST(RankInvariance, GranJaegerNewtonOff)
{
  expect_rank_invariant(
      {"pair_style gran/jaeger", "pair_coeff * * 1e7 0.3 0.5 damping 0.002 0.001"}, false);
}

// with rolling and twisting (pair_coeff keywords): the records' resistance slots travel with them
TEST(RankInvariance, GranJaegerRollingTwisting)
{
  for (const bool newton : {true, false})
    expect_rank_invariant({"pair_style gran/jaeger",
                           "pair_coeff * * 1e7 0.3 0.5 damping 0.002 0.001 rolling sds 2.0e3 0.01 "
                           "0.1 twisting marshall"},
                          newton);
}

// restitution damping: the effective mass of a pair with a ghost atom takes the ghost's mass
TEST(RankInvariance, RestitutionDamping)
{
  for (bool newton : {true, false}) {
    expect_rank_invariant(
        {"pair_style gran/jaeger", "pair_coeff * * 1e7 0.3 0.5 restitution 0.6 0.4"}, newton);
    expect_rank_invariant(
        {"pair_style gran/kuhn", "pair_coeff * * 2.0e3 2.0e3 0.5 restitution 0.6 0.4"}, newton);
  }
}

TEST(RankInvariance, GranJaegerBoundedHistory)
{
  expect_rank_invariant(
      {"pair_style gran/jaeger beta 0.1 history/max 6", "pair_coeff * * 1e7 0.3 0.5"}, true);
}

// per-atom energies of contacts across rank boundaries (ghost shares sent to their owners
// with newton on) still sum to the system's energies
TEST(RankInvariance, PerAtomEnergiesAcrossRanks)
{
  for (bool newton : {true, false})
    for (const std::string style : {"gran/kuhn", "gran/jaeger"}) {
      const std::string coeff = style == "gran/kuhn"
          ? "pair_coeff * * 2.0e3 2.0e3 0.5 damping 0.002 0.001"
          : "pair_coeff * * 1e7 0.3 0.5 damping 0.002 0.001";
      LammpsSession s;
      s.load_plugin();
      s.commands(dense_packing_input({"pair_style " + style + " energy/atom yes", coeff}, newton));
      s.commands(energy_computes(style));
      s.command("run 200");
      std::string id = "DEMC_" + style + "_HISTORY0";
      for (char &ch : id) ch = (ch == '/') ? '_' : (char) toupper(ch);
      const double mismatch = atom_energy_mismatch(s, id);
      int me;
      MPI_Comm_rank(MPI_COMM_WORLD, &me);
      if (me == 0) EXPECT_LT(mismatch, 1e-10) << style << " newton " << newton;
    }
}

/* Spheres created above a floor (the wall fix of each law) during the run fall through the
   processes' domains (atoms created mid-run, then migrating with their histories) and pile up
   on the floor. The pair vector, the wall's vector and the atom count agree between 1, 2 and 4
   ranks, newton on and off; `insert` holds the commands that create them (a fix with ID ins). */
static void expect_insertion_rank_invariant(const std::vector<std::string> &insert, double atoms,
                                            int steps)
{
  int world, me;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const std::vector<std::pair<std::vector<std::string>, std::string>> laws = {
      {both_styles()[0], "wall/gran/kuhn 2e3 2e3 0.4 damping 0.002 0.001"},
      {both_styles()[1], "wall/gran/jaeger 1e7 0.3 0.4 damping 0.002 0.001"}};
  for (const auto &[pair, wall] : laws)
    for (const std::string newton : {"on", "off"}) {
      auto run_on_ranks = [&](int nranks) {
        std::vector<double> values;
        on_first_ranks(nranks, [&](LammpsSession &s) {
          s.commands({"units si", "atom_style sphere", "atom_modify map array", "newton " + newton,
                      "boundary p p fm", "comm_modify vel yes",
                      "region box block 0 0.01 0 0.01 0 0.02 units box", "create_box 1 box",
                      "neighbor 0.0003 bin", "neigh_modify delay 0"});
          s.commands(pair);
          // (the pair's vector as a user reads it: gran/jaeger integrates its work in runs in
          // which a compute pair can read it, work auto)
          s.command("compute e all pair " + pair[0].substr(pair[0].find(' ') + 1));
          s.commands({"fix grav all gravity 981 vector 0 0 -1",
                      "fix w all " + wall + " zplane 0 NULL",
                      "region slab block 0 0.01 0 0.01 0.008 0.014 units box"});
          s.commands(insert);
          s.commands(
              {"fix integrate all nve/sphere", "timestep 1e-5", "run " + std::to_string(steps)});
          values = s.pair_extra();
          auto *w = s.lmp->modify->get_fix_by_id("w");
          for (int k = 0; k < w->size_vector; k++) values.push_back(w->compute_vector(k));
          values.push_back((double) s.lmp->atom->natoms);
        });
        return values;
      };
      const auto serial = run_on_ranks(1);
      // pair vector (6 values), then the wall's (contacts: its value 8)
      if (me == 0) {
        EXPECT_EQ(serial.back(), atoms) << pair[0];
        EXPECT_GE(serial[4], 5.0) << pair[0] << ": contacts between the spheres";
        EXPECT_GT(serial[2], 0.0) << pair[0] << ": friction dissipation";
        EXPECT_GE(serial[6 + 7], 5.0) << pair[0] << ": contacts with the floor";
      }
      for (int n : {2, 4}) {
        if (n > world) continue;
        const auto par = run_on_ranks(n);
        if (me != 0) continue;
        // (no ASSERT: returning on rank 0 only would leave the other ranks waiting)
        EXPECT_EQ(par.size(), serial.size());
        for (size_t k = 0; k < std::min(serial.size(), par.size()); k++)
          EXPECT_NEAR(par[k], serial[k], 1e-9 * std::max(std::fabs(serial[k]), 1e-12))
              << pair[0] << ", newton " << newton << ", " << n << " ranks, value " << k;
      }
    }
}

/* fix pour: 150 spheres at once, then falling. After 450 steps (before the collisions have
   amplified round-off beyond 1e-13). (gran/jaeger's history fix used to hang here with newton
   on: a process without atoms skipped the collective reverse communication of pre_exchange().) */
TEST(RankInvariance, PourOntoAFloor)
{
  expect_insertion_rank_invariant({"fix ins all pour 150 1 4767 region slab diam range 0.0009 "
                                   "0.0011 dens 2650 2650 vel 0 0 0 0 -0.3"},
                                  150.0, 450);
}

/* fix deposit: one sphere every 2 steps (1 mm, from a molecule file: its own default would be a
   1 m sphere), 2-5 mm above the floor, each joining the pile; after 450 steps. */
TEST(RankInvariance, DepositOntoAFloor)
{
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const std::string file = "rank_invariance_sphere.mol";
  if (me == 0) {
    std::ofstream out(file);
    out << "# one sphere of 1 mm, 2650 kg/m^3\n\n1 atoms\n\nCoords\n\n1 0 0 0\n\nTypes\n\n1 1\n\n"
           "Diameters\n\n1 0.001\n\nMasses\n\n1 1.387536755335492e-06\n";
  }
  MPI_Barrier(MPI_COMM_WORLD);
  expect_insertion_rank_invariant({"molecule sphere " + file,
                                   "region low block 0 0.01 0 0.01 0.002 0.005 units box",
                                   "fix ins all deposit 150 0 2 4767 region low near 0.0011 "
                                   "attempt 100 vz -0.3 -0.3 mol sphere units box"},
                                  150.0, 450);
  MPI_Barrier(MPI_COMM_WORLD);
  if (me == 0) std::remove(file.c_str());
}

/* balance between runs moves atoms, and the contact histories saved with them at the end of
   the first run, to other processes: the second run goes on as if nothing had moved. Cuts
   along x far from the uniform ones; against one rank without balance, newton on and off. */
TEST(RankInvariance, BalanceBetweenRunsKeepsHistories)
{
  int world, me;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const auto styles = both_styles();
  for (const auto &pair : styles)
    for (bool newton : {false, true}) {
      auto run_with = [&](int nranks, const std::string &balance) {
        Outcome out;
        on_first_ranks(nranks, [&](LammpsSession &s) {
          s.command("processors * 1 1");
          s.commands(dense_packing_input(pair, newton));
          s.command("run 100");
          if (!balance.empty()) s.command(balance);
          s.command("run 100");
          out.forces = s.forces();
          out.torques = s.torques();
        });
        return out;
      };
      const Outcome serial = run_with(1, "");
      for (const auto &[n, balance] :
           {std::make_pair(2, std::string("balance 1.0 x 0.2")),
            std::make_pair(4, std::string("balance 1.0 x 0.1 0.2 0.85"))}) {
        if (n > world) continue;
        const Outcome moved = run_with(n, balance);
        if (me != 0) continue;
        const std::string what =
            pair[0] + (newton ? ", newton on, " : ", newton off, ") + std::to_string(n) + " ranks";
        EXPECT_LT(max_relative_difference(serial.forces, moved.forces), 1e-9) << what;
        EXPECT_LT(max_relative_difference(serial.torques, moved.torques), 1e-9) << what;
      }
    }
}

/* set type between runs: half of the atoms take the other type, whose material differs, and
   gran/jaeger moves their histories to their new type pairs' materials (each record names the
   type pair it was made with; with newton off a pair with a ghost has one on each side). 1, 2
   and 4 ranks agree, newton on and off; gran/kuhn, which keeps its force, as well. */
TEST(RankInvariance, ChangedTypesBetweenRuns)
{
  int world, me;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const std::vector<std::vector<std::string>> styles = {
      {"pair_style gran/kuhn", "pair_coeff 1 1 2.0e3 2.0e3 0.5 damping 0.002 0.001",
       "pair_coeff 2 2 1.0e3 1.0e3 0.2 damping 0.002 0.001"},
      {"pair_style gran/jaeger", "pair_coeff 1 1 1e7 0.3 0.5 damping 0.002 0.001",
       "pair_coeff 2 2 2e6 0.25 0.2 damping 0.002 0.001"}};
  for (const auto &pair : styles)
    for (bool newton : {false, true}) {
      auto run_with = [&](int nranks) {
        Outcome out;
        on_first_ranks(nranks, [&](LammpsSession &s) {
          s.commands(dense_packing_input(pair, newton));
          s.commands({"run 100", "group low id 1:256", "set group low type 2", "run 100"});
          out.forces = s.forces();
          out.torques = s.torques();
        });
        return out;
      };
      const Outcome serial = run_with(1);
      for (int n : {2, 4}) {
        if (n > world) continue;
        const Outcome par = run_with(n);
        if (me != 0) continue;
        const std::string what =
            pair[0] + (newton ? ", newton on, " : ", newton off, ") + std::to_string(n) + " ranks";
        EXPECT_LT(max_relative_difference(serial.forces, par.forces), 1e-9) << what;
        EXPECT_LT(max_relative_difference(serial.torques, par.torques), 1e-9) << what;
      }
    }
}

/* delete_atoms between runs. With compress no the atoms keep their IDs and the contact
   histories saved with them: 1, 2 and 4 ranks still agree. With compress yes (its default for
   atomic systems) it renumbers the atoms, and histories saved under the old IDs would act
   between other pairs (LAMMPS's gran/hooke/history silently does: its forces then differ
   between 1 and 2 ranks): the package's history fixes stop the next run with an error. So
   does reset_atoms id, through the fixes' stores_ids flag. */
TEST(RankInvariance, DeleteAtomsKeepsHistoriesOrStops)
{
  int world, me;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const auto styles = both_styles();
  for (const auto &pair : styles) {
    auto input = dense_packing_input(pair, false);
    input.insert(
        input.end(),
        {"run 100", "region cut block 0 3 0 3 0 3", "delete_atoms region cut compress no"});
    const Outcome serial = run_on(1, input, 100);
    for (int n : {2, 4}) {
      if (n > world) continue;
      const Outcome par = run_on(n, input, 100);
      if (me == 0) {
        EXPECT_LT(max_relative_difference(serial.forces, par.forces), 1e-9) << pair[0] << n;
        EXPECT_LT(max_relative_difference(serial.torques, par.torques), 1e-9) << pair[0] << n;
      }
    }
    for (const std::string renumber :
         {"delete_atoms region cut", "delete_atoms region cut condense yes", "reset_atoms id"}) {
      std::string message;
      on_first_ranks(std::min(world, 2), [&](LammpsSession &s) {
        s.commands(dense_packing_input(pair, false));
        s.commands({"run 100", "region cut block 0 3 0 3 0 3"});
        try {
          s.commands({renumber, "run 10"});
        } catch (LAMMPS_NS::LAMMPSException &e) {
          message = e.what();
        }
      });
      if (me != 0) continue;
      const bool by_fix = renumber != "reset_atoms id";
      EXPECT_NE(message.find(by_fix ? "atom IDs have changed" : "storing atom IDs"),
                std::string::npos)
          << pair[0] << " after " << renumber << ": " << message;
    }
  }
}

/* Not a renumbering: delete_atoms compress no, then create_atoms gives the new atom the largest
   ID again (IDs continue from the largest left), the one of the deleted atom, whose partners
   still name it. The new atom has no partners of its own, which a renumbered atom in contact
   would have: the run goes on, and the deleted atom's contacts must not act on the new one (a
   neighbor listing the pair would find them, the new atom would not). The same state made with
   a run 0 between deleting and creating (its end stores the histories of the contacts left, so
   nothing names the deleted atom any more) gives the same forces, newton on and off, on 1, 2 and
   4 ranks (atom 512 sits at a corner of the periodic box: on several ranks some of its
   neighbors are owned by other processes). */
TEST(SavedPartnerIds, NewAtomWithADeletedAtomsIdStartsWithoutHistories)
{
  const auto styles = both_styles();
  for (const auto &[pair, newton] :
       {std::make_pair(styles[0], false), std::make_pair(styles[1], false),
        std::make_pair(styles[0], true), std::make_pair(styles[1], true)}) {
    auto run_with = [&](int nranks, const std::vector<std::string> &between) {
      Outcome out;
      on_first_ranks(nranks, [&](LammpsSession &s) {
        s.command("processors * 1 1");    // on 2 ranks too, some contacts of 512 cross ranks
        s.commands(dense_packing_input(pair, newton));
        s.command("run 100");
        s.commands(replace_last_atom_input(between));
        const int index = s.lmp->atom->map(512);
        int owners = 0, owned = (index >= 0 && index < s.lmp->atom->nlocal) ? 1 : 0;
        MPI_Allreduce(&owned, &owners, 1, MPI_INT, MPI_SUM, s.lmp->world);
        EXPECT_EQ(owners, 1) << "the new atom did not get the deleted atom's ID";
        try {
          s.command("run 2");    // the deleted atom's contacts still overlap the new one
        } catch (LAMMPS_NS::LAMMPSException &e) {
          ADD_FAILURE() << e.what();
        }
        out.forces = s.forces();
        out.torques = s.torques();
      });
      return out;
    };
    int world, me;
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    const Outcome cleared = run_with(1, {"run 0"});
    for (int n : {1, 2, 4}) {
      if (n > world) continue;
      const Outcome direct = run_with(n, {});
      if (me != 0) continue;
      const std::string what =
          pair[0] + (newton ? ", newton on, " : ", newton off, ") + std::to_string(n) + " ranks";
      EXPECT_EQ(direct.forces.size(), 513u) << what;
      if (direct.forces.size() != 513u) continue;    // (no ASSERT: the other ranks go on)
      const auto &f = direct.forces[512];
      EXPECT_GT(std::fabs(f[0]) + std::fabs(f[1]) + std::fabs(f[2]), 0.0) << "no contact: " << what;
      EXPECT_LT(max_relative_difference(direct.forces, cleared.forces), 1e-9) << what;
      EXPECT_LT(max_relative_difference(direct.torques, cleared.torques), 1e-9) << what;
    }
  }
}

/* A sphere in contact with its own periodic images (a box shorter than its diameter): its
   saved partner is itself, which is no sign of changed IDs; the second run goes on. */
TEST(SavedPartnerIds, ContactWithOwnPeriodicImageIsNoRenumbering)
{
  for (const char *newton : {"off", "on"}) {
    for (const std::vector<std::string> &pair :
         {std::vector<std::string>{"pair_style gran/kuhn", "pair_coeff * * 1e3 1e3 0.5"},
          std::vector<std::string>{"pair_style gran/jaeger", "pair_coeff * * 1e5 0.3 0.5"}}) {
      on_first_ranks(1, [&](LammpsSession &s) {
        s.commands({"atom_style sphere", "atom_modify map array", std::string("newton ") + newton,
                    "boundary p p p", "comm_modify vel yes", "region box block 0 0.9 0 4 0 4",
                    "create_box 1 box", "create_atoms 1 single 0.45 2 2 units box",
                    "set atom 1 diameter 1.0", "set atom 1 density 1.0", "set atom 1 omega 0 0 1",
                    "neighbor 0.1 bin"});
        s.commands(pair);
        s.commands({"fix integrate all nve/sphere", "timestep 1e-4", "run 20"});
        try {
          s.command("run 20");
        } catch (LAMMPS_NS::LAMMPSException &e) {
          ADD_FAILURE() << pair[0] << ", newton " << newton << ": " << e.what();
        }
      });
    }
  }
}
