/* dem-contact: unit tests of the quaternion contact frame (src/kernels/contact_frame.h)
   and of the objectivity of the Jäger contact carried in it.

   Oracles: rotations built here independently (Rodrigues' formula from
   kernel_common.h's rotate_about, and the swing-twist angle of a rotation), not
   the frame's own quaternion products. */

#include "contact_frame.h"
#include "jaeger_contact.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

using demc::Vec3;
using namespace demc::frame;

namespace {

Vec3 unit(const Vec3 &v)
{
  return (1.0 / demc::norm(v)) * v;
}
double dist3(const Vec3 &a, const Vec3 &b)
{
  return demc::norm(a - b);
}
/* Rounding allowance for a chain of a few quaternion products and rotations of
   unit vectors: 16 eps (each operation rounds by a few ulp). */
const double kRound = 16.0 * 2.220446049250313e-16;

double qnorm(const Quat &q)
{
  return std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
}

Vec3 random_unit(std::mt19937_64 &rng)
{
  std::normal_distribution<double> N(0.0, 1.0);
  return unit({N(rng), N(rng), N(rng)});
}

// Signed angle from a to b about the axis k (a, b perpendicular to k).
double angle_about(const Vec3 &a, const Vec3 &b, const Vec3 &k)
{
  return std::atan2(demc::dot(demc::cross(a, b), k), demc::dot(a, b));
}

}    // namespace

TEST(ContactFrame, InitPutsTheNormalOnLocalZ)
{
  std::mt19937_64 rng(1);
  std::vector<Vec3> normals = {{0, 0, 1}, {0, 0, -1}, {1, 0, 0}, {0, -1, 0}};
  for (int i = 0; i < 100; ++i) normals.push_back(random_unit(rng));
  for (const Vec3 &n : normals) {
    const Quat q = init_frame(n);
    EXPECT_NEAR(qnorm(q), 1.0, kRound);
    EXPECT_LE(dist3(normal(q), n), kRound);
    const Local l = to_local(q, n);
    EXPECT_NEAR(l.n, 1.0, kRound);
    EXPECT_NEAR(l.x, 0.0, kRound);
    EXPECT_NEAR(l.y, 0.0, kRound);
    // The local axes are an orthonormal right-handed triad with z = n.
    const Vec3 ex = to_global(q, 1.0, 0.0), ey = to_global(q, 0.0, 1.0);
    EXPECT_NEAR(demc::norm(ex), 1.0, kRound);
    EXPECT_NEAR(demc::dot(ex, ey), 0.0, kRound);
    EXPECT_NEAR(demc::dot(ex, n), 0.0, kRound);
    EXPECT_LE(dist3(demc::cross(ex, ey), n), kRound);
    // Round trip of an arbitrary vector.
    const Vec3 v = {0.3, -1.7, 2.2};
    EXPECT_LE(dist3(to_global(q, to_local(q, v)), v), kRound * demc::norm(v));
  }
}

/* update(q, n_new, 0) is the smallest rotation: the axis n x n_new stays put, and
   the vector n x axis turns by the angle between the normals. */
TEST(ContactFrame, TiltIsTheSmallestRotation)
{
  std::mt19937_64 rng(2);
  for (int i = 0; i < 200; ++i) {
    const Vec3 n = random_unit(rng);
    const Vec3 n_new = unit(n + (0.05 + 0.5 * (i % 3)) * random_unit(rng));
    const Quat q = init_frame(random_unit(rng));
    const Quat q0 = update(q, n, 0.0);    // a frame with normal n and some tangent axes
    const Quat q1 = update(q0, n_new, 0.0);
    EXPECT_LE(dist3(normal(q1), n_new), kRound);
    const Vec3 axis = unit(demc::cross(n, n_new));
    // A tangent vector along the axis keeps its global direction.
    const Local la = to_local(q0, axis);
    EXPECT_LE(dist3(to_global(q1, la.x, la.y), axis), kRound);
    // The other tangent direction turns with the normal.
    const Vec3 t = demc::cross(n, axis), t_new = demc::cross(n_new, axis);
    const Local lt = to_local(q0, t);
    EXPECT_LE(dist3(to_global(q1, lt.x, lt.y), t_new), kRound);
  }
  // Antiparallel: a half turn, still a unit frame with the new normal.
  const Quat q = init_frame({0.0, 0.6, 0.8});
  const Quat q1 = update(q, {0.0, -0.6, -0.8}, 0.0);
  EXPECT_NEAR(qnorm(q1), 1.0, kRound);
  EXPECT_LE(dist3(normal(q1), {0.0, -0.6, -0.8}), kRound);
}

