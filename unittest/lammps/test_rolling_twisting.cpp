/* Layer (b): rolling and twisting resistance in pair_style gran/kuhn (keywords rolling sds,
   twisting sds|marshall).
   - against LAMMPS's own pair_style granular (hooke, tangential linear_history, rolling sds,
     twisting sds or marshall), an independent implementation, on two spheres whose pair does
     not rotate: the torques and spins to 1e-12;
   - energy balance of a packing with both options (the springs' energy and dissipation are
     in compute pair's sums);
   - restart continuity;
   - bad input gives clear errors. */
#include "lammps_session.h"

#include "atom.h"
#include "exceptions.h"
#include "lammps.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

using namespace demc_test;

namespace {

/* Two spheres of radius 0.5 m at 0.99 m (overlap 1 cm) along an oblique normal, held in
   place (fix setforce: no translation), spinning oppositely: w_1 = W, w_2 = -W. The pair's
   mean spin is then zero and its normal fixed, so the pair does not rotate: LAMMPS's
   projection of the rolling spring and the package's rotation of it agree. Equal radii and
   opposite spins leave no tangential slip at the contact, in both styles (LAMMPS's vtr with
   the radii, the package's with the contact arms), so the tangential forces stay zero; the
   torques are the rolling and twisting resistance alone, and the integrator keeps w_2 = -w_1.
   The spins are set after the setup (run 0), as the package's setup has no dashpot torque
   and LAMMPS's has. Returns the torques on atom 1 and its spin every 50 steps. */
std::vector<std::array<double, 3>> spinning_pair(const std::vector<std::string> &pair_lines)
{
  LammpsSession s;
  s.load_plugin();
  s.commands({"units si", "atom_style sphere", "atom_modify map array", "boundary f f f",
              "comm_modify vel yes", "region box block -3 3 -3 3 -3 3 units box",
              "create_box 1 box", "create_atoms 1 single 0 0 0 units box",
              // 0.99 (1, 2, 2) / 3
              "create_atoms 1 single 0.33 0.66 0.66 units box", "set group all diameter 1.0",
              "set group all density 300", "neighbor 0.2 bin",
              "neigh_modify every 1 delay 0 check no"});
  s.commands(pair_lines);
  s.commands({"fix hold all setforce 0 0 0", "fix integrate all nve/sphere", "timestep 1e-5",
              "run 0 post no"});
  // W: a rolling part and a twisting part along n = (1, 2, 2) / 3
  s.commands({"set atom 1 omega 3.0 -1.0 0.5", "set atom 2 omega -3.0 1.0 -0.5"});
  std::vector<std::array<double, 3>> out;
  auto *atom = s.lmp->atom;
  for (int k = 0; k < 40; k++) {
    s.command("run 50 pre no post no");
    const auto t = s.torques()[1];
    out.push_back(t);
    const double *w = atom->omega[atom->map(1)];
    out.push_back({w[0], w[1], w[2]});
  }
  return out;
}

double largest_difference(const std::vector<std::array<double, 3>> &a,
                          const std::vector<std::array<double, 3>> &b, int parity,
                          double &largest)
{
  double worst = 0.0;
  largest = 0.0;
  for (size_t k = parity; k < a.size(); k += 2)
    for (int c = 0; c < 3; c++) {
      worst = std::max(worst, std::fabs(a[k][c] - b[k][c]));
      largest = std::max(largest, std::fabs(b[k][c]));
    }
  return worst;
}

void expect_as_lammps(const std::string &ours, const std::string &granular, const char *what)
{
  const auto a = spinning_pair({"pair_style gran/kuhn " + ours, "pair_coeff * * 1e5 8e4 0.5"});
  const auto b = spinning_pair({"pair_style granular",
                                "pair_coeff * * hooke 1e5 0.0 tangential linear_history 8e4 0.0 "
                                "0.5 " + granular});
  double largest_torque = 0.0, largest_spin = 0.0;
  const double dt = largest_difference(a, b, 0, largest_torque);
  const double dw = largest_difference(a, b, 1, largest_spin);
  std::printf("[ measured ] %s against pair granular, 2000 steps: torque difference %.2g of the "
              "largest (%.4g N m), spin difference %.2g of the largest\n",
              what, dt / largest_torque, largest_torque, dw / largest_spin);
  EXPECT_GT(largest_torque, 1.0);    // the resistance acts
  // 2000 steps whose torques agree to a few ulp each: 1e-12 (the figure)
  EXPECT_LE(dt, 1e-12 * largest_torque) << what;
  EXPECT_LE(dw, 1e-12 * largest_spin) << what;
}

}    // namespace

/* k_roll 1e5 N/m, mu_roll 0.1: |f_r| reaches mu_roll F_n = 100 N within ~40 steps (the
   rolling velocity R_eff |2 W x n| is ~1.6 m/s) and then slides; k_twist 2e3 N m/rad,
   mu_twist 0.01 m: 10 N m within ~170 steps. The dashpots act throughout. */
TEST(RollingTwisting, SdsEqualsPairGranular)
{
  expect_as_lammps("rolling sds 1e5 20 0.1 twisting sds 2e3 0.5 0.01",
                   "rolling sds 1e5 20 0.1 twisting sds 2e3 0.5 0.01", "rolling + twisting sds");
}

// Marshall's twisting from the tangential spring (8e4), its dashpot (0) and mu (0.5)
TEST(RollingTwisting, MarshallEqualsPairGranular)
{
  expect_as_lammps("rolling sds 5e4 0 0.05 twisting marshall",
                   "rolling sds 5e4 0 0.05 twisting marshall", "rolling sds + twisting marshall");
}

