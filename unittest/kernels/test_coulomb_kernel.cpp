/* dem-contact: unit tests of the numerically exact Coulomb friction kernel
   (src/kernels/coulomb_friction.h, Sakamaki et al.).

   Oracles: the four cases of Sec. 3.1 at rest with the Lagrange parameter of Eq. 17 in closed
   form; the frictional oscillator of Eq. 8 (amplitude lost per half swing 2 mu F_N / k, rest
   inside the dead zone |x| <= mu F_N / k); a block on a slope (rest while tan(alpha) <= mu,
   a = g (sin - mu cos) above); Eq. 24's reduced mass against the rigid-body kinematics of the
   contact point; a sphere rolling without slip (a = 5/7 g sin alpha) or sliding (a = g (sin -
   mu cos), spin-up 5 mu g cos / (2 R)) on a fixed plane; the kinetic energy a kick removes;
   the contact step (coulomb_step.h): Hertz's force against a partner of radius r_q and against
   a wall (r_q infinite) in the ratio sqrt(r_q / (r_p + r_q)), the dashpot's force and work,
   Eq. 7's cut, the last step's dashpot force repeated after a restart. */

#include "coulomb_friction.h"
#include "coulomb_step.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

using demc::Vec3;
namespace cf = demc::coulomb;

namespace {
Vec3 random_vec(std::mt19937_64 &rng, double scale)
{
  std::normal_distribution<double> N(0.0, 1.0);
  return {scale * N(rng), scale * N(rng), scale * N(rng)};
}
}    // namespace

/* Sec. 3.1 at v = 0: the case from the signs of a_I and a_II, Eq. 17's lambda and the friction
   force f(lambda) - f_ext. Closed form: static iff |f_ext| <= limit, friction -f_ext, lambda
   (limit - f_ext) / (2 limit); sliding with -limit sign(f_ext) otherwise. */
TEST(CoulombKernel, FourCasesAtRest)
{
  const double m = 2.5, limit = 3.0;
  // case 1: pulled upwards beyond the limit
  auto r = cf::at_rest_1d(4.0, limit, m);
  EXPECT_EQ(r.kase, cf::SLIDES_POSITIVE);
  EXPECT_EQ(r.friction, -limit);
  // case 2
  r = cf::at_rest_1d(-4.0, limit, m);
  EXPECT_EQ(r.kase, cf::SLIDES_NEGATIVE);
  EXPECT_EQ(r.friction, limit);
  // case 3, inside and at both edges of the cone
  for (double f : {-3.0, -1.2, 0.0, 0.7, 2.9, 3.0}) {
    r = cf::at_rest_1d(f, limit, m);
    EXPECT_EQ(r.kase, cf::STATIC) << f;
    EXPECT_NEAR(r.lambda, (limit - f) / (2.0 * limit), 1e-15) << f;
    EXPECT_NEAR(r.friction, -f, 1e-15) << f;
    EXPECT_GE(r.lambda, 0.0);
    EXPECT_LE(r.lambda, 1.0);
  }
  // no friction and no force: static, nothing to hold
  r = cf::at_rest_1d(0.0, 0.0, m);
  EXPECT_EQ(r.kase, cf::STATIC);
  EXPECT_EQ(r.friction, 0.0);
  // case 4 needs a negative limit: treated as no friction at all
  r = cf::at_rest_1d(0.5, -1.0, m);
  EXPECT_EQ(r.kase, cf::PAINLEVE);
  EXPECT_EQ(r.friction, 0.0);
  EXPECT_EQ(r.lambda, -1.0);
  EXPECT_EQ(cf::step_1d(0.0, 0.5, -1.0, m, 1e-3), 0.0);
}

// the velocity-level decision at v = 0 is the Lagrange parameter's force, for any step length
TEST(CoulombKernel, DecisionAtRestIsTheLagrangeParametersForce)
{
  const double m = 0.7, limit = 1.3;
  for (double h : {1e-6, 1e-3, 0.5})
    for (double f = -3.0; f <= 3.0; f += 0.0625) {
      const double expected = cf::at_rest_1d(f, limit, m).friction;
      EXPECT_NEAR(cf::step_1d(0.0, f, limit, m, h), expected, 4e-15 * limit) << f << " " << h;
    }
}

/* Eq. 8 without viscous damping, m x'' = -k x - mu F_N sign(x'), integrated by leapfrog (the
   velocity that moves x over a step is the one after the last force): each half swing loses
   2 mu F_N / k of amplitude, and the block comes to rest for good inside |x| <= mu F_N / k
   with a velocity zero to round-off. */
