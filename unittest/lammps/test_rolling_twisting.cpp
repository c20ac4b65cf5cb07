/* Layer (b): rolling and twisting resistance in pair_style gran/kuhn and gran/coulomb
   (pair_coeff keywords rolling sds, twisting sds|marshall; their walls: the fix's keywords).
   - against LAMMPS's own pair_style granular (hooke, tangential linear_history, rolling sds,
     twisting sds or marshall), an independent implementation, on two spheres whose pair does
     not rotate: the torques and spins to 1e-12;
   - energy balance of a packing with both options (the springs' energy and dissipation are
     in compute pair's sums) and add no drift to gran/kuhn's own;
   - closed forms: a sphere rolling on a flat surface decelerates at 5/7 mu_roll g and stops;
     on an incline it stays at rest while tan(alpha) <= mu_roll and rolls down beyond;
   - rigid rotation of a loaded packing: the torques turn with it (pair granular's do not);
   - the same closed forms at fix wall/gran/kuhn's flat wall;
   - restart continuity (rank invariance: unittest/mpi/test_rank_invariance.cpp; the walls':
     test_wall_gran.cpp, test_wall_rank_invariance.cpp);
   - bad input gives clear errors. */
#include "incline.h"
#include "lammps_session.h"

#include "atom.h"
#include "exceptions.h"
#include "lammps.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

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
   and LAMMPS's has. Returns the torques on atom 1 and its spin every 50 steps.
   held = false (gran/coulomb, which refuses fix setforce): no fixes at all, the spheres keep
   their positions and spins (no integrator), and the torques are compared alone. */
std::vector<std::array<double, 3>> spinning_pair(const std::vector<std::string> &pair_lines,
                                                 bool held = true)
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
  if (held) s.commands({"fix hold all setforce 0 0 0", "fix integrate all nve/sphere"});
  s.commands({"timestep 1e-5", "run 0 post no"});
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

// (law: pair granular's normal and tangential models before the rolling and twisting ones)
void expect_as_lammps(const std::vector<std::string> &ours, const std::string &granular,
                      const char *what, bool held = true,
                      const std::string &law = "hooke 1e5 0.0 tangential linear_history 8e4 0.0 0.5")
{
  const auto a = spinning_pair(ours, held);
  const auto b = spinning_pair({"pair_style granular", "pair_coeff * * " + law + " " + granular},
                               held);
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
  expect_as_lammps({"pair_style gran/kuhn",
                    "pair_coeff * * 1e5 8e4 0.5 rolling sds 1e5 20 0.1 twisting sds 2e3 0.5 0.01"},
                   "rolling sds 1e5 20 0.1 twisting sds 2e3 0.5 0.01", "rolling + twisting sds");
}

/* gran/coulomb (pair_coeff keywords): the same normal force (hooke, no dashpot); the exact
   friction is zero here (equal arms, opposite spins and opposite torques: no relative
   tangential velocity, before or after the kick) as LAMMPS's tangential spring is */
TEST(RollingTwisting, CoulombSdsEqualsPairGranular)
{
  expect_as_lammps({"pair_style gran/coulomb",
                    "pair_coeff * * hooke 1e5 0.5 rolling sds 1e5 20 0.1 twisting sds 2e3 0.5 0.01"},
                   "rolling sds 1e5 20 0.1 twisting sds 2e3 0.5 0.01",
                   "gran/coulomb rolling + twisting sds", false);
}

// Marshall's twisting from the tangential spring (8e4), its dashpot (0) and mu (0.5)
TEST(RollingTwisting, MarshallEqualsPairGranular)
{
  expect_as_lammps({"pair_style gran/kuhn",
                    "pair_coeff * * 1e5 8e4 0.5 rolling sds 5e4 0 0.05 twisting marshall"},
                   "rolling sds 5e4 0 0.05 twisting marshall", "rolling sds + twisting marshall");
}

/* gran/jaeger (pair_coeff keywords) against pair granular's hertz/material with tangential
   mindlin: E 2.73e6, nu 0.3 (E* = 1.5e6 Pa: the Hertz force at the 1 cm overlap, R* = 0.25 m,
   is 1000 N, as the hooke cases'), no dashpots. No tangential slip at the contact (see
   spinning_pair()): both tangential forces stay zero, the torques are the resistance's. The
   limits scale with the Hertz force in both (LAMMPS's Fncrit without damping). */
const std::string JAEGER_LAW = "2.73e6 0.3 0.5";
const std::string GRANULAR_HERTZ_MINDLIN =
    "hertz/material 2.73e6 0.0 0.3 tangential mindlin NULL 0.0 0.5";

TEST(RollingTwisting, JaegerSdsEqualsPairGranular)
{
  const std::string models = "rolling sds 1e5 20 0.1 twisting sds 2e3 0.5 0.01";
  expect_as_lammps({"pair_style gran/jaeger", "pair_coeff * * " + JAEGER_LAW + " " + models},
                   models, "gran/jaeger rolling + twisting sds", true, GRANULAR_HERTZ_MINDLIN);
}

/* twisting marshall from Jaeger's (Mindlin's) tangential spring at the contact radius a =
   sqrt(overlap R*) = 0.05 m: k = 8 G* a a^2 / 2, gamma = 0 (no dashpot), mu = 2/3 mu a; on this
   path a is constant, so pair granular's twisting sds with those coefficients is the same
   model (pair granular's own marshall with mindlin takes the coefficient 8 G* without a: see
   doc/pair_gran_jaeger.rst). */
