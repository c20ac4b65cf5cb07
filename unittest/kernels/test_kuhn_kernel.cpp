/* Layer (a): the Kuhn–Suzuki–Daouadji kernel (src/kernels/kuhn_contact.h) alone.

   Every expected value comes from an oracle independent of the kernel: numbers derived by
   hand from the paper's equations (the derivation is in the comments), closed forms, or a
   brute-force model written here (a return mapping with 1e5 sub-steps, the conventional
   add-then-scale algorithm, exact rotations). "Fig. 1 line N" refers to the paper. */
#include "kuhn_contact.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

using demc::Vec3;
namespace kuhn = demc::kuhn;

namespace {

const double KN = 1000.0, KT = 800.0, MU = 0.5;
const double PI = 3.14159265358979323846;
const Vec3 EX = {1.0, 0.0, 0.0}, EZ = {0.0, 0.0, 1.0}, ZERO = {0.0, 0.0, 0.0};

kuhn::Params params(unsigned flags = kuhn::ALL)
{
  kuhn::Params p{KN, KT, MU, 0.0, 0.0, flags};
  return p;
}

/* Normal along z at t and t+dt; p fixed; q moves by du; no rotations. So dzeta = -du.z
   and dxi = (du.x, du.y, 0) (Eqs. 5-6). */
kuhn::Motion planar(double zeta_old, double zeta_new, const Vec3 &du)
{
  kuhn::Motion m{};
  m.zeta_old = zeta_old;
  m.zeta_new = zeta_new;
  m.n = EZ;
  m.n_old = EZ;
  m.du_q = du;
  m.dt = 1e-3;
  return m;
}

double len(const Vec3 &v)
{
  return std::sqrt(demc::dot(v, v));
}
Vec3 unit(const Vec3 &v)
{
  return (1.0 / len(v)) * v;
}
double angle_between(const Vec3 &a, const Vec3 &b)
{
  return std::atan2(len(demc::cross(a, b)), demc::dot(a, b));
}

void expect_vec_near(const Vec3 &a, const Vec3 &b, double tol)
{
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
  EXPECT_NEAR(a.z, b.z, tol);
}

bool all_finite(const kuhn::Result &r)
{
  const double v[] = {r.fn,      r.ft.x,    r.ft.y,     r.ft.z,     r.force.x,   r.force.y,
                      r.force.z, r.Wn,      r.dWt,      r.dWt_rev,  r.dWt_irrev, r.dW_damp,
                      r.alpha_o, r.alpha_s, r.f_damp.x, r.f_damp.y, r.f_damp.z};
  for (double x : v)
    if (!std::isfinite(x)) return false;
  return true;
}

/* Brute-force elastic-plastic oracle: the step cut into N sub-steps; each adds kt dxi / N
   elastically and, if outside the cone mu f^n(alpha) (Eq. 17), returns radially onto it.
   Its error is O(1/N) and smooth in 1/N, so Richardson's 2 F(2N) - F(N) is O(1/N^2). */
Vec3 return_mapping(Vec3 f, double fn0, double dfn, const Vec3 &dF, double mu, long N)
{
  const Vec3 inc = (1.0 / double(N)) * dF;
  for (long k = 1; k <= N; ++k) {
    f = f + inc;
    const double R = mu * (fn0 + (double(k) / double(N)) * dfn);
    const double L = len(f);
    if (L > R) f = (R / L) * f;
  }
  return f;
}

Vec3 return_mapping_extrapolated(const Vec3 &f0, double fn0, double dfn, const Vec3 &dF, double mu,
                                 long N)
{
  const Vec3 a = return_mapping(f0, fn0, dfn, dF, mu, N);
  const Vec3 b = return_mapping(f0, fn0, dfn, dF, mu, 2 * N);
  return 2.0 * b - a;
}

/* The conventional algorithm written independently: history reset while apart,
   f = f_old + kt dxi scaled back onto mu kn zeta_new, no rotation of the history. */
struct Conventional {
  double fn;
  Vec3 ft, force;
};
Conventional conventional(const kuhn::Motion &m, const Vec3 &ft_old)
{
  if (m.zeta_new <= 0.0) return {0.0, ZERO, ZERO};
  const Vec3 du = m.du_q - m.du_p + demc::cross(m.dth_q, m.r_q) - demc::cross(m.dth_p, m.r_p);
  const Vec3 dxi = du - demc::dot(du, m.n) * m.n;
  Vec3 f = (m.zeta_old > 0.0 ? ft_old : ZERO) + KT * dxi;
  const double fn = KN * m.zeta_new;
  if (len(f) > MU * fn) f = (MU * fn / len(f)) * f;
  return {fn, f, -fn * m.n + f};
}

/* g(alpha) = (mu f^n(alpha))^2 - |f^t(alpha)|^2 along the elastic path (Eq. 9). */
double g_elastic(const Vec3 &f0, double fn0, const Vec3 &dxi, double dzeta, double alpha)
{
  const double R = MU * (fn0 + alpha * KN * dzeta);
  const Vec3 f = f0 + (alpha * KT) * dxi;
  return R * R - demc::dot(f, f);
}

/* Fig. 1 lines 25-27 exactly as printed: the second if/else runs after the first. */
double printed_alpha_s_literal(double A, double B, double C, double eps, double mu_kn_dzeta)
{
  const double tol = eps * mu_kn_dzeta * mu_kn_dzeta;
  double a = std::numeric_limits<double>::quiet_NaN();
  if (std::fabs(C) < tol) a = std::max(0.0, -2.0 * B / A);
  if (std::fabs(A) < tol)
    a = -C / (2.0 * B);
  else
    a = (-B - std::sqrt(B * B - A * C)) / A;
  return a;
}

/* Lines 25-27 read as an if / else-if chain with line 25's rule max(0, -2B/A). */
double printed_alpha_s_chain(double A, double B, double C, double eps, double mu_kn_dzeta)
{
  const double tol = eps * mu_kn_dzeta * mu_kn_dzeta;
  if (std::fabs(C) < tol) return std::max(0.0, -2.0 * B / A);
  if (std::fabs(A) < tol) return -C / (2.0 * B);
  return (-B - std::sqrt(B * B - A * C)) / A;
}

}    // namespace

/* ------------------------------------------------------------------------------------------
   Branches against hand-derived values. kn = 1000, kt = 800, mu = 0.5 throughout.
   ------------------------------------------------------------------------------------------ */

// Lines 4-5: apart. No force; the stored tangential energy |f|^2/(2kt) = 25/1600 is released
// without work, so it is all dissipated.
TEST(KuhnBranches, SeparationReleasesStoredEnergyAsDissipation)
{
  const auto r = kuhn::step(params(), planar(0.002, -0.001, {0.0, 0.0, 0.003}), {3.0, 4.0, 0.0});
  EXPECT_EQ(r.branch, kuhn::BRANCH_SEPARATED);
  EXPECT_EQ(r.fn, 0.0);
  expect_vec_near(r.ft, ZERO, 0.0);
  expect_vec_near(r.force, ZERO, 0.0);
  EXPECT_EQ(r.Wn, 0.0);
  EXPECT_EQ(r.dWt, 0.0);
  EXPECT_DOUBLE_EQ(r.dWt_rev, -0.015625);
  EXPECT_DOUBLE_EQ(r.dWt_irrev, 0.015625);
  EXPECT_EQ(r.dW_damp, 0.0);
}

// Lines 10-18, elastic. zeta -0.001 -> 0.002 with dzeta = 0.004: alpha_o = 1 - 0.002/0.004 = 0.5
// (Eq. 7); dxi after touch = 0.5 * 0.001 = 0.0005 -> ft = 0.4 < mu fn = 1. fn = kn zeta_new = 2
// (line 14 as printed, kn (zeta_new - zeta_old), would give 3). Line 18: dWt = 1/2 0.0005 0.4.
TEST(KuhnBranches, FreshContactElastic)
{
  const auto r = kuhn::step(params(), planar(-0.001, 0.002, {0.001, 0.0, -0.004}), {9.0, 9.0, 0.0});
  EXPECT_EQ(r.branch, kuhn::BRANCH_FRESH_STICK);
  EXPECT_DOUBLE_EQ(r.alpha_o, 0.5);
  EXPECT_EQ(r.alpha_s, 0.0);
  EXPECT_DOUBLE_EQ(r.fn, 2.0);
  expect_vec_near(r.ft, {0.4, 0.0, 0.0}, 1e-15);    // the stale history (9, 9) is ignored
  expect_vec_near(r.force, {0.4, 0.0, -2.0}, 1e-15);
  EXPECT_DOUBLE_EQ(r.Wn, 4.0 / 2000.0);
  EXPECT_NEAR(r.dWt, 1e-4, 1e-19);
  EXPECT_NEAR(r.dWt_rev, 0.16 / 1600.0, 1e-19);
  EXPECT_NEAR(r.dWt_irrev, 0.0, 1e-19);
}

// Lines 15-16: dxi after touch (0.002, 0.0015), kt dxi = (1.6, 1.2), |.| = 2 > mu fn = 1, so
// ft = (0.8, 0.6). Line 18: 1/2 (0.002 0.8 + 0.0015 0.6) = 0.00125; stored 1/1600.
TEST(KuhnBranches, FreshContactCappedAtCone)
{
  const auto r = kuhn::step(params(), planar(-0.001, 0.002, {0.004, 0.003, -0.004}), ZERO);
  EXPECT_EQ(r.branch, kuhn::BRANCH_FRESH_SLIP);
  EXPECT_DOUBLE_EQ(r.alpha_o, 0.5);
  expect_vec_near(r.ft, {0.8, 0.6, 0.0}, 1e-15);
  EXPECT_NEAR(r.dWt, 0.00125, 1e-18);
  EXPECT_NEAR(r.dWt_rev, 0.000625, 1e-18);
  EXPECT_NEAR(r.dWt_irrev, 0.000625, 1e-18);
}

