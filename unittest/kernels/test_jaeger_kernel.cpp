/* dem-contact: unit tests of the Jäger contact kernel (src/kernels/jaeger_*.h).

   Oracles, all independent of the kernel's code:
   - closed forms (Hertz; Cattaneo–Mindlin; Mindlin–Deresiewicz unloading and
     reloading; the Fig. 8 oblique proportional loading), evaluated here with
     std::pow / expm1 / log1p;
   - a brute-force MDR spring bed (spring_bed.h) with its discretisation error
     measured by refining it.
   Numbers that a reader may want are printed with a "[ measure ]" prefix. */

#include "carried_energy_bound.h"
#include "jaeger_contact.h"
#include "jaeger_driver.h"
#include "spring_bed.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

using namespace demc::jaeger;
using springbed::SpringBed;

namespace {

// Glass-like spheres, radius 1 mm: E* = 37.3 GPa, G* = 32 GPa, kappa = 7/6.
const double kE = 70e9, kNu = 0.25, kRad = 1e-3, kMu = 0.3;
const double kZ = 1e-6;    // reference overlap (1 um)

Material glass()
{
  return make_material(kE, kNu, kRad, kE, kNu, kRad, kMu);
}

// Hertz force written independently of the kernel.
double hertz(const Material &m, double z)
{
  return 4.0 / 3.0 * m.Estar * std::sqrt(m.R) * std::pow(z, 1.5);
}

// 1 - (1 - x)^(3/2) without cancellation for small x.
double one_minus_pow15(double x)
{
  return -std::expm1(1.5 * std::log1p(-x));
}

double K_of(const Material &m)
{
  return m.mu * m.Estar / m.Gstar;
}

/* One contact: caller-owned storage, as a pair style would hold it. */
struct Contact {
  Material mat;
  std::vector<Point> buf;
  Stack st;
  double beta = 0.0;
  double prune = 0.0;
  demc::jaeger::PruneSpent spent = {0.0, 0.0};    // what the pruning rule has spent
  double stored = -1.0;                           // U_t carried from step to step, when >= 0
  double work = 0.0;
  long merges = 0;
  double z_prev = 0.0;    // the caller's previous overlap (negative when open)

  Contact(const Material &m, int capacity, double b = 0.0) :
      mat(m), buf(capacity), st{nullptr, 0, capacity}, beta(b)
  {
    st.pts = buf.data();
  }
  Contact(const Contact &o) :
      mat(o.mat), buf(o.buf), st(o.st), beta(o.beta), prune(o.prune), spent(o.spent),
      stored(o.stored), work(o.work), merges(o.merges), z_prev(o.z_prev)
  {
    st.pts = buf.data();
  }
  Contact &operator=(const Contact &) = delete;

  StepResult go(double z_new, double dx, double dy)
  {
    Vec2 ds = {dx, dy};
    if (st.n == 0) ds = fresh_contact_shift(z_prev, z_new, ds);
    const StepResult r = step(mat, st, z_new, ds, beta, true, stored, prune, &spent);
    if (stored >= 0.0) stored = r.stored;
    work += r.work;
    merges += r.merges;
    z_prev = z_new;
    return r;
  }
  Vec2 T() const { return force_of(top_point(st)); }
  double U() const { return stored_energy(mat, st); }
};

double dist(const Vec2 &a, double bx, double by)
{
  return std::hypot(a.x - bx, a.y - by);
}

/* A movement of a random path: new overlap and tangential increment. */
struct Move {
  double z, dx, dy;
};

/* Random path with loading, unloading, reversals, elastic steps, full sliding
   and separation. collinear: ds along x only. Large steps on purpose. */
std::vector<Move> random_path(unsigned seed, int n, const Material &m, bool collinear,
                              double separation_rate)
{
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  const double K = K_of(m);
  std::vector<Move> path;
  double z = 0.0;
  for (int i = 0; i < n; ++i) {
    Move mv;
    if (z <= 0.0) {
      mv.z = kZ * (0.4 + 1.1 * U(rng));
    } else if (U(rng) < separation_rate) {
      mv.z = -0.3 * kZ * U(rng);
    } else {
      mv.z = std::min(2.0 * kZ, std::max(0.25 * kZ, z + kZ * (0.5 * U(rng) - 0.25)));
    }
    const double amp = K * kZ * (U(rng) < 0.5 ? 0.05 : 0.6);
    const double mag = amp * (2.0 * U(rng) - 1.0);
    const double ang = collinear ? 0.0 : 2.0 * M_PI * U(rng);
    mv.dx = mag * std::cos(ang);
    mv.dy = collinear ? 0.0 : mag * std::sin(ang);
    path.push_back(mv);
    z = mv.z;
  }
  return path;
}

}    // namespace

// ---------------------------------------------------------------- material, Hertz

TEST(JaegerMaterial, EffectivePropertiesOfIdenticalAndUnlikeSpheres)
{
  const Material m = glass();
  // Identical spheres: E* = E / (2 (1 - nu^2)), G* = 2 G / (2 - nu), kappa = (2 - nu) / (2 (1 - nu)).
  const double G = kE / (2.0 * (1.0 + kNu));
  EXPECT_NEAR(m.Estar, kE / (2.0 * (1.0 - kNu * kNu)), 1e-15 * m.Estar);
  EXPECT_NEAR(m.Gstar, 2.0 * G / (2.0 - kNu), 1e-15 * m.Gstar);
  EXPECT_NEAR(kappa(m), (2.0 - kNu) / (2.0 * (1.0 - kNu)), 1e-15);
  EXPECT_DOUBLE_EQ(m.R, 0.5 * kRad);
  EXPECT_DOUBLE_EQ(cone_slope(m), kMu * kappa(m));
  // Unlike spheres: steel (210 GPa, 0.3, 2 mm) on glass (70 GPa, 0.25, 1 mm).
  const Material u = make_material(210e9, 0.3, 2e-3, 70e9, 0.25, 1e-3, 0.5);
  const double Gs = 210e9 / 2.6, Gg = 70e9 / 2.5;
  EXPECT_NEAR(u.Estar, 1.0 / (0.91 / 210e9 + 0.9375 / 70e9), 1e-15 * u.Estar);
  EXPECT_NEAR(u.Gstar, 1.0 / (1.7 / (4.0 * Gs) + 1.75 / (4.0 * Gg)), 1e-15 * u.Gstar);
  EXPECT_NEAR(u.R, 2e-3 / 3.0, 1e-18);
}

TEST(JaegerHertz, ForceStiffnessAndEnergyAgreeWithTheirDefinitions)
{
  const Material m = glass();
  for (double z : {1e-9, 3e-7, 1e-6, 4.5e-6}) {
    EXPECT_NEAR(hertz_force(m, z), hertz(m, z), 1e-15 * hertz(m, z));
    // Central differences with h = 1e-5 z: truncation (h/z)^2 / 24 ~ 4e-12, rounding ~ 1e-11.
    const double h = 1e-5 * z;
    const double dP = (hertz_force(m, z + h) - hertz_force(m, z - h)) / (2.0 * h);
    EXPECT_NEAR(normal_stiffness(m, z), dP, 1e-9 * dP);
    EXPECT_NEAR(normal_stiffness(m, z), 2.0 * m.Estar * std::sqrt(m.R * z), 1e-15 * dP);
    const double dW = (normal_energy(m, z + h) - normal_energy(m, z - h)) / (2.0 * h);
    EXPECT_NEAR(dW, hertz_force(m, z), 1e-9 * hertz_force(m, z));
  }
  EXPECT_EQ(hertz_force(m, 0.0), 0.0);
  EXPECT_EQ(hertz_force(m, -1e-6), 0.0);
  EXPECT_EQ(normal_energy(m, -1e-6), 0.0);
}

TEST(JaegerHertz, ExcessIntegralMatchesQuadratureAndTaylorSeries)
{
  const Material m = glass();
  const double c = m.Estar * std::sqrt(m.R);
  // Large intervals: 20-point Gauss-Legendre of a smooth integrand (exact to rounding).
  const double xg[10] = {0.0765265211334973, 0.2277858511416451, 0.3737060887154195,
                         0.5108670019508271, 0.6360536807265150, 0.7463319064601508,
                         0.8391169718222188, 0.9122344282513259, 0.9639719272779138,
                         0.9931285991850949};
  const double wg[10] = {0.1527533871307258, 0.1491729864726037, 0.1420961093183820,
                         0.1316886384491766, 0.1181945319615184, 0.1019301198172404,
                         0.0832767415767048, 0.0626720483341091, 0.0406014298003869,
                         0.0176140071391521};
  // In q = sqrt(zeta) the integrand 2 q (P(q^2) - P(z0)) is a polynomial of degree 4: exact.
  for (auto zz :
       {std::pair<double, double>{1e-6, 2e-6}, {2e-6, 0.5e-6}, {0.3e-6, 0.31e-6}, {1e-6, 0.0}}) {
    const double z0 = zz.first, z1 = zz.second;
    const double q0 = std::sqrt(z0), q1 = std::sqrt(z1), hm = 0.5 * (q1 - q0),
                 mid = 0.5 * (q1 + q0);
    double q = 0.0;
    for (int i = 0; i < 10; ++i)
      for (double sgn : {-1.0, 1.0}) {
        const double qq = mid + sgn * hm * xg[i];
        q += wg[i] * 2.0 * qq * (hertz(m, qq * qq) - hertz(m, z0));
      }
    q *= hm;
    EXPECT_NEAR(hertz_excess_integral(m, z0, z1), q, 1e-12 * std::fabs(q));
  }
  // Tiny intervals, either direction: P'(z0) dz^2/2 + P''(z0) dz^3/6 + P'''(z0) dz^4/24 + ...
  for (double dz_wanted : {1e-9 * kZ, -1e-9 * kZ, 1e-13 * kZ}) {
    const double z0 = kZ, dz = (z0 + dz_wanted) - z0;    // the increment the kernel really sees
    const double d1 = 2.0 * c * std::sqrt(z0), d2 = c / std::sqrt(z0),
                 d3 = -0.5 * c / (z0 * std::sqrt(z0));
    const double series =
        d1 * dz * dz / 2.0 + d2 * dz * dz * dz / 6.0 + d3 * dz * dz * dz * dz / 24.0;
    EXPECT_NEAR(hertz_excess_integral(m, z0, z0 + dz), series, 1e-13 * std::fabs(series));
  }
}

// ---------------------------------------------------------------- closed forms at constant P

TEST(JaegerClosedForm, CattaneoMindlinLoadingInOneStep)
{
  const Material m = glass();
  const double z = kZ, P = hertz(m, z), smax = K_of(m) * z;
  for (double x : {0.01, 0.3, 0.6, 0.9, 0.999}) {
    for (double ang : {0.0, 2.0}) {
      Contact c(m, 8);
      c.go(z, 0.0, 0.0);
      const StepResult r = c.go(z, x * smax * std::cos(ang), x * smax * std::sin(ang));
      const double T = m.mu * P * one_minus_pow15(x);
      EXPECT_EQ(r.kind, STEP_SLIP);
      EXPECT_LE(dist(r.T, T * std::cos(ang), T * std::sin(ang)), 1e-12 * T) << "x = " << x;
      EXPECT_NEAR(r.P, P, 1e-15 * P);
    }
  }
  // Beyond s_max: full sliding, T = mu P exactly.
  Contact c(m, 8);
  c.go(z, 0.0, 0.0);
  const StepResult r = c.go(z, 1.5 * smax, 0.0);
  EXPECT_EQ(r.kind, STEP_SLIDING);
  EXPECT_NEAR(r.T.x, m.mu * P, 1e-15 * m.mu * P);
  EXPECT_EQ(r.T.y, 0.0);
}

TEST(JaegerClosedForm, CattaneoMindlinLoadingInManySmallSteps)
{
  const Material m = glass();
  const double z = kZ, P = hertz(m, z), smax = K_of(m) * z;
  Contact c(m, 16);
  c.go(z, 0.0, 0.0);
  const int n = 2000;
  double worst = 0.0;
  for (int i = 1; i <= n; ++i) {
    const double x0 = 0.999 * (i - 1) / n, x1 = 0.999 * i / n;
    const StepResult r = c.go(z, (x1 - x0) * smax, 0.0);
    const double T = m.mu * P * one_minus_pow15(x1);
    worst = std::max(worst, dist(r.T, T, 0.0) / T);
    ASSERT_LE(dist(r.T, T, 0.0), 1e-12 * T) << "step " << i;
    ASSERT_LE(c.st.n, 2);    // one elastic segment (normal load) + the slip segment
  }
  std::printf("[ measure  ] CM loading, %d steps: max relative error %.2e\n", n, worst);
  for (int i = 0; i < 10; ++i) c.go(z, 0.01 * smax, 0.0);    // on into full sliding
  EXPECT_NEAR(c.T().x, m.mu * P, 1e-15 * m.mu * P);
  EXPECT_EQ(c.st.n, 1);
}

/* Mindlin–Deresiewicz: from (s1, T1) on the loading curve, unloading follows
   T = T1 - 2 mu P [1 - (1 - (s1 - s)/(2 s_max))^(3/2)], reloading from (s2, T2)
   T = T2 + 2 mu P [1 - (1 - (s - s2)/(2 s_max))^(3/2)] up to s1, and beyond s1
   the virgin curve again (the loop's memory is wiped out). */
double md_loading(const Material &m, double P, double smax, double s)
{
  return m.mu * P * one_minus_pow15(s / smax);
}
double md_unloading(const Material &m, double P, double smax, double s1, double s)
{
  return md_loading(m, P, smax, s1) - 2.0 * m.mu * P * one_minus_pow15((s1 - s) / (2.0 * smax));
}
double md_reloading(const Material &m, double P, double smax, double s1, double s2, double s)
{
  if (s >= s1) return md_loading(m, P, smax, s);
  return md_unloading(m, P, smax, s1, s2) +
      2.0 * m.mu * P * one_minus_pow15((s - s2) / (2.0 * smax));
}

TEST(JaegerClosedForm, MindlinDeresiewiczUnloadingAndReloadingInOneStep)
{
  const Material m = glass();
  const double z = kZ, P = hertz(m, z), smax = K_of(m) * z, s1 = 0.8 * smax;
  // The unloading branch crosses T = 0 near s = 0.134 s_max: test points stay clear of it.
  for (double s : {0.6, 0.3, -0.2, -0.6, -0.79}) {
    Contact c(m, 8);
    c.go(z, 0.0, 0.0);
    c.go(z, s1, 0.0);
    const StepResult r = c.go(z, s * smax - s1, 0.0);
    const double T = md_unloading(m, P, smax, s1, s * smax);
    EXPECT_LE(std::fabs(r.T.x - T), 1e-12 * std::fabs(T)) << "s = " << s;
  }
  const double s2 = -0.6 * smax;
  for (double s : {-0.3, 0.2, 0.5, 0.79, 0.85, 0.95}) {
    Contact c(m, 8);
    c.go(z, 0.0, 0.0);
    c.go(z, s1, 0.0);
    c.go(z, s2 - s1, 0.0);
    const StepResult r = c.go(z, s * smax - s2, 0.0);
    const double T = md_reloading(m, P, smax, s1, s2, s * smax);
    EXPECT_LE(std::fabs(r.T.x - T), 1e-12 * std::fabs(T)) << "s = " << s;
  }
}