TEST(RollingTwisting, JaegerMarshallEqualsPairGranular)
{
  const double E = 2.73e6, nu = 0.3, a = std::sqrt(0.01 * 0.25);
  const double gstar = E / (4.0 * (2.0 - nu) * (1.0 + nu));    // two bodies of one material
  const std::string marshall_sds = fmt::format("twisting sds {:.17g} 0 {:.17g}",
                                               0.5 * 8.0 * gstar * a * a * a, 2.0 / 3.0 * 0.5 * a);
  expect_as_lammps({"pair_style gran/jaeger",
                    "pair_coeff * * " + JAEGER_LAW + " rolling sds 5e4 0 0.05 twisting marshall"},
                   "rolling sds 5e4 0 0.05 " + marshall_sds,
                   "gran/jaeger rolling sds + twisting marshall", true, GRANULAR_HERTZ_MINDLIN);
}

namespace {
std::vector<std::string> packing(bool newton = true)
{
  return dense_packing_input({"pair_style gran/kuhn",
                              "pair_coeff * * 2.0e3 2.0e3 0.5 rolling sds 2.0e3 0.0 0.1 twisting "
                              "sds 1e-5 0.0 3e-5"},
                             newton);
}
}    // namespace

/* kinetic (with rotation) + stored + dissipated stays constant: the springs' energy and
   dissipation belong to the sums. Left out of the friction sum, the resistance's dissipation
   shows as a drift of -6e-2 (measured). The resistance's work is the trapezoid of its start
   and end torques, as velocity-Verlet's kinetic energy takes it, so it adds no drift of its
   own: the same packing without rolling and twisting (its own drift is gran/kuhn's time-step
   error, 1.1e-6 measured at dt = 2e-7 s) must drift the same to 1e-6 of the initial energy,
   and both stay within gran/kuhn's balance bound of 4e-6 (test_gran_kuhn). Booked with the
   end-of-step torques, as before, the resistance added 1.3e-4 (first order in dt: 6.5e-5 at
   dt/2); with the start torque scaled onto this step's limit, 2.7e-5. */
double packing_energy_drift(const std::string &resistance, double &friction)
{
  const EnergyBalance b = packing_energy_balance(
      {"pair_style gran/kuhn", "pair_coeff * * 2.0e3 2.0e3 0.5" + resistance}, "gran/kuhn", 2e-7,
      3000);
  friction = b.pair[2] / b.e0;
  return b.drift();
}

TEST(RollingTwisting, EnergyBalanceOfPacking)
{
  double friction = 0.0, friction_plain = 0.0;
  const double drift =
      packing_energy_drift(" rolling sds 2.0e3 0.0 0.1 twisting sds 1e-5 0.0 3e-5", friction);
  const double plain = packing_energy_drift("", friction_plain);
  std::printf("[ energy   ] relative drift with rolling and twisting %.4e, without %.4e; "
              "friction/initial %.3f and %.3f\n",
              drift, plain, friction, friction_plain);
  EXPECT_GT(friction - friction_plain, 0.01) << "the resistance dissipates";
  EXPECT_LT(std::fabs(drift), 4e-6);
  EXPECT_LT(std::fabs(plain), 4e-6);
  EXPECT_LT(std::fabs(drift - plain), 1e-6);
}

/* the per-atom energies sum to the system's with the resistance's springs, dissipation and
   dashpots in them (tolerance as gran/kuhn's own test), newton on and off */
TEST(RollingTwisting, PerAtomEnergiesSumToGlobal)
{
  expect_atom_energies_sum_to_global(
      [](bool newton) {
        return dense_packing_input({"pair_style gran/kuhn energy/atom yes",
                                    "pair_coeff * * 2.0e3 2.0e3 0.5 damping 0.002 0.001 rolling "
                                    "sds 2.0e3 0.01 0.1 twisting sds 1e-5 1e-10 3e-5"},
                                   newton);
      },
      "gran/kuhn", "DEMC_GRAN_KUHN_HISTORY0");
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

namespace {
// the lines of a data file's "PairIJ Coeffs" section
std::vector<std::string> pair_ij_lines(const std::string &file)
{
  std::ifstream in(file);
  std::vector<std::string> out;
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line.rfind("PairIJ Coeffs", 0) == 0) {
      inside = true;
      continue;
    }
    if (!inside || line.empty()) {
      if (inside && !out.empty()) break;
      continue;
    }
    out.push_back(line);
  }
  return out;
}

/* write_data pair ij writes every type pair's rolling and twisting (unlike types: the geometric
   means, the documented mixing), and read_data gives them back: written again, the same lines.
   law_1, law_2: the two types' law coefficients; twisting: "sds" (k 1e-5 and 4e-5, mu 3e-5 and
   1e-5) or "marshall" */
