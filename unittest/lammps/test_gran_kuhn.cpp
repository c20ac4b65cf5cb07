/* Layer (b): pair_style gran/kuhn inside LAMMPS.
   - two spheres under prescribed motion reproduce the kernel called directly
     with the same movements (signs, contact vectors, Eq. 5 inputs, torques, history);
   - the virial is the dyad of branch vector and force;
   - energy balance of a frictional packing without damping;
   - restart continuity; write_data round trip; bad input gives clear errors. */
#include "collision.h"
#include "lammps_session.h"
#include "prescribed_motion.h"

#include "kuhn_contact.h"

#include "atom.h"
#include "compute.h"
#include "exceptions.h"
#include "force.h"
#include "lammps.h"
#include "modify.h"
#include "pair.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>

using namespace demc_test;
using demc::Vec3;

namespace {

const double KN = 1.0e5, KT = 8.0e4, MU = 0.4, RADIUS = 0.5, DT = 1.0e-4;

std::vector<std::string> two_sphere_setup(const std::string &pair_style)
{
  return {"units si",
          "atom_style sphere",
          "atom_modify map array",
          "boundary f f f",
          "comm_modify vel yes",
          "region box block -3 3 -3 3 -3 3",
          "create_box 1 box",
          "create_atoms 1 single 0 0 0",
          "create_atoms 1 single 1.2 0 0",
          "set group all diameter 1.0",
          "set group all density 1000",
          "neighbor 0.5 bin",
          "neigh_modify every 1 delay 0 check no",
          pair_style,
          "pair_coeff * * 100000 80000 0.4",
          "timestep " + std::to_string(DT)};
}

// prescribed velocities and spins of atom 2 (atom 1 translates and spins too)
PairDrive drive_at(int k)
{
  // approach (fresh contact inside a step), press, slide sideways while rolling
  // and twirling, turn the sliding direction, unload, separate
  PairDrive d{};
  d.v1 = {0.1, 0.02 * std::sin(0.05 * k), 0.0};
  d.w1 = {0.3 * std::cos(0.03 * k), 0.1, 0.5};
  // (per step: 1e-4 s; the gap is 0.2, kn*1 mm = 100 N, mu fn ~ 1.6 kN at 4 cm overlap)
  if (k < 40)
    d.v2 = {-60.0, 0.0, 0.0};
  else if (k < 120)
    d.v2 = {0.1 - 20.0 * std::sin(0.1 * k), 30.0 * std::cos(0.04 * k), 20.0 * std::sin(0.07 * k)};
  else
    d.v2 = {60.0, 1.0, 0.0};
  d.w2 = {0.2, -0.4 * std::sin(0.02 * k), 1.5};
  return d;
}

}    // namespace

TEST(GranKuhn, PrescribedTwoSphereMotionReproducesKernel)
{
  LammpsSession s;
  s.load_plugin();
  s.commands(two_sphere_setup("pair_style gran/kuhn"));
  s.command("run 0 post no");
  auto *atom = s.lmp->atom;

  demc::kuhn::Params p{KN, KT, MU, 0.0, 0.0, demc::kuhn::ALL};
  Vec3 ft{0, 0, 0};
  double zeta_hist = 0.0;
  bool touching = false;
  int steps_in_contact = 0, steps_sliding = 0;

  for (int k = 0; k < 160; k++) {
    const PairDrive d = drive_at(k);
    drive_one_step(s, d, DT);

    // the same step through the kernel, with p = atom 1 and q = atom 2
    const Vec3 x1 = get(atom->x[atom->map(1)]), x2 = get(atom->x[atom->map(2)]);
    const Vec3 delta = x2 - x1;
    const double r = demc::norm(delta);
    demc::kuhn::Motion m;
    m.zeta_new = 2 * RADIUS - r;
    m.zeta_old = touching ? zeta_hist : 0.0;
    m.n = (1.0 / r) * delta;
    const Vec3 delta_old = (x2 - DT * d.v2) - (x1 - DT * d.v1);
    m.n_old = (1.0 / demc::norm(delta_old)) * delta_old;
    m.du_p = DT * d.v1;
    m.du_q = DT * d.v2;
    m.dth_p = DT * d.w1;
    m.dth_q = DT * d.w2;
    m.r_p = (RADIUS - 0.5 * m.zeta_new) * m.n;
    m.r_q = -(RADIUS - 0.5 * m.zeta_new) * m.n;
    m.dt = DT;
    Vec3 force{0, 0, 0}, torque1{0, 0, 0}, torque2{0, 0, 0};
    if (m.zeta_new > 0.0) {
      const auto res = demc::kuhn::step(p, m, ft);
      ft = res.ft;
      zeta_hist = m.zeta_new;
      touching = true;
      force = res.force;
      torque1 = demc::cross(m.r_p, force);
      torque2 = demc::cross(m.r_q, -force);
      steps_in_contact++;
      if (demc::norm(res.ft) > MU * res.fn * (1 - 1e-9)) steps_sliding++;
    } else {
      ft = {0, 0, 0};
      touching = false;
    }
    const auto f = s.forces();
    const auto t = s.torques();
    const double scale = std::max(1.0, demc::norm(force));
    for (int c = 0; c < 3; c++) {
      EXPECT_NEAR(f[1][c], (&force.x)[c], 1e-9 * scale) << "step " << k;
      EXPECT_NEAR(f[2][c], -(&force.x)[c], 1e-9 * scale) << "step " << k;
      EXPECT_NEAR(t[1][c], (&torque1.x)[c], 1e-9 * scale) << "step " << k;
      EXPECT_NEAR(t[2][c], (&torque2.x)[c], 1e-9 * scale) << "step " << k;
    }
  }
  // the path must really have exercised contact, sliding and separation
  EXPECT_GT(steps_in_contact, 50);
  EXPECT_GT(steps_sliding, 10);
  EXPECT_FALSE(touching);
}