// Guard of Eq. 7: touching without a closing movement: whole step counted (alpha_o = 0);
// and a movement that closes more than the overlap: alpha_o = 1 - 0.002/0.008 = 0.75.
TEST(KuhnBranches, FreshContactFractionGuards)
{
  const auto opening = kuhn::step(params(), planar(-0.001, 0.002, {0.001, 0.0, 0.001}), ZERO);
  EXPECT_EQ(opening.alpha_o, 0.0);
  expect_vec_near(opening.ft, {0.8, 0.0, 0.0}, 1e-15);
  const auto deep = kuhn::step(params(), planar(-0.001, 0.002, {0.001, 0.0, -0.008}), ZERO);
  EXPECT_DOUBLE_EQ(deep.alpha_o, 0.75);
  expect_vec_near(deep.ft, {0.2, 0.0, 0.0}, 1e-15);
}

// Line 20 inside the cone: (0.2,0,0) + 800 (0.0005,0,0) = (0.6,0,0); fn = 2, mu fn = 1.
// Work 1/2 0.0005 (0.2 + 0.6) = 0.0002 = (0.36 - 0.04)/1600: all reversible.
TEST(KuhnBranches, Stick)
{
  const auto r = kuhn::step(params(), planar(0.002, 0.002, {0.0005, 0.0, 0.0}), {0.2, 0.0, 0.0});
  EXPECT_EQ(r.branch, kuhn::BRANCH_STICK);
  EXPECT_EQ(r.alpha_s, 0.0);
  expect_vec_near(r.ft, {0.6, 0.0, 0.0}, 1e-15);
  EXPECT_NEAR(r.dWt, 0.0002, 1e-18);
  EXPECT_NEAR(r.dWt_rev, 0.0002, 1e-18);
  EXPECT_NEAR(r.dWt_irrev, 0.0, 1e-18);
}

// Elastic then slip, collinear, constant fn = 2: 0.2 + alpha 1.6 = 1 -> alpha_s = 0.5.
// Elastic work (1 - 0.04)/1600 = 0.0006; sliding 0.001 at force 1 dissipates 0.001.
TEST(KuhnBranches, ElasticThenSlipCollinear)
{
  const auto r = kuhn::step(params(), planar(0.002, 0.002, {0.002, 0.0, 0.0}), {0.2, 0.0, 0.0});
  EXPECT_EQ(r.branch, kuhn::BRANCH_SLIP);
  EXPECT_DOUBLE_EQ(r.alpha_s, 0.5);
  expect_vec_near(r.ft, {1.0, 0.0, 0.0}, 1e-15);
  EXPECT_NEAR(r.dWt, 0.0016, 1e-18);
  EXPECT_NEAR(r.dWt_rev, 0.0006, 1e-18);
  EXPECT_NEAR(r.dWt_irrev, 0.001, 1e-18);
}

/* Elastic then slip with turning, A < 0, B = 0 (movement normal to the force):
   f0 = (0, 0.6), kt dxi = (1.6, 0), R = 1: |(1.6 a, 0.6)| = 1 -> alpha_s = 0.5 (= sqrt(C/-A),
   C = 0.64, A = -2.56), f_s = (0.8, 0.6). Then Eq. 18 with theta0 = atan2(0.6, 0.8) and
   E = kt |dxi_r| / (mu fn) = 800 0.001 / 1 = 0.8, solved here by bisection in the paper's own
   form ln|csc - cot| (independent of the kernel's half-angle form). */
double solve_eq18_by_bisection(double theta0, double E)
{
  auto lncsccot = [](double t) {
    return std::log(std::fabs(1.0 / std::sin(t) - 1.0 / std::tan(t)));
  };
  const double target = lncsccot(theta0) - E;    // ln|csc - cot| increases with |theta| on (0, pi)
  double lo = 1e-300, hi = std::fabs(theta0);
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (lncsccot(mid) < target ? lo : hi) = mid;
  }
  return (theta0 < 0 ? -1.0 : 1.0) * 0.5 * (lo + hi);    // Eq. 19
}

TEST(KuhnBranches, ElasticThenSlipTurning)
{
  const auto r = kuhn::step(params(), planar(0.002, 0.002, {0.002, 0.0, 0.0}), {0.0, 0.6, 0.0});
  EXPECT_EQ(r.branch, kuhn::BRANCH_SLIP);
  EXPECT_NEAR(r.alpha_s, 0.5, 1e-15);
  const double th1 = solve_eq18_by_bisection(std::atan2(0.6, 0.8), 0.8);
  expect_vec_near(r.ft, {std::cos(th1), std::sin(th1), 0.0}, 1e-14);
  EXPECT_NEAR(r.dWt_rev, 0.64 / 1600.0, 1e-18);
  EXPECT_NEAR(r.dWt, 0.0004 + 0.5 * 0.001 * (0.8 + std::cos(th1)), 1e-17);    // lines 28 + 45
}

// Slip at start (C = 0, B = 0, A < 0), Fig. 4 geometry with theta0 = +90 degrees:
// f0 = (0, 1) on the cone, movement along x. E = 0.8, so tan(theta1/2) = exp(-0.8).
TEST(KuhnBranches, SlipAtStartOrthogonal)
{
  const auto r = kuhn::step(params(), planar(0.002, 0.002, {0.001, 0.0, 0.0}), {0.0, 1.0, 0.0});
  EXPECT_EQ(r.branch, kuhn::BRANCH_SLIP);
  EXPECT_EQ(r.alpha_s, 0.0);
  const double th1 = solve_eq18_by_bisection(PI / 2, 0.8);
  EXPECT_NEAR(th1, 2.0 * std::atan(std::exp(-0.8)), 1e-14);    // the two oracles agree
  expect_vec_near(r.ft, {std::cos(th1), std::sin(th1), 0.0}, 1e-14);
}

/* Near-zero A (Eq. 14, line 26): unloading with mu kn |dzeta| = kt |dxi| = 0.8.
   fn 2 -> 0.4; f0 = (0, 0.6): A = 0, B = -0.8 - 0 = -0.8, C = 1 - 0.36 = 0.64 ->
   alpha_s = -C/(2B) = 0.4. Check: f(0.4) = (0.32, 0.6), |f| = 0.68 = 1 - 0.32.
   Slip part: fn_s = 1.36 -> 0.4, |dxi_r| = 0.0006: E = 0.48 / (0.5 logmean(1.36, 0.4))
   = ln 3.4 (c1 = 0.68/0.48, c2 = -0.96/1.36 in the paper's form give the same).
   tan(theta0/2) = 0.6/(1 + 8/17) = 0.6, so tan(theta1/2) = 0.6/3.4 = 3/17:
   cos theta1 = 140/149, sin theta1 = 51/149; ft = 0.2 (140, 51)/149. */
TEST(KuhnBranches, NearZeroA)
{
  const auto r = kuhn::step(params(), planar(0.002, 0.0004, {0.001, 0.0, 0.0016}), {0.0, 0.6, 0.0});
  EXPECT_EQ(r.branch, kuhn::BRANCH_SLIP);
  EXPECT_NEAR(r.alpha_s, 0.4, 1e-14);
  expect_vec_near(r.ft, {0.2 * 140.0 / 149.0, 0.2 * 51.0 / 149.0, 0.0}, 1e-14);
  const double elastic = (0.68 * 0.68 - 0.36) / 1600.0;    // = line 28
  EXPECT_NEAR(r.dWt, elastic + 0.5 * 0.0006 * (0.32 + 0.2 * 140.0 / 149.0), 1e-17);
  EXPECT_NEAR(r.dWt_rev, (0.04 - 0.36) / 1600.0, 1e-17);
}

/* Near-zero C with B > 0, A < 0 (line 25): f0 = (-1, 0) on the cone, reversal kt dxi = (2.4, 0).
   The force first unloads elastically through the cone and reaches the far side when
   -1 + 2.4 alpha = 1: alpha_s = 5/6 = -2B/A (B = 2.4, A = -5.76). Sliding 0.0005 at 1.
   Also with |f0| a rounding beyond the cone (C < 0 by round-off): same answer. Clearly
   outside (|f0| = 1.2): first returned onto the cone (releasing (1.44 - 1)/1600 as
   dissipation), then the same path. */
TEST(KuhnBranches, NearZeroCReversal)
{
  const auto r = kuhn::step(params(), planar(0.002, 0.002, {0.003, 0.0, 0.0}), {-1.0, 0.0, 0.0});
  EXPECT_EQ(r.branch, kuhn::BRANCH_SLIP);
  EXPECT_NEAR(r.alpha_s, 5.0 / 6.0, 1e-15);
  expect_vec_near(r.ft, {1.0, 0.0, 0.0}, 1e-15);
  EXPECT_NEAR(r.dWt_irrev, 0.0005, 1e-18);
  EXPECT_NEAR(r.dWt_rev, 0.0, 1e-18);

  const auto rounded =
      kuhn::step(params(), planar(0.002, 0.002, {0.003, 0.0, 0.0}), {-(1.0 + 4e-16), 0.0, 0.0});
  EXPECT_NEAR(rounded.alpha_s, 5.0 / 6.0, 1e-14);
  const auto outside =
      kuhn::step(params(), planar(0.002, 0.002, {0.003, 0.0, 0.0}), {-1.2, 0.0, 0.0});
  EXPECT_NEAR(outside.alpha_s, 5.0 / 6.0, 1e-15);
  expect_vec_near(outside.ft, {1.0, 0.0, 0.0}, 1e-15);
  EXPECT_NEAR(outside.dWt_irrev, 0.0005 + 0.44 / 1600.0, 1e-18);
  // returned onto the cone, a small reversal stays elastic: (-1, 0) + (0.8, 0)
  const auto inside =
      kuhn::step(params(), planar(0.002, 0.002, {0.001, 0.0, 0.0}), {-1.2, 0.0, 0.0});
  EXPECT_EQ(inside.branch, kuhn::BRANCH_STICK);
  expect_vec_near(inside.ft, {-0.2, 0.0, 0.0}, 1e-15);
  EXPECT_NEAR(inside.dWt_irrev, 0.44 / 1600.0, 1e-18);
}

/* A > 0 (strong unloading, the cone shrinks faster than the force): fn 2 -> 0.8,
   f0 = (0.6, 0), kt dxi = (0.4, 0), mu kn dzeta = -0.6. g = (1 - 0.6a)^2 - (0.6 + 0.4a)^2
   = (0.4 - a)(1.6 - 0.2a): alpha_s = 0.4 (A = 0.2, B = -0.84, C = 0.64; other root 8).
   f_s = 0.76 = R_s; then collinear slip to 0.4. Total slip lambda = 0.0003 + 0.36/800 =
   0.00075 at a force falling linearly 0.76 -> 0.4: dissipation 0.00075 * 0.58 = 0.000435. */