void expect_write_data_keeps_resistance(const std::string &style, const std::string &law_1,
                                        const std::string &law_2, const std::string &twisting)
{
  const bool sds = twisting == "sds";
  const std::string file = "resistance_coeffs.data";
  {
    LammpsSession s;
    s.load_plugin();
    s.commands(dense_packing_input(
        {"pair_style " + style,
         "pair_coeff 1 1 " + law_1 + " rolling sds 2000 0.01 0.1 twisting " +
             (sds ? "sds 1e-5 0 3e-5" : "marshall"),
         "pair_coeff 2 2 " + law_2 + " rolling sds 1000 0.04 0.2 twisting " +
             (sds ? "sds 4e-5 0 1e-5" : "marshall")},
        true));
    s.commands({"run 0", "write_data " + file + " pair ij"});
  }
  const auto first = pair_ij_lines(file);
  ASSERT_EQ(first.size(), 3u);
  const std::string own = sds ? "twisting sds 1.0000000000000001e-05 0 3.0000000000000001e-05"
                              : "twisting marshall";
  EXPECT_NE(first[0].find("rolling sds 2000 0.01 0.10000000000000001 " + own), std::string::npos)
      << first[0];
  const std::string mixed = sds ? fmt::format("twisting sds {:.17g} 0 {:.17g}",
                                              std::sqrt(1e-5 * 4e-5), std::sqrt(3e-5 * 1e-5))
                                : "twisting marshall";
  EXPECT_NE(first[1].find(fmt::format("rolling sds {:.17g} {:.17g} {:.17g} {}",
                                      std::sqrt(2000.0 * 1000.0), std::sqrt(0.01 * 0.04),
                                      std::sqrt(0.1 * 0.2), mixed)),
            std::string::npos)
      << first[1];
  {
    LammpsSession s;
    s.load_plugin();
    s.commands({"units si", "atom_style sphere", "comm_modify vel yes", "pair_style " + style,
                "read_data " + file, "run 0", "write_data " + file + " pair ij"});
  }
  const auto second = pair_ij_lines(file);
  std::remove(file.c_str());
  EXPECT_EQ(first, second);
}
}    // namespace

TEST(RollingTwisting, WriteDataKeepsRollingAndTwisting)
{
  expect_write_data_keeps_resistance("gran/kuhn", "2000 2000 0.5", "3000 2500 0.4", "marshall");
  expect_write_data_keeps_resistance("gran/coulomb", "hooke 2000 0.5", "hooke 3000 0.4", "sds");
}

// rolling and twisting are set per type pair: unlike types whose models differ need pair_coeff
TEST(RollingTwisting, UnlikeTypesWithOtherModelsNeedTheirOwnPairCoeff)
{
  LammpsSession s;
  s.load_plugin();
  s.commands({"units si", "atom_style sphere", "comm_modify vel yes",
              "region box block 0 1 0 1 0 1", "create_box 2 box",
              "create_atoms 1 single 0.5 0.5 0.5", "pair_style gran/kuhn",
              "pair_coeff 1 1 1e5 8e4 0.5 rolling sds 1e3 0 0.1", "pair_coeff 2 2 1e5 8e4 0.5"});
  try {
    s.command("run 0 post no");
    ADD_FAILURE() << "mixed rolling with none";
  } catch (LAMMPS_NS::LAMMPSException &e) {
    EXPECT_NE(std::string(e.what()).find("types 1 and 2 have different rolling or twisting"),
              std::string::npos)
        << e.what();
  }
  s.commands({"pair_coeff 1 2 1e5 8e4 0.5", "run 0 post no"});    // explicit: accepted
}

TEST(RollingTwisting, BadInputGivesClearErrors)
{
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"pair_coeff * * 1e5 8e4 0.5 rolling sds 1 2", "Illegal"},
      {"pair_coeff * * 1e5 8e4 0.5 rolling marshall", "unknown model marshall"},
      {"pair_coeff * * 1e5 8e4 0.5 twisting xyz", "unknown model xyz"},
      {"pair_coeff * * 1e5 8e4 0.5 rolling sds -1 0 0.1", "k must be >= 0"},
      {"pair_coeff * * 1e5 8e4 0.5 twisting sds 1 0 -0.1", "mu must be >= 0"},
      {"pair_coeff * * 1e5 8e4 0.5 damping 1 1 restitution 0.5 0", "given twice"},
      {"pair_coeff * * 1e5 8e4 0.5 rolling sds 1 0 0.1 rolling sds 2 0 0.1", "given twice"},
      {"pair_coeff * * 1e5 8e4 0.5 twisting marshall rolling sds 1 0 0.1 twisting sds 1 0 0.1",
       "given twice"},
      {"pair_coeff * * 1e5 8e4 0.5 spinning sds 1 1 1", "Unknown pair_coeff gran/kuhn keyword"},
      {"pair_style gran/kuhn rolling sds 1 2 3", "Unknown pair_style gran/kuhn keyword"},
      {"fix w all wall/gran/kuhn 1e5 8e4 0.5 rolling sds 1 2 -3 zplane 0 NULL", "mu must be >= 0"},
      {"fix w all wall/gran/kuhn 1e5 8e4 0.5 twisting xyz zplane 0 NULL", "unknown model xyz"},
      {"fix w all wall/gran/kuhn 1e5 8e4 0.5 rolling sds 1 0 0.1 rolling sds 1 0 0.2 zplane 0 NULL",
       "given twice"},
  };
  for (const auto &c : cases) {
    LammpsSession s;
    s.load_plugin();
    s.commands({"units si", "atom_style sphere", "region box block 0 1 0 1 0 1",
                "create_box 1 box", "pair_style gran/kuhn"});
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
    s.commands({"pair_coeff * * 1e5 8e4 0.5 rolling sds 1e5 0 0.1", "run 0 post no"});
    ADD_FAILURE() << "rolling switched on after a run";
  } catch (LAMMPS_NS::LAMMPSException &e) {
    EXPECT_NE(std::string(e.what()).find("cannot be switched on or off"), std::string::npos)
        << e.what();
  }
}

