/* Layer (b): Coulomb's law with dashpots, for both laws, pair styles and wall fixes.
   - damping_cap (default yes): a sphere on an incline rolls below tan(alpha) = 7/2 mu at
     5/7 g sin(alpha) and slides above at g (sin - mu cos), with and without tangential
     damping (closed forms, incline.h); with damping_cap no the tangential dashpot holds the
     sliding sphere back (a dashpot in parallel with the slider);
   - the energy balance closes with the cap at work (what it removes is counted);
   - limit_damping: in a strongly damped collision the normal force never pulls; the spheres
     part with the restitution of the no-tension dashpot's closed form (gran/kuhn), the force
     (every 5 steps) is LAMMPS's pair_style granular's with limit_damping, and the kinetic
     energy lost is the dashpots' dissipation, for pair styles and walls;
   - the keywords survive write_restart, and bad values give clear errors. */
#include "incline.h"
#include "lammps_session.h"

#include "atom.h"
#include "exceptions.h"
#include "fix.h"
#include "force.h"
#include "lammps.h"
#include "modify.h"
#include "pair.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace demc_test;

namespace {

std::string describe(const Incline &c)
{
  return fmt::format("{} {} alpha {} {} {}", c.law, c.wall ? "wall" : "pair", c.alpha, c.damping,
                     c.keywords);
}

/* every combination of law and support at 70 degrees (sliding) with and without tangential
   damping, and at 30 degrees (rolling): the closed form to 1e-4 (incline.h: the curvature of
   the big sphere and a rolling contact's oscillation stay below that) and the energy balance
   to 1e-4 of the work gravity did */
void expect_closed_forms(const std::string &law, bool wall)
{
  for (double alpha : {70.0, 30.0})
    for (const std::string damping : {"restitution 0.3 1", "restitution 0.3 0", "damping 5 0.05"}) {
      const Incline c = {law, wall, alpha, damping, ""};
      const InclineRun r = run_incline(c);
      const double expected = incline_acceleration(alpha);
      for (double a : r.a) {
        std::printf("[ incline  ] %-45s a = %.6f (closed form %.6f, error %.1e)\n",
                    describe(c).c_str(), a, expected, (a - expected) / expected);
        EXPECT_NEAR(a, expected, 1e-4 * expected) << describe(c);
      }
      EXPECT_GT(r.gravity_work, 0.0);
      EXPECT_LT(std::fabs(r.energy_drift), 1e-4 * r.gravity_work)
          << describe(c) << ": energy drift " << r.energy_drift << " of " << r.gravity_work;
    }
}

}    // namespace

TEST(CoulombDamping, KuhnWallInclineClosedForms)
{
  expect_closed_forms("kuhn", true);
}
TEST(CoulombDamping, KuhnPairInclineClosedForms)
{
  expect_closed_forms("kuhn", false);
}
TEST(CoulombDamping, JaegerWallInclineClosedForms)
{
  expect_closed_forms("jaeger", true);
}
TEST(CoulombDamping, JaegerPairInclineClosedForms)
{
  expect_closed_forms("jaeger", false);
}

/* damping_cap no keeps the tangential dashpot outside the friction limit: the sliding sphere of
   the case (70 degrees, restitution 0.3 1) is held back to about the rolling value,
   well below g (sin - mu cos); the damping it then dissipates is far more than with the cap */
TEST(CoulombDamping, DampingCapNoKeepsTheDashpotOutsideTheLimit)
{
  for (const std::string law : {"kuhn", "jaeger"})
    for (bool wall : {true, false}) {
      const Incline capped = {law, wall, 70.0, "restitution 0.3 1", ""};
      const Incline free = {law, wall, 70.0, "restitution 0.3 1", "damping_cap no"};
      const InclineRun with_cap = run_incline(capped), without = run_incline(free);
      const double sliding = incline_acceleration(70.0);
      std::printf("[ incline  ] %-45s a = %.6f (sliding %.6f, rolling %.6f)\n",
                  describe(free).c_str(), without.a[0], sliding,
                  5.0 / 7.0 * INCLINE_G * std::sin(70.0 * INCLINE_PI / 180.0));
      EXPECT_LT(without.a[0], 0.95 * sliding) << describe(free);
      EXPECT_GT(without.damping, 10.0 * with_cap.damping) << describe(free);
      // the balance closes without the cap too
      EXPECT_LT(std::fabs(without.energy_drift), 1e-4 * without.gravity_work) << describe(free);
    }
}