// global virial of one contact = (x1 - x2) (x) f1 ; per-atom virials sum to it
TEST(GranKuhn, VirialIsBranchVectorTimesForce)
{
  LammpsSession s;
  s.load_plugin();
  s.commands(two_sphere_setup("pair_style gran/kuhn"));
  s.commands({"set atom 2 x 0.93 y 0.2 z 0.1", "set atom 2 vx -1 vy 2 vz 0.5",
              "compute sa all stress/atom NULL pair", "compute sum all reduce sum c_sa[*]",
              "thermo_style custom step c_sum[*]", "fix integrate all nve/sphere", "run 3"});
  const auto x = s.positions();
  const auto f = s.forces();
  const double *virial = s.lmp->force->pair->virial;
  const double d[3] = {x[1][0] - x[2][0], x[1][1] - x[2][1], x[1][2] - x[2][2]};
  const int a[6] = {0, 1, 2, 0, 0, 1}, b[6] = {0, 1, 2, 1, 2, 2};
  const double scale = std::fabs(d[0] * f[1][0]);
  ASSERT_GT(scale, 0.0);
  for (int k = 0; k < 6; k++) EXPECT_NEAR(virial[k], d[a[k]] * f[1][b[k]], 1e-12 * scale) << k;
  // stress/atom is -virial per atom (volume omitted with NULL): its sum is -virial
  s.command("run 0");
  auto *c = s.lmp->modify->get_compute_by_id("sum");
  c->compute_vector();
  for (int k = 0; k < 6; k++) EXPECT_NEAR(c->vector[k], -virial[k], 1e-9 * scale) << k;
}

namespace {

std::vector<std::string> packing(const std::string &coeff_extra, bool newton = true)
{
  auto in = dense_packing_input(
      {"pair_style gran/kuhn", "pair_coeff * * 2.0e3 2.0e3 0.5" + coeff_extra}, newton);
  return in;
}

}    // namespace

/* kinetic + stored (normal, tangential) + dissipated (friction, damping) is constant. What is
   left is velocity Verlet's error in the springs' energy and the dashpots' work: measured
   -1.1e-6, -4.2e-7, -1.8e-7 of e0 at dt, dt/2, dt/4 without damping, 1.2e-6, 7.2e-7, 3.9e-7
   with it (shrinking with dt). Bound 4e-6 e0 (3 x the measured at dt); booking 1e-4 of the
   friction (a quarter of e0) wrong moves the balance by 2.6e-5 e0. */