TEST(JaegerClosedForm, MindlinDeresiewiczUnloadingAndReloadingInManySmallSteps)
{
  const Material m = glass();
  const double z = kZ, P = hertz(m, z), smax = K_of(m) * z, s1 = 0.8 * smax, s2 = -0.6 * smax;
  Contact c(m, 16);
  c.go(z, 0.0, 0.0);
  c.go(z, s1, 0.0);
  const int n = 1400;
  double worst = 0.0, worst_muP = 0.0, s = s1;
  auto check = [&](double T) {
    // Relative to |T|, except near the zero crossing of the unloading branch, where
    // a relative error is meaningless: there T is a difference of O(mu P) terms and
    // the rounding of ~650 cuts of the same segment adds up to ~1e-14 mu P. Below
    // |T| = 0.1 mu P the bound is 1e-12 of 0.1 mu P.
    const double scale = std::max(std::fabs(T), 0.1 * m.mu * P);
    worst = std::max(worst, std::fabs(c.T().x - T) / scale);
    worst_muP = std::max(worst_muP, std::fabs(c.T().x - T) / (m.mu * P));
    return std::fabs(c.T().x - T) <= 1e-12 * scale;
  };
  for (int i = 1; i <= n; ++i) {    // unload s1 -> s2
    const double s_new = s1 + (s2 - s1) * i / n;
    c.go(z, s_new - s, 0.0);
    s = s_new;
    ASSERT_TRUE(check(md_unloading(m, P, smax, s1, s))) << "unloading step " << i;
  }
  for (int i = 1; i <= n; ++i) {    // reload s2 -> 0.95 s_max, past s1
    const double s_new = s2 + (0.95 * smax - s2) * i / n;
    c.go(z, s_new - s, 0.0);
    s = s_new;
    ASSERT_TRUE(check(md_reloading(m, P, smax, s1, s2, s))) << "reloading step " << i;
  }
  EXPECT_LE(c.st.n, 2);    // past s1 the loop's history has been popped
  std::printf(
      "[ measure  ] MD unloading + reloading, 2 x %d steps: max error %.2e relative (as bounded), "
      "%.2e of mu P\n",
      n, worst, worst_muP);
}

/* Normal unloading at fixed tangential shift s1 (after Cattaneo loading at z1):
   the outer springs leave and the slip annulus is re-established, giving the
   Cattaneo curve of the new overlap, T = mu P(z2) [1 - (1 - s1/(K z2))^(3/2)],
   and full sliding mu P(z2) once s1 >= K z2. Normal reloading at fixed shift is
   elastic: T stays. */
TEST(JaegerClosedForm, NormalUnloadingAndReloadingAtFixedShift)
{
  const Material m = glass();
  const double K = K_of(m), z1 = 2.0 * kZ, s1 = 0.5 * K * z1;
  for (int nsteps : {1, 500}) {
    Contact c(m, 16);
    c.go(z1, 0.0, 0.0);
    c.go(z1, s1, 0.0);
    double zs[] = {1.8 * kZ, 1.2 * kZ, 1.01 * kZ, 0.7 * kZ};
    double z = z1;
    for (double z2 : zs) {
      for (int i = 1; i <= nsteps; ++i) c.go(z + (z2 - z) * i / nsteps, 0.0, 0.0);
      z = z2;
      const double P2 = hertz(m, z2);
      const double T = s1 < K * z2 ? m.mu * P2 * one_minus_pow15(s1 / (K * z2)) : m.mu * P2;
      EXPECT_LE(std::fabs(c.T().x - T), 1e-12 * T) << "z2 = " << z2 << ", steps " << nsteps;
    }
    const double T_before = c.T().x;
    const StepResult r = c.go(1.5 * kZ, 0.0, 0.0);
    EXPECT_EQ(r.kind, STEP_ELASTIC);
    EXPECT_EQ(r.T.x, T_before);
  }
}

// ---------------------------------------------------------------- elastic loading, prefactors

TEST(JaegerElastic, LoadingFromRestAlongStraightAndBentPaths)
{
  const Material m = glass();
  const double K = K_of(m), kap = kappa(m);
  // Straight: s = m z, T = (m/kappa) P(z), U = work = 8/15 G* |m|^2 sqrt(R) z^(5/2).
  const double mx = 0.7 * K, my = -0.2 * K, z = 1.3 * kZ;
  Contact c(m, 8);
  const StepResult r = c.go(z, mx * z, my * z);
  EXPECT_EQ(r.kind, STEP_ELASTIC);
  EXPECT_LE(dist(r.T, mx / kap * hertz(m, z), my / kap * hertz(m, z)), 1e-15 * m.mu * hertz(m, z));
  const double U = 8.0 / 15.0 * m.Gstar * (mx * mx + my * my) * std::sqrt(m.R) * std::pow(z, 2.5);
  EXPECT_NEAR(r.work, U, 1e-13 * U);
  EXPECT_NEAR(c.U(), U, 1e-13 * U);
  // Bent elastic path from rest in 40 pushes: T = (1/kappa) sum m_i (P_i - P_(i-1)).
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> Un(-1.0, 1.0);
  Contact b(m, 64);
  double zc = 0.0, Tx = 0.0, Ty = 0.0;
  for (int i = 0; i < 40; ++i) {
    const double dz = kZ * (0.01 + 0.05 * (Un(rng) + 1.0));
    const double ax = 0.7 * K * Un(rng), ay = 0.7 * K * Un(rng);
    Tx += ax / kap * (hertz(m, zc + dz) - hertz(m, zc));
    Ty += ay / kap * (hertz(m, zc + dz) - hertz(m, zc));
    zc += dz;
    ASSERT_EQ(b.go(zc, ax * dz, ay * dz).kind, STEP_ELASTIC);
  }
  EXPECT_LE(dist(b.T(), Tx, Ty), 1e-13 * std::hypot(Tx, Ty));
  EXPECT_EQ(b.st.n, 40);
  EXPECT_NEAR(b.U(), b.work, 1e-12 * b.work);    // no slip: everything stored
}

/* The prefactors 2 G* a (tangential stiffness) and U = T s / 2 for a uniform
   spring displacement: a tiny tangential step delta at constant overlap gives
   T = 2 G* a delta (1 - x/4 + ...) and U = T delta / 2 (1 + O(x)), x = delta / s_max. */
TEST(JaegerElastic, TangentialStiffnessAndEnergyPrefactors)
{
  const Material m = glass();
  const double z = kZ, a = std::sqrt(m.R * z), smax = K_of(m) * z;
  for (double x : {1e-4, 1e-6}) {
    Contact c(m, 8);
    c.go(z, 0.0, 0.0);
    const double delta = x * smax;
    c.go(z, delta, 0.0);
    const double T0 = 2.0 * m.Gstar * a * delta;
    // Next term -x^2/24; T = mu (P - P(z*)) cancels to ~eps / x relative (1.5e-10 at x = 1e-6).
    EXPECT_NEAR(c.T().x / T0, 1.0 - x / 4.0, 2.0 * x * x + 1e-9);
    EXPECT_NEAR(c.U() / (0.5 * c.T().x * delta), 1.0, 2.0 * x);
  }
}

// ---------------------------------------------------------------- degenerate cases

TEST(JaegerDegenerate, PureNormalUnloadingWithoutShiftAndExactRetrace)
{
  const Material m = glass();
  const double K = K_of(m);
  // Normal load then unload, no tangential history: r = 0, nothing slips.
  Contact c(m, 8);
  c.go(2.0 * kZ, 0.0, 0.0);
  StepResult r = c.go(kZ, 0.0, 0.0);
  EXPECT_EQ(r.kind, STEP_UNLOAD);
  EXPECT_EQ(r.T.x, 0.0);
  EXPECT_EQ(r.T.y, 0.0);
  EXPECT_EQ(c.st.n, 1);
  EXPECT_EQ(c.st.pts[0].z, kZ);
  // Retrace an elastic segment: the force follows it back, T = (m/kappa) P(z).
  Contact e(m, 8);
  const double mx = 0.5 * K;
  e.go(2.0 * kZ, mx * 2.0 * kZ, 0.0);
  for (double z : {1.7 * kZ, 1.1 * kZ, 0.3 * kZ}) {
    r = e.go(z, mx * (z - e.st.pts[e.st.n - 1].z), 0.0);
    EXPECT_EQ(r.kind, STEP_UNLOAD);
    EXPECT_LE(std::fabs(r.T.x - mx / kappa(m) * hertz(m, z)), 1e-13 * m.mu * hertz(m, z));
    EXPECT_EQ(e.st.n, 1);
  }
  // Back to z = 0 along it: separation, the force and the history vanish.
  r = e.go(0.0, -mx * 0.3 * kZ, 0.0);
  EXPECT_EQ(r.kind, STEP_SEPARATED);
  EXPECT_EQ(e.st.n, 0);
  EXPECT_EQ(r.T.x, 0.0);
}

// ---------------------------------------------------------------- Fig. 8 of the paper

/* Oblique proportional loading and unloading in four large steps (the paper's
   Fig. 8 test, displacement-driven): normal preload z0, then (dz, ds) with
   ds / dz = 2.2 K > K (slip) in two steps to z1 = 1.5 z0, then back in two steps
   to z0. Closed forms from the rules, one step per segment:
     loading    T = mu [P(z) - P(z - s/K)]                (apex z - s/K)
     unloading  T = mu [2 P(z2*) - P(z1*) - P(z)],  z1* = z1 - s1/K,
                z2* = (z + z1*)/2 + s/(2K)               (Masing)
   Both are independent of how a proportional leg is split into steps. */
namespace {
struct Fig8 {
  Material m = glass();
  double K = K_of(m), z0 = kZ, z1 = 1.5 * kZ, s1 = 1.1 * K_of(glass()) * kZ;
  double zs[4] = {1.25 * kZ, 1.5 * kZ, 1.25 * kZ, 1.0 * kZ};
  double ss[4] = {0.5 * s1, s1, 0.5 * s1, 0.0};
  double closed_form(int i) const
  {
    const double z = zs[i], s = ss[i];
    if (i < 2) return m.mu * (hertz(m, z) - hertz(m, z - s / K));
    const double za = z1 - s1 / K, zb = 0.5 * (z + za) + s / (2.0 * K);
    return m.mu * (2.0 * hertz(m, zb) - hertz(m, za) - hertz(m, z));
  }
};
}    // namespace

TEST(JaegerFig8, FourLargeStepsEqualTheClosedForm)
{
  const Fig8 f;
  // The closed forms hold while the apexes stay where the rules put them.
  ASSERT_LE(f.zs[0] - f.ss[0] / f.K, f.z0);
  ASSERT_GE(f.z1 - f.s1 / f.K, 0.0);
  Contact c(f.m, 16);
  c.go(f.z0, 0.0, 0.0);
  double s = 0.0;
  for (int i = 0; i < 4; ++i) {
    const StepResult r = c.go(f.zs[i], f.ss[i] - s, 0.0);
    s = f.ss[i];
    const double T = f.closed_form(i);
    EXPECT_EQ(r.kind, STEP_SLIP);
    EXPECT_LE(std::fabs(r.T.x - T), 1e-12 * std::fabs(T)) << "step " << i;
    std::printf(
        "[ measure  ] Fig. 8 step %d: T/(mu P) = %+.6f, kernel vs closed form %.1e relative\n",
        i + 1, T / (f.m.mu * hertz(f.m, f.zs[i])), std::fabs(r.T.x - T) / std::fabs(T));
  }
  // The same legs in 100 small steps each give the same forces at the leg ends.
  Contact d(f.m, 16);
  d.go(f.z0, 0.0, 0.0);
  double zp = f.z0;
  s = 0.0;
  for (int i = 0; i < 4; ++i) {
    for (int k = 1; k <= 100; ++k) {
      const double z = zp + (f.zs[i] - zp) * k / 100.0, sn = (i == 0 ? 0.0 : f.ss[i - 1]);
      const double s_new = sn + (f.ss[i] - sn) * k / 100.0;
      d.go(z, s_new - s, 0.0);
      s = s_new;
    }
    zp = f.zs[i];
    EXPECT_LE(std::fabs(d.T().x - f.closed_form(i)), 1e-12 * std::fabs(f.closed_form(i)))
        << "leg " << i;
  }
}

TEST(JaegerFig8, SpringBedAgreesToItsDiscretisationError)
{
  const Fig8 f;
  const double amax = std::sqrt(f.m.R * f.z1);
  SpringBed coarse(f.m.Estar, f.m.Gstar, f.m.R, f.m.mu, amax, 4000);
  SpringBed fine(f.m.Estar, f.m.Gstar, f.m.R, f.m.mu, amax, 16000);
  coarse.step(f.z0, 0.0, 0.0, 16);
  fine.step(f.z0, 0.0, 0.0, 16);
  double s = 0.0;
  for (int i = 0; i < 4; ++i) {
    coarse.step(f.zs[i], f.ss[i] - s, 0.0, 16);
    fine.step(f.zs[i], f.ss[i] - s, 0.0, 16);
    s = f.ss[i];
    const double T = f.closed_form(i), muP = f.m.mu * hertz(f.m, f.zs[i]);
    const double e4 = std::fabs(coarse.Tx() - T) / muP, e16 = std::fabs(fine.Tx() - T) / muP;
    const double est =
        std::fabs(coarse.Tx() - fine.Tx()) / muP * 16.0 / 15.0;    // Richardson, O(dx^2)
    std::printf("[ measure  ] Fig. 8 step %d vs bed (of mu P): N=4000 %.2e, N=16000 %.2e, "
                "estimated N=4000 error %.2e\n",
                i + 1, e4, e16, est);
    // The kernel is the N -> infinity limit of the bed: the coarse bed is off by its
    // estimated error, the fine one by a small fraction of it.
    EXPECT_LE(e4, 2.0 * est) << "step " << i;
    EXPECT_LE(e16, 0.25 * est) << "step " << i;
    EXPECT_LT(est, 1e-7);
  }
}

// ---------------------------------------------------------------- random paths vs the spring bed

namespace {
struct BedComparison {
  double e4 = 0.0, e16 = 0.0, est = 0.0;               // max over the path, of mu P
  double u4 = 0.0, u16 = 0.0, uest = 0.0;              // stored energy, of mu P K z_ref
  double max_kernel_cone = 0.0, max_bed_cone = 0.0;    // |T| / (mu P)
  double sub = 0.0;                                    // bed with 16 sub-steps vs 1, of mu P
};

BedComparison compare_with_bed(const std::vector<Move> &path, int n_sub, int n_coarse, int n_fine)
{
  const Material m = glass();
  double zmax = 0.0;
  for (const Move &mv : path) zmax = std::max(zmax, mv.z);
  const double amax = std::sqrt(m.R * zmax);
  SpringBed coarse(m.Estar, m.Gstar, m.R, m.mu, amax, n_coarse),
      fine(m.Estar, m.Gstar, m.R, m.mu, amax, n_fine);
  SpringBed substepped(m.Estar, m.Gstar, m.R, m.mu, amax, n_coarse);
  Contact c(m, (int) path.size() + 2);
  BedComparison b;
  const double escale = m.mu * hertz(m, kZ) * K_of(m) * kZ;
  for (const Move &mv : path) {
    c.go(mv.z, mv.dx, mv.dy);
    coarse.step(mv.z, mv.dx, mv.dy, n_sub);
    fine.step(mv.z, mv.dx, mv.dy, n_sub);
    substepped.step(mv.z, mv.dx, mv.dy, 16 * n_sub);
    if (mv.z <= 0.0) continue;
    const double muP = m.mu * hertz(m, mv.z);
    const Vec2 T = c.T();
    b.e4 = std::max(b.e4, dist(T, coarse.Tx(), coarse.Ty()) / muP);
    b.e16 = std::max(b.e16, dist(T, fine.Tx(), fine.Ty()) / muP);
    b.est = std::max(
        b.est, std::hypot(coarse.Tx() - fine.Tx(), coarse.Ty() - fine.Ty()) / muP * 16.0 / 15.0);
    b.u4 = std::max(b.u4, std::fabs(c.U() - coarse.energy()) / escale);
    b.u16 = std::max(b.u16, std::fabs(c.U() - fine.energy()) / escale);
    b.uest = std::max(b.uest, std::fabs(coarse.energy() - fine.energy()) / escale * 16.0 / 15.0);
    b.sub = std::max(
        b.sub, std::hypot(coarse.Tx() - substepped.Tx(), coarse.Ty() - substepped.Ty()) / muP);
    b.max_kernel_cone = std::max(b.max_kernel_cone, std::hypot(T.x, T.y) / muP);
    // The bed's own normal force, 2 E* sum (z - g) dx, bounds its friction force.
    b.max_bed_cone = std::max(b.max_bed_cone, std::hypot(fine.Tx(), fine.Ty()) / muP);
  }
  return b;
}
}    // namespace