namespace {

/* a head-on collision (collision.h's geometry: radii 0.5 and 0.4, densities 1000 and 2500,
   approach at 0.8 m/s) under `pair`, run in chunks of 5 steps: the x force on atom 1 after each
   (the repulsion points to -x), the relative velocity after over before, and the kinetic energy
   lost against the dashpots' dissipation (compute pair's 4th value; granular: not known) */
struct StepwiseCollision {
  std::vector<double> fx;
  double restitution, energy_lost, damping;
};

StepwiseCollision collide(const std::vector<std::string> &pair, bool ours)
{
  LammpsSession s;
  s.load_plugin();
  s.commands({"units si", "atom_style sphere", "atom_modify map array", "boundary f f f",
              "comm_modify vel yes", "region box block -2 2 -2 2 -2 2 units box",
              "create_box 1 box", "create_atoms 1 single -0.5001 0 0 units box",
              "create_atoms 1 single 0.4001 0 0 units box", "set atom 1 diameter 1.0",
              "set atom 2 diameter 0.8", "set atom 1 density 1000", "set atom 2 density 2500",
              "velocity all set 0 0 0", "set atom 1 vx 0.5", "set atom 2 vx -0.3"});
  s.commands(pair);
  s.commands({"compute ke all ke", "fix integrate all nve/sphere", "timestep 1e-5", "thermo 5",
              "run 0 post no"});
  auto *ke = s.lmp->modify->get_compute_by_id("ke");
  const double ke0 = ke->compute_scalar();
  StepwiseCollision c;
  auto *atom = s.lmp->atom;
  for (int k = 0; k < 2400; k++) {
    s.command("run 5 pre no post no");
    c.fx.push_back(atom->f[atom->map(1)][0]);
  }
  EXPECT_EQ(c.fx.back(), 0.0) << "the spheres should have parted";
  c.restitution = (atom->v[atom->map(2)][0] - atom->v[atom->map(1)][0]) / 0.8;
  c.energy_lost = ke0 - ke->compute_scalar();
  c.damping = ours ? s.pair_extra()[3] : 0.0;
  return c;
}

// the largest attractive force (> 0 on atom 1) over the collision, and the largest repulsion
double largest(const std::vector<double> &fx, double sign)
{
  double m = 0.0;
  for (double f : fx) m = std::max(m, sign * f);
  return m;
}

/* the linear spring with the restitution dashpot (damping ratio zeta), whose normal force is not
   allowed to pull: the force k d + c d' reaches zero at omega_d t = pi - 2 asin(zeta), before
   the overlap does, and the spheres then part at constant speed: exp(-zeta omega t), i.e.
   e exp(2 zeta asin(zeta) / sqrt(1 - zeta^2)) */
double no_tension_restitution(double e)
{
  const double l = std::log(e), zeta = -l / std::sqrt(INCLINE_PI * INCLINE_PI + l * l);
  return e * std::exp(2.0 * zeta * std::asin(zeta) / std::sqrt(1.0 - zeta * zeta));
}

}    // namespace

/* limit_damping against LAMMPS's pair_style granular with limit_damping (hooke, hertz/material;
   damping coeff_restitution): the force every 5 steps the same to 1e-10 of the largest, never
   attractive (which without the keyword it is, over the end of the contact) */