TEST(CoulombKernel, FrictionalOscillatorLosesTwoDeadZonesPerHalfSwing)
{
  const double m = 1.0, k = 100.0, limit = 1.7, A0 = 0.5;
  const double period = 2.0 * M_PI * std::sqrt(m / k), dt = period / 2000.0;
  const double dead = limit / k;
  double x = A0, v = 0.0;
  // the force at setup acts for half a step
  v += 0.5 * dt * (-k * x + cf::step_1d(v, -k * x, limit, m, 0.5 * dt)) / m;
  // the turning points: where the direction of motion changes (a reversal sticks for a step
  // or more, Eq. 26), and the final rest
  std::vector<double> extremes;
  int direction = -1, rest_steps = 0;
  for (int step = 0; step < 20000; step++) {
    x += dt * v;
    const double f_ext = -k * x;
    v += dt * (f_ext + cf::step_1d(v, f_ext, limit, m, dt)) / m;
    const bool resting = std::fabs(v) <= 1e-14;
    rest_steps += resting ? 1 : 0;
    if (resting) continue;
    rest_steps = 0;
    if ((v > 0.0 ? 1 : -1) != direction) extremes.push_back(std::fabs(x));
    direction = v > 0.0 ? 1 : -1;
  }
  extremes.push_back(std::fabs(x));
  // A0 = 0.5, dead zone 0.017: the swings end at 0.466, 0.432, ..., 0.024, and the last at 0.010
  const int swings = static_cast<int>(std::ceil((A0 - dead) / (2.0 * dead)));
  ASSERT_EQ(extremes.size(), (size_t) swings);
  /* The bound guards leapfrog's error in the turning points. Measured (this loop at other step
     lengths), the worst turning point is off by 5.5e-8, 6.9e-9, 8.7e-10 A0 at T/1000, T/2000,
     T/4000: third order in dt (each halving divides it by 8), growing with the swing number.
     2e-8 A0 is 3 times the value at T/2000. A friction limit off by a relative e moves the n-th
     turning point by 2 (n + 1) e mu F_N / k (e A0 at the last swing): e >= 2e-8 fails. */
  double worst = 0.0;
  for (int n = 0; n < swings; n++) {
    const double expected = std::fabs(A0 - 2.0 * (n + 1) * dead);
    worst = std::max(worst, std::fabs(extremes[n] - expected));
    EXPECT_NEAR(extremes[n], expected, 2e-8 * A0) << "swing " << n;
  }
  std::printf("[ measure  ] frictional oscillator, dt = T/2000: turning points off by %.1e A0 "
              "at most\n",
              worst / A0);
  EXPECT_LE(std::fabs(x), dead * (1.0 + 1e-12));
  EXPECT_LT(std::fabs(v), 1e-14);
  EXPECT_GT(rest_steps, 5000);    // at rest for good long before the end (steps since it moved)
}

/* A block of mass m on a slope of angle alpha: at rest (velocity exactly zero, every step) while
   tan(alpha) <= mu; sliding with a = g (sin alpha - mu cos alpha) beyond. */
TEST(CoulombKernel, BlockOnSlope)
{
  const double m = 2.0, g = 9.81, mu = 0.6, dt = 1e-3;
  for (double factor : {0.8, 1.0, 1.2}) {
    const double alpha = std::atan(factor * mu);
    const double f_ext = m * g * std::sin(alpha), limit = mu * m * g * std::cos(alpha);
    double v = 0.0, x = 0.0;
    v += 0.5 * dt * (f_ext + cf::step_1d(v, f_ext, limit, m, 0.5 * dt)) / m;
    const int steps = 1000;
    for (int s = 0; s < steps; s++) {
      x += dt * v;
      v += dt * (f_ext + cf::step_1d(v, f_ext, limit, m, dt)) / m;
    }
    const double a = g * (std::sin(alpha) - mu * std::cos(alpha));
    if (factor < 1.0) {
      EXPECT_EQ(v, 0.0) << factor;
      EXPECT_EQ(x, 0.0) << factor;
    } else if (factor == 1.0) {
      // at the limit itself sin and cos round either way: rest up to that round-off
      EXPECT_LE(std::fabs(v), 1e-14 * g) << factor;
    } else {
      // leapfrog is exact for a constant acceleration: x(t) = a t^2 / 2 at t = steps dt
      const double t = steps * dt;
      EXPECT_NEAR(x, 0.5 * a * t * t, 1e-12 * a * t * t) << factor;
    }
  }
}