TEST(JaegerSpringBed, CollinearRandomPathsAgreeToTheBedsDiscretisationError)
{
  // Force and stored energy along random collinear paths (loading, unloading,
  // reversals, elastic steps, full sliding, separation and re-contact), large steps.
  for (unsigned seed : {11u, 12u, 13u}) {
    const std::vector<Move> path = random_path(seed, 250, glass(), true, 0.03);
    const BedComparison b = compare_with_bed(path, 1, 4000, 16000);
    std::printf(
        "[ measure  ] collinear path %u: T vs bed (of mu P) N=4000 %.2e, N=16000 %.2e, est. N=4000 "
        "error %.2e; U vs bed (of mu P K z) N=4000 %.2e, N=16000 %.2e, est. %.2e; bed 16 vs 1 "
        "sub-steps %.1e\n",
        seed, b.e4, b.e16, b.est, b.u4, b.u16, b.uest, b.sub);
    // In 1-D the bed's spring states are exact for any number of sub-steps (input and
    // bounds move linearly within a step, so the clamp at its end is the solution).
    EXPECT_LE(b.sub, 1e-12);
    // The bed's error is O(dx^2): the coarse bed is off by its estimated error, the
    // fine one (16x smaller error) by a small fraction of it.
    EXPECT_LE(b.e4, 1.5 * b.est);
    EXPECT_LE(b.e16, 0.25 * b.est);
    EXPECT_LT(b.est, 1e-6);
    EXPECT_LE(b.u4, 1.5 * b.uest);
    EXPECT_LE(b.u16, 0.25 * b.uest);
    EXPECT_LE(b.max_kernel_cone, 1.0 + 1e-12);
  }
}

/* The work increment of every step, against the bed's work summed over n_sub
   sub-steps (trapezoidal rule; the bed's spring states themselves are exact for
   any n_sub in 1-D). As n_sub grows 16-fold the bed must close in on the kernel
   by ~256 (O(n_sub^-2)), down to the floor of its x-discretisation (estimated
   from N = 4000 vs 16000). */
TEST(JaegerSpringBed, WorkIncrementIsExactOnCollinearPaths)
{
  const Material m = glass();
  const std::vector<Move> path = random_path(21u, 60, m, true, 0.05);
  const double amax = std::sqrt(m.R * 2.0 * kZ);
  SpringBed b64(m.Estar, m.Gstar, m.R, m.mu, amax, 4000),
      b1024(m.Estar, m.Gstar, m.R, m.mu, amax, 4000);
  SpringBed f64(m.Estar, m.Gstar, m.R, m.mu, amax, 16000);
  Contact c(m, 128);
  const double escale = m.mu * hertz(m, kZ) * K_of(m) * kZ;
  double e64 = 0.0, e1024 = 0.0, bed_x = 0.0, total = 0.0;
  for (const Move &mv : path) {
    const double w64 = b64.work(), w1024 = b1024.work(), wf = f64.work();
    const double W = c.go(mv.z, mv.dx, mv.dy).work;
    b64.step(mv.z, mv.dx, mv.dy, 64);
    b1024.step(mv.z, mv.dx, mv.dy, 1024);
    f64.step(mv.z, mv.dx, mv.dy, 64);
    const double d64 = b64.work() - w64, d1024 = b1024.work() - w1024, df = f64.work() - wf;
    e64 = std::max(e64, std::fabs(W - d64) / escale);
    e1024 = std::max(e1024, std::fabs(W - d1024) / escale);
    bed_x = std::max(bed_x, std::fabs(df - d64) / escale * 16.0 / 15.0);
    total += std::fabs(W) / escale;
  }
  std::printf(
      "[ measure  ] work per step (of mu P K z; sum |W| = %.1f): kernel vs bed n_sub=64 %.2e, "
      "n_sub=1024 %.2e; bed x-discretisation est. %.2e\n",
      total, e64, e1024, bed_x);
  EXPECT_LE(e1024, e64 / 100.0 + 2.0 * bed_x);
  EXPECT_LT(e64, 1e-4);
}

/* Paths that turn in the contact plane: Jäger's rule aligns each new slip
   annulus with one direction, the 2-D bed lets every spring slide its own way.
   The difference is the model's, not an error to remove: it is measured and
   printed. Asserted: the bed has converged (sub-steps and springs), both forces
   stay in their Coulomb cones, and the kernel agrees with the bed while the path
   is still straight. */
namespace {
struct TurnReport {
  double max_diff = 0.0, final_diff = 0.0, bed_sub = 0.0, bed_x = 0.0, cone_k = 0.0, cone_b = 0.0;
  double final_ratio = 0.0;    // |T_kernel| / |T_bed| at the end
};

TurnReport turning_run(const std::vector<Move> &path, int straight_steps)
{
  const Material m = glass();
  double zmax = 0.0;
  for (const Move &mv : path) zmax = std::max(zmax, mv.z);
  const double amax = std::sqrt(m.R * zmax);
  SpringBed bed(m.Estar, m.Gstar, m.R, m.mu, amax, 4000),
      bed4(m.Estar, m.Gstar, m.R, m.mu, amax, 4000);
  SpringBed fine(m.Estar, m.Gstar, m.R, m.mu, amax, 16000);
  Contact c(m, (int) path.size() + 2);
  TurnReport r;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const Move &mv = path[i];
    c.go(mv.z, mv.dx, mv.dy);
    bed.step(mv.z, mv.dx, mv.dy, 32);
    bed4.step(mv.z, mv.dx, mv.dy, 128);
    fine.step(mv.z, mv.dx, mv.dy, 32);
    const double muP = m.mu * hertz(m, mv.z);
    const double diff = dist(c.T(), bed4.Tx(), bed4.Ty()) / muP;
    if ((int) i < straight_steps) { EXPECT_LE(diff, 1e-6) << "straight part, step " << i; }
    r.max_diff = std::max(r.max_diff, diff);
    r.final_diff = diff;
    r.bed_sub = std::max(r.bed_sub, std::hypot(bed.Tx() - bed4.Tx(), bed.Ty() - bed4.Ty()) / muP);
    r.bed_x = std::max(r.bed_x, std::hypot(bed.Tx() - fine.Tx(), bed.Ty() - fine.Ty()) / muP);
    r.cone_k = std::max(r.cone_k, std::hypot(c.T().x, c.T().y) / muP);
    r.cone_b = std::max(r.cone_b, std::hypot(bed4.Tx(), bed4.Ty()) / muP);
    r.final_ratio = std::hypot(c.T().x, c.T().y) / std::hypot(bed4.Tx(), bed4.Ty());
  }
  return r;
}

void report_turn(const char *name, const TurnReport &r)
{
  std::printf("[ measure  ] %s: |T_kernel - T_bed| / (mu P) max %.3f, final %.3f, |T_k|/|T_bed| "
              "final %.3f; "
              "bed sub-step change %.1e, spring-count change %.1e\n",
              name, r.max_diff, r.final_diff, r.final_ratio, r.bed_sub, r.bed_x);
  EXPECT_LE(r.cone_k, 1.0 + 1e-12);
  EXPECT_LE(r.cone_b, 1.0 + 1e-6);    // the bed's midpoint sum of the capacity: O(dx^2) above mu P
  // The bed is converged well below the differences reported.
  EXPECT_LT(r.bed_sub, 0.1 * r.max_diff);
  EXPECT_LT(r.bed_x, 0.1 * r.max_diff);
}
}    // namespace

TEST(JaegerSpringBed, TurningPathsDifferByJaegersApproximation)
{
  const Material m = glass();
  const double K = K_of(m), z = kZ;
  // (a) Gentle turns: partial slip along x, then the same step size turning 0.5 degree
  //     a step through 10 degrees, and 2 degrees a step through 90 degrees.
  {
    std::vector<Move> p = {{z, 0.0, 0.0}};
    const double ds = 0.02 * K * z;
    for (int i = 0; i < 20; ++i) p.push_back({z, ds, 0.0});
    for (int i = 1; i <= 20; ++i)
      p.push_back({z, ds * std::cos(i * M_PI / 360.0), ds * std::sin(i * M_PI / 360.0)});
    report_turn("gentle turn (0.5 deg/step, 10 deg)", turning_run(p, 21));
  }
  {
    std::vector<Move> p = {{z, 0.0, 0.0}};
    const double ds = 0.02 * K * z;
    for (int i = 0; i < 20; ++i) p.push_back({z, ds, 0.0});
    for (int i = 1; i <= 45; ++i)
      p.push_back({z, ds * std::cos(i * M_PI / 90.0), ds * std::sin(i * M_PI / 90.0)});
    report_turn("gentle turn (2 deg/step, 90 deg)", turning_run(p, 21));
  }
  // (b) A right-angle corner after partial slip.
  {
    std::vector<Move> p = {{z, 0.0, 0.0}};
    for (int i = 0; i < 10; ++i) p.push_back({z, 0.05 * K * z, 0.0});
    for (int i = 0; i < 10; ++i) p.push_back({z, 0.0, 0.05 * K * z});
    report_turn("right-angle corner", turning_run(p, 11));
  }
  // (c) Sustained sliding around a circle of radius 2 s_max, 120 steps a turn, 3 turns.
  {
    std::vector<Move> p = {{z, 0.0, 0.0}};
    const double rho = 2.0 * K * z, dphi = 2.0 * M_PI / 120.0;
    p.push_back({z, rho, 0.0});
    for (int i = 1; i <= 360; ++i)
      p.push_back({z, rho * (std::cos(i * dphi) - std::cos((i - 1) * dphi)),
                   rho * (std::sin(i * dphi) - std::sin((i - 1) * dphi))});
    const TurnReport r = turning_run(p, 2);
    report_turn("circular sliding (radius 2 s_max)", r);
    // Jäger slides at |T| = mu P; in the bed the springs point different ways, so
    // the bed's force is below the limit: the kernel's is the larger.
    EXPECT_GT(r.final_ratio, 1.0);
  }
  // (d) A random 2-D path, normal load varying too.
  {
    const std::vector<Move> p = random_path(31u, 150, m, false, 0.0);
    report_turn("random 2-D path", turning_run(p, 1));
  }
}

// ---------------------------------------------------------------- energy

/* Cattaneo loading at constant overlap in one step, from rest: with the apex
   z* = z - s/K, the work is W = mu K int_{z*}^{z} (P(z) - P(zeta)) dzeta, the stored
   energy U = mu K int_{z*}^{z} (P(zeta) - P(z*)) dzeta. */
/* The work of the springs that leave the top segment of a history in an unloading step is
   integrated in closed form (the moment of w^2, detail::integrate_leaving_top()); every other
   segment's by 3-point Gauss quadrature per piece (detail::integrate_leaving()), which is exact
   for the top segment's integrand c w^2 as well. The two must agree to rounding on random
   top segments and steps in the plane: slopes anywhere in the cone, movements of any
   direction and size, and U = m + ds/|dz| = 0. (A spring of the top segment reaches its
   circle before it leaves unless the slope is on the cone and the movement along it, where the
   two branches of work_region_d() meet: that boundary is drawn too.) */
TEST(JaegerEnergy, LeavingTopSegmentClosedFormEqualsQuadrature)
{
  using namespace demc::jaeger::detail;
  const Material m = glass();
  const double K = K_of(m);
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  int reach = 0, leave_first = 0, boundary = 0;
  double worst = 0.0, worst_cancel = 0.0;
  for (int trial = 0; trial < 100000; trial++) {
    const double z0 = kZ * (1.0 + U(rng)) + 1e-9 * kZ;
    const double adz = z0 * std::pow(10.0, -6.0 * std::fabs(U(rng)));    // up to the whole z0
    const double z1 = z0 - adz;
    const bool on_cone = trial % 10 == 1;
    const double ang = 3.2 * U(rng), len = on_cone ? K : K * std::fabs(U(rng));
    const Vec2 slope = {len * std::cos(ang), len * std::sin(ang)};
    const double scale = adz * K * std::pow(10.0, 2.0 * U(rng));
    Vec2 ds = {scale * U(rng), scale * U(rng)};
    if (trial % 1000 == 0) ds = (-adz) * slope;        // U = 0: uc = 0 for every spring
    if (on_cone) ds = (scale * U(rng) / K) * slope;    // along the slope, either way
    StepGeometry s = {z0, z1, -adz, ds, {0.0, 0.0}, 0.0, 0.0, K, 1.0 / adz, 1.0 / m.R};
    s.ds2 = dot(ds, ds);
    s.z_apex = 0.0;
    s.a0 = std::sqrt(m.R * z0);
    s.a1 = z1 > 0.0 ? std::sqrt(m.R * z1) : 0.0;
    s.a_apex = 0.0;
    const double g_from = std::max(z1, 0.0) + (trial % 3 == 0 ? 0.3 * (z0 - z1) : 0.0);
    const SegmentField f = {{0.0, 0.0}, slope, z0};
    const double quad = integrate_leaving(m, s, f, g_from, z0);
    const double closed = integrate_leaving_top(m, s, slope, g_from).work;
    // scale of the integrand's terms: |u0| |ds| and K |dz| |uc| over the region's moment
    const Vec2 Uv = slope + s.inv_adz * ds;
    const double terms = (length(slope) * length(ds) * s.inv_adz + s.ds2 * s.inv_adz * s.inv_adz +
                          K * adz * length(Uv) * s.inv_adz) *
        moment_w2(1.0 / m.R, s.a0, m.R * (z0 - g_from) / (s.a0 + std::sqrt(m.R * g_from)));
    // the quadrature's nodes carry g to within a few eps of z0, so w = z0 - g to eps z0 / w
    const double allowed = (1e-12 + 16.0 * 2.2e-16 * z0 / (z0 - g_from)) * terms;
    ASSERT_LE(std::fabs(closed - quad), allowed) << "trial " << trial;
    worst_cancel = std::max(worst_cancel, std::fabs(closed - quad) / terms * (z0 - g_from) / z0);
    worst = std::max(worst, std::fabs(closed - quad) / terms);
    const double den = dot(Uv, ds) + K * adz * length(Uv);
    (den * s.inv_adz > dot(Uv, Uv) ? reach : leave_first)++;
    boundary += on_cone;
  }
  std::printf("[ measure  ] leaving top segment, closed form vs quadrature: max %.1e of the "
              "integrand's scale, %.1e of it times (z0 - g) / z0 (%d springs reach their circle, "
              "%d leave first)\n",
              worst, worst_cancel, reach, leave_first);
  EXPECT_GT(reach, 50000);
  EXPECT_GT(boundary, 5000);
}

