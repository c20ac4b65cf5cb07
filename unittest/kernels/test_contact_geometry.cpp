/* dem-contact: unit tests of the contact geometry shared by every style
   (src/kernels/contact_geometry.h) and of the tilt and twirl rotations of
   kernel_common.h that carry a tangential force from one step to the next.

   Oracles: long double arithmetic for lengths and normals, and Rodrigues' formula
   (rotate_about, itself checked against the rotation matrix of the axis-angle
   form here) about the axis a x b by the angle between a and b. */

#include "contact_geometry.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

using demc::Vec3;

namespace {

const double kUlp = 2.220446049250313e-16;

Vec3 unit(const Vec3 &v)
{
  return (1.0 / demc::norm(v)) * v;
}
double dist3(const Vec3 &a, const Vec3 &b)
{
  return demc::norm(a - b);
}

Vec3 random_vec(std::mt19937_64 &rng, double scale)
{
  std::normal_distribution<double> N(0.0, 1.0);
  return {scale * N(rng), scale * N(rng), scale * N(rng)};
}

long double exact_inverse_length(const Vec3 &v)
{
  const long double x = v.x, y = v.y, z = v.z;
  return 1.0L / std::sqrt(x * x + y * y + z * z);
}

// the rotation by phi about unit k as a matrix (axis-angle form), applied to v
Vec3 rotate_matrix(const Vec3 &v, const Vec3 &k, double phi)
{
  const double c = std::cos(phi), s = std::sin(phi), t = 1.0 - c;
  const double R[3][3] = {{t * k.x * k.x + c, t * k.x * k.y - s * k.z, t * k.x * k.z + s * k.y},
                          {t * k.x * k.y + s * k.z, t * k.y * k.y + c, t * k.y * k.z - s * k.x},
                          {t * k.x * k.z - s * k.y, t * k.y * k.z + s * k.x, t * k.z * k.z + c}};
  return {R[0][0] * v.x + R[0][1] * v.y + R[0][2] * v.z,
          R[1][0] * v.x + R[1][1] * v.y + R[1][2] * v.z,
          R[2][0] * v.x + R[2][1] * v.y + R[2][2] * v.z};
}

}    // namespace

/* The old normal's inverse length, from the series while the step's movement is small and
   directly beyond: within a few ulp of the long double value on both sides of the switch
   (|e| = 5e-4), for movements from 1e-12 to 0.3 of the distance. */
TEST(ContactGeometry, InverseLengthAfterMoveMatchesDirect)
{
  std::mt19937_64 rng(11);
  double worst = 0.0;
  for (double rel = 1e-12; rel < 0.3; rel *= 1.5) {
    for (int k = 0; k < 200; k++) {
      const Vec3 delta = random_vec(rng, 1.0);
      const Vec3 dd = random_vec(rng, rel * demc::norm(delta));
      const double inv_r = 1.0 / demc::norm(delta);
      const double got = demc::inverse_length_after_move(delta, dd, inv_r);
      const long double want = exact_inverse_length(delta - dd);
      worst = std::fmax(worst, (double) std::fabs((got - want) / want));
    }
  }
  std::printf("[ measured ] 1/|delta - dd|: worst relative error %.3g\n", worst);
  EXPECT_LE(worst, 4.0 * kUlp);
}

/* sphere_contact: unit normals now and at the start of the step, and the compact movement,
   twirl and torques against the general forms with the contact vectors
   r_p = (R_p - overlap/2) n and r_q = -(R_q - overlap/2) n written out (Eq. 5 with two cross
   products, torques r x F). */