TEST(KuhnBranches, PositiveAUnloading)
{
  const auto r =
      kuhn::step(params(), planar(0.002, 0.0008, {0.0005, 0.0, 0.0012}), {0.6, 0.0, 0.0});
  EXPECT_EQ(r.branch, kuhn::BRANCH_SLIP);
  EXPECT_NEAR(r.alpha_s, 0.4, 1e-15);
  expect_vec_near(r.ft, {0.4, 0.0, 0.0}, 1e-15);
  EXPECT_NEAR(r.dWt_irrev, 0.000435, 1e-17);
  EXPECT_NEAR(r.dWt_rev, (0.16 - 0.36) / 1600.0, 1e-17);
}

/* Force exactly opposite to the movement (theta0 = pi) while the cone shrinks faster than the
   reversal unloads it (0.6 > 0.4): slip at once and the force stays opposite, at
   mu fn_end = 0.4. */
TEST(KuhnBranches, OppositeForceStaysOpposite)
{
  const auto r =
      kuhn::step(params(), planar(0.002, 0.0008, {0.0005, 0.0, 0.0012}), {-1.0, 0.0, 0.0});
  EXPECT_EQ(r.alpha_s, 0.0);
  expect_vec_near(r.ft, {-0.4, 0.0, 0.0}, 1e-15);
}

/* Friction coefficient zero: no tangential force, no division by zero. */
TEST(KuhnBranches, ZeroFriction)
{
  kuhn::Params p = params();
  p.mu = 0.0;
  const auto r = kuhn::step(p, planar(0.002, 0.002, {0.001, 0.0005, 0.0}), ZERO);
  EXPECT_TRUE(all_finite(r));
  expect_vec_near(r.ft, ZERO, 0.0);
  const auto fresh = kuhn::step(p, planar(-0.001, 0.002, {0.001, 0.0, -0.004}), ZERO);
  expect_vec_near(fresh.ft, ZERO, 0.0);
  EXPECT_TRUE(all_finite(fresh));
}

/* ------------------------------------------------------------------------------------------
   Flags, each against hand values; all off against the conventional algorithm.
   ------------------------------------------------------------------------------------------ */

// FRESH off: the whole step's dxi (0.004, 0.003) acts: (3.2, 2.4) capped to (0.8, 0.6);
// line 18 work 1/2 (0.004 0.8 + 0.003 0.6) = 0.0025.
TEST(KuhnFlags, FreshOff)
{
  const auto r = kuhn::step(params(kuhn::ALL & ~kuhn::FRESH),
                            planar(-0.001, 0.002, {0.004, 0.003, -0.004}), ZERO);
  EXPECT_EQ(r.alpha_o, 0.0);
  expect_vec_near(r.ft, {0.8, 0.6, 0.0}, 1e-15);
  EXPECT_NEAR(r.dWt, 0.0025, 1e-18);
}

// ELASTIC_SLIP off: the case of ElasticThenSlipTurning slides from alpha = 0 with f0 = (0, 0.6),
// theta0 = 90 degrees, E = 800 0.002 / 1 = 1.6: tan(theta1/2) = exp(-1.6).
TEST(KuhnFlags, ElasticSlipOff)
{
  const auto r = kuhn::step(params(kuhn::ALL & ~kuhn::ELASTIC_SLIP),
                            planar(0.002, 0.002, {0.002, 0.0, 0.0}), {0.0, 0.6, 0.0});
  EXPECT_EQ(r.alpha_s, 0.0);
  const double th1 = 2.0 * std::atan(std::exp(-1.6));
  expect_vec_near(r.ft, {std::cos(th1), std::sin(th1), 0.0}, 1e-14);
}

// TURN off: add then scale, (1.6, 0.6)/sqrt(2.92); the work still splits at alpha_s = 0.5:
// 0.0004 + 1/2 0.001 (0.8 + 1.6/sqrt(2.92)).
TEST(KuhnFlags, TurnOff)
{
  const auto r = kuhn::step(params(kuhn::ALL & ~kuhn::TURN),
                            planar(0.002, 0.002, {0.002, 0.0, 0.0}), {0.0, 0.6, 0.0});
  EXPECT_NEAR(r.alpha_s, 0.5, 1e-15);
  const double L = std::sqrt(2.92);
  expect_vec_near(r.ft, {1.6 / L, 0.6 / L, 0.0}, 1e-15);
  EXPECT_NEAR(r.dWt, 0.0004 + 0.5 * 0.001 * (0.8 + 1.6 / L), 1e-17);
}

// PROJECT off with a tilted normal: the stored force stays in the old plane, so a sticking
// contact keeps its out-of-plane part (conventional), but a sliding one is rebuilt from m^{dxi}
// and n x m^{dxi} (Eqs. 20-21) and lies in the new tangent plane.
TEST(KuhnFlags, ProjectOffSlidingForceLiesInNewPlane)
{
  const double tilt = 0.1;
  kuhn::Motion m = planar(0.002, 0.002, {0.001, 0.0005, 0.0});
  m.n = {0.0, std::sin(tilt), std::cos(tilt)};
  const Vec3 ft_old = {0.0, 1.0, 0.0};    // on the cone, in the plane of n_old = z
  const auto slide = kuhn::step(params(kuhn::ALL & ~kuhn::PROJECT), m, ft_old);
  EXPECT_EQ(slide.branch, kuhn::BRANCH_SLIP);
  EXPECT_NEAR(demc::dot(slide.ft, m.n), 0.0, 1e-16);
  EXPECT_NEAR(len(slide.ft), 1.0, 1e-15);
  m.du_q = {0.0001, 0.0, 0.0};
  const auto stick = kuhn::step(params(kuhn::ALL & ~kuhn::PROJECT), m, 0.5 * ft_old);
  EXPECT_EQ(stick.branch, kuhn::BRANCH_STICK);
  EXPECT_NEAR(demc::dot(stick.ft, m.n), 0.5 * std::sin(tilt), 1e-16);
  const auto projected = kuhn::step(params(), m, 0.5 * ft_old);
  EXPECT_EQ(projected.branch, kuhn::BRANCH_STICK);
  EXPECT_NEAR(demc::dot(projected.ft, m.n), 0.0, 1e-16);
}

// All off = the conventional algorithm, written independently above, over random 3D
// inputs: fresh, continuing, apart, sticking and sliding contacts, tilting normals, spins.
TEST(KuhnFlags, AllOffIsConventional)
{
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  auto rvec = [&](double s) {
    return Vec3{s * u(rng), s * u(rng), s * u(rng)};
  };
  int sliding = 0, sticking = 0, fresh = 0;
  for (int i = 0; i < 20000; ++i) {
    kuhn::Motion m{};
    m.n = unit(rvec(1.0));
    m.n_old = unit(m.n + rvec(0.05));
    m.zeta_old = 0.003 * u(rng);
    m.zeta_new = 0.003 * u(rng);
    m.du_p = rvec(0.002);
    m.du_q = rvec(0.002);
    m.dth_p = rvec(0.01);
    m.dth_q = rvec(0.01);
    m.r_p = rvec(0.1);
    m.r_q = rvec(0.1);
    m.dt = 1e-3;
    Vec3 ft_old = rvec(1.5);
    ft_old = ft_old - demc::dot(ft_old, m.n_old) * m.n_old;
    const auto r = kuhn::step(params(0u), m, ft_old);
    const Conventional c = conventional(m, ft_old);
    EXPECT_NEAR(r.fn, c.fn, 1e-15);
    expect_vec_near(r.ft, c.ft, 1e-14);
    expect_vec_near(r.force, c.force, 1e-14);
    if (m.zeta_new > 0 && m.zeta_old <= 0) ++fresh;
    if (r.branch == kuhn::BRANCH_SLIP) ++sliding;
    if (r.branch == kuhn::BRANCH_STICK) ++sticking;
  }
  EXPECT_GT(sliding, 1000);
  EXPECT_GT(sticking, 300);
  EXPECT_GT(fresh, 1000);
}

// Without slip (and without tilt or twirl) every refinement is inactive: ALL equals the
// conventional algorithm (flags off) to round-off, work terms included.
TEST(KuhnFlags, NoSlipEqualsConventional)
{
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  auto rvec = [&](double s) {
    return Vec3{s * u(rng), s * u(rng), s * u(rng)};
  };
  int checked = 0;
  for (int i = 0; i < 20000; ++i) {
    kuhn::Motion m{};
    m.n = unit(rvec(1.0));
    m.n_old = m.n;
    m.zeta_old = 0.001 + 0.002 * std::fabs(u(rng));
    m.zeta_new = 0.001 + 0.002 * std::fabs(u(rng));
    m.du_p = rvec(0.0005);
    m.du_q = rvec(0.0005);
    m.dth_p = rvec(0.005);
    m.dth_q = rvec(0.005);
    const Vec3 spin = 0.5 * (m.dth_p + m.dth_q);    // remove the twirl
    m.dth_p = m.dth_p - demc::dot(spin, m.n) * m.n;
    m.dth_q = m.dth_q - demc::dot(spin, m.n) * m.n;
    m.r_p = rvec(0.1);
    m.r_q = rvec(0.1);
    m.dt = 1e-3;
    Vec3 ft_old = rvec(1.0);
    ft_old =
        (MU * KN * m.zeta_old * std::fabs(u(rng)) / len(ft_old)) * ft_old;    // admissible at t
    ft_old = ft_old - demc::dot(ft_old, m.n) * m.n;                           // in the plane
    const auto a = kuhn::step(params(kuhn::ALL), m, ft_old);
    const auto c = kuhn::step(params(0u), m, ft_old);
    if (c.branch != kuhn::BRANCH_STICK) continue;
    ++checked;
    EXPECT_EQ(a.branch, kuhn::BRANCH_STICK);
    expect_vec_near(a.ft, c.ft, 1e-15);
    expect_vec_near(a.force, c.force, 1e-15);
    EXPECT_NEAR(a.dWt, c.dWt, 1e-18);
    EXPECT_NEAR(a.dWt_rev, c.dWt_rev, 1e-18);
    EXPECT_NEAR(a.dWt_irrev, c.dWt_irrev, 1e-18);
    EXPECT_NEAR(c.dWt_irrev, 0.0, 1e-17);    // elastic: line 45's trapezoid is exact
  }
  EXPECT_GT(checked, 5000);
}