/* The same for the springs that stay in the top segment and slip (region B): the closed form
   (detail::integrate_staying_top()) against 3-point Gauss quadrature of RegionB, the kernel's
   integrand for every other segment, on either side of w*, beyond which a spring no longer
   reaches its circle (the quadrature of the whole region cannot follow that kink, so the test
   splits it there). Random slopes in the cone, slip directions, movements and regions, loading
   and unloading; w* below, inside and above the region; rho <= 0. */
TEST(JaegerEnergy, SlippingTopSegmentClosedFormEqualsQuadrature)
{
  using namespace demc::jaeger::detail;
  const Material m = glass();
  const double K = K_of(m);
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  int inside = 0, outside = 0, no_rate = 0;
  double worst = 0.0;
  for (int trial = 0; trial < 100000; trial++) {
    const double z0 = kZ * (1.0 + U(rng)) + 1e-9 * kZ;
    const double dz = z0 * U(rng) * std::pow(10.0, -6.0 * std::fabs(U(rng)));
    const double z1 = z0 + dz;
    const double ang = 3.2 * U(rng), len = K * std::fabs(U(rng));
    const Vec2 slope = {len * std::cos(ang), len * std::sin(ang)};
    const double scale = K * std::fabs(dz) * std::pow(10.0, 2.0 * U(rng));
    const Vec2 ds = {scale * U(rng), scale * U(rng)};
    const double eang = 3.2 * U(rng);
    StepGeometry s = {z0,
                      z1,
                      dz,
                      ds,
                      {std::cos(eang), std::sin(eang)},
                      0.0,
                      0.0,
                      K,
                      dz < 0.0 ? -1.0 / dz : 0.0,
                      1.0 / m.R};
    s.ds2 = dot(ds, ds);
    s.rho = dot(s.e, ds) - K * dz;
    s.inv_rho = s.rho > 0.0 ? 1.0 / s.rho : 0.0;
    s.K_e_ds = K * dot(s.e, ds);
    const double g_hi = std::min(z0, z1), g_lo = g_hi * std::fabs(U(rng));
    s.z_apex = g_lo;
    s.a0 = std::sqrt(m.R * z0);
    s.a1 = std::sqrt(m.R * z1);
    s.a_apex = std::sqrt(m.R * g_lo);
    const SegmentField f = {{0.0, 0.0}, slope, z0};
    const RegionB b(s, f);
    // w*: where dp = rho + w (e.m - K) reaches 0
    const double p1 = dot(s.e, slope) - K;
    const double g_star = (s.rho > 0.0 && p1 < 0.0) ? z0 - s.rho / -p1 : -1.0;
    double quad;
    if (g_star > g_lo && g_star < g_hi) {
      quad = integrate_region(m, s, g_lo, g_star, b) + integrate_region(m, s, g_star, g_hi, b);
      inside++;
    } else {
      quad = integrate_region(m, s, g_lo, g_hi, b);
      outside++;
    }
    no_rate += !(s.rho > 0.0);
    const double closed = integrate_staying_top(m, s, slope, g_lo, g_hi).work;
    // scale: the integrand's terms at the region's bottom, w = z0 - g_lo, over the region
    const double w = z0 - g_lo, x_lo = std::sqrt(m.R * g_lo), x_hi = std::sqrt(m.R * g_hi);
    const double terms =
        (w * std::fabs(dot(slope, ds)) + s.ds2 + K * scale * (w + std::fabs(dz))) * (x_hi - x_lo);
    const double allowed = (1e-12 + 16.0 * 2.2e-16 * z0 / (z0 - g_hi + 1e-300)) * terms;
    ASSERT_LE(std::fabs(closed - quad), allowed) << "trial " << trial;
    worst = std::max(worst, std::fabs(closed - quad) / terms);
  }
  std::printf("[ measure  ] slipping top segment, closed form vs quadrature: max %.1e of the "
              "integrand's scale (w* inside the region %d, outside %d; rho <= 0: %d)\n",
              worst, inside, outside, no_rate);
  EXPECT_GT(inside, 5000);
  EXPECT_GT(outside, 5000);
  EXPECT_GT(no_rate, 1000);
}

TEST(JaegerEnergy, CattaneoLoadingWorkAndStoredEnergy)
{
  const Material m = glass();
  const double K = K_of(m), z = kZ, c = 8.0 / 15.0 * m.Estar * std::sqrt(m.R);
  for (double x : {0.05, 0.5, 0.95, 1.3}) {
    Contact ct(m, 8);
    ct.go(z, 0.0, 0.0);
    const double s = x * K * z;
    const StepResult r = ct.go(z, s, 0.0);
    const double zs = std::max(0.0, z - s / K);
    const double intP = c * (std::pow(z, 2.5) - std::pow(zs, 2.5));    // int_{z*}^{z} P
    const double W = m.mu * K * (z - zs) * hertz(m, z) - m.mu * K * intP +
        (x > 1.0 ? m.mu * hertz(m, z) * (s - K * z) : 0.0);
    const double U = m.mu * K * (intP - (z - zs) * hertz(m, zs));
    EXPECT_NEAR(r.work, W, 1e-12 * W) << "x = " << x;
    EXPECT_NEAR(ct.U(), U, 1e-12 * U) << "x = " << x;
    EXPECT_GT(r.work - ct.U(), 0.0);
  }
}

/* A closed elastic cycle: elastic pushes out, the same steps retraced back.
   Nothing slips, so the work returns to zero and the stored energy follows it. */
TEST(JaegerEnergy, ClosedElasticCycleReturnsTheWork)
{
  const Material m = glass();
  const double K = K_of(m);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  Contact c(m, 128);
  c.go(0.5 * kZ, 0.0, 0.0);
  std::vector<Move> out;
  double z = 0.5 * kZ, Wabs = 0.0;
  for (int i = 0; i < 50; ++i) {
    const double dz = kZ * 0.02 * (1.5 + U(rng));
    out.push_back({z + dz, 0.7 * K * dz * U(rng), 0.7 * K * dz * U(rng)});
    z += dz;
    const StepResult r = c.go(out.back().z, out.back().dx, out.back().dy);
    ASSERT_EQ(r.kind, STEP_ELASTIC);
    Wabs += std::fabs(r.work);
  }
  EXPECT_NEAR(c.U(), c.work, 1e-12 * c.U());
  for (int i = 49; i >= 0; --i) {
    const double zb = i > 0 ? out[i - 1].z : 0.5 * kZ;
    const StepResult r = c.go(zb, -out[i].dx, -out[i].dy);
    ASSERT_EQ(r.kind, STEP_UNLOAD) << "step back " << i;
    ASSERT_NEAR(c.U(), c.work, 1e-12 * Wabs);
  }
  std::printf("[ measure  ] closed elastic cycle: net work %.2e of sum |W|, stored %.2e\n",
              c.work / Wabs, c.U() / Wabs);
  EXPECT_LE(std::fabs(c.work), 1e-12 * Wabs);
  EXPECT_LE(c.U(), 1e-12 * Wabs);
  EXPECT_EQ(c.st.n, 1);
}

/* Random closed cycles from a normal preload back to it: the dissipation
   work - stored is >= 0. For collinear paths the kernel's model is the exact
   spring bed, where this is the second law: asserted. In the plane, Jäger's
   alignment of the slip annulus is not derived from a dissipation potential, so
   it is only measured. */
TEST(JaegerEnergy, RandomClosedCyclesDissipate)
{
  const Material m = glass();
  const double K = K_of(m);
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  double min1 = 1e300, min2 = 1e300, max1 = 0.0;
  for (int cyc = 0; cyc < 4000; ++cyc) {
    const bool plane = cyc % 2 == 1;
    const double amp = (cyc % 4 < 2) ? 0.05 : 0.6;
    Contact c(m, 64);
    const double z0 = kZ * (0.5 + U(rng));
    c.go(z0, 0.0, 0.0);
    double z = z0, sx = 0.0, sy = 0.0;
    const int n = 1 + (int) (10 * U(rng));
    for (int i = 0; i < n; ++i) {
      const double zn = std::max(0.2 * kZ, z + kZ * (0.5 * U(rng) - 0.25));
      const double dx = amp * K * kZ * (2.0 * U(rng) - 1.0),
                   dy = plane ? amp * K * kZ * (2.0 * U(rng) - 1.0) : 0.0;
      c.go(zn, dx, dy);
      z = zn;
      sx += dx;
      sy += dy;
    }
    c.go(z0, -sx, -sy);
    const double scale = m.mu * hertz(m, z0) * K * z0;
    const double D = (c.work - c.U()) / scale;
    if (plane) {
      min2 = std::min(min2, D);
    } else {
      min1 = std::min(min1, D);
      max1 = std::max(max1, D);
      ASSERT_GE(D, -1e-12) << "cycle " << cyc;
    }
  }
  std::printf(
      "[ measure  ] closed cycles, (work - stored) / (mu P K z): collinear min %.1e (max %.2f), "
      "plane min %.1e\n",
      min1, max1, min2);
}

// ---------------------------------------------------------------- stack invariants, merging

namespace {
/* A long random 2-D sequence mixing DEM-like small steps with large ones,
   separations and re-contacts. */
std::vector<Move> fuzz_path(unsigned seed, int n, const Material &m)
{
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  const double K = K_of(m);
  std::vector<Move> p;
  double z = 0.0, vx = 0.0, vy = 0.0, vz = 0.0;
  for (int i = 0; i < n; ++i) {
    const double mode = U(rng);
    Move mv;
    if (mode < 0.03 && !p.empty() && z > 0.0) {    // undo the previous movement exactly
      const double z_before = p.size() >= 2 ? p[p.size() - 2].z : 0.0;
      mv = {z_before > 0.0 ? z_before : z, -p.back().dx, -p.back().dy};
    } else if (z <= 0.0 || mode < 0.032) {
      mv.z = z <= 0.0 ? kZ * (0.1 + U(rng)) : -0.1 * kZ * U(rng);
      mv.dx = K * kZ * (U(rng) - 0.5);
      mv.dy = K * kZ * (U(rng) - 0.5);
    } else if (mode < 0.08) {    // a large step
      mv.z = std::max(1e-3 * kZ, std::min(3.0 * kZ, z + kZ * (U(rng) - 0.5)));
      mv.dx = K * kZ * (U(rng) - 0.5);
      mv.dy = K * kZ * (U(rng) - 0.5);
    } else {    // a slowly turning small movement
      vx = 0.98 * vx + 0.02 * (U(rng) - 0.5);
      vy = 0.98 * vy + 0.02 * (U(rng) - 0.5);
      vz = 0.98 * vz + 0.02 * (U(rng) - 0.5);
      mv.z = std::max(1e-3 * kZ, std::min(3.0 * kZ, z + 0.01 * kZ * vz));
      mv.dx = 0.01 * K * kZ * vx;
      mv.dy = 0.01 * K * kZ * vy;
    }
    p.push_back(mv);
    z = mv.z;
  }
  return p;
}
}    // namespace

TEST(JaegerStack, InvariantsHoldAfterEveryStep)
{
  const Material m = glass();
  const std::vector<Move> path = fuzz_path(5u, 30000, m);
  struct Config {
    const char *name;
    double beta;
    int capacity;
  };
  const Config configs[] = {
      {"exact", 0.0, 30002},  {"beta 0.1", 0.1, 30002},         {"beta 0.2", 0.2, 30002},
      {"capacity 8", 0.0, 8}, {"capacity 8, beta 0.1", 0.1, 8}, {"capacity 2", 0.0, 2}};
  for (const Config &cf : configs) {
    Contact c(m, cf.capacity, cf.beta);
    int max_n = 0;
    long slips = 0, sliding = 0, unloads = 0;
    for (std::size_t i = 0; i < path.size(); ++i) {
      const StepResult r = c.go(path[i].z, path[i].dx, path[i].dy);
      ASSERT_EQ(check_invariants(m, c.st), INV_OK) << cf.name << ", step " << i;
      ASSERT_LE(c.st.n, cf.capacity);
      ASSERT_TRUE(std::isfinite(r.work));
      ASSERT_EQ(r.T.x, c.T().x);
      max_n = std::max(max_n, c.st.n);
      slips += r.kind == STEP_SLIP;
      sliding += r.kind == STEP_SLIDING;
      unloads += r.kind == STEP_UNLOAD;
    }
    std::printf("[ measure  ] fuzz %-22s: max n %d, merges %ld, steps slip %ld / sliding %ld / "
                "unload %ld\n",
                cf.name, max_n, c.merges, slips, sliding, unloads);
  }
}

/* The stored energy the step carries (StepResult::stored, from the value before the step) is
   the closed form of the whole history, stored_energy(), after every step of fuzz paths in the
   plane and collinear random paths, exact, with beta merges and with a full stack: to rounding,
   which a carried value accumulates until separation, full sliding or a merge restarts it from
   an exact value (the allowance: carried_energy_bound.h). A twin step that is not asked to
   carry it (-1) does the same work and history and returns -1. */
TEST(JaegerEnergy, CarriedStoredEnergyEqualsTheClosedForm)
{
  const Material m = glass();
  struct Config {
    const char *name;
    std::vector<Move> path;
    double beta;
    int capacity;
  };
  const std::vector<Move> plane = fuzz_path(11u, 30000, m);
  const std::vector<Move> line = random_path(12u, 30000, m, true, 0.01);
  const Config configs[] = {{"plane, exact", plane, 0.0, 30002},
                            {"plane, beta 0.2", plane, 0.2, 30002},
                            {"plane, capacity 4", plane, 0.0, 4},
                            {"collinear, exact", line, 0.0, 30002}};
  for (const Config &cf : configs) {
    std::vector<Point> buf(cf.capacity), twin_buf(cf.capacity);
    Stack st{buf.data(), 0, cf.capacity};
    demc_test::CarriedEnergyBound bound;
    double carried = 0.0, worst = 0.0, z_prev = 0.0;
    long restarts = 0, checked = 0;
    for (std::size_t i = 0; i < cf.path.size(); ++i) {
      Vec2 ds = {cf.path[i].dx, cf.path[i].dy};
      if (st.n == 0) ds = fresh_contact_shift(z_prev, cf.path[i].z, ds);
      const double z0 = top_point(st).z;
      z_prev = cf.path[i].z;
      // a twin that does not carry U_t (-1): the same work and history, -1 back
      std::copy(buf.begin(), buf.begin() + st.n, twin_buf.begin());
      Stack twin{twin_buf.data(), st.n, cf.capacity};
      const StepResult r_twin = step(m, twin, cf.path[i].z, ds, cf.beta, true, -1.0);
      const StepResult r = step(m, st, cf.path[i].z, ds, cf.beta, true, carried);
      ASSERT_EQ(r_twin.work, r.work) << cf.name << ", step " << i;
      ASSERT_EQ(r_twin.stored, -1.0);
      ASSERT_EQ(twin.n, st.n);
      carried = r.stored;
      const double U = stored_energy(m, st);
      bound.add_step(m, z0, cf.path[i].z, ds, r, U);
      restarts += r.kind == STEP_SEPARATED || r.kind == STEP_SLIDING || r.merges > 0;
      ASSERT_LE(std::fabs(carried - U), bound.allowed(st.n))
          << cf.name << ", step " << i << ", U " << U;
      worst = std::max(worst, bound.in_eps(std::fabs(carried - U), st.n));
      checked += U > 0.0;
    }
    EXPECT_GT(checked, 10000) << cf.name;
    std::printf("[ measure  ] carried U_t, %-18s: worst |carried - closed form| = %.3f of the "
                "allowance's eps units (16 allowed; %ld restarts)\n",
                cf.name, worst, restarts);
  }
}