TEST(GranKuhn, EnergyBalanceOfFrictionalPacking)
{
  for (const std::string damping : {"", " damping 0.002 0.001"}) {
    LammpsSession s;
    s.load_plugin();
    s.commands(packing(damping));
    s.commands(energy_computes("gran/kuhn"));
    s.command("timestep 2e-7");
    const double e0 = total_energy(s);
    s.command("run 3000");
    const auto e = s.pair_extra();
    const double e1 = total_energy(s);
    // the run must have stored and dissipated a fair share of the energy
    EXPECT_GT(e[2], 0.05 * e0) << damping;
    EXPECT_GT(e[4], 100.0) << "contacts" << damping;
    if (!damping.empty()) {
      EXPECT_GT(e[3], 0.01 * e0);
    } else {
      EXPECT_EQ(e[3], 0.0);
    }
    std::printf("[ energy   ] relative drift %.2e, friction/initial %.3f%s\n", (e1 - e0) / e0,
                e[2] / e0, damping.empty() ? "" : " (with damping)");
    EXPECT_NEAR(e1, e0, 4e-6 * e0) << damping;
  }
}

// the per-atom energies sum to the system's: stored normal and tangential energy, friction
// (tangential work - stored) and damping dissipation, with newton on and off
TEST(GranKuhn, PerAtomEnergiesSumToGlobal)
{
  expect_atom_energies_sum_to_global(
      [](bool newton) {
        auto in = packing(" damping 0.002 0.001", newton);
        in.push_back("pair_style gran/kuhn energy/atom yes");    // same style: coefficients stay
        return in;
      },
      "gran/kuhn", "DEMC_GRAN_KUHN_HISTORY0");
}

// N + M steps straight = N steps, write_restart, read_restart, M steps (without dashpots:
// their continuation is the restitution test's, collision.h).
// The neighbor lists are built at other steps after a restart, so sums run in another order:
// M is kept short (50) so that the chaotic packing amplifies that round-off less than 1e-12.
// With newton off this needs FixNeighHistoryDemc: LAMMPS's own fix neigh/history attaches
// histories to the wrong partners when write_restart runs between runs (O(1) differences).
TEST(GranKuhn, RestartContinuity)
{
  for (bool newton : {true, false}) {
    const std::string file = std::string("kuhn_restart_") + (newton ? "on" : "off") + ".bin";
    PerAtom straight, resumed;
    {
      LammpsSession s;
      s.load_plugin();
      s.commands(packing("", newton));
      s.commands({"run 150", "write_restart " + file, "run 50"});
      straight = s.forces();
    }
    {
      LammpsSession s;
      s.load_plugin();
      // newton is not taken from the restart file but from the input
      s.command(std::string("newton ") + (newton ? "on" : "off"));
      s.commands({"read_restart " + file, "neighbor 0.0003 bin", "neigh_modify delay 0",
                  "fix integrate all nve/sphere", "timestep 1e-5", "run 50"});
      resumed = s.forces();
    }
    std::remove(file.c_str());
    EXPECT_LT(max_relative_difference(straight, resumed), 1e-12) << "newton " << newton;
  }
}

TEST(GranKuhn, WriteDataKeepsCoefficients)
{
  {
    LammpsSession s;
    s.load_plugin();
    s.commands(dense_packing_input({"pair_style gran/kuhn",
                                    "pair_coeff 1 1 2000 1500 0.5 damping 0.1 0.05",
                                    "pair_coeff 2 2 3000.5 1000 0.3"},
                                   true));
    s.commands({"run 0", "write_data kuhn_coeffs.data pair ij"});
  }
  LammpsSession s;
  s.load_plugin();
  s.commands({"units si", "atom_style sphere", "comm_modify vel yes", "pair_style gran/kuhn",
              "read_data kuhn_coeffs.data", "run 0"});
  std::remove("kuhn_coeffs.data");
  int dim;
  auto **kn = (double **) s.lmp->force->pair->extract("kn", dim);
  auto **kt = (double **) s.lmp->force->pair->extract("kt", dim);
  auto **mu = (double **) s.lmp->force->pair->extract("mu", dim);
  EXPECT_EQ(kn[1][1], 2000.0);
  EXPECT_EQ(kt[1][1], 1500.0);
  EXPECT_EQ(kn[2][2], 3000.5);
  EXPECT_EQ(mu[2][2], 0.3);
  // unlike pair mixed as springs in series and geometric mean of friction
  EXPECT_DOUBLE_EQ(kn[1][2], 2.0 * 2000.0 * 3000.5 / 5000.5);
  EXPECT_DOUBLE_EQ(mu[1][2], std::sqrt(0.5 * 0.3));
}