/* decide(): |F| <= limit; a sticking contact is left at relative rest, a sliding one with a
   velocity parallel to v_free and smaller; rotating the input rotates the output (objectivity). */
TEST(CoulombKernel, DecisionKeepsTheConeAndStopsOrSlows)
{
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  int sticks = 0, slides = 0;
  for (int n = 0; n < 20000; n++) {
    const Vec3 v_free = random_vec(rng, std::pow(10.0, -6.0 + 6.0 * U(rng)));
    const double inv_m = std::pow(10.0, -2.0 + 4.0 * U(rng)), h = std::pow(10.0, -6.0 + 3 * U(rng));
    const double limit = std::pow(10.0, -3.0 + 6.0 * U(rng)) * (n % 50 == 0 ? 0.0 : 1.0);
    const auto d = cf::decide(v_free, inv_m, limit, h);
    EXPECT_LE(demc::norm(d.force), limit * (1.0 + 1e-14));
    const Vec3 left = v_free - (h * inv_m) * d.force;
    if (d.sticks) {
      sticks++;
      EXPECT_LE(demc::norm(left), 1e-15 * demc::norm(v_free)) << n;
    } else {
      slides++;
      EXPECT_NEAR(demc::dot(left, v_free), demc::norm(left) * demc::norm(v_free),
                  1e-12 * demc::norm2(v_free));
      if (limit > 0.0) EXPECT_LT(demc::norm(left), demc::norm(v_free));
      EXPECT_NEAR(demc::norm(d.force), limit, 1e-14 * limit);
    }
    // a rotation about a random axis
    const Vec3 axis = random_vec(rng, 1.0);
    const Vec3 k = (1.0 / demc::norm(axis)) * axis;
    const double phi = 6.0 * U(rng);
    const auto dr = cf::decide(demc::rotate_about(v_free, k, phi), inv_m, limit, h);
    EXPECT_EQ(dr.sticks, d.sticks);
    const Vec3 rotated = demc::rotate_about(d.force, k, phi);
    EXPECT_LE(demc::norm(dr.force - rotated), 1e-13 * (demc::norm(d.force) + 1e-300)) << n;
  }
  EXPECT_GT(sticks, 1000);
  EXPECT_GT(slides, 1000);
}

/* Eq. 24: a tangential force F on p at its contact point (and -F on q at its own) changes the
   relative tangential velocity at the contact by -h F / m_t, with the rigid-body kinematics of
   both spheres (translation and the spin its torque r x F gives). Two spheres of different
   size and mass, a sphere on a fixed body (m_t = 2/7 m), a sphere that does not rotate
   (m_t = m). */
TEST(CoulombKernel, TangentialReducedMassIsTheKinematicsOfTheContactPoint)
{
  std::mt19937_64 rng(7);
  const double h = 1e-3;
  struct Sphere {
    double m, R;
    bool fixed, rotates;
  };
  const Sphere cases[][2] = {{{2.0, 0.3, false, true}, {5.0, 0.7, false, true}},
                             {{1.0, 0.5, false, true}, {0.0, 1.0, true, false}},
                             {{1.0, 0.5, false, false}, {0.0, 1.0, true, false}},
                             {{3.0, 0.4, false, false}, {1.5, 0.2, false, true}}};
  for (const auto &pair : cases) {
    const Vec3 axis = random_vec(rng, 1.0);
    const Vec3 n = (1.0 / demc::norm(axis)) * axis;
    const double overlap = 0.01;
    const double arm_p = pair[0].R - 0.5 * overlap, arm_q = pair[1].R - 0.5 * overlap;
    const Vec3 r_p = arm_p * n, r_q = -arm_q * n;
    auto body = [&](const Sphere &s, const Vec3 &f, const Vec3 &r) {
      cf::Body b;
      b.v = random_vec(rng, 1.0);
      b.w = random_vec(rng, 1.0);
      b.inv_m = s.fixed ? 0.0 : 1.0 / s.m;
      b.inv_I = (s.fixed || !s.rotates) ? 0.0 : 1.0 / (0.4 * s.m * s.R * s.R);
      b.f = f;
      b.t = demc::cross(r, f);
      return b;
    };
    const Vec3 F = cf::tangential_part(random_vec(rng, 1.0), n);
    cf::Body p = body(pair[0], F, r_p), q = body(pair[1], -F, r_q);
    const Vec3 before = cf::relative_tangential_velocity(p, q, r_p, r_q, n, 0.0);
    const Vec3 after = cf::relative_tangential_velocity(p, q, r_p, r_q, n, h);
    const double inv_mt =
        cf::tangential_inverse_mass(p.inv_m, p.inv_I, arm_p, q.inv_m, q.inv_I, arm_q);
    const Vec3 expected = -(h * inv_mt) * F;
    EXPECT_LE(demc::norm((after - before) - expected), 1e-12 * demc::norm(expected));
  }
  // the familiar values, arms of the radius
  const double m = 1.3, R = 0.2, I = 0.4 * m * R * R;
  EXPECT_NEAR(1.0 / cf::tangential_inverse_mass(1 / m, 1 / I, R, 0, 0, R), 2.0 / 7.0 * m, 1e-15);
  EXPECT_NEAR(1.0 / cf::tangential_inverse_mass(1 / m, 1 / I, R, 1 / m, 1 / I, R), m / 7.0, 1e-15);
  EXPECT_NEAR(1.0 / cf::tangential_inverse_mass(1 / m, 0, R, 0, 0, R), m, 1e-15);
}