/* ------------------------------------------------------------------------------------------
   Slip onset (Eqs. 9-14, lines 22-27).
   ------------------------------------------------------------------------------------------ */

/* Over random cases the kernel's alpha_s must put the elastic force on the cone,
   |f0 + alpha_s kt dxi| = mu (fn0 + alpha_s kn dzeta) to 1e-12 relative, be the FIRST exit
   (g >= 0 before it, g' <= 0 at it). Cases are sorted by which printed branch of lines 25-27
   they exercise: C ~ 0 (f0 on the cone), A ~ 0 (mu kn |dzeta| = kt |dxi|), both, and the
   general Eq. 10 with A < 0 and A > 0. */
TEST(KuhnOnset, OnsetIsOnTheConeForEveryPrintedBranch)
{
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  enum { C0, A0, A0C0, AN, AP, NCAT };
  int count[NCAT] = {0, 0, 0, 0, 0};
  double worst = 0.0;
  for (int i = 0; i < 200000; ++i) {
    const int kind = i % 4;    // 0 general, 1 on the cone, 2 A = 0, 3 both
    const double zeta_old = 0.001 + 0.003 * u(rng);
    const double fn0 = KN * zeta_old, R0 = MU * fn0;
    const double phi = 2 * PI * u(rng), psi = 2 * PI * u(rng);
    const double radius = (kind == 1 || kind == 3) ? R0 : R0 * std::sqrt(u(rng));
    const Vec3 f0 = {radius * std::cos(phi), radius * std::sin(phi), 0.0};
    const double dxi_len = (3.0 * R0 / KT) * u(rng) * u(rng);
    const Vec3 dxi = {dxi_len * std::cos(psi), dxi_len * std::sin(psi), 0.0};
    double dzeta = zeta_old * (2.0 * u(rng) - 0.9);    // fn may fall to 10 %
    if (kind >= 2) {
      dzeta = (u(rng) < 0.5 ? -1.0 : 1.0) * KT * dxi_len / (MU * KN);
      if (zeta_old + dzeta <= 0.05 * zeta_old) continue;
    }
    const auto r =
        kuhn::step(params(), planar(zeta_old, zeta_old + dzeta, {dxi.x, dxi.y, -dzeta}), f0);
    if (r.branch != kuhn::BRANCH_SLIP) continue;
    const double a = r.alpha_s;
    const double fn_s = fn0 + a * KN * dzeta;
    const double residual = std::fabs(len(f0 + (a * KT) * dxi) - MU * fn_s) / (MU * fn_s);
    worst = std::max(worst, residual);
    EXPECT_LE(residual, 1e-12) << "kind " << kind;
    // first exit: inside before alpha_s, leaving at alpha_s
    const double scale2 = R0 * R0 + KT * KT * dxi_len * dxi_len;
    for (int k = 0; k < 50; ++k)
      EXPECT_GE(g_elastic(f0, fn0, dxi, dzeta, a * k / 50.0), -1e-12 * scale2);
    const double A = std::pow(MU * KN * dzeta, 2) - std::pow(KT * dxi_len, 2);
    const double B = MU * MU * KN * fn0 * dzeta - KT * demc::dot(f0, dxi);
    const double C = R0 * R0 - demc::dot(f0, f0);
    EXPECT_LE(A * a + B, 1e-12 * scale2);
    const bool c0 = std::fabs(C) < 1e-12 * scale2, a0 = std::fabs(A) < 1e-12 * scale2;
    ++count[c0 && a0 ? A0C0 : c0 ? C0 : a0 ? A0 : A < 0 ? AN : AP];
  }
  std::printf("[ measured ] onset: worst |f_s|/(mu fn_s) - 1 = %.3g; cases C~0 %d, A~0 %d, both "
              "%d, A<0 %d, A>0 %d\n",
              worst, count[C0], count[A0], count[A0C0], count[AN], count[AP]);
  for (int k = 0; k < NCAT; ++k) EXPECT_GT(count[k], 1000) << "category " << k;
}

/* Lines 25-27 as printed: the second if/else always runs, so line 25 is overwritten; for a
   contact resting one rounding beyond the cone with no movement (A = B = C-ish = 0, as after
   carrying a force that sits on the cone), line 25's test |C| < eps (mu kn dzeta)^2 = 0 fails,
   line 26's too, and line 27 divides 0 by 0. The kernel starts the slip at once and keeps the
   force on the cone. */
TEST(KuhnOnset, LiteralPrintedReadingFailsWhereKernelIsRight)
{
  const Vec3 f0 = {1.0 + 4.5e-16, 0.0, 0.0};    // |f0| just above mu fn = 1
  const double A = 0.0, B = 0.0, C = 1.0 - demc::dot(f0, f0);
  ASSERT_LT(C, 0.0);
  EXPECT_TRUE(std::isnan(printed_alpha_s_literal(A, B, C, 1e-12, 0.0)));
  const auto r = kuhn::step(params(), planar(0.002, 0.002, ZERO), f0);
  EXPECT_EQ(r.branch, kuhn::BRANCH_SLIP);
  EXPECT_EQ(r.alpha_s, 0.0);
  EXPECT_TRUE(all_finite(r));
  EXPECT_NEAR(len(r.ft), 1.0, 1e-15);
  EXPECT_EQ(angle_between(r.ft, f0), 0.0);
}

/* Lines 25-27 read as if / else-if, with line 25's max(0, -2B/A): wrong under strong normal
   unloading (B < 0 < A). f0 = (0.6, 0.8) on the cone R = 1, kt dxi = (0.4, 0), mu kn dzeta = -0.6:
   A = 0.2, B = -0.6 - 0.24 = -0.84, C = 0: the rule gives -2B/A = 8.4 (clamped: elastic all
   step), but the elastic force is outside the shrinking cone at once (oracle: g < 0 just after
   alpha = 0), so slip starts at 0, as the kernel says. The kernel's final force is then the
   closed form with tan(theta0/2) = 0.8/1.6, E = 0.4 / (0.5 logmean(2, 0.8)) = (2/3) ln 2.5. */
TEST(KuhnOnset, LineTwentyFiveMaxRuleWrongUnderStrongUnloading)
{
  const Vec3 f0 = {0.6, 0.8, 0.0}, dxi = {0.0005, 0.0, 0.0};
  const double dzeta = -0.0012, fn0 = 2.0;
  EXPECT_GT(printed_alpha_s_chain(0.2, -0.84, 0.0, 1e-12, -0.6), 1.0);
  EXPECT_LT(g_elastic(f0, fn0, dxi, dzeta, 1e-6), 0.0);
  const auto r = kuhn::step(params(), planar(0.002, 0.0008, {0.0005, 0.0, 0.0012}), f0);
  EXPECT_EQ(r.alpha_s, 0.0);
  const double t1 = 0.5 * std::pow(2.5, -2.0 / 3.0), th1 = 2.0 * std::atan(t1);
  expect_vec_near(r.ft, 0.4 * Vec3{std::cos(th1), std::sin(th1), 0.0}, 1e-14);
  EXPECT_GE(r.dWt_irrev, 0.0);
}

/* ------------------------------------------------------------------------------------------
   Direction change during slip (Eqs. 16-21) against the brute-force return mapping.
   ------------------------------------------------------------------------------------------ */

namespace {
struct TurnCase {
  double theta0_deg;    // angle from the movement to the initial force (on the cone)
  double move;          // kt |dxi| / (mu fn0)
  double load;          // mu kn dzeta / (mu fn0) = kn dzeta / fn0
  double on_cone;       // |f0| / (mu fn0)
};

double kernel_vs_brute_force(const TurnCase &c, long N)
{
  const double zeta_old = 0.002, fn0 = KN * zeta_old, R0 = MU * fn0;
  const double th = c.theta0_deg * PI / 180.0;
  // movement along x, so m_perp = z x x = y and the force sits at angle theta0 from x
  const Vec3 f0 = (c.on_cone * R0) * Vec3{std::cos(th), std::sin(th), 0.0};
  const double dxi = c.move * R0 / KT, dzeta = c.load * fn0 / KN;
  const auto r = kuhn::step(params(), planar(zeta_old, zeta_old + dzeta, {dxi, 0.0, -dzeta}), f0);
  const Vec3 brute = return_mapping_extrapolated(f0, fn0, KN * dzeta, {KT * dxi, 0.0, 0.0}, MU, N);
  EXPECT_NEAR(len(r.ft), len(brute), 1e-6 * R0);
  return angle_between(r.ft, brute);
}
}    // namespace

// Fig. 4: force on the cone at -90 degrees to the movement, constant fn, |dxi| from tiny to
// five times mu fn / kt.
TEST(KuhnTurn, MatchesBruteForceOverFigure4Range)
{
  double worst = 0.0;
  for (double move : {1e-6, 1e-4, 1e-2, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 3.0, 5.0}) {
    const double err = kernel_vs_brute_force({-90.0, move, 0.0, 1.0}, 100000);
    worst = std::max(worst, err);
    EXPECT_LT(err, 1e-6) << "move " << move;
  }
  std::printf("[ measured ] turn, Fig. 4 range: worst direction error vs brute force %.3g rad\n",
              worst);
}

// With normal loading and unloading during the step, elastic-then-slip starts, and initial
// angles beyond 90 degrees (reachable while sliding only when the cone shrinks fast enough).
TEST(KuhnTurn, MatchesBruteForceWithNormalMovementAndWideAngles)
{
  const TurnCase cases[] = {
      {-90.0, 1.0, 0.5, 1.0},   {-90.0, 1.0, -0.5, 1.0}, {-45.0, 2.0, 1.0, 1.0},
      {30.0, 0.5, -0.7, 1.0},   {-90.0, 3.0, -0.8, 1.0}, {60.0, 4.0, 2.0, 1.0},
      {-90.0, 0.01, -0.3, 1.0}, {120.0, 1.0, -0.6, 1.0}, {-150.0, 0.5, -0.5, 1.0},
      {175.0, 0.3, -0.5, 1.0},  {100.0, 2.0, -0.5, 1.0}, {135.0, 3.0, 0.0, 1.0},
      {-170.0, 3.0, 0.3, 1.0},  {80.0, 2.0, 0.0, 0.5},   {-20.0, 1.5, -0.4, 0.3},
      {160.0, 2.5, -0.2, 0.9},  {-90.0, 5.0, 0.0, 0.0}};
  double worst = 0.0;
  for (const TurnCase &c : cases) {
    const double err = kernel_vs_brute_force(c, 100000);
    worst = std::max(worst, err);
    EXPECT_LT(err, 1e-6) << "theta0 " << c.theta0_deg << " move " << c.move << " load " << c.load;
  }
  std::printf("[ measured ] turn, loading/unloading/wide angles: worst direction error %.3g rad\n",
              worst);
}