// keywords in any order and position set exactly their refinement bits
TEST(GranKuhn, RefinementKeywords)
{
  LammpsSession s;
  s.load_plugin();
  s.commands({"units si", "atom_style sphere", "region box block 0 1 0 1 0 1", "create_box 1 box"});
  const std::vector<std::pair<std::string, unsigned>> cases = {
      {"", demc::kuhn::ALL},
      {"fresh no", demc::kuhn::ALL & ~demc::kuhn::FRESH},
      {"elastic_slip no turn no", demc::kuhn::FRESH | demc::kuhn::PROJECT | demc::kuhn::TWIRL},
      {"conventional", 0u},
      {"conventional project yes", demc::kuhn::PROJECT},
      {"twirl no project no", demc::kuhn::FRESH | demc::kuhn::ELASTIC_SLIP | demc::kuhn::TURN},
  };
  for (const auto &c : cases) {
    s.command("pair_style gran/kuhn " + c.first);
    int dim;
    const auto *bits = (unsigned *) s.lmp->force->pair->extract("refinements", dim);
    ASSERT_NE(bits, nullptr);
    EXPECT_EQ(*bits, c.second) << c.first;
  }
}

// every malformed command ends in a LAMMPS error whose text names the problem
struct BadInput {
  std::vector<std::string> setup;    // commands after the plugin is loaded
  std::string bad;                   // the command that must fail
  std::string expected;              // a part of the error message
};

/* gran/kuhn keeps a contact's tangential force when its material changes, and the next
   evaluation returns a force outside the new friction cone radially onto it. Atoms that change
   type between runs take the same path as a pair_coeff change: the packing (types 1 and 2,
   mu 0.5) sliding after 300 steps; then either type 2 gets mu 0.1 and every atom becomes type 2,
   or pair_coeff * * gives mu 0.1 with the types kept. Both give the same forces to 1e-12 at the
   first evaluation and to 1e-10 a step later, when every stored force is inside the new cone
   (it was up to 0.5 before; compute pair/local reports the stored force). */
TEST(GranKuhn, ChangedTypesKeepTheForceOnTheNewCone)
{
  const std::string slippery = "2.0e3 2.0e3 0.1 damping 0.002 0.001";
  auto sheared = [](LammpsSession &s) {
    s.load_plugin();
    s.commands(dense_packing_input(
        {"pair_style gran/kuhn", "pair_coeff * * 2.0e3 2.0e3 0.5 damping 0.002 0.001"}, true));
    s.commands({"compute pl all pair/local p5 p1 p2 p3", "run 300"});
  };
  LammpsSession coefficients;
  sheared(coefficients);
  ASSERT_GT(largest_friction_ratio(coefficients, "pl"), 0.25) << "contacts should slide";
  coefficients.commands({"pair_coeff * * " + slippery, "run 0"});
  LammpsSession types;
  sheared(types);
  types.commands({"pair_coeff 2 2 " + slippery, "set group all type 2", "run 0"});
  EXPECT_LT(max_relative_difference(coefficients.forces(), types.forces()), 1e-12);
  coefficients.command("run 1");
  types.command("run 1");
  EXPECT_LT(max_relative_difference(coefficients.forces(), types.forces()), 1e-10);
  EXPECT_LE(largest_friction_ratio(types, "pl"), 0.1 * (1.0 + 1e-9));
}

/* restitution damping (pair_coeff ... restitution e x_t): LAMMPS's damping coeff_restitution
   for the hooke model (the damped linear oscillator), step by step, and the restitution e, also
   against a particle held by fix freeze; the linear spring parts with e times the approach
   speed for any masses */
TEST(GranKuhn, RestitutionDampingAsLammpsGranular)
{
  for (double e : {0.5, 0.9})
    for (bool frozen : {false, true})
      expect_collision_as_lammps(
          "gran/kuhn", fmt::format("pair_coeff * * 1e7 1e7 0.5 restitution {} 0", e),
          fmt::format("pair_coeff * * hooke 1e7 {} tangential linear_nohistory 0 0 damping "
                      "coeff_restitution",
                      e),
          e, frozen);
}