namespace {
// a sphere on the fixed plane z = 0 under gravity tilted by alpha about y, from rest or launched
// with velocity v0 along x and no spin; returns the end state after `steps` leapfrog steps
struct Rolled {
  double v, w, max_slip_after_roll;
  int first_rolling_step;
  int slip_reversals;    // steps whose slip (above round-off) points against the last step's
  int state_switches;    // steps that stick after sliding or slide after sticking
};
// central: decide with the central reduced mass (Eq. 6; the sphere's own mass against a fixed
// body) instead of Eq. 24's tangential one
Rolled roll_on_plane(double alpha, double mu, double v0, double dt, int steps, bool rotates,
                     bool central = false)
{
  const double m = 0.8, R = 0.05, g = 9.81, I = 0.4 * m * R * R;
  const Vec3 n = {0.0, 0.0, -1.0};    // from the sphere (p) to the plane (q)
  const Vec3 r_p = R * n, r_q = {0.0, 0.0, 0.0};
  cf::Body p{{v0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0, 0, 0}, {0, 0, 0}, 1.0 / m, rotates ? 1.0 / I : 0};
  const cf::Body plane{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, 0.0, 0.0};
  const Vec3 gravity = {m * g * std::sin(alpha), 0.0, -m * g * std::cos(alpha)};
  const double F_N = m * g * std::cos(alpha);    // the plane's reaction balances the normal part
  const double inv_mt = central ? p.inv_m
                                : cf::tangential_inverse_mass(p.inv_m, p.inv_I, R, 0.0, 0.0, 0.0);
  Rolled out{0, 0, 0, -1, 0, 0};
  Vec3 last_slip = {0.0, 0.0, 0.0};
  bool last_sticks = false;
  for (int s = 0; s <= steps; s++) {
    const double h = s == 0 ? 0.5 * dt : dt;    // the first force acts for half a step
    p.f = gravity + F_N * Vec3{0.0, 0.0, 1.0};
    p.t = {0.0, 0.0, 0.0};
    const Vec3 v_free = cf::relative_tangential_velocity(p, plane, r_p, r_q, n, h);
    const auto d = cf::decide(v_free, inv_mt, mu * F_N, h);
    p.f = p.f + d.force;
    p.t = demc::cross(r_p, d.force);
    p.v = p.v + (h * p.inv_m) * p.f;
    p.w = p.w + (h * p.inv_I) * p.t;
    Vec3 slip_now = cf::relative_tangential_velocity(p, plane, r_p, r_q, n, 0.0);
    if (demc::norm(slip_now) <= 1e-12 * (demc::norm(p.v) + 1e-3)) slip_now = {0.0, 0.0, 0.0};
    if (demc::dot(slip_now, last_slip) < 0.0) out.slip_reversals++;
    if (s > 0 && d.sticks != last_sticks) out.state_switches++;
    last_slip = slip_now;
    last_sticks = d.sticks;
    const double slip = demc::norm(slip_now);
    if (d.sticks && out.first_rolling_step < 0) out.first_rolling_step = s;
    if (out.first_rolling_step >= 0)
      out.max_slip_after_roll = std::max(out.max_slip_after_roll, slip / (std::fabs(p.v.x) + 1));
  }
  out.v = p.v.x;
  out.w = p.w.y;
  return out;
}
}    // namespace