TEST(ContactFrame, TwirlTurnsTheTangentPlaneAboutTheNormal)
{
  std::mt19937_64 rng(3);
  for (int i = 0; i < 100; ++i) {
    const Vec3 n = random_unit(rng);
    const Quat q = init_frame(n);
    const double phi = 3.0 * (i / 100.0 - 0.5);
    const Quat q1 = update(q, n, phi);
    EXPECT_LE(dist3(normal(q1), n), kRound);
    // A local tangent vector is carried to its global image turned by phi about n.
    const Vec3 g0 = to_global(q, 0.6, -0.8), g1 = to_global(q1, 0.6, -0.8);
    EXPECT_LE(dist3(g1, demc::rotate_about(g0, n, phi)), kRound);
  }
}

TEST(ContactFrame, StaysUnitOverManyUpdates)
{
  std::mt19937_64 rng(4);
  Quat q = init_frame({0, 0, 1});
  Vec3 n = {0, 0, 1};
  double worst = 0.0;
  for (int i = 0; i < 100000; ++i) {
    n = unit(n + 0.01 * random_unit(rng));
    q = update(q, n, 0.01 * (i % 7 - 3));
    worst = std::max(worst, std::fabs(qnorm(q) - 1.0));
  }
  EXPECT_LE(worst, 4e-16);
  EXPECT_LE(dist3(normal(q), n), 1e-15);
}

/* Objectivity. A loaded contact with a 2-D history is carried by a pair that
   rotates rigidly, 1000 steps through a full turn about an axis at angle beta to
   the normal, with no relative movement. The force stays fixed in the rotating
   frame, so its global image must be the exactly rotated initial force.
   The frame is updated by tilt + twirl with the twirl theta (w . n) per step
   (1/2 (dtheta_p + dtheta_q) . n for the rigid pair). A rigid rotation by theta is
   tilt + a twist about the new normal by the swing-twist angle
   phi = 2 atan(tan(theta/2) cos beta), so each step leaves the frame behind by
   delta = phi - theta cos beta = theta^3 cos beta sin^2 beta / 12 + O(theta^5)
   about the normal: after N steps the force has turned by N delta too little.
   Asserted: that predicted angle to 1e-9 rad, the bound N |delta| with it, the
   magnitude to 1e-12; and with the exact twist phi per step, rounding only. */
namespace {
struct Objectivity {
  double angle_error;    // signed angle from the exactly rotated force to the force, about n
  double predicted;      // N (theta cos beta - phi)
  double magnitude_error;
  double max_local_change;
};

Objectivity rotate_rigidly(double beta, bool exact_twist, bool noisy_kinematics)
{
  using namespace demc::jaeger;
  const Material m = make_material(70e9, 0.25, 1e-3, 70e9, 0.25, 1e-3, 0.3);
  const double K = cone_slope(m), z0 = 1.2e-6, r = 1e-3;
  // Particles p and q of radius r; normal n0 from p to q; rotation axis w at beta to n0.
  const Vec3 n0 = unit({0.3, -0.5, 0.8});
  const Vec3 perp = unit(demc::cross(n0, {1.0, 0.0, 0.0}));
  const Vec3 w = std::cos(beta) * n0 + std::sin(beta) * perp;
  const Vec3 xp0 = {0.1e-3, 0.2e-3, -0.3e-3}, xq0 = xp0 + (2.0 * r - z0) * n0;
  // Load the contact: normal, then a turning tangential history with partial slip.
  std::vector<Point> buf(64);
  Stack st = {buf.data(), 0, 64};
  Quat q = init_frame(n0);
  step(m, st, z0, {0.0, 0.0}, 0.0);
  step(m, st, z0, {0.3 * K * z0, 0.0}, 0.0);
  step(m, st, z0, {-0.1 * K * z0, 0.2 * K * z0}, 0.0);
  step(m, st, z0, {0.05 * K * z0, 0.0}, 0.0);
  const Point top0 = st.pts[st.n - 1];
  const Vec3 T0 = to_global(q, top0.tx, top0.ty);
  const int N = 1000;
  const double theta = 2.0 * M_PI / N;
  const double phi = 2.0 * std::atan(std::tan(0.5 * theta) * std::cos(beta));
  Vec3 xp = xp0, xq = xq0;
  double max_local = 0.0;
  for (int i = 1; i <= N; ++i) {
    const Vec3 xp1 = demc::rotate_about(xp0, w, i * theta),
               xq1 = demc::rotate_about(xq0, w, i * theta);
    const Vec3 d = xq1 - xp1;
    const Vec3 n = unit(d);
    q = update(q, n, exact_twist ? phi : theta * demc::dot(w, n));
    double z = z0;
    Vec3 du = {0.0, 0.0, 0.0};
    if (noisy_kinematics) {
      // What a pair style computes: overlap from the positions, relative movement of
      // the contact points of q and p (zero for a rigid rotation, up to rounding).
      z = 2.0 * r - demc::norm(d);
      const Vec3 c_old = xp + (r - 0.5 * z0) * unit(xq - xp);
      const Vec3 move_q = demc::rotate_about(c_old - xq, w, theta) + xq1 - (c_old - xq) - xq;
      const Vec3 move_p = demc::rotate_about(c_old - xp, w, theta) + xp1 - (c_old - xp) - xp;
      du = move_q - move_p;
    }
    const Local l = to_local(q, du);
    step(m, st, z, {l.x, l.y}, 0.0);
    const Point top = st.pts[st.n - 1];
    max_local = std::max(
        max_local, std::hypot(top.tx - top0.tx, top.ty - top0.ty) / std::hypot(top0.tx, top0.ty));
    xp = xp1;
    xq = xq1;
  }
  const Point top = st.pts[st.n - 1];
  const Vec3 T = to_global(q, top.tx, top.ty);
  const Vec3 T_exact = demc::rotate_about(T0, w, N * theta);
  const Vec3 n_end = demc::rotate_about(n0, w, N * theta);
  return {angle_about(T_exact, T, n_end), N * (theta * std::cos(beta) - phi),
          std::fabs(demc::norm(T) - demc::norm(T0)) / demc::norm(T0), max_local};
}
}    // namespace