TEST(ContactGeometry, SphereContactAgreesWithGeneralContactVectors)
{
  const Vec3 xp = {0.1, -0.2, 0.3}, vp = {1.0, 2.0, -0.5}, vq = {-3.0, 0.5, 1.0};
  const Vec3 wp = {0.3, -2.0, 1.0}, wq = {4.0, 0.5, -1.5};
  const Vec3 xq = xp + Vec3{0.7, 0.9, -0.4};
  const double rp = 0.6, rq = 0.55, dt = 1e-3;
  const double r = demc::norm(xq - xp);
  const demc::SphereContact c = demc::sphere_contact(xp, xq, rp, rq, r, vp, vq, wp, wq, dt);
  const double overlap = rp + rq - r;
  EXPECT_NEAR(c.overlap, overlap, 4 * kUlp);
  const Vec3 n = unit(xq - xp);
  EXPECT_LE(dist3(c.n, n), 4 * kUlp);
  const Vec3 old = (xq - dt * vq) - (xp - dt * vp);
  EXPECT_LE(dist3(c.n_old, unit(old)), 4 * kUlp);

  const Vec3 r_p = (rp - 0.5 * overlap) * n, r_q = -(rq - 0.5 * overlap) * n;
  const Vec3 du = dt * vq - dt * vp + demc::cross(dt * wq, r_q) - demc::cross(dt * wp, r_p);
  EXPECT_LE(dist3(c.du, du), 16 * kUlp * demc::norm(du));
  EXPECT_NEAR(c.twirl, 0.5 * demc::dot(dt * wp + dt * wq, n),
              8 * kUlp * dt * (demc::norm(wp) + demc::norm(wq)));

  const Vec3 F = {2.0, -1.0, 0.5};
  const Vec3 axis = demc::sphere_torque_arm(c, F);
  EXPECT_LE(dist3(c.arm_p * axis, demc::cross(r_p, F)), 16 * kUlp);
  EXPECT_LE(dist3(c.arm_q * axis, demc::cross(r_q, -F)), 16 * kUlp);

  // at setup (step 0) nothing has moved
  const demc::SphereContact s = demc::sphere_contact(xp, xq, rp, rq, r, vp, vq, wp, wq, 0.0);
  EXPECT_EQ(dist3(s.n_old, s.n), 0.0);
  EXPECT_EQ(demc::norm(s.du), 0.0);
  EXPECT_EQ(s.twirl, 0.0);

  // without the old normal (a law with its own frame): n_old = n, everything else the same
  const demc::SphereContact w = demc::sphere_contact(xp, xq, rp, rq, r, vp, vq, wp, wq, dt, false);
  EXPECT_EQ(dist3(w.n_old, c.n), 0.0);
  EXPECT_EQ(dist3(w.n, c.n), 0.0);
  EXPECT_EQ(dist3(w.du, c.du), 0.0);
  EXPECT_EQ(w.overlap, c.overlap);
  EXPECT_EQ(w.twirl, c.twirl);
  EXPECT_EQ(w.arm_p, c.arm_p);
  EXPECT_EQ(w.arm_q, c.arm_q);
}

// Rodrigues against the axis-angle matrix; the perpendicular form against Rodrigues
TEST(ContactGeometry, RotationsAgreeWithAxisAngleMatrix)
{
  std::mt19937_64 rng(5);
  for (int k = 0; k < 1000; k++) {
    const Vec3 axis = unit(random_vec(rng, 1.0));
    const Vec3 v = random_vec(rng, 3.0);
    const double phi = (k % 2 ? 1e-3 : 2.0) * std::uniform_real_distribution<double>(-1, 1)(rng);
    EXPECT_LE(dist3(demc::rotate_about(v, axis, phi), rotate_matrix(v, axis, phi)), 32 * kUlp);
    const Vec3 v_t = v - demc::dot(v, axis) * axis;
    EXPECT_LE(
        dist3(demc::rotate_perpendicular_about(v_t, axis, phi), demc::rotate_about(v_t, axis, phi)),
        32 * kUlp);
  }
}

/* The tilt: the smallest rotation from a to b applied to a vector v normal to a, i.e. the
   rotation about a x b by the angle between a and b. Lengths kept, result normal to b, for
   tilts from 1e-8 rad to nearly pi. A part alpha a of v along a (round-off in a stored force)
   is turned into the plane normal to b at length alpha tan(theta / 2), and the result is still
   normal to b. Antiparallel: v unrotated. */