/* A force 1e-9 rad short of opposite to the movement, sliding from the start because the cone
   shrinks from mu fn = 1 to 0.001 (unloading 0.999 > kt |dxi| = 0.9). theta = pi is an unstable
   fixed point of Eq. 16, so the small deviation grows by exp(E): with the deviation
   d = pi - theta, tan(theta/2) = 1/tan(d/2) and Eq. 18 gives d1 = 2 atan(tan(d0/2) exp(E)),
   E = ln(1 + c2)/(c1 c2) with c1 = mu fn/(kt |dxi|) = 1/0.9, c2 = kn dzeta/fn = -0.999.
   The half-angle must be formed without the cancelling 1 + cos(theta) (which is 0 here). */
TEST(KuhnTurn, NearlyOppositeForceKeepsItsSmallAngle)
{
  const double d0 = 1e-9, c1 = 1.0 / 0.9, c2 = -0.999;
  const double E = std::log(1.0 + c2) / (c1 * c2);
  const double d1 = 2.0 * std::atan(std::tan(0.5 * d0) * std::exp(E));
  const Vec3 f0 = unit({-1.0, d0, 0.0});    // on the cone mu fn = 1, at angle pi - d0 from x
  const auto r = kuhn::step(params(), planar(0.002, 0.000002, {0.9 / KT, 0.0, 0.001998}), f0);
  EXPECT_EQ(r.alpha_s, 0.0);
  EXPECT_NEAR(r.ft.y, 0.001 * std::sin(d1), 1e-12 * 0.001 * std::sin(d1));
  EXPECT_NEAR(r.ft.x, -0.001 * std::cos(d1), 1e-15 * 0.001);
}

/* A sliding contact unloaded by a purely normal movement (found by fuzz_kuhn). Along a normal
   that is not a coordinate axis, du + dzeta n leaves a round-off dxi that may point along n;
   the turn built the force on it and the force came out along the normal (and the next step
   dissipated a negative amount). With no tangential movement the oracle is Fig. 1 itself: the
   force, on the cone at the start, shrinks radially onto the new cone mu kn zeta_new. */
TEST(KuhnTurn, PurelyNormalUnloadingShrinksTheForceRadially)
{
  const double s3 = 1.0 / std::sqrt(3.0);
  const Vec3 n = {-s3, -s3, -s3};
  const double zeta_old = 2.8696225523992185, zeta_new = 0.016832987991655474;
  const Vec3 du = {-1.6470588235294117, -1.6470588235294117, -1.6470588235294117};    // along n
  const Vec3 f0 = (MU * KN * zeta_old) * unit(demc::cross(n, {1.0, -2.0, 0.5}));      // on the cone
  const kuhn::Kinematics m = {zeta_new, zeta_old, n, n, du, 0.0, 1.0};
  for (unsigned flags : {unsigned(kuhn::ALL), unsigned(kuhn::ALL & ~kuhn::FRESH)}) {
    const kuhn::Result r = kuhn::step(params(flags), m, f0);
    ASSERT_EQ(r.branch, kuhn::BRANCH_SLIP);
    const Vec3 expected = (MU * KN * zeta_new / len(f0)) * f0;
    EXPECT_LE(std::fabs(demc::dot(r.ft, n)), 1e-12 * len(r.ft));
    EXPECT_LE(len(r.ft - expected), 1e-12 * len(expected));
    EXPECT_GE(r.dWt_irrev, 0.0);
  }
}

/* The same along the normal, loading, with a friction coefficient so small (5.2e-18) that the
   round-off dxi, times kt, reaches beyond the growing cone and the step takes the slip branch
   (found by fuzz_kuhn: with no sliding left after the round-off was removed, the force was
   scaled onto the larger cone, 3 times its size here, and gained stored energy without work:
   a negative dissipation of 20 % of that energy in the fuzzer's case). The slip removes the
   round-off along n from the movement (slip_movement()); in the tangent plane nothing moves
   (what is left is below 1e-8 of it: none). Oracles: the tangent-plane part of
   the force is the force at the start, as in the same step along the z axis, where dxi is
   exactly 0 and the step sticks; and no step dissipates a negative amount. */
TEST(KuhnTurn, PurelyNormalLoadingWithTinyFrictionKeepsTheForce)
{
  const double s3 = 1.0 / std::sqrt(3.0);
  const Vec3 n = {-s3, -s3, -s3};
  const kuhn::Params p{999913.0, 1999820.0, 5.2e-18, 0.0, 0.0, kuhn::ALL};
  const double zeta_old = 1.3594711812347, zeta_new = zeta_old + 2.85278957;
  const Vec3 du = {1.6470588235294117, 1.6470588235294117, 1.6470588235294117};    // along -n
  const Vec3 f0 = (p.mu * p.kn * zeta_old) * unit(demc::cross(n, {1.0, -2.0, 0.5}));
  const kuhn::Kinematics m = {zeta_new, zeta_old, n, n, du, 0.0, 1.0};
  const kuhn::Result r = kuhn::step(p, m, f0);
  ASSERT_EQ(r.branch, kuhn::BRANCH_SLIP);    // the round-off's doing: the case of the fix
  const Vec3 ft_plane = r.ft - demc::dot(r.ft, n) * n;
  EXPECT_LE(len(ft_plane - f0), 1e-12 * len(f0));
  EXPECT_GE(r.dWt_irrev, -1e-9 * r.Wt);
  const Vec3 f0_z = {len(f0), 0.0, 0.0}, du_z = {0.0, 0.0, -len(du)};
  const kuhn::Kinematics m_z = {zeta_new, zeta_old, EZ, EZ, du_z, 0.0, 1.0};
  const kuhn::Result r_z = kuhn::step(p, m_z, f0_z);
  EXPECT_EQ(r_z.branch, kuhn::BRANCH_STICK);
  EXPECT_NEAR(len(ft_plane), len(r_z.ft), 1e-12 * len(f0));
}

/* The third fuzz_kuhn finding: a purely normal movement along an oblique normal that unloads a
   contact of tiny friction (mu 2e-18) past the point where the path parts the surfaces (the
   caller's final overlap is positive: the fuzzer's normal had turned by half a turn). The
   movement's tangential part is round-off (1e-15, partly along n), yet kt times it reaches
   far beyond the cone, so the step slips. The onset and the elastic part before slip took the
   raw movement, whose part along n carried the force out of the tangent plane; the slide then
   did -3.7e-28 of work, a negative dissipation 56 times the stored energy. What the force comes
   out as depends on the round-off (1000 times the cone's elastic reach here), so the oracles
   are the properties the kernel claims for any input: the force in the tangent plane and
   inside the cone, and no negative dissipation beyond round-off of the stored energy. */
TEST(KuhnTurn, RoundOffMovementOfATinyFrictionContactDissipatesNothingNegative)
{
  const Vec3 n = {-0.57735026918962562, -0.57735026918962562, -0.57735026918962562};
  const kuhn::Params p{999913.20180829847, 1999818.4768851995, 1.951563910473908e-18, 0.0, 0.0,
                       kuhn::ALL};
  const Vec3 du = {-2.0, -2.0000000000000009, -1.9999999999999991};
  const Vec3 f0 = {-1.320679122472125e-12, 4.2358792737402475e-12, -2.9152001512681208e-12};
  const kuhn::Kinematics m = {0.74349386911468229, 2.7206077470230712, n, -1.0 * n, du, 0.0, 1.0};
  const kuhn::Result r = kuhn::step(p, m, f0);
  ASSERT_EQ(r.branch, kuhn::BRANCH_SLIP);
  EXPECT_LE(std::fabs(demc::dot(r.ft, n)), 1e-12 * len(r.ft));
  EXPECT_LE(len(r.ft), p.mu * r.fn * (1.0 + 1e-12));
  const double stored = std::max(demc::dot(f0, f0), demc::dot(r.ft, r.ft)) / (2.0 * p.kt);
  EXPECT_GE(r.dWt_irrev, -1e-9 * stored);
}

/* A small genuine tangential movement (1e-7 of the normal one) under strong unloading: its
   round-off leans out of the tangent plane by about 1e-10 rad, which must not count as no
   movement (an earlier version of the fix above did, and fuzz_kuhn found the step dissipating a
   negative amount). Oracle: the same step in a frame where the normal is the z axis, where dxi
   carries no round-off, turned rigidly onto the oblique normal. */
TEST(KuhnTurn, SmallTangentialMovementUnderStrongUnloadingIsRotationInvariant)
{
  const double zeta_old = 1.7194325629980103, zeta_new = 1.1333570034095524;
  const double R0 = MU * KN * zeta_old;
  const Vec3 ft_z = {0.6 * R0, -0.8 * R0, 0.0};    // on the cone, normal EZ
  const Vec3 du_z = {4e-8 * zeta_old, 2e-8 * zeta_old, zeta_old - zeta_new};
  const Vec3 n1 = unit({1.0, 1.0, 1.0});
  const Vec3 axis = unit(demc::cross(EZ, n1));
  const double angle = std::acos(demc::dot(EZ, n1));
  auto turn = [&](const Vec3 &v) {
    return demc::rotate_about(v, axis, angle);
  };
  const kuhn::Kinematics m_z = {zeta_new, zeta_old, EZ, EZ, du_z, 0.0, 1.0};
  const kuhn::Kinematics m_1 = {zeta_new, zeta_old, n1, n1, turn(du_z), 0.0, 1.0};
  const kuhn::Result r_z = kuhn::step(params(), m_z, ft_z);
  const kuhn::Result r_1 = kuhn::step(params(), m_1, turn(ft_z));
  ASSERT_EQ(r_z.branch, kuhn::BRANCH_SLIP);
  ASSERT_EQ(r_1.branch, kuhn::BRANCH_SLIP);
  EXPECT_LE(len(r_1.ft - turn(r_z.ft)), 1e-8 * len(r_z.ft));
  EXPECT_NEAR(r_1.dWt_irrev, r_z.dWt_irrev, 1e-8 * std::fabs(r_z.dWt_irrev));
  EXPECT_GT(r_z.dWt_irrev, 0.0);
}