/* A slip annulus far thinner than the overlap under a force far inside the cone (fuzz_jaeger's
   finding): a one-segment history of slope m0 << K, unloaded with no tangential movement, slips
   in an annulus (z1 - z*) / z1 = 7e-8 wide. Oracle, in long double from the stored history
   before the step: the springs inside the apex keep u = m0 (z0 - g), those above it take
   K (z1 - g), z* from m0 (z0 - z*) = K (z1 - z*); U_t = G* [m0^2 int_0^a* (z0 - g)^2 dx +
   K^2 int_a*^a1 (z1 - g)^2 dx], g = x^2 / R. The carried U_t is exact to a few eps of U_t. The
   walk over the stored history is not: the stored apex holds z* to an ulp, which moves the
   displacement of the springs inside it by K eps z* (1e-9 of it here). It is within twice the
   walk's sensitivity to one-ulp changes of the stored points, the allowance that
   carried_energy_bound.h adds for it. */
TEST(JaegerEnergy, CarriedEnergyOfAThinSlipAnnulusIsExact)
{
  const Material m =
      material(7206.3515888393576, 9442.8055296508282, 4.9999999999999996e-05, 1.9999755620956421);
  const double z0 = 3.390354413089986e-07, z1 = 2.790355439959006e-07, T0 = 9.3257351530039516e-15;
  Point buf[3] = {{z0, hertz_force(m, z0), T0, 0.0}};
  Stack st{buf, 1, 3};
  const StepResult r = step(m, st, z1, {0.0, 0.0}, 0.0, true, stored_energy(m, st));
  ASSERT_EQ(r.kind, STEP_SLIP);

  using LD = long double;
  const LD R = m.R, G = m.Gstar, K = LD(m.mu) * m.Estar / m.Gstar;
  const LD m0 = LD(m.Estar) / m.Gstar * LD(T0) / LD(hertz_force(m, z0));
  const LD width = m0 * (LD(z0) - z1) / (K - m0), z_apex = z1 - width;    // z1 - z*
  const LD a_apex = std::sqrt(R * z_apex), a1 = std::sqrt(R * LD(z1));
  const LD inside = z0 * (z0 * a_apex - 2.0L * a_apex * z_apex / 3.0L) +
      a_apex * z_apex * z_apex / 5.0L;       // int_0^a* (z0 - x^2/R)^2 dx
  const LD D = R * width / (a1 + a_apex);    // a1 - a*; int_a*^a1 (z1 - x^2/R)^2 dx:
  const LD annulus = D * D * D * (4.0L / 3.0L * a1 * a1 - a1 * D + D * D / 5.0L) / (R * R);
  const double exact = static_cast<double>(G * (m0 * m0 * inside + K * K * annulus));
  EXPECT_NEAR(width / z1, 7.48e-8, 0.01e-8);

  const double U = stored_energy(m, st);
  EXPECT_LE(std::fabs(r.stored - exact), 16.0 * std::numeric_limits<double>::epsilon() * exact);
  const double rounding = demc_test::CarriedEnergyBound::stored_point_rounding(m, st, U);
  EXPECT_LE(std::fabs(U - exact), 2.0 * rounding);
  std::printf("[ measure  ] thin slip annulus: carried U_t %.2e, walk over the history %.2e off "
              "the exact value (%.3f of the stored points' one-ulp sensitivity)\n",
              std::fabs(r.stored / exact - 1.0), std::fabs(U / exact - 1.0),
              std::fabs(U - exact) / rounding);
}

// work = false skips the work integral and nothing else: the same stack, points and force
// after every step of a fuzz path (exact, beta and capacity merges alike), work 0
TEST(JaegerStack, WithoutWorkTheSameHistory)
{
  const Material m = glass();
  const std::vector<Move> path = fuzz_path(7u, 5000, m);
  for (const double beta : {0.0, 0.2}) {
    for (const int capacity : {5002, 4}) {
      std::vector<Point> a(capacity), b(capacity);
      Stack sa{a.data(), 0, capacity}, sb{b.data(), 0, capacity};
      double with_work = 0.0;
      for (std::size_t i = 0; i < path.size(); ++i) {
        const Vec2 ds = {path[i].dx, path[i].dy};
        const StepResult ra = step(m, sa, path[i].z, ds, beta, true);
        const StepResult rb = step(m, sb, path[i].z, ds, beta, false);
        with_work += std::fabs(ra.work);
        ASSERT_EQ(rb.work, 0.0);
        ASSERT_EQ(sa.n, sb.n) << "step " << i;
        ASSERT_EQ(ra.T.x, rb.T.x);
        ASSERT_EQ(ra.T.y, rb.T.y);
        ASSERT_EQ(ra.kind, rb.kind);
        ASSERT_EQ(ra.merges, rb.merges);
        for (int k = 0; k < sa.n; ++k) {
          ASSERT_EQ(a[k].z, b[k].z);
          ASSERT_EQ(a[k].tx, b[k].tx);
          ASSERT_EQ(a[k].ty, b[k].ty);
        }
      }
      EXPECT_GT(with_work, 0.0);
    }
  }
}

TEST(JaegerStack, InvariantsCatchBrokenStacks)
{
  const Material m = glass();
  std::vector<Point> buf(4);
  Stack st = {buf.data(), 0, 4};
  step(m, st, kZ, {0.0, 0.0}, 0.0);
  step(m, st, 1.5 * kZ, {0.1 * K_of(m) * kZ, 0.0}, 0.0);
  ASSERT_EQ(check_invariants(m, st), INV_OK);
  Stack bad = st;
  bad.n = 5;
  EXPECT_EQ(check_invariants(m, bad), INV_SIZE);
  const Point keep = buf[1];
  buf[1].z = buf[0].z;
  EXPECT_EQ(check_invariants(m, st), INV_Z_ORDER);
  buf[1] = keep;
  buf[1].P *= 1.0 + 1e-10;
  EXPECT_EQ(check_invariants(m, st), INV_P_MISMATCH);
  buf[1] = keep;
  buf[1].tx = buf[0].tx + 1.01 * m.mu * (buf[1].P - buf[0].P);
  EXPECT_EQ(check_invariants(m, st), INV_SLOPE);
  buf[1] = keep;
  buf[1].ty = std::nan("");
  EXPECT_EQ(check_invariants(m, st), INV_NOT_FINITE);
}

/* Merges never change the force: at every step of the fuzz path where the
   bounded contact merged, an unbounded copy of its state taken before the step
   gives the same force and work. The slope read back after a merge is the
   dP-weighted mean of the two merged slopes. */
TEST(JaegerStack, MergesNeverChangeTheForce)
{
  const Material m = glass();
  const std::vector<Move> path = fuzz_path(6u, 20000, m);
  Contact bounded(m, 8);
  long checked = 0;
  for (const Move &mv : path) {
    Contact free_copy(bounded);
    free_copy.buf.resize(64);
    free_copy.st.pts = free_copy.buf.data();
    free_copy.st.capacity = 64;
    const StepResult rb = bounded.go(mv.z, mv.dx, mv.dy);
    const StepResult rf = free_copy.go(mv.z, mv.dx, mv.dy);
    ASSERT_EQ(rf.merges, 0);
    if (rb.merges > 0) {
      ++checked;
      ASSERT_EQ(rb.T.x, rf.T.x);
      ASSERT_EQ(rb.T.y, rf.T.y);
      ASSERT_EQ(rb.work, rf.work);
    }
  }
  EXPECT_GT(checked, 100);
  // A forced merge of two elastic segments, by hand.
  Contact c(m, 3);
  const double K = K_of(m);
  c.go(1.0 * kZ, 0.3 * K * kZ, 0.0);
  c.go(1.5 * kZ, 0.1 * K * 0.5 * kZ, 0.2 * K * 0.5 * kZ);
  c.go(1.6 * kZ, -0.5 * K * 0.1 * kZ, 0.0);
  ASSERT_EQ(c.st.n, 3);
  const Vec2 T_before = c.T();
  const Point lo = c.st.pts[0], mid = c.st.pts[1], hi = c.st.pts[2];
  const StepResult r = c.go(1.7 * kZ, 0.0, 0.0);    // full: one merge makes room
  EXPECT_EQ(r.merges, 1);
  EXPECT_EQ(r.T.x, T_before.x);
  EXPECT_EQ(r.T.y, T_before.y);
  EXPECT_EQ(c.st.n, 3);
  // Slopes (in K): (0.3, 0), (0.1, 0.2), (-0.5, 0) and the pending (0, 0). Differences of
  // neighbours: 0.28, 0.63, 0.5: the first pair merges, point 0 goes.
  EXPECT_EQ(c.st.pts[0].z, mid.z);
  EXPECT_EQ(c.st.pts[1].z, hi.z);
  const Vec2 merged = segment_slope(m, origin_point(), c.st.pts[0]);
  const double w1 = lo.P, w2 = mid.P - lo.P;    // the merged slope is the dP-weighted mean
  EXPECT_NEAR(merged.x, (0.3 * K * w1 + 0.1 * K * w2) / (w1 + w2), 1e-12 * K);
  EXPECT_NEAR(merged.y, (0.0 * K * w1 + 0.2 * K * w2) / (w1 + w2), 1e-12 * K);
}

/* shorten_to (a smaller history/max for histories that are longer already): every history met
   on a random path, shortened to each length below its own, keeps its top point (the force)
   bitwise, has the asked length, one merge per point removed, and satisfies the invariants; the
   next step from it is a valid step (invariants again). One point less is exactly make_room()'s
   merge for pushing the top onto a full stack. */
TEST(JaegerStack, ShortenToKeepsTheForceAndTheInvariants)
{
  const Material m = glass();
  const std::vector<Move> path = fuzz_path(11u, 4000, m);
  Contact c(m, 256);
  int longest = 0;
  for (size_t k = 0; k + 1 < path.size(); ++k) {
    c.go(path[k].z, path[k].dx, path[k].dy);
    longest = std::max(longest, c.st.n);
    if (k % 50 != 0 || c.st.n < 3) continue;
    for (int length = 1; length < c.st.n; ++length) {
      Contact s(c);
      const Point top = top_point(s.st);
      const int merges = shorten_to(m, s.st, length);
      ASSERT_EQ(s.st.n, length);
      ASSERT_EQ(merges, c.st.n - length);
      ASSERT_EQ(s.st.capacity, c.st.capacity);
      const Point now = top_point(s.st);
      ASSERT_EQ(now.z, top.z);
      ASSERT_EQ(now.P, top.P);
      ASSERT_EQ(now.tx, top.tx);
      ASSERT_EQ(now.ty, top.ty);
      ASSERT_EQ(check_invariants(m, s.st), INV_OK) << "after shortening to " << length;
      s.go(path[k + 1].z, path[k + 1].dx, path[k + 1].dy);
      ASSERT_EQ(check_invariants(m, s.st), INV_OK) << "the step after, from " << length;
      if (length == c.st.n - 1) {
        Contact once(c), full(c);
        shorten_to(m, once.st, length);
        full.st.n--;
        full.st.capacity = full.st.n;
        make_room(m, full.st, top);
        full.st.pts[full.st.n++] = top;
        for (int i = 0; i < length; ++i) {
          ASSERT_EQ(once.st.pts[i].z, full.st.pts[i].z);
          ASSERT_EQ(once.st.pts[i].tx, full.st.pts[i].tx);
          ASSERT_EQ(once.st.pts[i].ty, full.st.pts[i].ty);
        }
      }
    }
  }
  EXPECT_GT(longest, 8) << "the path should build long histories";
}

/* change_material (pair_coeff changed between runs). Oracles: Hertz and Mindlin forces at a
   fixed geometry scale with E (nu fixed), so the history built along a path with E2 is the one
   built with E1 converted to E2; on a path that never slips (|ds| < K dz), the spring field is
   pure geometry, so the history built with another nu is the converted one too. A smaller mu:
   every slope and the force end inside the new cone, z* stay, the invariants hold; a single
   segment steeper than the new cone becomes the full slide mu P along its direction. */
TEST(JaegerStack, ChangeMaterialKeepsTheSpringField)
{
  const Material a = glass();
  auto built = [](const Material &m, const std::vector<Move> &path) {
    Contact c(m, 4096);
    for (const Move &mv : path) c.go(mv.z, mv.dx, mv.dy);
    return c;
  };
  auto expect_same = [](const Stack &x, const Stack &y, const char *what) {
    ASSERT_EQ(x.n, y.n) << what;
    double scale = 0.0;
    for (int k = 0; k < x.n; ++k) scale = std::max(scale, std::fabs(y.pts[k].P));
    for (int k = 0; k < x.n; ++k) {
      EXPECT_NEAR(x.pts[k].z, y.pts[k].z, 1e-13 * y.pts[k].z) << what << " " << k;
      EXPECT_NEAR(x.pts[k].P, y.pts[k].P, 1e-13 * scale) << what << " " << k;
      EXPECT_NEAR(x.pts[k].tx, y.pts[k].tx, 1e-12 * scale) << what << " " << k;
      EXPECT_NEAR(x.pts[k].ty, y.pts[k].ty, 1e-12 * scale) << what << " " << k;
    }
  };
  // E x 0.2, any path (slip included)
  const Material b = make_material(0.2 * kE, kNu, kRad, 0.2 * kE, kNu, kRad, kMu);
  int points = 0;
  for (unsigned seed : {3u, 4u, 8u, 9u}) {
    const std::vector<Move> path = fuzz_path(seed, 600, a);
    Contact ca = built(a, path);
    const Contact cb = built(b, path);
    points += cb.st.n;
    const double U = stored_energy(a, ca.st);
    const double work = change_material(a, b, ca.st);
    expect_same(ca.st, cb.st, "E x 0.2");
    // the field is kept: its energy G* int |u|^2 goes with G*, and the change is work
    EXPECT_NEAR(stored_energy(b, ca.st), 0.2 * U, 1e-12 * U);
    EXPECT_NEAR(work, -0.8 * U, 1e-12 * U);
  }
  EXPECT_GT(points, 10) << "the paths should leave histories of several points";
  // nu 0.25 -> 0.45 (kappa and the cone change) on a path that never slips: |ds| < K dz
  const Material c = make_material(kE, 0.45, kRad, kE, 0.45, kRad, kMu);
  const double K = std::min(K_of(a), K_of(c));
  std::vector<Move> elastic;
  double z = 0.2 * kZ;
  for (int k = 1; k <= 40; ++k) {
    const double dz = kZ * 0.05 * (1.0 + 0.5 * std::sin(0.7 * k));
    z += dz;
    elastic.push_back({z, 0.6 * K * dz * std::cos(0.3 * k), 0.6 * K * dz * std::sin(0.3 * k)});
  }
  Contact ea = built(a, elastic);
  const Contact ec = built(c, elastic);
  ASSERT_GT(ec.st.n, 10);
  change_material(a, c, ea.st);
  expect_same(ea.st, ec.st, "nu 0.25 -> 0.45, elastic path");
  // mu 0.3 -> 0.1 on the turning elastic history (every slope 0.6 K: steeper than the new cone)
  const Material d = make_material(kE, kNu, kRad, kE, kNu, kRad, 0.1);
  Contact fa = built(a, elastic);
  ASSERT_GT(fa.st.n, 3);
  const Contact before(fa);
  EXPECT_EQ(change_material(a, d, fa.st), 0.0) << "G* unchanged: no work";
  EXPECT_EQ(check_invariants(d, fa.st), INV_OK);
  // the springs slipped back to the smaller cone: they released energy (friction)
  EXPECT_LT(stored_energy(d, fa.st), 0.5 * stored_energy(a, before.st));
  for (int k = 0; k < fa.st.n; ++k) EXPECT_EQ(fa.st.pts[k].z, before.st.pts[k].z);
  const Point top = top_point(fa.st);
  EXPECT_LE(length(force_of(top)), 0.1 * top.P * (1.0 + 1e-12));
  // one elastic segment steeper than the new cone: full slide along its direction
  Contact one(a, 8);
  one.go(kZ, 0.8 * K_of(a) * kZ, 0.3 * K_of(a) * kZ);
  const Vec2 T_old = force_of(top_point(one.st));
  change_material(a, d, one.st);
  const Point p = top_point(one.st);
  const double t = length(T_old);
  EXPECT_NEAR(p.tx, 0.1 * p.P * T_old.x / t, 1e-14 * p.P);
  EXPECT_NEAR(p.ty, 0.1 * p.P * T_old.y / t, 1e-14 * p.P);
  // the same material: nothing changes
  Contact same(before);
  change_material(a, a, same.st);
  expect_same(same.st, before.st, "unchanged material");
}