TEST(CoulombDamping, LimitDampingNeverPullsAsLammpsGranular)
{
  const double e = 0.1;
  struct Law {
    std::string ours, granular;
  };
  const Law laws[] = {
      {"gran/kuhn|pair_coeff * * 1e7 1e7 0.5 restitution 0.1 0",
       "pair_coeff * * hooke 1e7 0.1 tangential linear_nohistory 0 0 damping coeff_restitution"},
      {"gran/jaeger|pair_coeff * * 1e7 0.3 0.5 restitution 0.1 0",
       "pair_coeff * * hertz/material 1e7 0.1 0.3 tangential linear_nohistory 0 0 damping "
       "coeff_restitution"}};
  for (const Law &law : laws) {
    const std::string style = law.ours.substr(0, law.ours.find('|'));
    const std::string coeff = law.ours.substr(law.ours.find('|') + 1);
    const StepwiseCollision limited =
        collide({"pair_style " + style + " limit_damping", coeff}, true);
    const StepwiseCollision unlimited = collide({"pair_style " + style, coeff}, true);
    const StepwiseCollision lammps =
        collide({"pair_style granular", law.granular + " limit_damping"}, false);
    const double scale = largest(limited.fx, -1.0);
    EXPECT_GT(scale, 1e3) << style << ": no collision";
    // (round-off: the clamped dashpot and the spring cancel in -P n + P n)
    EXPECT_LE(largest(limited.fx, 1.0), 1e-14 * scale) << style << ": an attractive force";
    EXPECT_GT(largest(unlimited.fx, 1.0), 0.01 * scale) << style << ": nothing to limit";
    double diff = 0.0;
    for (size_t k = 0; k < limited.fx.size(); k++)
      diff = std::max(diff, std::fabs(limited.fx[k] - lammps.fx[k]));
    EXPECT_LT(diff, 1e-10 * scale) << style;
    std::printf("[ limit    ] %s: restitution %.5f with limit_damping, %.5f without, LAMMPS "
                "%.5f\n",
                style.c_str(), limited.restitution, unlimited.restitution, lammps.restitution);
    EXPECT_NEAR(unlimited.restitution, e, 1e-3) << style;
    /* what the clamp removes is counted: the kinetic energy lost is the dashpots' dissipation,
       to the time step's first-order error of a dashpot's work from half-step velocities,
       zeta omega dt = 1.1e-3 for the linear spring here (zeta = 0.59, omega = 184 /s); the
       work the clamp removes is about 9 % of it */
    for (const StepwiseCollision *c : {&limited, &unlimited})
      EXPECT_NEAR(c->damping, c->energy_lost, 3e-3 * c->energy_lost) << style;
    if (style == "gran/kuhn")
      EXPECT_NEAR(limited.restitution, no_tension_restitution(e), 1e-3) << style;
  }
}

/* limit_damping on the walls: a sphere thrown at the wall never feels a pull; with the linear
   law it leaves with the no-tension restitution */
TEST(CoulombDamping, LimitDampingOnWalls)
{
  const double e = 0.1;
  for (const std::string law : {"kuhn", "jaeger"})
    for (bool limit : {true, false}) {
      LammpsSession s;
      s.load_plugin();
      s.commands({"units si", "atom_style sphere", "atom_modify map array", "boundary f f f",
                  "region box block -1 1 -1 1 -0.5 1 units box", "create_box 1 box",
                  "create_atoms 1 single 0 0 0.5001 units box", "set atom 1 diameter 1.0",
                  "set atom 1 density 1000", "velocity all set 0 0 -0.5", "pair_style none",
                  fmt::format("fix w all wall/gran/{} {} restitution {} 0 {} zplane 0 NULL", law,
                              law == "kuhn" ? "1e7 1e7 0.5" : "1e7 0.3 0.5", e,
                              limit ? "limit_damping" : ""),
                  "compute ke all ke", "fix integrate all nve/sphere", "timestep 1e-5",
                  "run 0 post no"});
      auto *atom = s.lmp->atom;
      auto *ke = s.lmp->modify->get_compute_by_id("ke");
      const double ke0 = ke->compute_scalar();
      double push = 0.0, pull = 0.0;
      for (int k = 0; k < 4000; k++) {
        s.command("run 5 pre no post no");
        const double fz = atom->f[0][2];
        push = std::max(push, fz);
        pull = std::max(pull, -fz);
      }
      EXPECT_EQ(atom->f[0][2], 0.0) << law << ": the sphere should have left the wall";
      const double restitution = atom->v[0][2] / 0.5;
      std::printf("[ limit    ] wall/gran/%s%s: restitution %.5f\n", law.c_str(),
                  limit ? " limit_damping" : "", restitution);
      EXPECT_GT(push, 1e2) << law;
      // the kinetic energy lost is the damping dissipation (wall vector 7), to the time step's
      // first-order error zeta omega dt (8e-4 for the linear spring here)
      const double lost = ke0 - ke->compute_scalar();
      const double damping = s.lmp->modify->get_fix_by_id("w")->compute_vector(6);
      EXPECT_NEAR(damping, lost, 3e-3 * lost) << law << (limit ? " limit_damping" : "");
      if (limit) {
        EXPECT_LE(pull, 1e-14 * push) << law;
        if (law == "kuhn") EXPECT_NEAR(restitution, no_tension_restitution(e), 1e-3);
      } else {
        EXPECT_GT(pull, 0.01 * push) << law;
        EXPECT_NEAR(restitution, e, 1e-3) << law;
      }
    }
}