TEST(ContactFrame, RigidRotationKeepsTheForceInTheFrame)
{
  for (double beta : {0.0, M_PI / 3.0, M_PI / 2.0, 2.0}) {
    const Objectivity o = rotate_rigidly(beta, false, false);
    std::printf("[ measure  ] rigid turn, axis at %.2f rad to n, 1000 steps: force direction error "
                "%.3e rad "
                "(predicted %.3e), |T| error %.1e\n",
                beta, o.angle_error, o.predicted, o.magnitude_error);
    EXPECT_EQ(o.max_local_change, 0.0);    // no relative movement: the history is untouched
    EXPECT_NEAR(o.angle_error, o.predicted, 1e-9);
    const double theta = 2.0 * M_PI / 1000.0;
    const double bound = 1000.0 * std::pow(theta, 3) * std::fabs(std::cos(beta)) *
        std::pow(std::sin(beta), 2) / 12.0;
    EXPECT_LE(std::fabs(o.angle_error), 1.001 * bound + 1e-9);
    EXPECT_LE(o.magnitude_error, 1e-12);
  }
  // With the exact swing-twist angle per step only rounding is left.
  const Objectivity o = rotate_rigidly(M_PI / 3.0, true, false);
  std::printf("[ measure  ] rigid turn with the exact twist per step: direction error %.1e rad\n",
              o.angle_error);
  EXPECT_LE(std::fabs(o.angle_error), 1e-12);
  EXPECT_LE(o.magnitude_error, 1e-12);
}

/* The same with the kinematics a pair style would compute (overlap from the
   positions, relative contact movement from the rigid motion): rounding noise
   reaches the kernel as tiny movements, which must not disturb the force. */
TEST(ContactFrame, RigidRotationWithRoundingNoiseInTheKinematics)
{
  const Objectivity o = rotate_rigidly(M_PI / 3.0, false, true);
  std::printf("[ measure  ] rigid turn, kinematics from positions: direction error %.3e rad "
              "(predicted %.3e), "
              "|T| error %.1e, local force change %.1e\n",
              o.angle_error, o.predicted, o.magnitude_error, o.max_local_change);
  // The overlap from positions ~2 mm apart carries ~4e-19 m of rounding, 3.6e-13 of
  // z0, and the movements likewise: each step can change the force by ~5e-13 of
  // itself, 1000 steps by at most ~5e-10.
  EXPECT_NEAR(o.angle_error, o.predicted, 1e-9);
  EXPECT_LE(o.max_local_change, 1e-9);
  EXPECT_LE(o.magnitude_error, 1e-9);
}

/* demc::sin_cos replaces the library for the tiny angles of one step by truncated Taylor
   series (two tiers). Oracle: the C library, over angles log-spaced across both tiers and the
   library range, both signs, including the tier boundaries. Allowed: 2 ulp of the result
   (the library itself is within 1 ulp). */
TEST(ContactFrame, SinCosSeriesAgreeWithTheLibrary)
{
  const double ulp = 2.220446049250313e-16;
  double worst_s = 0.0, worst_c = 0.0;
  std::vector<double> angles = {1e-3, 1e-2, std::nextafter(1e-3, 0.0), std::nextafter(1e-2, 0.0)};
  for (int k = 0; k <= 4000; k++) angles.push_back(std::pow(10.0, -12.0 + 12.0 * k / 4000.0));
  for (double a : angles)
    for (double phi : {a, -a}) {
      double s, c;
      demc::sin_cos(phi, s, c);
      worst_s = std::max(worst_s, std::fabs(s - std::sin(phi)) / std::fabs(std::sin(phi)));
      worst_c = std::max(worst_c, std::fabs(c - std::cos(phi)) / std::fabs(std::cos(phi)));
    }
  std::printf("sin_cos against libm: worst relative error sin %.2e, cos %.2e\n", worst_s, worst_c);
  EXPECT_LE(worst_s, 2.0 * ulp);
  EXPECT_LE(worst_c, 2.0 * ulp);
}