/* ---------------------------------------------------------------- closed forms
   A sphere of radius R = 1 cm, density 2500 kg/m3 (incline.h) on a frozen sphere of radius
   1000 m standing for a flat surface, and on fix wall/gran/kuhn's flat wall, gran/kuhn
   1e6 8e5 0.5 with "restitution 0.3 1" (the start's normal and tangential oscillations die
   within ~1 ms). Rolling without slip, the rolling torque mu_roll F_n R_eff about the contact
   decelerates the sphere (I + m R^2 = 7/5 m R^2) at a = 5/7 mu_roll g R_eff / R; on a slope
   of angle alpha the sphere stays at rest while the torque m g sin(alpha) R about the contact
   is below mu_roll m g cos(alpha) R: tan(alpha) <= mu_roll; beyond, it rolls down at
   5/7 g (sin(alpha) - mu_roll cos(alpha)). Friction mu = 0.5 keeps the tangential force
   (5/7 mu_roll m g at most) far inside Coulomb's limit: sliding is never the limit.
   Error sources, relative to a: R_eff / R - 1 = 1e-5 (the 1000 m partner); the surface's
   curvature over the path (below 1 mm here): slope 1e-6, 1e-5 of mu_roll g; the time step:
   none while the rolling spring slides (its force is then exactly mu_roll F_n, constant,
   which velocity Verlet integrates exactly; the dashpot's gamma_roll v exceeds mu_roll F_n,
   so it slides from the first step); the rolling spring's stretch s = mu_roll F_n / k_roll
   = 1e-7 m, which a rigid rolling resistance does not have: it shifts where the sphere stops
   by at most s. What is left is the tangential spring's decaying oscillation (amplitude
   below 1e-3 m/s, omega_t ~ 1.6e4 rad/s, damped within ~1 ms), whose share of a
   least-squares slope over a window L = 20 ms is below 12 A / (omega_t L^2) = 2e-3 m/s2
   undamped (incline.h), far less as the window starts at 2 ms: 1e-3 of a bounds all of it. */
namespace {

constexpr double MU_ROLL = 0.1;

// wall: the law's wall fix (a flat surface), else the pair style against a frozen sphere
Incline rolling_incline(double alpha_deg, const std::string &law = "kuhn", bool wall = false)
{
  // k_roll 1e5 N/m: rolling spring frequency sqrt(k_roll / (7/5 m)) ~ 2600 rad/s, 240 steps
  // a period; gamma_roll 60: below critical (2 sqrt(7/5 m k_roll) = 77), the spring settles
  const std::string rolling = fmt::format("rolling sds 1e5 60 {}", MU_ROLL);
  // gran/coulomb: hertz, no tangential dashpot, the resistance in pair_coeff
  if (law == "coulomb") return {law, wall, alpha_deg, "restitution 0.3 0 " + rolling, ""};
  // gran/kuhn and gran/jaeger: the resistance in pair_coeff, and on the wall fix's line after
  // its law
  return {law, wall, alpha_deg, "restitution 0.3 1 " + rolling, ""};
}

// least-squares slope of v_x(t) over samples (t, v)
double slope(const std::vector<std::pair<double, double>> &tv)
{
  double st = 0, st2 = 0, sv = 0, stv = 0;
  for (const auto &p : tv) {
    st += p.first;
    st2 += p.first * p.first;
    sv += p.second;
    stv += p.first * p.second;
  }
  const double n = static_cast<double>(tv.size());
  return (n * stv - st * sv) / (n * st2 - st * st);
}

/* on the frozen sphere of radius INCLINE_BIG (the pair style) the slope's factor
   INCLINE_BIG / (INCLINE_BIG + R) enters; on the law's flat wall (a partner of infinite
   radius: the rolling radius is the sphere's) the closed form itself */
void expect_rolling_deceleration(const std::string &law, bool wall = false)
{
  LammpsSession s;
  s.load_plugin();
  s.commands(incline_input(rolling_incline(0.0, law, wall)));
  const double v0 = 0.02;    // m/s, rolling without slip: omega_y = v0 / R
  s.commands({fmt::format("velocity small set {} 0 0", v0),
              fmt::format("set type 1 omega 0 {} 0", v0 / INCLINE_RADIUS), "run 0 post no"});
  const double a = 5.0 / 7.0 * MU_ROLL * INCLINE_G *
      (wall ? 1.0 : INCLINE_BIG / (INCLINE_BIG + INCLINE_RADIUS));
  const double t_stop = v0 / a;    // 28.5 ms
  auto *atom = s.lmp->atom;
  std::vector<std::pair<double, double>> window;
  double largest_after = 0.0;
  for (int chunk = 1; chunk <= 100; chunk++) {    // 50 ms
    s.command("run 50 pre no post no");
    const double t = chunk * 50 * 1e-5;
    const int i = atom->map(1);
    const double v = atom->v[i][0];
    if (t > 0.002 && t < 0.022) window.emplace_back(t, v);
    if (t > t_stop + 0.005) largest_after = std::max(largest_after, std::fabs(v));
  }
  const double x_stop = atom->x[atom->map(1)][0];
  const double measured = -slope(window);
  const double x_closed = v0 * v0 / (2.0 * a);
  std::printf("[ rolling  ] %s%s: deceleration %.6g m/s2, closed form 5/7 mu_roll g %.6g "
              "(relative %.1e); distance to the stop %.5g m, closed form %.5g m; after the stop "
              "|v| <= %.1e m/s\n",
              law.c_str(), wall ? " wall" : "", measured, a, measured / a - 1.0, x_stop, x_closed,
              largest_after);
  EXPECT_NEAR(measured, a, 1e-3 * a);
  // the distance: the same closed form integrated, give or take the rolling spring's stretch
  // s = mu_roll F_n / k_roll (3.5e-4 of it) and 1e-3 of it for the rest, as above
  const double stretch = MU_ROLL * INCLINE_G * 2500.0 * 4.0 / 3.0 * INCLINE_PI *
      std::pow(INCLINE_RADIUS, 3) / 1e5;
  EXPECT_NEAR(x_stop, x_closed, stretch + 1e-3 * x_closed);
  // stopped: what is left is the rolling spring's damped oscillation (its velocity amplitude
  // is at most mu_roll F_n / sqrt(7/5 m k_roll) = 3e-4 m/s at the stop, decaying at ~2000/s)
  EXPECT_LT(largest_after, 1e-4);
}

}    // namespace