/* A sphere on an inclined plane: rolls without slip while tan(alpha) <= 7 mu / 2 with
   a = 5/7 g sin(alpha) and a contact point at rest to round-off; slides beyond with
   a = g (sin - mu cos) and spin-up 5 mu g cos / (2 R). A sphere that does not rotate is the
   paper's block: rest up to tan(alpha) = mu. (Leapfrog: after the first half kick and n full
   ones the velocity is that of time (n + 1/2) dt.) */
TEST(CoulombKernel, SphereRollsOrSlidesOnASlope)
{
  const double mu = 0.3, g = 9.81, R = 0.05, dt = 1e-4;
  const int steps = 2000;
  const double t = (steps + 0.5) * dt;    // the last velocity is a half-step one
  for (double tan_alpha : {0.25, 0.5, 1.0, 3.5 * mu * 0.99, 3.5 * mu * 1.01, 1.5}) {
    const double alpha = std::atan(tan_alpha), s = std::sin(alpha), c = std::cos(alpha);
    const Rolled r = roll_on_plane(alpha, mu, 0.0, dt, steps, true);
    if (tan_alpha <= 3.5 * mu) {
      EXPECT_NEAR(r.v, 5.0 / 7.0 * g * s * t, 1e-12 * g * t) << tan_alpha;
      EXPECT_NEAR(r.w * R, r.v, 1e-12 * g * t) << "rolls " << tan_alpha;
      EXPECT_LE(r.max_slip_after_roll, 1e-14) << tan_alpha;
    } else {
      EXPECT_NEAR(r.v, g * (s - mu * c) * t, 1e-12 * g * t) << tan_alpha;
      EXPECT_NEAR(r.w, 5.0 * mu * g * c / (2.0 * R) * t, 1e-12 * g * t / R) << tan_alpha;
    }
    // rotation locked: the block, at rest up to tan(alpha) = mu
    const Rolled b = roll_on_plane(alpha, mu, 0.0, dt, steps, false);
    if (tan_alpha < mu)
      EXPECT_EQ(b.v, 0.0) << "block " << tan_alpha;
    else
      EXPECT_NEAR(b.v, g * (s - mu * c) * t, 1e-12 * g * t) << "block " << tan_alpha;
  }
}

/* A sphere launched at v0 without spin on a level plane slides, spins up, and rolls at 5/7 v0
   from t = 2 v0 / (7 mu g) on; the switch happens within a step of that time. */
TEST(CoulombKernel, LaunchedSphereRollsAtFiveSeventhsOfItsSpeed)
{
  const double mu = 0.4, g = 9.81, v0 = 2.0, dt = 1e-5;
  const Rolled r = roll_on_plane(0.0, mu, v0, dt, 40000, true);
  EXPECT_NEAR(r.v, 5.0 / 7.0 * v0, 1e-12 * v0);
  const double t_roll = 2.0 * v0 / (7.0 * mu * g);
  EXPECT_NEAR(r.first_rolling_step * dt, t_roll, 1.01 * dt);
  EXPECT_LE(r.max_slip_after_roll, 1e-14);
}

/* The kick's friction dissipation is the kinetic energy it removes, rotation included, for a
   sphere kicked against a fixed body (q) by a friction force alone. */
TEST(CoulombKernel, KickDissipationIsTheKineticEnergyRemoved)
{
  std::mt19937_64 rng(3);
  const double m = 1.7, R = 0.3, I = 0.4 * m * R * R, h = 1e-3;
  for (int n = 0; n < 100; n++) {
    const Vec3 axis = random_vec(rng, 1.0), nrm = (1.0 / demc::norm(axis)) * axis;
    const Vec3 r_p = R * nrm, r_q = {0, 0, 0};
    const Vec3 F = cf::tangential_part(random_vec(rng, 10.0), nrm);
    cf::Body p{
        random_vec(rng, 1.0), random_vec(rng, 3.0), F, demc::cross(r_p, F), 1.0 / m, 1.0 / I};
    const cf::Body wall{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, 0.0, 0.0};
    auto ke = [&](const cf::Body &b) {
      return 0.5 * m * demc::norm2(b.v) + 0.5 * I * demc::norm2(b.w);
    };
    const double e0 = ke(p);
    const Vec3 u0 = cf::relative_tangential_velocity(p, wall, r_p, r_q, nrm, 0.0);
    const Vec3 u1 = cf::relative_tangential_velocity(p, wall, r_p, r_q, nrm, h);
    cf::Body kicked = p;
    kicked.v = p.v + (h / m) * F;
    kicked.w = p.w + (h / I) * p.t;
    EXPECT_NEAR(cf::kick_dissipation(F, u0, u1, h), e0 - ke(kicked), 1e-12 * e0) << n;
  }
}