TEST(ContactGeometry, TiltIsTheSmallestRotation)
{
  std::mt19937_64 rng(7);
  double worst = 0.0, worst_part = 0.0;
  for (double angle = 1e-8; angle < 3.1; angle *= 1.3) {
    for (int k = 0; k < 50; k++) {
      const Vec3 a = unit(random_vec(rng, 1.0));
      const Vec3 axis = unit(demc::cross(a, random_vec(rng, 1.0)));
      const Vec3 b = demc::rotate_about(a, axis, angle);
      const Vec3 v = random_vec(rng, 2.0);
      const Vec3 v_t = v - demc::dot(v, a) * a;
      const Vec3 got = demc::tilt_tangential(v_t, a, b);
      const Vec3 want = rotate_matrix(v_t, axis, angle);
      const double err = dist3(got, want) / demc::norm(v_t);
      worst = std::fmax(worst, err);
      EXPECT_LE(std::fabs(demc::dot(got, b)),
                16 * kUlp * demc::norm(v_t) / (1.0 + std::cos(angle)));
      // a normal part: normal to b still, turned into the plane at alpha tan(theta / 2)
      const double alpha = 1e-3 * demc::norm(v_t);
      const Vec3 with_part = demc::tilt_tangential(v_t + alpha * a, a, b);
      const Vec3 part = with_part - got;
      EXPECT_LE(std::fabs(demc::dot(with_part, b)),
                16 * kUlp * demc::norm(v_t + alpha * a) / (1.0 + std::cos(angle)));
      // (below 1e-4 rad the turned part, under 5e-8 |v_t|, drowns in the round-off of got)
      if (angle > 1e-4)
        worst_part = std::fmax(worst_part,
                               std::fabs(demc::norm(part) / (alpha * std::tan(0.5 * angle)) - 1.0));
    }
  }
  std::printf("[ measured ] tilt: worst error against the axis-angle rotation %.3g (relative); a "
              "normal part's length against alpha tan(theta/2): %.3g (relative)\n",
              worst, worst_part);
  EXPECT_LE(worst, 1e-13);
  EXPECT_LE(worst_part, 1e-6);
  const Vec3 a = {0, 0, 1}, v = {1, 2, 0};
  const Vec3 anti = demc::tilt_tangential(v, a, -1.0 * a);
  EXPECT_EQ(anti.x, 1.0);
  EXPECT_EQ(anti.y, 2.0);
  EXPECT_EQ(anti.z, 0.0);
}

/* The dashpots' limits (demc::limit_dashpot_force()) on random contacts: a law's normal force
   P and tangential force T on or inside its cone mu P, dashpots from a random movement du.
   Oracles: Coulomb's law for the whole tangential force, the normal force never attractive
   with no_tension, the law's own force T always kept (the result is T plus what remains of
   the dashpot), the nearest admissible sum (parallel to the unlimited sum, on the cone) where
   the cap acts, nothing changed where no limit applies, and non-negative work of the dashpot
   force as it acts on du. */