/* beta = 0 merges only slopes that read back exactly equal: pure normal loading
   in many steps keeps one segment, losslessly. */
TEST(JaegerStack, PureNormalLoadingKeepsOneSegment)
{
  const Material m = glass();
  Contact c(m, 4);
  for (int i = 1; i <= 1000; ++i) {
    const StepResult r = c.go(i * 1e-3 * kZ, 0.0, 0.0);
    ASSERT_EQ(r.kind, STEP_ELASTIC);
    ASSERT_EQ(c.st.n, 1);
    ASSERT_EQ(r.T.x, 0.0);
  }
  // The merged history is the single slope-0 segment: Cattaneo from it is exact.
  const double smax = K_of(m) * kZ;
  c.go(kZ, 0.5 * smax, 0.0);
  EXPECT_NEAR(c.T().x, m.mu * hertz(m, kZ) * one_minus_pow15(0.5), 1e-12 * m.mu * hertz(m, kZ));
}

/* The memory approximation on a long, slow random path (DEM-like steps):
   history lengths and the force error it introduces against the exact history. */
TEST(JaegerStack, BetaMergingShortensTheHistory)
{
  const Material m = glass();
  std::mt19937_64 rng(8);
  std::uniform_real_distribution<double> U(-0.5, 0.5);
  const double K = K_of(m);
  std::vector<Move> path;
  double z = 0.0, vx = 0.0, vy = 0.0, vz = 0.3;
  for (int i = 0; i < 40000; ++i) {
    vx = 0.995 * vx + 0.02 * U(rng);
    vy = 0.995 * vy + 0.02 * U(rng);
    vz = 0.995 * vz + 0.02 * U(rng) + 0.0002;
    z = std::max(0.2 * kZ, std::min(2.0 * kZ, z + 0.002 * kZ * vz + (i == 0 ? kZ : 0.0)));
    path.push_back({z, 0.002 * K * kZ * vx, 0.002 * K * kZ * vy});
  }
  double mean_n[3] = {0, 0, 0};
  Contact exact(m, 40002), b1(m, 40002, 0.1), b2(m, 40002, 0.2), cap8(m, 8), cap32(m, 32);
  Contact *cs[5] = {&exact, &b1, &b2, &cap8, &cap32};
  double err[5] = {0, 0, 0, 0, 0}, sum_n[5] = {0, 0, 0, 0, 0};
  int max_n[5] = {0, 0, 0, 0, 0};
  for (const Move &mv : path) {
    for (int j = 0; j < 5; ++j) {
      cs[j]->go(mv.z, mv.dx, mv.dy);
      sum_n[j] += cs[j]->st.n;
      max_n[j] = std::max(max_n[j], cs[j]->st.n);
      err[j] =
          std::max(err[j], dist(cs[j]->T(), exact.T().x, exact.T().y) / (m.mu * hertz(m, mv.z)));
    }
  }
  const char *names[5] = {"exact", "beta 0.1", "beta 0.2", "capacity 8", "capacity 32"};
  for (int j = 0; j < 5; ++j) {
    std::printf("[ measure  ] slow path %-11s: mean n %.1f, max n %d, merges %ld, max |T - "
                "T_exact| %.2e mu P\n",
                names[j], sum_n[j] / path.size(), max_n[j], cs[j]->merges, err[j]);
    if (j < 3) mean_n[j] = sum_n[j] / path.size();
  }
  EXPECT_LT(mean_n[1], mean_n[0]);
  EXPECT_LT(mean_n[2], mean_n[1]);
  EXPECT_EQ(err[0], 0.0);
  for (int j = 1; j < 5; ++j) EXPECT_LT(err[j], 1.0);    // within the cone, finite
}

// ---------------------------------------------------------------- pruning

namespace {

/* A contact held at overlap kZ with tangential force 0.3 mu P, then vibrating: a damped
   oscillation of the tangential shift (amplitude a0 K kZ, 40 steps a period, decaying by
   `decay` a period) and, with `normal`, of the overlap (1 % of it, another period). Then
   `tail` steps of a random path with loading, unloading, reversals and full sliding. */
std::vector<Move> vibration_then_random(const Material &m, bool collinear, bool normal, double a0,
                                        double decay, int periods, int tail)
{
  const double K = K_of(m);
  std::vector<Move> path = {{kZ, 0.3 * 0.5 * K * kZ, 0.0}};
  double s_prev = 0.0;
  const int n = 40 * periods;
  for (int i = 1; i <= n; ++i) {
    const double t = i / 40.0, amp = a0 * K * kZ * std::pow(decay, t);
    const double s = amp * std::sin(2.0 * M_PI * t), ds = s - s_prev;
    s_prev = s;
    const double dz = normal ? 0.01 * kZ * std::pow(decay, t) * std::sin(2.0 * M_PI * 0.37 * t)
                             : 0.0;
    const double ang = collinear ? 0.0 : 0.7 * std::sin(2.0 * M_PI * 0.13 * t);
    path.push_back({kZ + dz, ds * std::cos(ang), ds * std::sin(ang)});
  }
  std::vector<Move> rest = random_path(5u, tail, m, collinear, 0.0);
  for (Move &mv : rest) mv.z = std::max(mv.z, 0.25 * kZ);    // stays closed: keeps the history
  path.insert(path.end(), rest.begin(), rest.end());
  return path;
}

struct PruneRun {
  double max_err = 0.0;         // largest |T - T_exact| / (mu P)
  double max_excess = 0.0;      // largest (|T - T_exact| - spent.force) / (mu P)
  double max_over_tol = 0.0;    // largest |T - T_exact| / (prune mu P_r), P_r: see run_pruned()
  double max_spent = 0.0;       // largest spent.force / (mu P)
  int max_n_exact = 0, max_n = 0, last_n = 0;
  long pruned = 0, restores = 0;
  std::vector<int> n_pruned, n_exact;    // history lengths, step by step
};

/* The pruned contact (tolerance `prune`) against the exact one (prune 0) along `path`, at every
   step: the force error against the rule's own running bound (spent.force, plus 4 eps mu P of
   rounding), and against the stated guarantee, prune mu P_r with P_r the largest normal force at
   a step that removed points since the contact last opened (the rule keeps spent.force within
   prune mu P at each removal; the bound never grows between removals). restores: steps at which
   a full slide lowered spent.force. */
PruneRun run_pruned(const Material &m, const std::vector<Move> &path, double prune)
{
  Contact exact(m, 8 * path.size() + 8), pruned(m, 8 * path.size() + 8);
  pruned.prune = prune;
  pruned.stored = 0.0;
  PruneRun out;
  double P_r = 0.0;
  for (const Move &mv : path) {
    exact.go(mv.z, mv.dx, mv.dy);
    const double spent_before = pruned.spent.force;
    const StepResult r = pruned.go(mv.z, mv.dx, mv.dy);
    EXPECT_EQ(check_invariants(m, pruned.st), INV_OK);
    const double P = hertz(m, mv.z), muP = m.mu * P;
    if (!(mv.z > 0.0)) P_r = 0.0;
    if (r.pruned > 0) P_r = std::max(P_r, P);
    if (r.kind == STEP_SLIDING && pruned.spent.force < spent_before) ++out.restores;
    if (!(mv.z > 0.0)) continue;
    const double err = dist(pruned.T(), exact.T().x, exact.T().y);
    const double rounding = 4.0 * demc::jaeger::detail::kEps * muP;
    out.max_err = std::max(out.max_err, err / muP);
    out.max_excess = std::max(out.max_excess, (err - pruned.spent.force - rounding) / muP);
    if (P_r > 0.0)
      out.max_over_tol = std::max(out.max_over_tol, (err - rounding) / (prune * m.mu * P_r));
    else
      out.max_over_tol = std::max(out.max_over_tol, err > rounding ? 1e300 : 0.0);
    out.max_spent = std::max(out.max_spent, pruned.spent.force / muP);
    out.max_n_exact = std::max(out.max_n_exact, exact.st.n);
    out.max_n = std::max(out.max_n, pruned.st.n);
    out.pruned += r.pruned;
    out.n_pruned.push_back(pruned.st.n);
    out.n_exact.push_back(exact.st.n);
  }
  out.last_n = pruned.st.n;
  return out;
}

void print_prune_run(const char *what, double prune, const PruneRun &r)
{
  std::printf("[ measure  ] %s, prune %.0e: max |T - T_exact| %.2e mu P (running bound up to "
              "%.2e mu P; error / (prune mu P_r) %.2e); longest history %d (exact %d), %ld points "
              "pruned, %ld restores by full slides\n",
              what, prune, r.max_err, r.max_spent, r.max_over_tol, r.max_n, r.max_n_exact, r.pruned,
              r.restores);
}

/* Loading under a tangential vibration: the overlap grows by `load` of itself over the path while
   the tangential shift oscillates with amplitude `amp` K z (falling by `decay` a period) about a
   mean that turns (turning) or not; every reversal leaves a point on a rising history. */
std::vector<Move> loaded_vibration(const Material &m, bool collinear, int periods,
                                   double amp = 0.08, double decay = 0.98, double load = 0.25)
{
  const double K = K_of(m);
  std::vector<Move> path = {{kZ, 0.2 * K * kZ, 0.0}};
  double s_prev = 0.0;
  const int n = 40 * periods;
  for (int i = 1; i <= n; ++i) {
    const double t = i / 40.0, a = amp * K * kZ * std::pow(decay, t);
    const double s = a * std::sin(2.0 * M_PI * t), ds = s - s_prev;
    s_prev = s;
    const double ang = collinear ? 0.0 : 0.5 * std::sin(2.0 * M_PI * 0.05 * t);
    path.push_back({kZ * (1.0 + load * i / n), ds * std::cos(ang), ds * std::sin(ang)});
  }
  return path;
}

std::vector<Move> turning_slip(unsigned seed, int n, const Material &m);    // (below)

/* Decaying vibrations at rest, each ended by a full slide in a direction that turns from one
   to the next; push: the slide's length over the cone's shift K z. A slide far longer than the
   springs' spent shift lowers the spent budget (full_slide_restores()). */
std::vector<Move> vibrations_and_slides(const Material &m, bool collinear, int rounds,
                                        double push_length)
{
  const double K = K_of(m);
  std::vector<Move> path;
  for (int k = 0; k < rounds; ++k) {
    const double dir = collinear ? (k % 2 ? -1.0 : 1.0) : 0.0, ang = collinear ? 0.0 : 1.1 * k;
    const double push = push_length * K * kZ;
    path.push_back({kZ, dir != 0.0 ? dir * push : push * std::cos(ang),
                    dir != 0.0 ? 0.0 : push * std::sin(ang)});
    std::vector<Move> v = vibration_then_random(m, collinear, true, 0.05, 0.97, 250, 0);
    path.insert(path.end(), v.begin() + 1, v.end());
  }
  return path;
}

}    // namespace

/* The whole-run bound on replayed single-contact paths: decaying vibrations with random moves
   after them, loading under a vibration, vibrations ended by full slides, turning slip; collinear
   (the kernel is then the exact spring field, for which the bound is proven) and turning. At
   every step the pruned force must lie within the rule's running bound spent.force of the exact
   one, and within prune mu P_r; a bound too small by a factor (or a cost taken from the wrong
   segment) breaks it at the large tolerances, where the errors are far above rounding. */
TEST(JaegerPrune, ReplayedPathsStayWithinTheWholeRunBound)
{
  const Material m = glass();
  struct Case {
    const char *what;
    std::vector<Move> path;
    double capped_from;    // the tolerance from which the histories stay at the rule's length
  };
  std::vector<Case> cases;
  for (bool collinear : {true, false}) {
    cases.push_back({collinear ? "decaying, collinear" : "decaying, turning",
                     vibration_then_random(m, collinear, true, 0.05, 0.9, 150, 3000), 0.0});
    // (each reversal at a new load level changes later forces by more: a budget of 1e-5 mu P
    // holds a few of them; the default's, 1e-3 mu P, all the rule asks for)
    cases.push_back({collinear ? "loaded, collinear" : "loaded, turning",
                     loaded_vibration(m, collinear, 300), 1e-3});
    cases.push_back({collinear ? "slides, collinear" : "slides, turning",
                     vibrations_and_slides(m, collinear, 4, 2.0), 1e-3});
    cases.push_back({collinear ? "long slides, collinear" : "long slides, turning",
                     vibrations_and_slides(m, collinear, 4, 1e4), 1e-3});
  }
  cases.push_back({"turning slip", turning_slip(3u, 6000, m), 0.0});
  for (const Case &c : cases)
    for (double prune : {1e-5, 1e-3, demc::jaeger::kDefaultPrune}) {
      const PruneRun r = run_pruned(m, c.path, prune);
      print_prune_run(c.what, prune, r);
      EXPECT_LE(r.max_excess, 0.0) << c.what << ", prune " << prune;
      EXPECT_LE(r.max_over_tol, 1.0) << c.what << ", prune " << prune;
      if (prune >= c.capped_from)
        EXPECT_LE(r.max_n, demc::jaeger::kPruneLength + demc::jaeger::kPruneSlack)
            << c.what << ", prune " << prune;
    }
}

/* A slowly decaying vibration (3 % a period, 900 periods, 36,000 steps: the amplitude falls from
   5 % of the cone to 6e-14 of it), collinear and turning: the exact history keeps a point for
   every reversal (470 at the end); the pruned one at the default tolerance stays at the rule's
   length (kPruneLength + kPruneSlack) over the last two thirds: the smallest reversals' costs fall
   geometrically, so their sum stays within the budget, and the whole-run bound holds. */