namespace {
std::vector<std::string> packing(bool newton = true)
{
  return dense_packing_input({"pair_style gran/kuhn rolling sds 2.0e3 0.0 0.1 twisting sds "
                              "1e-5 0.0 3e-5",
                              "pair_coeff * * 2.0e3 2.0e3 0.5"},
                             newton);
}
}    // namespace

/* kinetic (with rotation) + stored + dissipated stays constant: the springs' energy and
   dissipation belong to the sums. Tolerance as for gran/kuhn without the options: 0.5% of the
   initial energy (the time step's error over the run). Left out of the friction sum, the
   resistance's dissipation shows as a drift of -6e-2 (measured), far outside it. */
TEST(RollingTwisting, EnergyBalanceOfPacking)
{
  LammpsSession s;
  s.load_plugin();
  s.commands(packing());
  s.commands(energy_computes("gran/kuhn"));
  s.command("timestep 2e-7");
  const double e0 = total_energy(s);
  s.command("run 3000");
  const auto e = s.pair_extra();
  const double e1 = total_energy(s);
  std::printf("[ energy   ] with rolling and twisting: relative drift %.2e, friction/initial "
              "%.3f\n",
              (e1 - e0) / e0, e[2] / e0);
  EXPECT_GT(e[2], 0.05 * e0);
  EXPECT_NEAR(e1, e0, 0.005 * e0);
}

/* the per-atom energies sum to the system's with the resistance's springs, dissipation and
   dashpots in them (tolerance as gran/kuhn's own test), newton on and off */
TEST(RollingTwisting, PerAtomEnergiesSumToGlobal)
{
  for (bool newton : {true, false}) {
    LammpsSession s;
    s.load_plugin();
    s.commands(dense_packing_input({"pair_style gran/kuhn energy/atom yes rolling sds 2.0e3 0.01 "
                                    "0.1 twisting sds 1e-5 1e-10 3e-5",
                                    "pair_coeff * * 2.0e3 2.0e3 0.5 damping 0.002 0.001"},
                                   newton));
    s.commands(energy_computes("gran/kuhn"));
    s.command("run 300");
    const auto e = s.pair_extra();
    ASSERT_GT(e[2], 0.0);
    EXPECT_LT(atom_energy_mismatch(s, "DEMC_GRAN_KUHN_HISTORY0"), 1e-10) << "newton " << newton;
  }
}

// a run resumed from a restart file continues the one that went straight on (springs, layout)
TEST(RollingTwisting, RestartContinuity)
{
  const std::string file = "rolling_twisting_restart.bin";
  PerAtom straight, resumed, straight_t, resumed_t;
  {
    LammpsSession s;
    s.load_plugin();
    s.commands(packing());
    s.commands({"run 150", "write_restart " + file, "run 50"});
    straight = s.forces();
    straight_t = s.torques();
  }
  {
    LammpsSession s;
    s.load_plugin();
    s.commands({"read_restart " + file, "neighbor 0.0003 bin", "neigh_modify delay 0",
                "fix integrate all nve/sphere", "timestep 1e-5", "run 50"});
    resumed = s.forces();
    resumed_t = s.torques();
  }
  std::remove(file.c_str());
  // as gran/kuhn's own test: the neighbor lists are rebuilt at other steps, sums run in
  // another order, the packing amplifies that round-off over 50 steps
  EXPECT_LT(max_relative_difference(straight, resumed), 1e-12);
  EXPECT_LT(max_relative_difference(straight_t, resumed_t), 1e-12);
}

TEST(RollingTwisting, BadInputGivesClearErrors)
{
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"pair_style gran/kuhn rolling sds 1 2", "Illegal"},
      {"pair_style gran/kuhn rolling marshall", "unknown model marshall"},
      {"pair_style gran/kuhn twisting xyz", "unknown model xyz"},
      {"pair_style gran/kuhn rolling sds -1 0 0.1", "k must be >= 0"},
      {"pair_style gran/kuhn twisting sds 1 0 -0.1", "mu must be >= 0"},
  };
  for (const auto &c : cases) {
    LammpsSession s;
    s.load_plugin();
    s.commands({"units si", "atom_style sphere", "region box block 0 1 0 1 0 1",
                "create_box 1 box"});
    try {
      s.command(c.first);
      ADD_FAILURE() << c.first << " was accepted";
    } catch (LAMMPS_NS::LAMMPSException &e) {
      EXPECT_NE(std::string(e.what()).find(c.second), std::string::npos)
          << c.first << ": " << e.what();
    }
  }
}

// the histories are laid out for the options the style first ran with
TEST(RollingTwisting, OptionsCannotChangeAfterARun)
{
  LammpsSession s;
  s.load_plugin();
  s.commands({"units si", "atom_style sphere", "comm_modify vel yes",
              "region box block 0 1 0 1 0 1", "create_box 1 box",
              "create_atoms 1 single 0.5 0.5 0.5", "pair_style gran/kuhn",
              "pair_coeff * * 1e5 8e4 0.5", "run 0 post no"});
  try {
    s.command("pair_style gran/kuhn rolling sds 1e5 0 0.1");
    ADD_FAILURE() << "rolling switched on after a run";
  } catch (LAMMPS_NS::LAMMPSException &e) {
    EXPECT_NE(std::string(e.what()).find("cannot be switched on or off"), std::string::npos)
        << e.what();
  }
}