// The brute force itself: doubling its sub-steps changes the extrapolated answer by far less
// than the 1e-6 rad the tests allow (on the hardest case, |dxi| = 5 mu fn / kt).
TEST(KuhnTurn, BruteForceOracleIsConverged)
{
  const double fn0 = 2.0, R0 = 1.0;
  const Vec3 f0 = {0.0, -R0, 0.0}, dF = {5.0 * R0, 0.0, 0.0};
  const Vec3 a = return_mapping_extrapolated(f0, fn0, 0.0, dF, MU, 100000);
  const Vec3 b = return_mapping_extrapolated(f0, fn0, 0.0, dF, MU, 200000);
  const Vec3 raw = return_mapping(f0, fn0, 0.0, dF, MU, 100000);
  EXPECT_LT(angle_between(a, b), 1e-8);
  std::printf(
      "[ measured ] brute force: raw 1e5-step error %.3g rad, extrapolated change %.3g rad\n",
      angle_between(raw, b), angle_between(a, b));
}

/* Eq. 18's decay factor exp(-E), E = kt |dxi| ln(fn_end / fn_s) / (mu (fn_end - fn_s)), in both
   of the kernel's forms (the series in s = (fn_end - fn_s) / (fn_end + fn_s) for forces within a
   factor of 2, the logarithm of the force ratio beyond; x = fn_end / fn_s - 1), against the same
   formula in long double with log1pl. E carries a few rounding errors (relative), which
   exp(-E) turns into E times as much in the factor: hence the bound 2e-15 (1 + E). */
TEST(KuhnTurn, DecayFactorMatchesExtendedPrecision)
{
  double worst = 0.0;
  const double fn_s = 3.0, mu = 0.4;
  for (double x :
       {1e-7, -3e-5,   9e-5,   -2e-4, 4e-3,   -9.9e-3, 1.01e-2, -1.2e-2, 0.1, -0.4999,
        -0.5, -0.5001, 0.9999, 1.0,   1.0001, 2.0,     -0.999,  40.0,    1e6, -1.0 + 1e-9}) {
    for (double E_unit : {1e-6, 0.1, 1.0, 5.0, 20.0}) {
      const double fn_end = fn_s * (1.0 + x);
      const double kt_len = E_unit * mu * fn_s;    // E = E_unit ln(1 + x) / x
      const long double xl = ((long double) fn_end - fn_s) / fn_s;
      const long double E = (long double) kt_len * log1pl(xl) / ((long double) mu * fn_s * xl);
      const double exact = (double) expl(-E);
      const double got = kuhn::detail::slide_decay(fn_s, fn_end, kt_len, mu);
      const double rel = std::fabs(got - exact) / exact;
      worst = std::max(worst, rel);
      EXPECT_LT(rel, 2e-15 * (1.0 + (double) E)) << "x " << x << " E " << (double) E;
    }
  }
  // an infinite exponent (the normal force reaches zero, or no friction) stops the turn
  EXPECT_EQ(kuhn::detail::slide_decay(fn_s, 0.0, 1.0, mu), 0.0);
  EXPECT_EQ(kuhn::detail::slide_decay(fn_s, 1.0, 1.0, 0.0), 0.0);
  std::printf("[ measured ] turn decay factor: worst relative error %.3g\n", worst);
}

/* The decay's inline exp(-E) and logarithm (kernel_common.h) against long double over their
   whole range: E in [0, 745] (beyond 700 the library), ln q for q from 1e-300 to 1e300
   outside [1/2, 2] (inside, the kernel uses the series, checked above). A few rounding errors
   each: bound 1e-15 relative. */
TEST(KuhnTurn, InlineExpAndLogMatchExtendedPrecision)
{
  std::mt19937_64 rng(20261125);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  double worst_exp = 0.0, worst_log = 0.0;
  for (int k = 0; k < 200000; k++) {
    const double E = (k % 2) ? 745.0 * uniform(rng) : std::exp(-40.0 + 46.6 * uniform(rng));
    const double exact = (double) expl(-(long double) E);
    worst_exp = std::max(worst_exp, std::fabs(demc::exp_neg(E) - exact) / exact);
    const double q =
        std::exp((k % 2 ? 1.0 : -1.0) * (0.6932 + 690.0 * uniform(rng) * uniform(rng)));
    const double log_exact = (double) logl((long double) q);
    worst_log = std::max(worst_log,
                         std::fabs(demc::log_far_from_one(q) - log_exact) / std::fabs(log_exact));
  }
  EXPECT_LT(worst_exp, 1e-15);
  EXPECT_LT(worst_log, 1e-15);
  EXPECT_EQ(demc::exp_neg(0.0), 1.0);
  EXPECT_EQ(demc::exp_neg(std::numeric_limits<double>::infinity()), 0.0);
  EXPECT_DOUBLE_EQ(demc::atanh_ratio(0.0), 2.0);
  std::printf("[ measured ] inline exp(-E): worst relative error %.3g; ln q: %.3g\n", worst_exp,
              worst_log);
}

// The conventional add-then-scale misses the turn for large movements (Fig. 4): with
// kt |dxi| = mu fn it is off by 0.08 rad, so the brute-force comparison above can fail.
TEST(KuhnTurn, AddThenScaleDiffersFromBruteForce)
{
  const double fn0 = 2.0, R0 = 1.0;
  const Vec3 f0 = {0.0, -R0, 0.0}, dF = {1.0, 0.0, 0.0};
  const auto r =
      kuhn::step(params(kuhn::ALL & ~kuhn::TURN), planar(0.002, 0.002, {1.0 / KT, 0.0, 0.0}), f0);
  const Vec3 brute = return_mapping_extrapolated(f0, fn0, 0.0, dF, MU, 100000);
  EXPECT_GT(angle_between(r.ft, brute), 0.05);
}

/* ------------------------------------------------------------------------------------------
   Work (lines 18, 28, 45, 51-53).
   ------------------------------------------------------------------------------------------ */

namespace {
/* Drives one contact (normal z) along a closed random path of tangential positions and
   overlaps, consistent: zeta_new = zeta_old + dzeta. Returns the total dissipation and the
   most negative single-step dissipation relative to its step's work scale. */
struct CycleStats {
  double total_irrev, worst_step, total_work, energy_change;
};
CycleStats closed_cycle(std::mt19937_64 &rng, bool vary_load)
{
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const double z0 = 0.002, R0 = MU * KN * z0, reach = 3.0 * R0 / KT;
  std::vector<Vec3> corners;    // (x, y, zeta)
  corners.push_back({0.0, 0.0, z0});
  for (int k = 0; k < 6; ++k)
    corners.push_back({reach * u(rng), reach * u(rng), vary_load ? z0 * (1.0 + 0.7 * u(rng)) : z0});
  corners.push_back(corners.front());
  Vec3 ft = ZERO;
  CycleStats s{0.0, 0.0, 0.0, 0.0};
  for (size_t k = 0; k + 1 < corners.size(); ++k) {
    const Vec3 a = corners[k], b = corners[k + 1];
    const int steps = 1 + int(40 * (1.0 + u(rng)));
    for (int i = 0; i < steps; ++i) {
      const Vec3 p0 = a + (double(i) / steps) * (b - a), p1 = a + (double(i + 1) / steps) * (b - a);
      const auto r =
          kuhn::step(params(), planar(p0.z, p1.z, {p1.x - p0.x, p1.y - p0.y, -(p1.z - p0.z)}), ft);
      const double scale =
          (len(ft) + len(r.ft)) * len(p1 - p0) + (demc::dot(ft, ft) + demc::dot(r.ft, r.ft)) / KT;
      s.worst_step = std::min(s.worst_step, r.dWt_irrev / scale);
      s.total_irrev += r.dWt_irrev;
      s.total_work += r.dWt;
      s.energy_change += r.dWt_rev;
      ft = r.ft;
    }
  }
  return s;
}
}    // namespace

TEST(KuhnWork, ClosedCyclesDissipateAtConstantAndVaryingLoad)
{
  std::mt19937_64 rng(5);
  double worst = 0.0;
  for (bool vary : {false, true}) {
    for (int c = 0; c < 300; ++c) {
      const CycleStats s = closed_cycle(rng, vary);
      EXPECT_GE(s.total_irrev, 0.0);
      EXPECT_GE(s.worst_step,
                -1e-13);    // line 45: never negative beyond round-off (proof at line 45)
      EXPECT_NEAR(s.total_work, s.total_irrev + s.energy_change, 1e-15);
      worst = std::min(worst, s.worst_step);
    }
  }
  std::printf("[ measured ] closed cycles: most negative single-step dissipation %.3g (relative)\n",
              worst);
}

/* A step of the random dissipation tests below: stored force f0 at overlap zeta_old (normal
   along z), tangential movement d at angle psi, normal closing dzeta, the caller's final overlap
   zeta_new. Its dissipation must not be negative beyond round-off of R0 d + R0^2 / KT (R0 =
   MU KN zeta_old); worst keeps the most negative relative value. */
kuhn::Result step_not_dissipating_negatively(unsigned flags, double zeta_old, double zeta_new,
                                             double d, double psi, double dzeta, const Vec3 &f0,
                                             double &worst)
{
  const auto r =
      kuhn::step(params(flags),
                 planar(zeta_old, zeta_new, {d * std::cos(psi), d * std::sin(psi), -dzeta}), f0);
  const double R0 = MU * KN * zeta_old, scale = R0 * d + R0 * R0 / KT;
  worst = std::min(worst, r.dWt_irrev / scale);
  EXPECT_GE(r.dWt_irrev, -1e-14 * scale);
  return r;
}

/* Line 45 in single steps, over random inputs that also break the consistency the proof at
   line 45 does not need: f^{n,t+dt} = kn zeta_new off Eq. 17's end value kn (zeta_old + dzeta)
   by up to 90 % (a caller's overlap from positions, dzeta from velocities), and forces that
   start up to 50 % outside the cone. With ELASTIC_SLIP on the dissipation is never negative
   beyond round-off, whatever the other refinements. */