TEST(JaegerPrune, DecayingVibrationPlateaus)
{
  const Material m = glass();
  const int cap = demc::jaeger::kPruneLength + demc::jaeger::kPruneSlack;
  for (bool collinear : {true, false}) {
    const std::vector<Move> path = vibration_then_random(m, collinear, true, 0.05, 0.97, 900, 0);
    const PruneRun r = run_pruned(m, path, demc::jaeger::kDefaultPrune);
    const std::size_t third = r.n_pruned.size() / 3;
    const int middle =
        *std::max_element(r.n_pruned.begin() + third, r.n_pruned.begin() + 2 * third);
    const int last = *std::max_element(r.n_pruned.begin() + 2 * third, r.n_pruned.end());
    print_prune_run(collinear ? "decaying vibration, collinear" : "decaying vibration, turning",
                    demc::jaeger::kDefaultPrune, r);
    EXPECT_LE(middle, cap);
    EXPECT_LE(last, cap);
    EXPECT_GT(r.n_exact.back(), r.n_exact[2 * third] + 100);
    EXPECT_LE(r.max_excess, 0.0);
    EXPECT_LE(r.max_over_tol, 1.0);
  }
}

/* A load that falls after the budget was spent: a loaded vibration (amplitude 0.3 of the cone,
   steady; the overlap rising by a quarter, every reversal a point), then the same vibration again
   from a quarter of the first overlap (the normal force at an eighth of its largest), collinear.
   Relative to the current normal force the spent budget is overdrawn there (up to 1.9 times
   prune mu P): a budget scaled by it forbids the removals, and the history grows with the exact
   one (122 points with the rules of the code before, the exact history 602). Relative to the
   largest normal force at a removal, the rule goes on pruning: the history stays at the rule's
   length, and the whole-run bound holds against that force (P_r in run_pruned()). */
TEST(JaegerPrune, FallenLoadKeepsPruning)
{
  const Material m = glass();
  // a tolerance whose budget this path's removals overdraw at the fallen load (the default's not)
  const double prune = 1e-3;
  std::vector<Move> path = loaded_vibration(m, true, 300, 0.3, 1.0);
  const std::vector<Move> again = loaded_vibration(m, true, 300, 0.3, 1.0);
  for (std::size_t i = 1; i < again.size(); ++i)
    path.push_back({0.25 * again[i].z, again[i].dx, again[i].dy});
  const PruneRun r = run_pruned(m, path, prune);
  print_prune_run("loaded vibration, then again at a fallen load", prune, r);
  EXPECT_GT(r.max_n_exact, 500);
  EXPECT_GT(r.max_spent, prune) << "the load did not fall below the budget's";
  EXPECT_LE(r.max_n, demc::jaeger::kPruneLength + demc::jaeger::kPruneSlack);
  EXPECT_LE(r.max_excess, 0.0);
  EXPECT_LE(r.max_over_tol, 1.0);
}

/* The search's seal (PruneSpent.sealed: the points below it are skipped) only saves time: the
   contact that keeps its seal must prune exactly as one whose seal is cleared before every step
   (each search over the whole history), point for point. The paths, collinear and turning: a
   history loaded under a vibration past the rule's length (its dear reversals kept, the budget's
   load set; first, or not, a vibration at a low load, whose points become cheap once the budget
   has grown), unloaded by a fifth and loaded again to just below its largest load (each reversal a
   new point: searches above the seal), then loaded beyond it (the budget grows: the points below
   the seal are looked at again); and vibrations ended by long full slides. Counted, so that the
   comparison is not empty: searches that started above a seal, and searches with a valid seal
   that the grown load reopened and that removed points. Checked when written: a seal kept while
   the load rose beyond the budget's differs at step 8,411; a seal at the top's neighbour, which the
   next push moves, is never found again (no search above a seal). */
TEST(JaegerPrune, SealedSearchPrunesAsTheFullSearch)
{
  namespace dj = demc::jaeger::detail;
  const Material m = glass();
  std::vector<std::vector<Move>> paths;
  for (bool collinear : {true, false}) {
    for (bool first_low : {false, true}) {
      std::vector<Move> path = {{(first_low ? 0.5 : 1.0) * kZ, 0.2 * K_of(m) * kZ, 0.0}};
      const double z_top = 2.0 * kZ;
      for (const auto &[from, to, periods, amp] :
           {std::tuple(0.25, 0.3, first_low ? 150 : 0, 0.01), std::tuple(0.5, 1.0, 300, 0.05),
            std::tuple(0.8, 0.99, 100, 0.05), std::tuple(0.99, 1.5, 50, 0.05)}) {
        const std::vector<Move> more = loaded_vibration(m, collinear, periods, amp, 1.0, 0.0);
        for (std::size_t i = 1; i < more.size(); ++i)
          path.push_back(
              {z_top * (from + (to - from) * i / (more.size() - 1.0)), more[i].dx, more[i].dy});
      }
      paths.push_back(path);
    }
  }
  paths.push_back(vibrations_and_slides(m, false, 3, 1e4));
  long sealed_searches = 0, reopened = 0;
  for (const std::vector<Move> &path : paths) {
    Contact sealed(m, 8 * path.size() + 8), full(m, 8 * path.size() + 8);
    // a tolerance whose budget is spent on these paths, so that searches remove nothing and seal
    sealed.prune = full.prune = 1e-3;
    for (std::size_t i = 0; i < path.size(); ++i) {
      const Move &mv = path[i];
      const bool seal_valid = dj::first_unsealed(sealed.st, sealed.spent) > 0;
      const bool load_above = hertz(m, mv.z) > sealed.spent.load;
      const double sealed_before = sealed.spent.sealed;
      full.spent.sealed = 0.0;
      const StepResult rs = sealed.go(mv.z, mv.dx, mv.dy);
      full.go(mv.z, mv.dx, mv.dy);
      // a search seals anew (a new top) or removes points
      const bool searched = sealed.spent.sealed != sealed_before || rs.pruned > 0;
      if (seal_valid && searched && !load_above) ++sealed_searches;
      if (seal_valid && load_above && rs.pruned > 0) ++reopened;
      ASSERT_EQ(sealed.st.n, full.st.n) << "step " << i;
      for (int k = 0; k < sealed.st.n; ++k) {
        const Point a = sealed.st.pts[k], b = full.st.pts[k];
        ASSERT_TRUE(a.z == b.z && a.P == b.P && a.tx == b.tx && a.ty == b.ty)
            << "step " << i << ", point " << k;
      }
      ASSERT_EQ(sealed.spent.force, full.spent.force) << "step " << i;
    }
  }
  std::printf("[ measure  ] searches above a seal %ld, sealed searches reopened by a grown load "
              "that removed points %ld\n",
              sealed_searches, reopened);
  EXPECT_GE(sealed_searches, 40);
  EXPECT_GT(reopened, 0);
}

namespace {

/* `path`, then a slide at its last overlap, `steps` steps of 3e-4 K z each at `angle` to x. */
std::vector<Move> then_slide(const Material &m, std::vector<Move> path, double angle, int steps)
{
  const double z = path.back().z, d = 3e-4 * K_of(m) * z;
  for (int i = 0; i < steps; ++i) path.push_back({z, d * std::cos(angle), d * std::sin(angle)});
  return path;
}

/* The spring field of a history (the method of dimensionality reduction), written apart from the
   kernel: the displacements u(x) = s - s*(x^2/R) of the springs at the radii x (ascending, within
   the contact), from the segments' slopes kappa dT/dP, walked from the top (u = 0) down. */
std::vector<Vec2> spring_field(const Material &m, const Stack &st, const std::vector<double> &x)
{
  std::vector<Vec2> u(x.size());
  const double kappa = m.Estar / m.Gstar;
  const auto slope = [&](int k) {
    const Point hi = st.pts[k], lo = k > 0 ? st.pts[k - 1] : Point{0.0, 0.0, 0.0, 0.0};
    const double f = kappa / (hi.P - lo.P);
    return Vec2{f * (hi.tx - lo.tx), f * (hi.ty - lo.ty)};
  };
  int k = st.n - 1;
  Vec2 d = {0.0, 0.0};    // s - s*(z_k)
  for (std::size_t i = x.size(); i-- > 0;) {
    const double g = x[i] * x[i] / m.R;
    while (k > 0 && g < st.pts[k - 1].z) {
      d = d + (st.pts[k].z - st.pts[k - 1].z) * slope(k);
      --k;
    }
    u[i] = d + (st.pts[k].z - g) * slope(k);
  }
  return u;
}

/* The L1 distance of two histories' spring fields at the same overlap, 2 G* integral |du| dx: the
   midpoint rule with 8 nodes on each interval between the radii of the two histories' points,
   where du is linear in x^2 (smooth), so that a narrow band of difference is resolved too. */
double field_distance(const Material &m, const Stack &a, const Stack &b)
{
  std::vector<double> ends = {0.0};
  for (const Stack *st : {&a, &b})
    for (int k = 0; k < st->n; ++k) ends.push_back(std::sqrt(m.R * st->pts[k].z));
  std::sort(ends.begin(), ends.end());
  std::vector<double> x, w;
  for (std::size_t j = 1; j < ends.size(); ++j)
    for (int i = 0; i < 8; ++i) {
      x.push_back(ends[j - 1] + (i + 0.5) / 8.0 * (ends[j] - ends[j - 1]));
      w.push_back((ends[j] - ends[j - 1]) / 8.0);
    }
  const std::vector<Vec2> ua = spring_field(m, a, x), ub = spring_field(m, b, x);
  double sum = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i)
    sum += w[i] * std::hypot(ua[i].x - ub[i].x, ua[i].y - ub[i].y);
  return 2.0 * m.Gstar * sum;
}

/* The pruned contact against the exact one along `path`, with the distance of their spring
   fields at every step. */
struct FieldRun {
  double max_err = 0.0, max_excess = 0.0;    // as in PruneRun
  double max_field_excess = 0.0;             // largest (field distance - spent.force) / (mu P)
  double max_field_over_spent = 0.0;         // largest field distance / spent.force
  double max_force_over_field = 0.0;         // largest |T - T_exact| / field distance
  double max_over_tol = 0.0;    // largest |T - T_exact| / (prune mu P) (P at the removals, below)
  long excess_steps = 0;        // steps at which the force left the spent sum
  long excess_not_slip = 0;     // ... of them, steps that were not partial slips in both contacts
};

FieldRun run_with_fields(const Material &m, const std::vector<Move> &path, double prune)
{
  Contact exact(m, 8 * path.size() + 8), pruned(m, 8 * path.size() + 8);
  pruned.prune = prune;
  FieldRun out;
  double P_r = 0.0;
  for (const Move &mv : path) {
    const StepResult re = exact.go(mv.z, mv.dx, mv.dy), rp = pruned.go(mv.z, mv.dx, mv.dy);
    const double muP = m.mu * hertz(m, mv.z), rounding = 4.0 * demc::jaeger::detail::kEps * muP;
    if (rp.pruned > 0) P_r = std::max(P_r, rp.P);
    const double err = dist(pruned.T(), exact.T().x, exact.T().y);
    const double field = field_distance(m, pruned.st, exact.st);
    out.max_err = std::max(out.max_err, err / muP);
    out.max_excess = std::max(out.max_excess, (err - pruned.spent.force - rounding) / muP);
    out.max_field_excess = std::max(out.max_field_excess, (field - pruned.spent.force) / muP);
    if (pruned.spent.force > 0.0)
      out.max_field_over_spent = std::max(out.max_field_over_spent, field / pruned.spent.force);
    if (err > rounding) out.max_force_over_field = std::max(out.max_force_over_field, err / field);
    if (P_r > 0.0) out.max_over_tol = std::max(out.max_over_tol, err / (prune * m.mu * P_r));
    if (err > pruned.spent.force + rounding) {
      ++out.excess_steps;
      if (re.kind != STEP_SLIP || rp.kind != STEP_SLIP) ++out.excess_not_slip;
    }
  }
  return out;
}

void print_field_run(const char *what, double prune, const FieldRun &r)
{
  std::printf("[ measure  ] %s, prune %.0e: max |T - T_exact| %.2e mu P (%.2f prune mu P_r), "
              "beyond the spent sum by up to %.2e mu P at %ld steps (%ld not partial slips); "
              "field distance beyond it by up to %.2e mu P (%.3g times it); |dT| / field "
              "distance up to %.4f\n",
              what, prune, r.max_err, r.max_over_tol, r.max_excess, r.excess_steps,
              r.excess_not_slip, r.max_field_excess, r.max_field_over_spent,
              r.max_force_over_field);
}

}    // namespace

/* Issue 54's open item, reproduced on one contact: a collinear loaded vibration (its history pruned
   along x), then a slide at its last overlap. Along x the path stays collinear, the kernel is the
   spring field and the whole-run bound is proven: the fields' L1 distance, measured spring by
   spring (spring_field(), apart from the kernel), and so the force error stay within the spent
   sum. Across (at right angles) Jäger's planar slip step gives the whole slipping annulus the
   direction e = (s' - s*(z*)) / |s' - s*(z*)| of its apex spring alone: the two histories'
   difference at that one spring is copied, scaled by (z' - g) / (z' - z*), onto every spring above
   it, springs that were equal in both, so the fields' L1 distance, and the force error with it,
   leave the spent sum while the apex crosses the pruned points (bench/HISTORY.md, 2026-11-29). No
   bound in the spent costs holds for the planar rule (doc/pair_gran_jaeger.rst): the across cases
   assert the excursion (with the field distance beyond the spent sum too, so it is the fields that
   part, not a force read wrong), that it happens only at partial slip steps, and that the force
   error never exceeds the fields' distance (T = 2 G* integral u dx; 1e-3 allows the midpoint
   rule of field_distance()). When a bound for the planar rule is
   found, the excursions are to become EXPECT_LE. */
TEST(JaegerPrune, SlideAcrossAPrunedHistoryLeavesTheSpentSum)
{
  const Material m = glass();
  const std::vector<Move> loaded = loaded_vibration(m, true, 100);
  for (double prune : {1e-5, demc::jaeger::kDefaultPrune}) {
    const FieldRun r = run_with_fields(m, then_slide(m, loaded, 0.0, 1500), prune);
    print_field_run("loaded vibration, then a slide along it", prune, r);
    EXPECT_LE(r.max_excess, 0.0) << prune;
    EXPECT_LE(r.max_field_over_spent, 1.0) << prune;
    EXPECT_LE(r.max_over_tol, 1.0) << prune;
  }
  struct Across {
    const char *what;
    std::vector<Move> path;
    double prune;
  };
  const Across cases[] = {
      {"steady loaded vibration (0.2 of the cone), then a slide across it",
       then_slide(m, loaded_vibration(m, true, 100, 0.2, 1.0, 0.05), 0.5 * M_PI, 1500),
       demc::jaeger::kDefaultPrune},
      {"steady loaded vibration, then a slide across it",
       then_slide(m, loaded_vibration(m, true, 100, 0.3, 1.0, 0.05), 0.5 * M_PI, 1500),
       demc::jaeger::kDefaultPrune}};
  for (const Across &c : cases) {
    const FieldRun r = run_with_fields(m, c.path, c.prune);
    print_field_run(c.what, c.prune, r);
    EXPECT_GT(r.max_excess, 0.0) << c.what;
    EXPECT_GT(r.max_field_over_spent, 1.0) << c.what;
    EXPECT_EQ(r.excess_not_slip, 0) << c.what;
    EXPECT_LE(r.max_force_over_field, 1.0 + 1e-3) << c.what;
  }
}