// the keywords are kept in restart files
TEST(CoulombDamping, KeywordsSurviveRestart)
{
  for (const std::string style : {"gran/kuhn", "gran/jaeger"}) {
    const std::string coeff = style == "gran/kuhn" ? "1e6 8e5 0.5" : "1e9 0.3 0.5";
    for (const std::string keywords :
         {"damping_cap no limit_damping", "", "energy/atom yes limit_damping"}) {
      const std::string file = "coulomb_damping.bin";
      {
        LammpsSession s;
        s.load_plugin();
        s.commands({"units si", "atom_style sphere", "comm_modify vel yes",
                    "region box block 0 1 0 1 0 1", "create_box 1 box",
                    "create_atoms 1 single 0.5 0.5 0.5", "pair_style " + style + " " + keywords,
                    "pair_coeff * * " + coeff, "run 0", "write_restart " + file});
      }
      LammpsSession s;
      s.load_plugin();
      s.commands({"read_restart " + file});
      std::remove(file.c_str());
      int dim;
      auto *cap = (bool *) s.lmp->force->pair->extract("damping_cap", dim);
      auto *limit = (bool *) s.lmp->force->pair->extract("limit_damping", dim);
      auto *energy = (bool *) s.lmp->force->pair->extract("energy/atom", dim);
      ASSERT_TRUE(cap && limit && energy);
      EXPECT_EQ(*cap, keywords.find("damping_cap no") == std::string::npos) << style << keywords;
      EXPECT_EQ(*limit, keywords.find("limit_damping") != std::string::npos) << style << keywords;
      EXPECT_EQ(*energy, keywords.find("energy/atom yes") != std::string::npos)
          << style << keywords;
    }
  }
}

TEST(CoulombDamping, BadValuesGiveClearErrors)
{
  const std::vector<std::string> setup = {"units si",
                                          "atom_style sphere",
                                          "comm_modify vel yes",
                                          "region box block 0 1 0 1 0 1",
                                          "create_box 1 box",
                                          "create_atoms 1 single 0.5 0.5 0.5"};
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"pair_style gran/kuhn damping_cap maybe", "Expected boolean"},
      {"pair_style gran/jaeger damping_cap", "missing argument"},
      {"fix w all wall/gran/kuhn 1 1 0.5 zplane 0 NULL damping_cap", "missing argument"},
      {"fix w all wall/gran/jaeger 1e7 0.3 0.5 damping_cap 2 zplane 0 NULL", "Expected boolean"},
      {"fix w all wall/gran/kuhn 1 1 0.5 zplane 0 NULL limit_damping yes",
       "Unknown fix wall/gran/kuhn keyword: yes"},
      // gran/coulomb and its wall have no tangential dashpot and always keep the normal one
      // repulsive: the keywords would change nothing, so they are refused, not ignored
      {"pair_style gran/coulomb damping_cap yes",
       "Pair_style gran/coulomb does not take damping_cap: it has no tangential dashpot"},
      {"pair_style gran/coulomb iterate 1e-6 10 limit_damping",
       "Pair_style gran/coulomb does not take limit_damping"},
      {"fix w all wall/gran/coulomb hooke 1e5 0.5 zplane 0 NULL damping_cap no",
       "Fix wall/gran/coulomb does not take damping_cap"},
      {"fix w all wall/gran/coulomb hertz 1e7 0.3 0.5 limit_damping zplane 0 NULL",
       "Fix wall/gran/coulomb does not take limit_damping"}};
  for (const auto &c : cases) {
    LammpsSession s;
    s.load_plugin();
    s.commands(setup);
    try {
      s.command(c.first);
      ADD_FAILURE() << "no error for: " << c.first;
    } catch (LAMMPS_NS::LAMMPSException &e) {
      EXPECT_NE(std::string(e.what()).find(c.second), std::string::npos)
          << "command: " << c.first << "\n  error: " << e.what();
    }
  }
}