// restitution coefficients survive write_restart (with histories) and write_data
TEST(GranKuhn, RestitutionCoefficientsSurviveRestartAndData)
{
  expect_restitution_survives_restart_and_data("gran/kuhn", "2e3 2e3 0.5", "3e3 2e3 0.4");
}

// atom sorting carries the contact histories with their atoms
TEST(GranKuhn, AtomSortingChangesNothing)
{
  expect_sorting_changes_nothing(
      {"pair_style gran/kuhn energy/atom yes", "pair_coeff * * 2e3 2e3 0.5 damping 0.002 0.001"},
      "DEMC_GRAN_KUHN_HISTORY0_ATOM_ENERGY");
}

// the force depends on the contact's history and the particles' motion: no table (instead of
// the zeros pair_write used to write)
TEST(GranKuhn, PairWriteIsRefused)
{
  expect_pair_write_refused({}, "gran/kuhn",
                            {"pair_style gran/kuhn", "pair_coeff * * 1e7 1e7 0.5"});
}

TEST(GranKuhn, BadInputGivesClearErrors)
{
  const std::vector<std::string> sphere = {"units si",
                                           "atom_style sphere",
                                           "comm_modify vel yes",
                                           "region box block 0 1 0 1 0 1",
                                           "create_box 2 box",
                                           "create_atoms 1 single 0.5 0.5 0.5",
                                           "pair_style gran/kuhn"};
  auto with = [&](std::vector<std::string> extra) {
    auto v = sphere;
    v.insert(v.end(), extra.begin(), extra.end());
    return v;
  };
  const std::vector<BadInput> cases = {
      {sphere, "pair_coeff * * 0 1 0.5", "kn must be > 0"},
      {sphere, "pair_coeff * * -1 1 0.5", "kn must be > 0"},
      {sphere, "pair_coeff * * 1 0 0.5", "kt must be > 0"},
      {sphere, "pair_coeff * * 1 1 -0.1", "mu must be >= 0"},
      {sphere, "pair_coeff * * 1 1 0.5 damping -1 0", "damping coefficients must be >= 0"},
      {sphere, "pair_coeff * * 1 1", "expects: I J kn kt mu"},
      {sphere, "pair_coeff * * 1 1 0.5 damping 1", "expects: I J kn kt mu"},
      {sphere, "pair_coeff * * 1 1 0.5 0.1 0.1 0.1", "Unknown pair_coeff gran/kuhn keyword: 0.1"},
      {sphere, "pair_coeff * * 1 1 0.5 dumping 1 1",
       "Unknown pair_coeff gran/kuhn keyword: dumping"},
      {sphere, "pair_coeff * * abc 1 0.5", "Expected floating point"},
      {sphere, "pair_coeff 3 3 1 1 0.5", "Numeric index 3 is out of bounds"},
      {sphere, "pair_style gran/kuhn fresh maybe", "Expected boolean"},
      {sphere, "pair_style gran/kuhn twirl",
       "Illegal pair_style gran/kuhn twirl command: missing argument"},
      {sphere, "pair_style gran/kuhn spin yes", "Unknown pair_style gran/kuhn keyword: spin"},
      {sphere, "pair_style gran/kuhn schedule guided",
       "Pair_style gran/kuhn schedule must be static or dynamic, got guided"},
      {sphere, "pair_style gran/kuhn schedule", "missing argument"},
      {with({"pair_coeff 1 2 1 1 0.5"}), "run 0", "All pair coeffs are not set"},
      {with({"pair_coeff * * 1 1 0.5", "comm_modify vel no"}), "run 0", "comm_modify vel yes"},
      {{"units si", "atom_style atomic", "region box block 0 1 0 1 0 1", "create_box 1 box",
        "create_atoms 1 single 0.5 0.5 0.5", "comm_modify vel yes", "pair_style gran/kuhn",
        "pair_coeff * * 1 1 0.5", "mass * 1"},
       "run 0",
       "requires atom attributes radius, rmass, omega"},
  };
  for (const auto &c : cases) {
    LammpsSession s;
    s.load_plugin();
    s.commands(c.setup);
    try {
      s.command(c.bad);
      ADD_FAILURE() << "no error for: " << c.bad;
    } catch (LAMMPS_NS::LAMMPSException &e) {
      EXPECT_NE(std::string(e.what()).find(c.expected), std::string::npos)
          << "command: " << c.bad << "\n  error: " << e.what() << "\n  expected: " << c.expected;
    }
  }
}