// the normal laws: force and stored energy (the integral of the force over the overlap)
TEST(CoulombKernel, NormalLaws)
{
  const double k = 3.0e4, d = 2e-3;
  auto hooke = cf::normal_force(cf::HOOKE, k, d);
  EXPECT_DOUBLE_EQ(hooke.elastic, k * d);
  EXPECT_DOUBLE_EQ(hooke.energy, 0.5 * k * d * d);
  auto hertz = cf::normal_force(cf::HERTZ, k, d);
  EXPECT_DOUBLE_EQ(hertz.elastic, k * std::pow(d, 1.5));
  EXPECT_DOUBLE_EQ(hertz.energy, 0.4 * k * std::pow(d, 2.5));
  EXPECT_EQ(cf::damped_normal_force(2.0, -3.0), 0.0);
  EXPECT_EQ(cf::damped_normal_force(2.0, 0.5), 2.5);
}

/* Sec. 4.2: the reduced mass must be the tangential one. With the central reduced mass (here the
   sphere's own mass against the fixed plane) the force that should stop the contact point is
   7/2 times too strong and the sliding test's reach 7/2 times too short: the contact point's
   velocity zig-zags at the size of the step's kicks, the contact switches erratically between
   sticking and sliding. With Eq. 24 it rolls with the contact point at rest. */
TEST(CoulombKernel, CentralReducedMassMakesTheContactPointZigZag)
{
  const double mu = 0.3, dt = 1e-4, g = 9.81;
  const int steps = 400;
  const double alpha = std::atan(0.5);    // rolls: tan(alpha) <= 7 mu / 2 = 1.05
  const Rolled tangential = roll_on_plane(alpha, mu, 0.0, dt, steps, true);
  const Rolled central = roll_on_plane(alpha, mu, 0.0, dt, steps, true, true);
  EXPECT_EQ(tangential.slip_reversals, 0);
  EXPECT_EQ(tangential.state_switches, 0);
  EXPECT_LE(tangential.max_slip_after_roll, 1e-14);
  EXPECT_GT(central.slip_reversals, steps / 20);
  EXPECT_GT(central.state_switches, steps / 10);
  // slip of the order of the step's kick g dt, far above round-off
  EXPECT_GT(central.max_slip_after_roll, 0.1 * g * dt);
}

/* The iterated friction's per-contact steps (pair_style gran/coulomb iterate). Oracles: the
   disc's nearest point by sampling the disc; decide() as the exact solution of one contact
   alone (a unit gradient step from any force F, with u the velocity left by F, is decide() of
   the velocity without this friction, u + h F / m_t); the residual of a sticking contact is the
   force that would stop its slip, m_t |u| / h, and zero at decide()'s own answer. */
TEST(CoulombKernel, GradientStepOfOneContactIsItsDecision)
{
  std::mt19937_64 rng(55);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  const double h = 1e-4;
  for (int trial = 0; trial < 200; trial++) {
    const double limit = 2.0 * U(rng), inv_mass = 0.5 + U(rng);
    const Vec3 f = random_vec(rng, 1.5), u = random_vec(rng, 1e-4);
    // nearest point of the disc: no sampled point of the disc is nearer to f
    const Vec3 near = cf::onto_disc(f, limit);
    EXPECT_LE(demc::norm(near), limit * (1.0 + 1e-15));
    for (int k = 0; k < 50; k++) {
      Vec3 g = random_vec(rng, limit);
      if (demc::norm(g) > limit) g = (limit / demc::norm(g)) * g;
      EXPECT_LE(demc::norm(near - f), demc::norm(g - f) * (1.0 + 1e-15));
    }
    // one contact alone: the unit step from any f is decide() of the velocity without friction
    const Vec3 v_free = u + (h * inv_mass) * f;
    const auto d = cf::decide(v_free, inv_mass, limit, h);
    const Vec3 step = cf::gradient_step(f, u, inv_mass, limit, 1.0, h);
    EXPECT_LT(demc::norm(step - d.force), 1e-12 * (limit + demc::norm(f))) << trial;
    // decide()'s force leaves the velocity u' = v_free - h F / m_t: there its residual is zero
    const Vec3 u_left = v_free - (h * inv_mass) * d.force;
    EXPECT_LT(cf::contact_residual(d.force, u_left, inv_mass, limit, h),
              1e-12 * (limit + demc::norm(f)));
  }
  // a sticking contact (force well inside its disc): the force m_t |u| / h that stops its slip
  const double limit = 1.0, inv_mass = 2.0;
  const Vec3 f = {0.1, 0.0, 0.0}, u = {0.0, 2e-6, 0.0};
  EXPECT_NEAR(cf::contact_residual(f, u, inv_mass, limit, h), 2e-6 / (h * inv_mass), 1e-15);
  // both bodies immovable: no force, nothing left
  EXPECT_EQ(demc::norm(cf::gradient_step(f, u, 0.0, limit, 1.0, h)), 0.0);
}