namespace {

/* Two histories of two segments: a slip segment along x from the origin to z0 (slope K, or
   (1 - delta) K in the second), then a segment of slope 0.9 K at angle `angle` to x up to z1. */
struct TwoSegments {
  Point pts[4];
  Stack st;
  TwoSegments(const Material &m, double z0, double z1, double angle, double delta) : st{pts, 2, 4}
  {
    const double P0 = hertz(m, z0), P1 = hertz(m, z1), dT = 0.9 * m.mu * (P1 - P0);
    pts[0] = {z0, P0, (1.0 - delta) * m.mu * P0, 0.0};
    pts[1] = {z1, P1, pts[0].tx + dT * std::cos(angle), dT * std::sin(angle)};
  }
};

}    // namespace

/* Why no bound in the pruning's spent costs holds for Jäger's planar rule (bench/HISTORY.md,
   2026-11-29): a partial slip gives the annulus the direction of its apex spring, and the apex's
   depth is ill-conditioned where h(g) = K (z' - g) - |w(g)| is nearly flat, i.e. in a slip segment
   whose trial displacement w runs nearly along it. With w = (L - c, W_y) at the apex g*,
   L = K (z' - g*), h falls by only about K W_y^2 / (2 L^2) per unit depth there, so a change of
   the segment's slope by delta K, which moves h by up to delta K (z0 - g), moves the apex by
   about 2 delta (z0 - g*) L^2 / W_y^2 and turns the slip direction by 2 K delta (z0 - g*) / W_y:
   with the smallest W_y that keeps the moved apex in the segment, W_y^2 = 2 delta (z0 - g*) L^2
   / g*, the force after one step differs by O(sqrt(delta)) mu P while the fields differed by
   O(delta) mu P (L1, field_distance()): no Lipschitz factor, let alone 1, bounds the step, and
   over delta = 1e-4 ... 1e-8 the ratio grows as delta^(-1/2) (by 100 over the four decades; 50
   ... 200 allows the derivation's leading-order terms). Collinear (the second segment along x,
   the steps along x) the step is the spring field's, which never moves fields apart: the force
   after lies within the fields' distance before. */
TEST(JaegerPrune, PlanarSlipStepIsNotLipschitz)
{
  const Material m = glass();
  const double K = K_of(m), z0 = 0.5 * kZ, z1 = kZ, g_apex = 0.5 * z0, L = K * (z1 - g_apex);
  const auto amplification = [&](double delta) {
    TwoSegments a(m, z0, z1, 0.3, 0.0), b(m, z0, z1, 0.3, delta);
    const double before = field_distance(m, a.st, b.st);
    const double Wy = std::sqrt(2.0 * delta * (z0 - g_apex) / g_apex) * L;
    const double c = Wy * Wy / (L + std::sqrt(L * L - Wy * Wy));    // |w(g*)| = L
    const Vec2 m_B = {0.9 * K * std::cos(0.3), 0.9 * K * std::sin(0.3)};
    const Vec2 ds = Vec2{K * (z1 - z0) - c, Wy} - (z1 - z0) * m_B;
    const StepResult ra = step(m, a.st, z1, ds, 0.0), rb = step(m, b.st, z1, ds, 0.0);
    EXPECT_EQ(ra.kind, STEP_SLIP);
    EXPECT_EQ(rb.kind, STEP_SLIP);
    const double after = dist(ra.T, rb.T.x, rb.T.y);
    std::printf("[ measure  ] planar slip step, delta %.0e: |dT| after %.3e mu P, fields' distance "
                "before %.3e mu P: %.4g times\n",
                delta, after / (m.mu * ra.P), before / (m.mu * ra.P), after / before);
    return after / before;
  };
  const double coarse = amplification(1e-4), fine = amplification(1e-8);
  EXPECT_GT(coarse, 1.0);
  EXPECT_GE(fine / coarse, 50.0);
  EXPECT_LE(fine / coarse, 200.0);
  for (double dx : {-0.3, -0.01, 0.01, 0.2, 0.6}) {
    TwoSegments a(m, z0, z1, 0.0, 0.0), b(m, z0, z1, 0.0, 1e-4);
    const double before = field_distance(m, a.st, b.st);
    const StepResult ra = step(m, a.st, z1, {dx * K * kZ, 0.0}, 0.0);
    const StepResult rb = step(m, b.st, z1, {dx * K * kZ, 0.0}, 0.0);
    EXPECT_LE(dist(ra.T, rb.T.x, rb.T.y), before * (1.0 + 1e-6)) << dx;
  }
}

namespace {

/* The pruning test's bound, 2 G* [|du_mid| w_hi + max(|du_mid|, |du_lo|) w_lo + |du_lo| a_lo]
   (jaeger_contact.h, struct Removal), summed at once as the rule states it, for the point
   below the top of `st`. */
double full_removal_bound(const Material &m, const Stack &st)
{
  const int k = st.n - 2;
  const Point lo = point_below(st, k), mid = st.pts[k], hi = st.pts[k + 1];
  const Vec2 m_lo = read_slope(m, lo, mid).m, m_hi = read_slope(m, mid, hi).m;
  const Vec2 m_chord = read_slope(m, lo, hi).m;
  const double dz_lo = mid.z - lo.z, dz_hi = hi.z - mid.z;
  const Vec2 d_mid = dz_hi * m_hi, d_lo = d_mid + dz_lo * m_lo;
  const Vec2 du_mid = dz_hi * m_chord - d_mid, du_lo = (dz_lo + dz_hi) * m_chord - d_lo;
  const double inv_R = 1.0 / m.R;
  const double a_hi = contact_radius(m, hi.z), a_mid = contact_radius(m, mid.z);
  const double a_lo = contact_radius(m, lo.z);
  const double w_hi = dz_hi / (inv_R * (a_hi + a_mid)), w_lo = dz_lo / (inv_R * (a_mid + a_lo));
  const double l_mid = length(du_mid), l_lo = length(du_lo);
  return 2.0 * m.Gstar * (l_mid * w_hi + std::max(l_mid, l_lo) * w_lo + l_lo * a_lo);
}

/* The states of a contact along `path` (no pruning, so that the histories grow). */
template <class Visit>
void visit_histories(const Material &m, const std::vector<Move> &path, Visit visit)
{
  Contact c(m, 8 * path.size() + 8);
  for (const Move &mv : path) {
    c.go(mv.z, mv.dx, mv.dy);
    if (c.st.n >= 2) visit(c.st);
  }
}

/* Steady sliding whose direction turns a little each step, with small vibrations of the overlap
   and reversals now and then: each step leaves an apex on a slip segment below the top, as in
   the long histories of a sheared packing, whose top segments are mostly slip segments. */
std::vector<Move> turning_slip(unsigned seed, int n, const Material &m)
{
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  const double K = K_of(m);
  std::vector<Move> path;
  double ang = 0.0;
  for (int i = 0; i < n; ++i) {
    ang += 0.05 * (2.0 * U(rng) - 1.0) + (U(rng) < 0.05 ? M_PI : 0.0);
    const double z = kZ * (1.0 + 0.02 * std::sin(0.13 * i) + 1e-3 * U(rng));
    const double mag = K * kZ * 1e-3 * (0.2 + 3.0 * U(rng));
    path.push_back({z, mag * std::cos(ang), mag * std::sin(ang)});
  }
  return path;
}

/* The largest budget that removal_exceeds_surely() says the bound of the point below the top
   exceeds (bisection on [0, hi]: the test is monotone in the budget), -1 where it says it of
   none. */
double surely_exceeded_budget(const Material &m, const Stack &st, double hi)
{
  const int k = st.n - 2;
  const Point lo = point_below(st, k), mid = st.pts[k], top = st.pts[k + 1];
  const auto surely = [&](double budget) {
    return demc::jaeger::detail::removal_exceeds_surely(m, lo, mid, top, budget);
  };
  if (!surely(0.0)) return -1.0;
  double a = 0.0, b = hi;
  if (surely(b)) return b;
  for (int i = 0; i < 80; ++i) {
    const double c = 0.5 * (a + b);
    (surely(c) ? a : b) = c;
  }
  return a;
}

/* Histories of vibrations, random paths and turning slip: every state with two segments or
   more. */
template <class Visit> void visit_prune_histories(const Material &m, Visit visit)
{
  for (bool collinear : {true, false})
    visit_histories(m, vibration_then_random(m, collinear, true, 0.05, 0.9, 60, 500), visit);
  for (unsigned seed : {3u, 4u}) {
    visit_histories(m, random_path(seed, 1500, m, false, 0.0), visit);
    visit_histories(m, turning_slip(seed, 3000, m), visit);
  }
}

}    // namespace

/* The pruning test takes its bound in stages and keeps a point as soon as a lower bound of it
   exceeds the budget: removal_exceeds_surely() (rigorous, rounding included), then the term of
   the springs below lo. Its decision must be the one-stage sum's for every budget, the budgets
   at the bound, at that term and at the first stage's limit to the last bit included, and a
   point it removes must carry the same bound (the budget left for the next removal). */
TEST(JaegerPrune, StagedTestDecidesAsTheFullBound)
{
  const Material m = glass();
  long states = 0, early = 0, mismatches = 0, bound_diffs = 0;
  const auto check = [&](const Stack &st) {
    ++states;
    const double B = full_removal_bound(m, st);
    // the term of the springs below lo, as the second stage forms it
    const int k = st.n - 2;
    const Point lo = point_below(st, k), mid = st.pts[k], hi = st.pts[k + 1];
    const Vec2 m_chord = read_slope(m, lo, hi).m;
    const Vec2 d_lo =
        (hi.z - mid.z) * read_slope(m, mid, hi).m + (mid.z - lo.z) * read_slope(m, lo, mid).m;
    const Vec2 du_lo = ((mid.z - lo.z) + (hi.z - mid.z)) * m_chord - d_lo;
    const double below = 2.0 * m.Gstar * (length(du_lo) * contact_radius(m, lo.z));
    EXPECT_LE(below, B);
    const double first = surely_exceeded_budget(m, st, 2.0 * B);
    const double inf = std::numeric_limits<double>::infinity();
    for (double budget : {0.5 * B, B, std::nextafter(B, 0.0), std::nextafter(B, inf), 2.0 * B,
                          below, std::nextafter(below, 0.0), std::nextafter(below, inf), first,
                          std::nextafter(first, inf)}) {
      if (budget < 0.0) continue;
      demc::jaeger::detail::Removal r;
      const bool fits = demc::jaeger::detail::removal_fits(m, st, st.n - 2, budget, r);
      if (fits != (B <= budget)) ++mismatches;
      if (fits && r.bound != B) ++bound_diffs;
      if (!fits && below > budget) ++early;
    }
  };
  visit_prune_histories(m, check);
  std::printf("[ measure  ] %ld histories, 8 to 10 budgets each: %ld budgets under the term below "
              "lo\n",
              states, early);
  EXPECT_GT(states, 8000);
  EXPECT_GT(early, states / 2);
  EXPECT_EQ(mismatches, 0);
  EXPECT_EQ(bound_diffs, 0);
}

/* removal_exceeds_surely() is a lower bound of the computed bound: the largest budget it says
   the bound exceeds must be below that bound, in every state. It should say so for most points
   whose bound is well above the budget (those a long history keeps), the slip segments of
   turning slip included: at a budget of a sixteenth of the bound, in most states. */
TEST(JaegerPrune, FirstStageIsBelowTheBound)
{
  const Material m = glass();
  long states = 0, over = 0, covered = 0;
  double tightest = 0.0;
  visit_prune_histories(m, [&](const Stack &st) {
    const double B = full_removal_bound(m, st);
    if (!(B > 0.0)) return;
    ++states;
    const double first = surely_exceeded_budget(m, st, 4.0 * B);
    if (first >= B) ++over;
    if (first >= B / 16.0) ++covered;
    tightest = std::max(tightest, first / B);
  });
  std::printf("[ measure  ] %ld histories: first stage decides at a sixteenth of the bound in "
              "%ld; its largest budget is at most %.3f of the bound\n",
              states, covered, tightest);
  EXPECT_EQ(over, 0);
  EXPECT_LT(tightest, 1.0);
  EXPECT_GT(covered, states / 2);
}

/* segment_slope() skips read_slope()'s square root where the slope is well inside the cone; its
   slope must be read_slope()'s to the bit, at the cone and around the threshold of the skip. */
TEST(JaegerPrune, SlopeWithoutSquareRootIsReadSlopes)
{
  const Material m = glass();
  std::mt19937_64 rng(11u);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  const double P0 = hertz(m, kZ);
  long differ = 0, clipped = 0, skipped = 0;
  for (int i = 0; i < 200000; ++i) {
    const double dP = P0 * std::pow(10.0, -12.0 * U(rng));
    // |dT| / (mu dP) spread around the threshold (0.99) and the cone (1)
    const double ratio = (i % 2 == 0) ? 0.95 + 0.1 * U(rng) : 1.0 + 1e-12 * (2.0 * U(rng) - 1.0);
    const double ang = 2.0 * M_PI * U(rng), dT = ratio * m.mu * dP;
    const Point lo = {kZ, P0, 0.3 * m.mu * P0, -0.1 * m.mu * P0};
    const Point hi = {1.001 * kZ, P0 + dP, lo.tx + dT * std::cos(ang), lo.ty + dT * std::sin(ang)};
    const Vec2 a = segment_slope(m, lo, hi), b = read_slope(m, lo, hi).m;
    if (a.x != b.x || a.y != b.y) ++differ;
    const Vec2 raw = unclipped_slope(m, lo, hi);
    if (length(raw) > cone_slope(m)) ++clipped;
    if (dot(raw, raw) <= 0.98 * cone_slope(m) * cone_slope(m)) ++skipped;
  }
  EXPECT_EQ(differ, 0);
  EXPECT_GT(clipped, 10000);
  EXPECT_GT(skipped, 10000);
}

/* The driver's count of merges forced by a full history (jaeger_driver.h, forced_merges()).
   Loading in steps of equal overlap whose tangential increment, a fifth of the cone, turns by
   half a radian each step: every step is an elastic push of a new slope, so a history of
   capacity C pushed N times merges N - C times for the capacity (beta 0: nothing else merges).
   With beta 2 every push merges with the top segment by the memory approximation: the history
   never fills, and the driver counts none of those merges as forced. */
TEST(JaegerDriver, CountsOnlyTheMergesTheCapacityForces)
{
  const Material m = glass();
  const int C = 5, N = 40;
  for (const double beta : {0.0, 2.0}) {
    Contact c(m, C, beta);
    long forced = 0, merges = 0;
    for (int k = 1; k <= N; ++k) {
      const double z = 0.01 * kZ * k, ds = 0.2 * K_of(m) * 0.01 * kZ;
      const int n_before = c.st.n;
      const StepResult r = c.go(z, ds * std::cos(0.5 * k), ds * std::sin(0.5 * k));
      ASSERT_EQ(r.kind, STEP_ELASTIC) << "step " << k;
      forced += forced_merges(r, n_before, C);
      merges += r.merges;
    }
    if (beta == 0.0) {
      EXPECT_EQ(forced, N - C);
      EXPECT_EQ(merges, N - C);
    } else {
      EXPECT_EQ(forced, 0);
      EXPECT_GT(merges, N / 2) << "beta 2 merges the elastic pushes";
    }
  }
}