TEST(ContactGeometry, DashpotLimitsKeepCoulombAndDissipate)
{
  std::mt19937_64 rng(4321);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  int capped = 0, clamped = 0, untouched = 0;
  for (int trial = 0; trial < 20000; trial++) {
    const Vec3 n = unit(random_vec(rng, 1.0));
    const double P = 10.0 * U(rng), mu = (trial % 10 == 0) ? 0.0 : U(rng);
    Vec3 T = random_vec(rng, 1.0);
    T = T - demc::dot(T, n) * n;
    const double R = mu * P, t0 = demc::norm(T);
    if (t0 > 0.0) T = (R * (trial % 3 == 0 ? 1.0 : U(rng)) / t0) * T;    // a third on the cone
    const double t = demc::norm(T);
    const Vec3 du = random_vec(rng, 1e-3 * std::pow(10.0, 3.0 * U(rng)));
    const Vec3 f0 = demc::contact_damping_force(du, n, 5.0 * U(rng), 5.0 * U(rng), 1e-3);
    for (int which = 0; which < 4; which++) {
      demc::DashpotLimits lim;
      lim.coulomb = (which & 1) != 0;
      lim.no_tension = (which & 2) != 0;
      Vec3 f = f0;
      const bool changed = demc::limit_dashpot_force(lim, mu, P, T, n, f);
      const double fn0 = demc::dot(f0, n), fn = demc::dot(f, n);
      const Vec3 sum0 = T + (f0 - fn0 * n), sum = T + (f - fn * n);
      const double scale = 1.0 + P + demc::norm(f0);
      if (!changed) {
        EXPECT_TRUE(f.x == f0.x && f.y == f0.y && f.z == f0.z);
        untouched++;
      }
      if (lim.coulomb) {
        EXPECT_LE(demc::norm(sum), std::max(R, t) * (1.0 + 1e-12) + 1e-15 * scale);
        if (demc::norm(sum0) > std::max(R, t) * (1.0 + 1e-12)) {
          capped++;
          EXPECT_TRUE(changed);
          EXPECT_NEAR(demc::norm(sum), std::max(R, t), 1e-12 * scale);
          EXPECT_LT(demc::norm(demc::cross(sum, sum0)), 1e-12 * scale * demc::norm(sum0));
          if (std::max(R, t) > 0.0) EXPECT_GT(demc::dot(sum, sum0), 0.0);
        }
      } else {
        EXPECT_LT(dist3(sum, sum0), 1e-14 * scale);
      }
      if (lim.no_tension) {
        // the total normal force on p, (f.n - P) n, never pulls (round-off aside)
        EXPECT_LE(fn, P + 1e-14 * scale);
        if (fn0 > P) {
          clamped++;
          EXPECT_NEAR(fn, P, 1e-14 * scale);
        }
      } else {
        EXPECT_NEAR(fn, fn0, 1e-14 * scale);
      }
      // the dashpot as it acts does no negative work (round-off aside)
      EXPECT_GE(demc::dot(f, du), -1e-13 * demc::norm(f0) * demc::norm(du));
    }
  }
  std::printf("[ limits   ] %d capped, %d clamped, %d unchanged of 80000\n", capped, clamped,
              untouched);
  EXPECT_GT(capped, 1000);
  EXPECT_GT(clamped, 1000);
}

// a frictionless contact keeps no tangential dashpot force; a law force a hair outside its cone
// (round-off) is kept, the dashpot adding nothing beyond it
TEST(ContactGeometry, DashpotCapAtZeroFrictionAndOutsideTheCone)
{
  const Vec3 n = {0.0, 0.0, 1.0}, du = {1e-6, 2e-6, -1e-6};
  const demc::DashpotLimits lim;
  Vec3 f = demc::contact_damping_force(du, n, 1.0, 1.0, 1e-4);
  ASSERT_TRUE(demc::limit_dashpot_force(lim, 0.0, 3.0, Vec3{0.0, 0.0, 0.0}, n, f));
  EXPECT_EQ(f.x, 0.0);
  EXPECT_EQ(f.y, 0.0);
  EXPECT_DOUBLE_EQ(f.z, -0.01);                      // the normal dashpot stays (nu_n du.n / dt)
  const Vec3 T = {0.6 * (1.0 + 1e-15), 0.0, 0.0};    // cone 0.6 (mu 0.2, P 3)
  Vec3 g = {0.1, 0.0, 0.0};
  ASSERT_TRUE(demc::limit_dashpot_force(lim, 0.2, 3.0, T, n, g));
  EXPECT_NEAR(g.x, 0.0, 1e-16);
  EXPECT_NEAR(demc::norm(T + g), demc::norm(T), 1e-16);
}