TEST(KuhnWork, SingleStepDissipationNonNegativeWithElasticSlip)
{
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  double worst = 0.0;
  int sliding = 0;
  for (unsigned flags : {unsigned(kuhn::ALL), kuhn::ALL & ~kuhn::TURN, kuhn::ALL & ~kuhn::FRESH}) {
    for (int i = 0; i < 200000; ++i) {
      const double zeta_old = 0.002, R0 = MU * KN * zeta_old;
      const double phi = 2 * PI * u(rng), psi = 2 * PI * u(rng);
      const double rad =
          R0 * (i % 2 ? 1.0 : std::sqrt(u(rng))) * (i % 3 ? 1.0 : 1.0 + 0.5 * u(rng));
      const Vec3 f0 = rad * Vec3{std::cos(phi), std::sin(phi), 0.0};
      const double d = 5.0 * R0 / KT * u(rng) * u(rng), dzeta = zeta_old * (3.0 * u(rng) - 0.99);
      const double mismatch = (i % 4 ? 0.9 * (zeta_old + dzeta) * (2.0 * u(rng) - 1.0) : 0.0);
      const auto r = step_not_dissipating_negatively(flags, zeta_old, zeta_old + dzeta + mismatch,
                                                     d, psi, dzeta, f0, worst);
      if (r.branch == kuhn::BRANCH_SLIP) ++sliding;
    }
  }
  EXPECT_GT(sliding, 100000);
  std::printf(
      "[ measured ] single steps with ELASTIC_SLIP: most negative dissipation %.3g (relative)\n",
      worst);
}

/* A slide whose path (Eq. 17) parts the surfaces before the step ends, while the caller's final
   overlap says they touch (a normal that turns by nearly half a turn within the step; found by
   fuzz_kuhn). Continued through the opening, the trapezoid took the start force over the whole
   movement: with the force 120 degrees from the movement it dissipated a negative amount. The
   slide ends with the cone at zero force, and the movement after that loads the spring afresh.
   Hand-worked case (kn = kt = mu = 1, fn 1 -> path end -1, so the path opens half-way; caller's
   final overlap 0.01): the slide starts at once (B = -2 + 1.95 < 0 on the cone), its first half
   does 1/2 (1.95 (-1/2)) = -0.4875 of work, the second loads 1.95 afresh, capped at 0.01 along
   the movement: +0.00975. Dissipation: -0.47775 + (1 - 0.0001) / 2 = 0.0222; before, the
   trapezoid over the whole movement gave 1/2 3.9 (-0.5 + 0.01) + 0.49995 = -0.45555. Then the
   same over random such steps: never negative. */
TEST(KuhnWork, SlideThroughAPathThatPartsTheSurfacesDissipates)
{
  const kuhn::Params unit_law{1.0, 1.0, 1.0, 0.0, 0.0, kuhn::ALL};
  const Vec3 f0 = {-0.5, std::sqrt(3.0) / 2.0, 0.0};
  const auto r = kuhn::step(unit_law, planar(1.0, 0.01, {3.9, 0.0, 2.0}), f0);
  ASSERT_EQ(r.branch, kuhn::BRANCH_SLIP);
  EXPECT_LT(r.alpha_s, 1e-14);    // 0 but for f0's rounding off the cone
  expect_vec_near(r.ft, {0.01, 0.0, 0.0}, 1e-15);
  EXPECT_NEAR(r.dWt, -0.47775, 1e-14);
  EXPECT_NEAR(r.dWt_irrev, 0.0222, 1e-14);

  std::mt19937_64 rng(21);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  double worst = 0.0;
  int opened = 0;
  for (unsigned flags : {unsigned(kuhn::ALL), kuhn::ALL & ~kuhn::FRESH}) {
    for (int i = 0; i < 100000; ++i) {
      const double zeta_old = 0.002, R0 = MU * KN * zeta_old;
      const double phi = 2 * PI * u(rng), psi = 2 * PI * u(rng);
      const Vec3 f0 =
          (R0 * (i % 2 ? 1.0 : std::sqrt(u(rng)))) * Vec3{std::cos(phi), std::sin(phi), 0.0};
      const double d = 5.0 * R0 / KT * u(rng), dzeta = -zeta_old * (1.0 + 2.0 * u(rng));
      const auto r = step_not_dissipating_negatively(flags, zeta_old, zeta_old * u(rng) + 1e-12, d,
                                                     psi, dzeta, f0, worst);
      if (r.branch == kuhn::BRANCH_SLIP) ++opened;
      EXPECT_LE(len(r.ft), MU * r.fn * (1.0 + 1e-12));
    }
  }
  EXPECT_GT(opened, 100000);
  std::printf("[ measured ] slides whose path parts the surfaces: most negative dissipation %.3g "
              "(relative)\n",
              worst);
}

/* Without ELASTIC_SLIP slip is forced from alpha = 0, and line 45 can dissipate negatively.
   TURN off (add-then-scale, F = f0 + kt dxi, u = F/|F|): the dissipation is exactly
   (|F| - R)(R + u.f0)/(2 kt) (expand kt dxi = F - f0 in 1/2 dxi.(f0 + R u) - (R^2 - |f0|^2)/(2kt)),
   negative only when f0 reaches beyond -R along u, i.e. when the cone shrinks below |f0|.
   TURN on: a force exactly opposite to the movement stays opposite; f0 = (-1, 0) with
   kt dxi = (2.4, 0) at constant fn gives ft = (-1, 0) and 1/2 0.003 (-1 - 1) = -0.003, the
   Cauchy-Schwarz limit -1/2 |dxi| (|f0| + R) of any trapezoid; with ELASTIC_SLIP the same step
   unloads elastically first and dissipates +0.0005 (NearZeroCReversal). */
TEST(KuhnWork, ForcedSlipFromStartCanDissipateNegatively)
{
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  int negative = 0;
  for (int i = 0; i < 100000; ++i) {
    const double zeta_old = 0.002, R0 = MU * KN * zeta_old;
    const double phi = 2 * PI * u(rng);
    const Vec3 f0 = (R0 * std::sqrt(u(rng))) * Vec3{std::cos(phi), std::sin(phi), 0.0};
    const double d = 5.0 * R0 / KT * u(rng), dzeta = zeta_old * (1.5 * u(rng) - 0.95);
    const Vec3 dxi = {d, 0.0, 0.0};
    const auto r = kuhn::step(params(kuhn::ALL & ~kuhn::ELASTIC_SLIP & ~kuhn::TURN),
                              planar(zeta_old, zeta_old + dzeta, {d, 0.0, -dzeta}), f0);
    if (r.branch != kuhn::BRANCH_SLIP) continue;
    const Vec3 F = f0 + KT * dxi;
    const double R = MU * KN * (zeta_old + dzeta), uf0 = demc::dot(F, f0) / len(F);
    const double scale = R0 * d + R0 * R0 / KT;
    EXPECT_NEAR(r.dWt_irrev, (len(F) - R) * (R + uf0) / (2 * KT), 1e-14 * scale);
    EXPECT_GE(r.dWt_irrev, -(len(F) - R) * std::max(len(f0) - R, 0.0) / (2 * KT) - 1e-14 * scale);
    if (r.dWt_irrev < -1e-14 * scale) ++negative;
  }
  EXPECT_GT(negative, 100);
  const auto turned = kuhn::step(params(kuhn::ALL & ~kuhn::ELASTIC_SLIP),
                                 planar(0.002, 0.002, {0.003, 0.0, 0.0}), {-1.0, 0.0, 0.0});
  expect_vec_near(turned.ft, {-1.0, 0.0, 0.0}, 1e-15);
  EXPECT_NEAR(turned.dWt_irrev, -0.003, 1e-18);
}

/* Normal energy from the FINAL force (line 51 prints f^{n,t}). */
TEST(KuhnWork, NormalEnergyFromFinalForce)
{
  const auto r = kuhn::step(params(), planar(0.002, 0.003, {0.0, 0.0, -0.001}), ZERO);
  EXPECT_DOUBLE_EQ(r.Wn, 9.0 / 2000.0);
}

/* ------------------------------------------------------------------------------------------
   Rigid rotation of a loaded pair (Sec. 3's second example, Eqs. 22-23).
   ------------------------------------------------------------------------------------------ */

namespace {
struct RotationOutcome {
  double magnitude_error, direction_error;
};

/* 1000 increments to 90 degrees about the unit axis k. No relative movement is fed (du = 0),
   the normal turns rigidly from n0, and both particles spin by the increment. */
RotationOutcome rotate_loaded_pair(const Vec3 &k, const Vec3 &ft0, unsigned flags)
{
  const int N = 1000;
  const double total = PI / 2, inc = total / N, zeta = 0.002;
  const Vec3 n0 = EZ;
  Vec3 ft = ft0;
  for (int i = 1; i <= N; ++i) {
    kuhn::Motion m{};
    m.zeta_old = m.zeta_new = zeta;
    m.n_old = demc::rotate_about(n0, k, (i - 1) * inc);
    m.n = demc::rotate_about(n0, k, i * inc);
    m.dth_p = m.dth_q = inc * k;
    m.dt = 1e-3;
    ft = kuhn::step(params(flags), m, ft).ft;
  }
  const Vec3 exact = demc::rotate_about(ft0, k, total);
  return {std::fabs(len(ft) / len(ft0) - 1.0), angle_between(ft, exact)};
}
}    // namespace

/* Bound. About the normal (a) each step is the exact Rodrigues rotation by the increment;
   about a perpendicular axis (b) the smallest rotation n_old -> n is the increment itself and
   the twirl angle is 0: only round-off remains, a few ulp per step, < 1e-12 after 1000 steps.
   About an oblique axis (c), with c = k.n, the true rotation by phi splits into the smallest
   rotation n_old -> n (exact here) and a twist about n of 2 atan(c tan(phi/2))
   = c phi + c (1 - c^2) phi^3 / 12 + O(phi^5), while the kernel twirls by c phi (Eq. 23's
   angle). The force lags by c (1 - c^2) Phi^3 / (12 N^2) after N steps of a total Phi:
   1.243e-7 rad for c = 1/sqrt(3), Phi = pi/2, N = 1000. The measurement must equal that. */