TEST(RollingTwisting, RollingSphereDeceleratesAtFiveSeventhsMuRollG)
{
  expect_rolling_deceleration("kuhn");
}

TEST(RollingTwisting, RollingSphereOnWallDeceleratesAtFiveSeventhsMuRollG)
{
  expect_rolling_deceleration("kuhn", true);    // fix wall/gran/kuhn
}

/* gran/coulomb's exact friction holds the contact point at rest (no tangential spring to
   ring): the same closed form, the same error sources */
TEST(RollingTwisting, CoulombRollingSphereDeceleratesAtFiveSeventhsMuRollG)
{
  expect_rolling_deceleration("coulomb");
  expect_rolling_deceleration("coulomb", true);    // fix wall/gran/coulomb
}

/* gran/jaeger (pair_coeff keywords; the wall's on its line): the same closed form, the same
   error sources; its tangential spring (Mindlin's, 2 G* a ~ 8e5 N/m here) rings as kuhn's does
   and dies under the tangential dashpot within ~1 ms */
TEST(RollingTwisting, JaegerRollingSphereDeceleratesAtFiveSeventhsMuRollG)
{
  expect_rolling_deceleration("jaeger");
  expect_rolling_deceleration("jaeger", true);    // fix wall/gran/jaeger
}

/* at 0.9 of the threshold tan(alpha) = mu_roll the sphere stays where it is (the rolling spring
   holds it after a stretch of m g sin(alpha) / k_roll ~ 1e-7 m, twice that with the
   overshoot); at 1.1 it rolls down at 5/7 g (sin(alpha) - mu_roll cos(alpha)). Tolerance 1e-3
   of 5/7 g mu_roll as above. */
TEST(RollingTwisting, SphereOnInclineRollsOnlyAboveTanAlphaEqualsMuRoll)
{
  // (the walls: the rolling radius is R; to R / R_big = 1e-5 the same closed forms)
  for (const std::string law :
       {"kuhn", "kuhn wall", "coulomb", "coulomb wall", "jaeger", "jaeger wall"})
  for (const double factor : {0.9, 1.1}) {
    const double alpha = std::atan(factor * MU_ROLL);
    const bool wall = law.find(" wall") != std::string::npos;
    const InclineRun r = run_incline(
        rolling_incline(alpha * 180.0 / INCLINE_PI, law.substr(0, law.find(' ')), wall));
    const double closed =
        factor < 1.0 ? 0.0 : 5.0 / 7.0 * INCLINE_G * (std::sin(alpha) - MU_ROLL * std::cos(alpha));
    std::printf("[ incline  ] %s, tan(alpha) = %.2f mu_roll: accelerations %.4e, %.4e m/s2, closed "
                "form %.4e; energy drift %.1e J of gravity's work %.1e J\n",
                law.c_str(), factor, r.a[0], r.a[1], closed, r.energy_drift, r.gravity_work);
    for (int k = 0; k < 2; k++)
      EXPECT_NEAR(r.a[k], closed, 1e-3 * 5.0 / 7.0 * INCLINE_G * MU_ROLL) << law << factor;
  }
}

/* ---------------------------------------------------------------- objectivity
   Rigid rotation of a loaded assembly: the dense packing (lammps_session.cpp), without
   friction (mu = 0, so the torques are the rolling and twisting resistance alone), runs 150
   steps with both options on: its contacts' rolling and twisting springs are stressed. Then
   it is made non-periodic and brought to rest (one step without integrator), and turned as one
   rigid body by 90 degrees about the axis (1, 2, 2) / 3 through its middle in 1000 steps with
   fix move rotate (which sets positions, velocities and spins), then back along the same path.
   Nothing deforms and no pair turns relative to the assembly, so an objective law's torques
   turn with it: after 90 degrees they are R times those before, after the way back the same
   as before (the positions themselves are restored to ~1e-16 of the box).
   gran/kuhn carries its springs with the pair (turned by the tilt of the normal, twirled by
   the pair's mean spin); pair granular projects them onto the new tangent plane and keeps
   them fixed in space otherwise, so contacts that turn about their normal keep stale springs.
   gran/kuhn's carrying is not exact to round-off: tilt + twirl differs from a rigid rotation
   by theta per step about an axis at angle beta to the normal by a twist about the normal of
   theta^3 cos(beta) sin^2(beta) / 12 per step (contact_frame.h), at most 2 / (3 sqrt 3) of
   theta^3 / 12; over N steps of theta = (pi/2) / N a spring turns wrongly by at most
   (pi/2)^3 / (12 N^2) 0.385 = 1.2e-7 for N = 1000, 3.1e-8 for N = 2000, and so does the
   torque it gives. An atom's torque sums its contacts' (a few, each no larger than the
   largest atom torque for this packing's near-uniform contacts): 8 times that bound is the
   tolerance. That the difference is this term and not an O(1) lag is shown by its scaling:
   doubling N divides it by 4 (within 3 to 5). The way back retraces the path: the twists
   cancel to leading order. */