/* The solver holds its iterates in each contact's tangent basis. Oracles: orthonormality and
   t1 x t2 = n to round-off for normals of every direction, the poles and the equator included;
   a tangential vector's two components give it back; the residual and the gradient step taken
   in the basis are the same as in three dimensions (the disc and the metric are isotropic). */
TEST(CoulombKernel, TangentBasisCarriesTheSolversSteps)
{
  std::mt19937_64 rng(56);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  std::vector<Vec3> normals = {{0, 0, 1}, {0, 0, -1}, {1, 0, 0}, {0, -1, 0}, {0.6, 0.8, 0}};
  for (int k = 0; k < 200; k++) {
    const Vec3 a = random_vec(rng, 1.0);
    normals.push_back((1.0 / demc::norm(a)) * a);
  }
  const double h = 1e-4;
  for (const Vec3 &n : normals) {
    const demc::TangentBasis t = demc::tangent_basis(n);
    EXPECT_NEAR(demc::norm(t.t1), 1.0, 1e-15);
    EXPECT_NEAR(demc::norm(t.t2), 1.0, 1e-15);
    EXPECT_NEAR(demc::dot(t.t1, t.t2), 0.0, 1e-15);
    EXPECT_LT(demc::norm(demc::cross(t.t1, t.t2) - n), 1e-15);
    const Vec3 raw = random_vec(rng, 1.5), f = cf::tangential_part(raw, n);
    const Vec3 u = cf::tangential_part(random_vec(rng, 1e-4), n);
    // (a few roundings of each component, and the normal part that tangential_part() leaves of
    // raw by round-off: within 8 ulps of |raw|)
    EXPECT_LT(demc::norm(demc::from_basis(demc::in_basis(f, t), t) - f),
              8.0 * DBL_EPSILON * demc::norm(raw));
    const double limit = U(rng), inv_mass = 0.5 + U(rng), mass_h = cf::mass_over_h(inv_mass, h);
    const demc::Vec2 f2 = demc::in_basis(f, t), u2 = demc::in_basis(u, t);
    const Vec3 step3 = cf::gradient_step(f, u, inv_mass, limit, 0.5, h);
    const Vec3 step2 = demc::from_basis(cf::scaled_gradient_step(f2, u2, 0.5 * mass_h, limit), t);
    EXPECT_LT(demc::norm(step2 - step3), 1e-14 * (1.0 + demc::norm(step3)));
    EXPECT_NEAR(std::sqrt(cf::contact_residual2(f2, u2, mass_h, limit)),
                cf::contact_residual(f, u, inv_mass, limit, h),
                1e-14 * (1.0 + cf::contact_residual(f, u, inv_mass, limit, h)));
  }
}

/* Nesterov's sequence in APGD's theta form against FISTA's t form (Beck & Teboulle):
   t_{k+1} = (1 + sqrt(1 + 4 t_k^2)) / 2, beta_k = (t_k - 1) / t_{k+1}, theta_k = 1 / t_k. */