TEST(KuhnRotation, RigidRotationCarriesTheForce)
{
  const Vec3 below = {0.6, -0.5, 0.0}, at_limit = {0.6, 0.8, 0.0};    // mu fn = 1
  const Vec3 oblique = unit({1.0, 1.0, 1.0});
  const double c = 1.0 / std::sqrt(3.0), Phi = PI / 2;
  const double lag = c * (1 - c * c) * Phi * Phi * Phi / (12.0 * 1000.0 * 1000.0);
  for (const Vec3 &ft0 : {below, at_limit}) {
    const RotationOutcome a = rotate_loaded_pair(EZ, ft0, kuhn::ALL);
    const RotationOutcome b = rotate_loaded_pair(EX, ft0, kuhn::ALL);
    const RotationOutcome o = rotate_loaded_pair(oblique, ft0, kuhn::ALL);
    for (const RotationOutcome &r : {a, b, o}) EXPECT_LT(r.magnitude_error, 1e-12);
    EXPECT_LT(a.direction_error, 1e-12);
    EXPECT_LT(b.direction_error, 1e-12);
    EXPECT_NEAR(o.direction_error, lag, 1e-3 * lag + 1e-12);
    std::printf(
        "[ measured ] rigid rotation |ft0| = %.2f: magnitude error %.2g %.2g %.2g, direction error"
        " normal %.2g, perpendicular %.2g, oblique %.5g (predicted %.5g) rad\n",
        len(ft0), a.magnitude_error, b.magnitude_error, o.magnitude_error, a.direction_error,
        b.direction_error, o.direction_error, lag);
  }
}

// Without the refinements the force is not carried: the test above can fail. Each
// refinement is needed for its own part of the rotation.
TEST(KuhnRotation, WithoutProjectAndTwirlTheForceIsLeftBehind)
{
  const Vec3 ft0 = {0.6, -0.5, 0.0};
  const Vec3 oblique = unit({1.0, 1.0, 1.0});
  const unsigned slip_only = kuhn::FRESH | kuhn::ELASTIC_SLIP | kuhn::TURN;
  EXPECT_GT(rotate_loaded_pair(EZ, ft0, slip_only).direction_error, 1.0);
  EXPECT_GT(rotate_loaded_pair(EX, ft0, slip_only).direction_error, 0.5);
  EXPECT_GT(rotate_loaded_pair(oblique, ft0, slip_only).direction_error, 0.5);
  EXPECT_GT(rotate_loaded_pair(EZ, ft0, slip_only | kuhn::PROJECT).direction_error,
            1.0);    // twirl needed
  EXPECT_GT(rotate_loaded_pair(EX, ft0, slip_only | kuhn::TWIRL).direction_error,
            0.5);    // projection needed
  EXPECT_GT(rotate_loaded_pair(oblique, ft0, slip_only | kuhn::PROJECT).direction_error, 0.1);
}

/* ------------------------------------------------------------------------------------------
   Damping and extreme inputs.
   ------------------------------------------------------------------------------------------ */

/* du = (0.0005, 0, -0.0001), dt = 1e-3, damp_n = 2, damp_t = 3: du.n = -0.0001, dxi = (0.0005,0,0).
   f_damp = 2 (-0.0001) z / 1e-3 + 3 (0.0005, 0, 0) / 1e-3 = (1.5, 0, -0.2).
   fn = 1000 0.0021 = 2.1; ft = (0.2 + 0.4, 0, 0) (inside mu fn = 1.05).
   force = -2.1 z + (0.6, 0, 0) + (1.5, 0, -0.2) = (2.1, 0, -2.3).
   dW_damp = f_damp . du = 1.5 0.0005 + 0.2 0.0001 = 7.7e-4. */
TEST(KuhnDamping, ForceAndWorkByHand)
{
  kuhn::Params p = params();
  p.damp_n = 2.0;
  p.damp_t = 3.0;
  const auto r = kuhn::step(p, planar(0.002, 0.0021, {0.0005, 0.0, -0.0001}), {0.2, 0.0, 0.0});
  EXPECT_DOUBLE_EQ(r.fn, 2.1);
  expect_vec_near(r.ft, {0.6, 0.0, 0.0}, 1e-15);
  expect_vec_near(r.f_damp, {1.5, 0.0, -0.2}, 1e-14);
  expect_vec_near(r.force, {2.1, 0.0, -2.3}, 1e-14);
  EXPECT_NEAR(r.dW_damp, 7.7e-4, 1e-17);
  // the dashpot acts beside the friction cap: a sliding contact keeps |ft| = mu fn
  const auto s = kuhn::step(p, planar(0.002, 0.002, {0.004, 0.0, 0.0}), {0.2, 0.0, 0.0});
  expect_vec_near(s.ft, {1.0, 0.0, 0.0}, 1e-15);
  expect_vec_near(s.force, {1.0 + 12.0, 0.0, -2.0}, 1e-13);
  EXPECT_NEAR(s.dW_damp, 3.0 * 0.004 * 0.004 / 1e-3, 1e-16);
  // apart: no dashpot
  const auto a = kuhn::step(p, planar(0.002, -0.001, {0.0005, 0.0, 0.003}), {0.2, 0.0, 0.0});
  expect_vec_near(a.force, ZERO, 0.0);
  EXPECT_EQ(a.dW_damp, 0.0);
}

/* The dashpots' limits on the cases above (kuhn::limit_dashpots()), by hand:
   - the first: ft = 0.6 plus the tangential dashpot 1.5 exceeds mu fn = 1.05; the sum is
     returned to 1.05 along x, so the dashpot as it acts is (0.45, 0, -0.2), the force
     (1.05, 0, -2.3), its work 0.45 0.0005 + 0.2 0.0001 = 2.45e-4; the law's ft and work split
     stay;
   - the slide: ft on the cone already, the dashpot adds nothing: force (1, 0, -2), no work;
   - limit_damping: q leaves p (du.n = +0.0005, fn = 1000 0.0015 = 1.5) with damp_n = 4, whose
     pull 4 0.0005 / 1e-3 = 2 exceeds fn: clamped to 1.5, the total normal force 0, its work
     1.5 0.0005 = 7.5e-4 (instead of 1e-3); the carried ft = (0.2, 0, 0) stays.
   With both limits off nothing changes. */
TEST(KuhnDamping, LimitsByHand)
{
  kuhn::Params p = params();
  p.damp_n = 2.0;
  p.damp_t = 3.0;
  const demc::DashpotLimits cap;    // damping_cap yes, no limit_damping
  const kuhn::Motion m1 = planar(0.002, 0.0021, {0.0005, 0.0, -0.0001});
  auto r = kuhn::step(p, m1, {0.2, 0.0, 0.0});
  const auto law = r;
  kuhn::limit_dashpots(cap, MU, kuhn::kinematics_of(m1), r);
  expect_vec_near(r.ft, law.ft, 0.0);
  EXPECT_EQ(r.dWt_irrev, law.dWt_irrev);
  expect_vec_near(r.f_damp, {0.45, 0.0, -0.2}, 1e-14);
  expect_vec_near(r.force, {1.05, 0.0, -2.3}, 1e-14);
  EXPECT_NEAR(r.dW_damp, 2.45e-4, 1e-17);

  const kuhn::Motion m2 = planar(0.002, 0.002, {0.004, 0.0, 0.0});
  auto s = kuhn::step(p, m2, {0.2, 0.0, 0.0});
  kuhn::limit_dashpots(cap, MU, kuhn::kinematics_of(m2), s);
  expect_vec_near(s.ft, {1.0, 0.0, 0.0}, 1e-15);
  expect_vec_near(s.force, {1.0, 0.0, -2.0}, 1e-14);
  EXPECT_NEAR(s.dW_damp, 0.0, 1e-16);

  p.damp_n = 4.0;
  const kuhn::Motion m3 = planar(0.002, 0.0015, {0.0, 0.0, 0.0005});
  demc::DashpotLimits both;
  both.no_tension = true;
  auto u = kuhn::step(p, m3, {0.2, 0.0, 0.0});
  auto unlimited = u;
  kuhn::limit_dashpots(demc::DashpotLimits{false, false}, MU, kuhn::kinematics_of(m3), unlimited);
  expect_vec_near(unlimited.force, {0.2, 0.0, 0.5}, 1e-14);    // pulls: -1.5 + 2
  EXPECT_NEAR(unlimited.dW_damp, 1e-3, 1e-17);
  kuhn::limit_dashpots(both, MU, kuhn::kinematics_of(m3), u);
  expect_vec_near(u.force, {0.2, 0.0, 0.0}, 1e-15);
  EXPECT_NEAR(u.dW_damp, 7.5e-4, 1e-17);
}

TEST(KuhnExtremes, FiniteForTinyAndHugeMovements)
{
  const double sizes[] = {0.0, 1e-300, 1e-30, 1e-8, 1.0, 1e30, 1e100};
  const double mus[] = {0.0, 0.5};
  const double zetas_old[] = {-0.001, 0.0, 1e-300, 0.002};
  int n = 0;
  for (double dx : sizes)
    for (double dz : sizes)
      for (double sign : {-1.0, 1.0})
        for (double mu : mus)
          for (double zo : zetas_old)
            for (unsigned flags : {0u, unsigned(kuhn::ALL)}) {
              kuhn::Params p = params(flags);
              p.mu = mu;
              p.damp_n = 0.1;
              p.damp_t = 0.1;
              const Vec3 f0 = {0.0, mu * KN * std::max(zo, 0.0), 0.0};
              kuhn::Motion m = planar(zo, 0.002, {dx, 0.5 * dx, sign * dz});
              m.n_old = unit({0.01, 0.0, 1.0});
              m.dth_p = {0.0, 0.0, 1e-3};
              const auto r = kuhn::step(p, m, f0);
              ++n;
              EXPECT_TRUE(all_finite(r))
                  << "dx " << dx << " dz " << sign * dz << " mu " << mu << " zo " << zo;
              EXPECT_LE(len(r.ft), mu * r.fn * (1 + 1e-12) + 1e-300);
              EXPECT_GE(r.dW_damp, 0.0);
            }
  EXPECT_EQ(n, 7 * 7 * 2 * 2 * 4 * 2);
}