namespace {

struct Turned {
  PerAtom before, turned, back;
};

Turned turn_there_and_back(const std::vector<std::string> &pair_lines, int steps)
{
  LammpsSession s;
  s.load_plugin();
  s.commands(dense_packing_input(pair_lines, true));
  s.commands({"run 150", "unfix integrate", "change_box all boundary s s s",
              "velocity all set 0 0 0", "set group all omega 0 0 0", "run 1 post no"});
  Turned out;
  out.before = s.torques();
  // middle of the lattice 8 x 0.0019 m; 90 degrees in `steps` steps: period 4 steps dt
  const std::string period = fmt::format("{:.17g}", 4 * steps * 1e-5);
  const std::string run = fmt::format("run {} post no", steps);
  s.commands({"fix spin all move rotate 0.0076 0.0076 0.0076 1 2 2 " + period, run});
  out.turned = s.torques();
  s.commands({"unfix spin", "fix spin all move rotate 0.0076 0.0076 0.0076 -1 -2 -2 " + period,
              run});
  out.back = s.torques();
  return out;
}

// R (90 degrees about a = (1, 2, 2) / 3) t = (a.t) a + a x t
PerAtom turned_by_90(const PerAtom &t)
{
  const double a[3] = {1.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0};
  PerAtom out(t.size());
  for (size_t i = 0; i < t.size(); i++) {
    const auto &v = t[i];
    const double along = a[0] * v[0] + a[1] * v[1] + a[2] * v[2];
    out[i] = {along * a[0] + a[1] * v[2] - a[2] * v[1], along * a[1] + a[2] * v[0] - a[0] * v[2],
              along * a[2] + a[0] * v[1] - a[1] * v[0]};
  }
  return out;
}

// the bound above
constexpr double rotation_bound()
{
  return 8.0 * (0.5 * INCLINE_PI) * (0.5 * INCLINE_PI) * (0.5 * INCLINE_PI) / 12.0 * 2.0 /
      (3.0 * 1.7320508075688772) / 1e6;
}

/* a style's torques turned with the packing (at 90 degrees in 1000 and 2000 steps, and back):
   within the bound above, and the difference is the carrying's third-order term (it falls by
   4 when the steps double) */
void expect_objective(const std::vector<std::string> &ours_lines,
                                           const char *what)
{
  const Turned ours = turn_there_and_back(ours_lines, 1000);
  const Turned finer = turn_there_and_back(ours_lines, 2000);
  const double ours_turned = max_relative_difference(turned_by_90(ours.before), ours.turned);
  const double ours_back = max_relative_difference(ours.before, ours.back);
  const double finer_turned = max_relative_difference(turned_by_90(finer.before), finer.turned);
  std::printf("[ rotation ] torques, largest difference / largest torque: %s %.1e at 90 degrees "
              "in 1000 steps (%.1e in 2000), %.1e back\n",
              what, ours_turned, finer_turned, ours_back);
  // the resistance is stressed, or the comparison proves nothing
  double largest = 0.0;
  for (const auto &t : ours.before)
    largest = std::max({largest, std::fabs(t[0]), std::fabs(t[1]), std::fabs(t[2])});
  EXPECT_GT(largest, 0.0) << what;
  const double bound = rotation_bound();
  EXPECT_LT(ours_turned, bound) << what;
  EXPECT_LT(ours_back, bound) << what;
  EXPECT_GT(ours_turned / finer_turned, 3.0) << what;
  EXPECT_LT(ours_turned / finer_turned, 5.0) << what;
}

}    // namespace

TEST(RollingTwisting, RigidRotationRestoresTorquesUnlikePairGranular)
{
  expect_objective({"pair_style gran/kuhn", "pair_coeff * * 2.0e3 2.0e3 0.0 rolling sds 2.0e3 "
                                            "0.0 0.1 twisting sds 1e-5 0.0 3e-5"},
                   "gran/kuhn");
  const Turned lammps = turn_there_and_back(
      {"pair_style granular", "pair_coeff * * hooke 2.0e3 0.0 tangential linear_history 2.0e3 "
                              "0.0 0.0 rolling sds 2.0e3 0.0 0.1 twisting sds 1e-5 0.0 3e-5"},
      1000);
  const double lammps_turned = max_relative_difference(turned_by_90(lammps.before), lammps.turned);
  const double lammps_back = max_relative_difference(lammps.before, lammps.back);
  std::printf("[ rotation ] pair granular %.1e at 90 degrees, %.1e back\n", lammps_turned,
              lammps_back);
  // pair granular's springs lag by the twirl: an O(1) error, and partly left on the way back
  EXPECT_GT(lammps_turned, 0.1);
  EXPECT_GT(lammps_back, 1e3 * rotation_bound());
}