TEST(CoulombKernel, NesterovMomentumIsFistas)
{
  double theta = 1.0, t = 1.0;
  for (int k = 0; k < 100; k++) {
    const cf::Momentum m = cf::nesterov_momentum(theta);
    const double t_next = 0.5 * (1.0 + std::sqrt(1.0 + 4.0 * t * t));
    EXPECT_NEAR(m.theta, 1.0 / t_next, 1e-13) << k;
    EXPECT_NEAR(m.beta, (t - 1.0) / t_next, 1e-13) << k;
    theta = m.theta;
    t = t_next;
  }
  EXPECT_EQ(cf::nesterov_momentum(1.0).beta, 0.0);    // the first step (and a restart): none
}

namespace {
// a hertz contact of overlap d along z, closing at speed v over the step dt
cf::StepGeometry closing_contact(double d, double v, double r_eff, double dt)
{
  cf::StepGeometry g;
  g.c.overlap = d;
  g.c.n = g.c.n_old = {0.0, 0.0, 1.0};
  g.c.du = {0.0, 0.0, -v * dt};    // q approaches p
  g.c.twirl = 0.0;
  g.c.arm_p = 0.01 - 0.5 * d;
  g.c.arm_q = 0.5;
  g.w_rel = {0.0, 0.0, 0.0};
  g.r_eff = r_eff;
  g.m_eff = 0.0;
  g.dt = dt;
  return g;
}
}    // namespace

/* F = 4/3 E* sqrt(R*) d^3/2 with R* = r_p r_q / (r_p + r_q), R* = r_p for a wall; a dashpot
   nu_n adds nu_n v while closing (its work nu_n v^2 dt), is cut at -P while parting fast
   (Eq. 7: F_N = 0, work P v dt), and the first setup after a restart repeats the stored one. */
TEST(CoulombKernel, ContactStepOfPairAndWall)
{
  const double E = 1e9, nu = 0.3, r_p = 0.01, r_q = 0.02, d = 1e-6, dt = 1e-5;
  const double estar = E / (2.0 * (1.0 - nu * nu));
  cf::StepParams p = {cf::HERTZ, cf::stiffness_factor(cf::HERTZ, E, nu), 0.4, {}, {}};
  cf::Record rec = {0.0, {{0.0, 0.0, 0.0}, 0.0}, {0.0, 0.0, 0.0}};
  const double r_pair = cf::effective_radius(r_p, r_q), r_wall = cf::effective_radius(r_p, cf::WALL_RADIUS);
  EXPECT_EQ(r_wall, r_p);
  const cf::StepResult pair = cf::contact_step(p, closing_contact(d, 0.0, r_pair, dt), cf::ADVANCE, rec);
  const cf::StepResult wall = cf::contact_step(p, closing_contact(d, 0.0, r_wall, dt), cf::ADVANCE, rec);
  const double closed = 4.0 / 3.0 * estar * std::sqrt(r_p) * d * std::sqrt(d);
  EXPECT_NEAR(wall.F_N, closed, 1e-14 * closed);
  EXPECT_NEAR(pair.F_N / wall.F_N, std::sqrt(r_q / (r_p + r_q)), 1e-15);
  EXPECT_EQ(wall.row.limit, 0.4 * wall.F_N);
  EXPECT_EQ(wall.force.z, -wall.F_N);
  // a dashpot of 0.2 N s/m at 0.1 m/s closing: + 0.02 N, work 0.02 N * v dt
  p.dashpots.nu_n = 0.2;
  const double v = 0.1;
  const cf::StepResult closing = cf::contact_step(p, closing_contact(d, v, r_wall, dt), cf::ADVANCE, rec);
  EXPECT_NEAR(closing.F_N - closed, 0.2 * v, 1e-12 * closed);
  EXPECT_NEAR(closing.damping_work, 0.2 * v * v * dt, 1e-12 * 0.2 * v * v * dt);
  EXPECT_EQ(rec.fdamp, closing.F_N - wall.F_N);
  // the setup after a restart: the stored dashpot force, whatever the velocities say
  const cf::StepResult repeated = cf::contact_step(p, closing_contact(d, 0.0, r_wall, dt), cf::REPEAT, rec);
  EXPECT_EQ(repeated.F_N, closing.F_N);
  EXPECT_EQ(repeated.damping_work, 0.0);
  // parting at 10 m/s: the dashpot would pull by 2 N > P; Eq. 7 cuts it at -P
  const cf::StepResult parting = cf::contact_step(p, closing_contact(d, -10.0, r_wall, dt), cf::ADVANCE, rec);
  EXPECT_EQ(parting.F_N, 0.0);
  EXPECT_NEAR(parting.damping_work, closed * 10.0 * dt, 1e-12 * closed * 10.0 * dt);
}