// gran/coulomb (mu = 0: its friction is zero, the torques are the resistance's alone)
TEST(RollingTwisting, CoulombRigidRotationRestoresTorques)
{
  expect_objective({"pair_style gran/coulomb",
                    "pair_coeff * * hooke 2.0e3 0.0 rolling sds 2.0e3 0.0 0.1 twisting sds 1e-5 "
                    "0.0 3e-5"},
                   "gran/coulomb");
}

/* gran/jaeger: its springs are carried with the contact frame (the same tilt and twirl, as a
   quaternion), so the same bound holds; mu = 0: the torques are the resistance's alone */
TEST(RollingTwisting, JaegerRigidRotationRestoresTorques)
{
  expect_objective({"pair_style gran/jaeger",
                    "pair_coeff * * 1e7 0.3 0.0 rolling sds 2.0e3 0.0 0.1 twisting sds 1e-5 0.0 "
                    "3e-5"},
                   "gran/jaeger");
}

/* ---------------------------------------------------------------- gran/jaeger
   The energy balance of the packing with rolling and twisting (sds, and marshall with the
   dashpots): kinetic + stored (with the springs' energy in U_t) + dissipated (friction = work
   - U_t, which holds the sliders' dissipation and the energy the springs take away at parting;
   the resistance's dashpots in the damping sum) stays constant. Bound: gran/jaeger's own
   (EnergyBalanceOfFrictionalPacking, 5e-4 of e0: 25 (omega dt)^2 at the stiffest contact); the
   resistance's work is the trapezoid of its torques, second order in dt as the integrator. Its
   misbooking (the dissipation measured below, >= 1e-2 of e0) would show at 1e-2. */
TEST(RollingTwisting, JaegerEnergyBalanceOfPacking)
{
  for (const std::string resistance :
       {" rolling sds 2.0e3 0.0 0.1 twisting sds 1e-5 0.0 3e-5",
        " damping 0.002 0.001 rolling sds 2.0e3 0.01 0.1 twisting marshall", ""}) {
    const EnergyBalance b = packing_energy_balance(
        {"pair_style gran/jaeger", "pair_coeff * * 1e7 0.3 0.5" + resistance}, "gran/jaeger",
        2e-7, 3000);
    const double e0 = b.e0, e1 = b.e1;
    const auto &e = b.pair;
    std::printf("[ energy   ] gran/jaeger%s: relative drift %.2e, friction/initial %.4f, "
                "damping/initial %.4f\n",
                resistance.c_str(), (e1 - e0) / e0, e[2] / e0, e[3] / e0);
    EXPECT_GT(e[2], 0.05 * e0) << resistance;
    EXPECT_NEAR(e1, e0, 5e-4 * e0) << resistance;
  }
}

/* The per-atom energies sum to the system's with the resistance's springs, dissipation and
   dashpots in them (as gran/jaeger's own test), newton on and off */
TEST(RollingTwisting, JaegerPerAtomEnergiesSumToGlobal)
{
  expect_atom_energies_sum_to_global(
      [](bool newton) {
        return dense_packing_input({"pair_style gran/jaeger energy/atom yes",
                                    "pair_coeff * * 1e7 0.3 0.5 damping 0.002 0.001 rolling sds "
                                    "2.0e3 0.01 0.1 twisting marshall"},
                                   newton);
      },
      "gran/jaeger", "DEMC_GRAN_JAEGER_HISTORY0");
}

/* N + M steps straight = N steps, restart file (written during the run: the straight run has no
   setup there), read_restart, run 0, run M: every setup repeats the last step's dashpot force
   and resistance torque, the springs and the records' slots come back (forces and torques to
   round-off, as gran/jaeger's own test); newton on and off */
TEST(RollingTwisting, JaegerRestartContinuity)
{
  for (bool newton : {true, false}) {
    const std::vector<std::string> pair = dense_packing_input(
        {"pair_style gran/jaeger", "pair_coeff * * 1e7 0.3 0.5 damping 0.02 0.01 rolling sds "
                                   "2.0e3 0.01 0.1 twisting marshall"},
        newton);
    const std::string root = std::string("jaeger_rolling_restart_") + (newton ? "on" : "off");
    const std::string file = root + ".150";
    PerAtom straight, resumed, straight_t, resumed_t;
    {
      LammpsSession s;
      s.load_plugin();
      s.commands(pair);
      s.commands({"restart 150 " + root, "run 200"});
      straight = s.forces();
      straight_t = s.torques();
    }
    {
      LammpsSession s;
      s.load_plugin();
      s.command(std::string("newton ") + (newton ? "on" : "off"));
      s.commands({"read_restart " + file, "neighbor 0.0003 bin", "neigh_modify delay 0",
                  "fix integrate all nve/sphere", "timestep 1e-5", "run 0", "run 50"});
      resumed = s.forces();
      resumed_t = s.torques();
    }
    std::remove(file.c_str());
    const double df = max_relative_difference(straight, resumed);
    const double dt = max_relative_difference(straight_t, resumed_t);
    std::printf("[ restart  ] gran/jaeger with rolling and twisting marshall, newton %s: forces "
                "%.1e, torques %.1e (largest relative difference)\n",
                newton ? "on" : "off", df, dt);
    EXPECT_LT(df, 1e-12) << "newton " << newton;
    EXPECT_LT(dt, 1e-12) << "newton " << newton;
  }
}

namespace {
// the message of the error the last of `lines` raises ("" if none), after a box of 2 types
std::string jaeger_error(const std::vector<std::string> &lines)
{
  LammpsSession s;
  s.load_plugin();
  s.commands({"units si", "atom_style sphere", "comm_modify vel yes",
              "region box block 0 1 0 1 0 1", "create_box 2 box",
              "create_atoms 1 single 0.5 0.5 0.5", "set group all diameter 0.1",
              "set group all density 1000"});
  for (size_t k = 0; k + 1 < lines.size(); k++) s.command(lines[k]);
  try {
    s.command(lines.back());
  } catch (LAMMPS_NS::LAMMPSException &e) {
    return e.what();
  }
  return "";
}
}    // namespace

TEST(RollingTwisting, JaegerBadInputGivesClearErrors)
{
  const std::string style = "pair_style gran/jaeger";
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{style, "pair_coeff * * 1e7 0.3 0.5 rolling sds -1 0 0.1"}, "k must be >= 0"},
      {{style, "pair_coeff * * 1e7 0.3 0.5 twisting sds 1 0 -0.1"}, "mu must be >= 0"},
      {{style, "pair_coeff * * 1e7 0.3 0.5 twisting sds 1 -1 0.1"}, "gamma must be >= 0"},
      {{style, "pair_coeff * * 1e7 0.3 0.5 rolling marshall"}, "unknown model marshall"},
      {{style, "pair_coeff * * 1e7 0.3 0.5 twisting sds 1 2"}, "Illegal"},
      // on the wrong command: pair_style takes no resistance keywords (pair_coeff does)
      {{"pair_style gran/jaeger rolling sds 1 0 0.1"}, "Unknown pair_style gran/jaeger keyword"},
      {{"fix w all wall/gran/jaeger 1e7 0.3 0.5 rolling sds 1 2 -3 zplane 0 NULL"},
       "mu must be >= 0"},
      // marshall takes no values
      {{"fix w all wall/gran/jaeger 1e7 0.3 0.5 twisting marshall 1 zplane 0 NULL"},
       "Unknown fix wall/gran/jaeger keyword: 1"},
      // no mixing rule between different models
      {{style, "pair_coeff 1 1 1e7 0.3 0.5 rolling sds 1 0 0.1", "pair_coeff 2 2 1e7 0.3 0.5",
        "run 0 post no"},
       "different rolling or twisting models"},
      // the records are laid out for the first run's options
      {{style, "pair_coeff * * 1e7 0.3 0.5", "run 0 post no",
        "pair_coeff * * 1e7 0.3 0.5 rolling sds 1 0 0.1", "run 0 post no"},
       "cannot be switched on or off"},
  };
  for (const auto &c : cases) {
    const std::string what = jaeger_error(c.first);
    EXPECT_NE(what.find(c.second), std::string::npos) << c.first.back() << ": " << what;
  }
}

/* write_data writes the resistance keywords of every type pair (the mixed one with the
   geometric means), and read_data takes them back: the file written again is the same */
TEST(RollingTwisting, JaegerWriteDataKeepsTheResistance)
{
  const std::string first = "jaeger_rolling_1.data", second = "jaeger_rolling_2.data";
  const std::vector<std::string> start = {"units si", "atom_style sphere", "comm_modify vel yes"};
  {
    LammpsSession s;
    s.load_plugin();
    s.commands(start);
    s.commands({"region box block 0 1 0 1 0 1", "create_box 2 box",
                "create_atoms 1 single 0.5 0.5 0.5", "create_atoms 2 single 0.5 0.5 0.59",
                "set group all diameter 0.1", "set group all density 1000",
                "pair_style gran/jaeger",
                "pair_coeff 1 1 1e7 0.3 0.5 rolling sds 1e3 0.5 0.1 twisting marshall",
                "pair_coeff 2 2 2e7 0.3 0.4 rolling sds 4e3 0.5 0.4 twisting marshall",
                "write_data " + first + " pair ij"});
  }
  {
    LammpsSession s;
    s.load_plugin();
    s.commands(start);
    s.commands({"pair_style gran/jaeger", "read_data " + first, "write_data " + second + " pair ij"});
  }
  auto pair_section = [](const std::string &file) {
    std::ifstream in(file);
    std::string line, out;
    bool inside = false;
    while (std::getline(in, line)) {
      if (line.rfind("PairIJ Coeffs", 0) == 0) inside = true;
      else if (inside && !line.empty() && !std::isdigit((unsigned char) line[0])) break;
      if (inside) out += line + "\n";
    }
    return out;
  };
  const std::string a = pair_section(first), b = pair_section(second);
  std::remove(first.c_str());
  std::remove(second.c_str());
  EXPECT_EQ(a, b);
  EXPECT_NE(a.find("1 1 10000000 0.29999999999999999 0.5 damping 0 0 rolling sds 1000 0.5 "
                   "0.10000000000000001 twisting marshall"),
            std::string::npos)
      << a;
  // 1 2: sqrt(1e3 4e3) = 2000, sqrt(0.1 0.4) = 0.2
  EXPECT_NE(a.find("rolling sds 2000 0.5 0.20000000000000001 twisting marshall"), std::string::npos)
      << a;
}
