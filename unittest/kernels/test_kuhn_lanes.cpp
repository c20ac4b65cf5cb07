/* Layer (a): two contacts at once (src/kernels/kernel_lanes.h, kuhn_contact_lanes.h).

   The oracle is the scalar kernel, which test_kuhn_kernel checks against the paper: every
   lane of every two-contact function must give the bits the scalar function gives that
   contact. The inputs are drawn so that every path of the step occurs in both lanes and in
   every combination (the tests count them): sticking and sliding pairs and mixed ones, fresh
   and parted contacts, forces outside the cone, a refinement switched off, large twirls,
   strong normal loading and unloading (the slide's logarithm outside its series), zero and
   extreme forces, dashpots on and off, a step of length zero (setup). */
#include "kuhn_contact_lanes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <random>

using demc::Double2;
using demc::Vec3;
using demc::Vec3x2;
namespace kuhn = demc::kuhn;

namespace {

/* The same bits (any NaN equals any NaN). Where the compiler may fuse a multiplication and an
   addition (a build with FMA instructions), the scalar and the two-lane code need not be fused
   alike: then a few units in the last place are allowed. */
bool same(double a, double b)
{
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
#if defined(__FMA__) || defined(__FP_FAST_FMA)
  return a == b ||
      std::fabs(a - b) <=
      8 * std::numeric_limits<double>::epsilon() * std::max(std::fabs(a), std::fabs(b));
#else
  return std::memcmp(&a, &b, sizeof(double)) == 0;
#endif
}
bool same(const Vec3 &a, const Vec3 &b)
{
  return same(a.x, b.x) && same(a.y, b.y) && same(a.z, b.z);
}

::testing::AssertionResult same_result(const kuhn::Result &a, const kuhn::Result &b)
{
  const struct {
    const char *name;
    double x, y;
  } scalars[] = {{"fn", a.fn, b.fn},
                 {"Wn", a.Wn, b.Wn},
                 {"Wt", a.Wt, b.Wt},
                 {"dWt", a.dWt, b.dWt},
                 {"dWt_rev", a.dWt_rev, b.dWt_rev},
                 {"dWt_irrev", a.dWt_irrev, b.dWt_irrev},
                 {"dW_damp", a.dW_damp, b.dW_damp},
                 {"alpha_o", a.alpha_o, b.alpha_o},
                 {"alpha_s", a.alpha_s, b.alpha_s}};
  for (const auto &s : scalars)
    if (!same(s.x, s.y))
      return ::testing::AssertionFailure() << s.name << ": " << s.x << " != " << s.y;
  if (a.branch != b.branch)
    return ::testing::AssertionFailure() << "branch " << a.branch << " != " << b.branch;
  if (!same(a.ft, b.ft)) return ::testing::AssertionFailure() << "ft differs";
  if (!same(a.force, b.force)) return ::testing::AssertionFailure() << "force differs";
  if (!same(a.f_damp, b.f_damp)) return ::testing::AssertionFailure() << "f_damp differs";
  return ::testing::AssertionSuccess();
}

Vec3 unit(const Vec3 &v)
{
  return (1.0 / std::sqrt(demc::dot(v, v))) * v;
}

// One contact's parameters, motion and stored force, drawn so that all paths occur.
struct Case {
  kuhn::Params p;
  kuhn::Kinematics m;
  Vec3 ft;
};

class CaseMaker {
 public:
  explicit CaseMaker(unsigned seed) : rng(seed) {}

  Case make()
  {
    Case c;
    c.p.kn = 1e3 * std::pow(10.0, 3.0 * u01());
    c.p.kt = c.p.kn * (0.2 + u01());
    c.p.mu = pick(0.05) ? 0.0 : u01();
    c.p.damp_n = pick(0.5) ? 0.0 : c.p.kn * 1e-4 * u01();
    c.p.damp_t = pick(0.5) ? 0.0 : c.p.kt * 1e-4 * u01();
    c.p.flags = pick(0.05) ? (kuhn::ALL & ~(1u << int(5 * u01()))) : kuhn::ALL;
    const double zeta = 1e-3 * (0.01 + u01());
    c.m.zeta_old = pick(0.05) ? -zeta * u01() : zeta;       // fresh now and then
    const double normal_change = pick(0.2) ? 0.9 : 0.05;    // strong loading/unloading
    const double dzeta = zeta * normal_change * (2.0 * u01() - 1.0);
    c.m.zeta_new = pick(0.03) ? -1e-5 : zeta + dzeta;    // parted now and then
    c.m.n = unit(gauss3());
    const double tilt = pick(0.02) ? 3.14159 : 1e-2 * u01() * u01();
    c.m.n_old = unit(c.m.n + tilt * unit(demc::cross(c.m.n, gauss3())));
    if (tilt > 3.0) c.m.n_old = -1.0 * c.m.n;    // antiparallel: no unique tilt
    const double twirl_scale = pick(0.1) ? 0.3 : (pick(0.5) ? 5e-3 : 8e-4);
    c.m.twirl = twirl_scale * (2.0 * u01() - 1.0);
    c.m.dt = pick(0.05) ? 0.0 : 1e-4;
    // stored force: inside the cone, on it, outside it, zero, or of extreme size
    const double R = c.p.mu * c.p.kn * std::max(c.m.zeta_old, 0.0);
    const Vec3 t = unit(demc::cross(c.m.n_old, gauss3()));
    const double r = u01();
    double size = R * u01();
    if (r < 0.3)
      size = R;
    else if (r < 0.35)
      size = R * (1.0 + 1e-3);
    else if (r < 0.4)
      size = 0.0;
    else if (r < 0.42)
      size = 1e-160;
    c.ft = size * t;
    // movement: from far inside the elastic range to far beyond the cone
    const double reach = (R > 0.0 ? R : c.p.kn * zeta) / c.p.kt;
    const double move = reach * std::pow(10.0, 3.0 * u01() - 2.0);
    const Vec3 tangential = unit(demc::cross(c.m.n, gauss3()));
    c.m.du = move * tangential - dzeta * c.m.n;
    if (pick(0.01)) c.m.du = 1e-170 * tangential - dzeta * c.m.n;
    return c;
  }

 private:
  std::mt19937_64 rng;
  double u01() { return std::uniform_real_distribution<double>(0.0, 1.0)(rng); }
  bool pick(double probability) { return u01() < probability; }
  Vec3 gauss3()
  {
    std::normal_distribution<double> g;
    return {g(rng), g(rng), g(rng)};
  }
};

}    // namespace

TEST(KuhnLanes, StepPairGivesEachContactItsScalarStep)
{
  CaseMaker maker(20261126);
  std::map<std::pair<int, int>, int> combos;    // (branch a, branch b) -> count
  int mismatches = 0;
  for (int n = 0; n < 200000; n++) {
    const Case a = maker.make(), b = maker.make();
    kuhn::Result ra, rb;
    kuhn::step_pair(a.p, a.m, a.ft, b.p, b.m, b.ft, ra, rb);
    const kuhn::Result sa = kuhn::step(a.p, a.m, a.ft), sb = kuhn::step(b.p, b.m, b.ft);
    combos[{sa.branch, sb.branch}]++;
    const auto ok_a = same_result(ra, sa), ok_b = same_result(rb, sb);
    if ((!ok_a || !ok_b) && ++mismatches <= 5)
      ADD_FAILURE() << "pair " << n << ": " << (ok_a ? "" : ok_a.message()) << " / "
                    << (ok_b ? "" : ok_b.message());
  }
  EXPECT_EQ(mismatches, 0);
  // every combination of sticking, sliding, fresh and parted contacts occurred
  for (int x : {kuhn::BRANCH_SEPARATED, kuhn::BRANCH_FRESH_STICK, kuhn::BRANCH_FRESH_SLIP,
                kuhn::BRANCH_STICK, kuhn::BRANCH_SLIP})
    for (int y : {kuhn::BRANCH_STICK, kuhn::BRANCH_SLIP})
      EXPECT_GT((combos[{x, y}]), 50) << "branches " << x << ", " << y;
}

/* The usual path of the lanes (both contacts touching before and after, every refinement on,
   usual magnitudes) against the scalar step, where the drawn cases above reach it only for a
   part of the pairs: sticking, sliding and mixed pairs, with the slide's logarithm in and
   outside its series. */
TEST(KuhnLanes, UsualPairsGiveTheScalarSteps)
{
  CaseMaker maker(7);
  int compared = 0, mixed = 0, both_slide = 0;
  while (compared < 100000) {
    Case a = maker.make(), b = maker.make();
    for (Case *c : {&a, &b}) {
      c->p.flags = kuhn::ALL;
      c->m.zeta_old = std::fabs(c->m.zeta_old) + 1e-6;
      c->m.zeta_new = std::fabs(c->m.zeta_new) + 1e-6;
    }
    kuhn::Result ra, rb;
    kuhn::step_pair(a.p, a.m, a.ft, b.p, b.m, b.ft, ra, rb);
    const kuhn::Result sa = kuhn::step(a.p, a.m, a.ft), sb = kuhn::step(b.p, b.m, b.ft);
    ASSERT_TRUE(same_result(ra, sa)) << "pair " << compared << ", first";
    ASSERT_TRUE(same_result(rb, sb)) << "pair " << compared << ", second";
    const bool slide_a = sa.branch == kuhn::BRANCH_SLIP, slide_b = sb.branch == kuhn::BRANCH_SLIP;
    mixed += slide_a != slide_b;
    both_slide += slide_a && slide_b;
    compared++;
  }
  EXPECT_GT(mixed, 10000);
  EXPECT_GT(both_slide, 10000);
}

/* Two rare slides next to usual ones: a slide whose path parts the surfaces (the scalar step
   ends it at the opening: slide_through_opening()) and a purely normal movement whose round-off
   leans out of the tangent plane (slip_movement()), each paired with a usual sliding and a
   usual sticking contact, in both lanes. */
TEST(KuhnLanes, RareSlidesGiveTheScalarSteps)
{
  const kuhn::Params unit_law{1.0, 1.0, 1.0, 0.0, 0.0, kuhn::ALL};
  const Vec3 ez = {0.0, 0.0, 1.0}, f_opening = {-0.5, std::sqrt(3.0) / 2.0, 0.0};
  const kuhn::Kinematics opening = {0.01, 1.0, ez, ez, {3.9, 0.0, 2.0}, 0.0, 1e-4};
  const Vec3 n = unit({1.0, 1.0, 1.0});
  const Vec3 f_normal = 2.0 * unit(demc::cross(n, {1.0, -2.0, 0.5}));    // on the cone
  const kuhn::Kinematics normal_only = {1.2, 2.0, n, n, 0.8 * n, 0.0, 1e-4};
  const kuhn::Kinematics sliding = {1.0, 1.0, ez, ez, {2.0, 0.5, 0.0}, 0.01, 1e-4};
  const kuhn::Kinematics sticking = {1.0, 1.0, ez, ez, {0.1, 0.05, 0.0}, 0.01, 1e-4};
  const Vec3 f_usual = {0.3, 0.2, 0.0};
  struct One {
    const kuhn::Kinematics &m;
    Vec3 f;
  };
  const One rare[] = {{opening, f_opening}, {normal_only, f_normal}};
  const One usual[] = {{sliding, f_usual}, {sticking, f_usual}};
  for (const One &a : rare)
    for (const One &b : usual) {
      ASSERT_EQ(kuhn::step(unit_law, a.m, a.f).branch, kuhn::BRANCH_SLIP);
      kuhn::Result ra, rb;
      kuhn::step_pair(unit_law, a.m, a.f, unit_law, b.m, b.f, ra, rb);
      EXPECT_TRUE(same_result(ra, kuhn::step(unit_law, a.m, a.f)));
      EXPECT_TRUE(same_result(rb, kuhn::step(unit_law, b.m, b.f)));
      kuhn::step_pair(unit_law, b.m, b.f, unit_law, a.m, a.f, rb, ra);
      EXPECT_TRUE(same_result(ra, kuhn::step(unit_law, a.m, a.f)));
      EXPECT_TRUE(same_result(rb, kuhn::step(unit_law, b.m, b.f)));
    }
}

TEST(KuhnLanes, GeometryOfTwoContactsIsEachContactsGeometry)
{
  std::mt19937_64 rng(3);
  std::normal_distribution<double> g;
  auto g3 = [&] {
    return Vec3{g(rng), g(rng), g(rng)};
  };
  int far_moves = 0;
  for (int n = 0; n < 20000; n++) {
    Vec3 xp[2], xq[2], vp[2], vq[2], wp[2], wq[2];
    double rp[2], rq[2], r[2];
    for (int l = 0; l < 2; l++) {
      xp[l] = g3();
      const Vec3 dir = unit(g3());
      rp[l] = 0.5 + 0.1 * g(rng) * g(rng);
      rq[l] = 0.5;
      r[l] = (rp[l] + rq[l]) * (1.0 - 0.01 * std::fabs(g(rng)));
      xq[l] = xp[l] + r[l] * dir;
      // most steps move a pair by a small fraction of its distance, some by much more
      const double speed = (n % 10 == 0) ? 100.0 : 1.0;
      vp[l] = speed * g3();
      vq[l] = speed * g3();
      wp[l] = g3();
      wq[l] = g3();
    }
    const double step = (n % 7 == 0) ? 0.0 : 1e-3;
    const auto two =
        demc::sphere_contact(demc::pack(xp[0], xp[1]), demc::pack(xq[0], xq[1]),
                             Double2(rp[0], rp[1]), Double2(rq[0], rq[1]), Double2(r[0], r[1]),
                             demc::pack(vp[0], vp[1]), demc::pack(vq[0], vq[1]),
                             demc::pack(wp[0], wp[1]), demc::pack(wq[0], wq[1]), Double2(step));
    for (int l = 0; l < 2; l++) {
      const demc::SphereContact one =
          demc::sphere_contact(xp[l], xq[l], rp[l], rq[l], r[l], vp[l], vq[l], wp[l], wq[l], step);
      const demc::SphereContact got = demc::lane(two, l);
      ASSERT_TRUE(same(got.overlap, one.overlap) && same(got.n, one.n) &&
                  same(got.n_old, one.n_old) && same(got.du, one.du) &&
                  same(got.twirl, one.twirl) && same(got.arm_p, one.arm_p) &&
                  same(got.arm_q, one.arm_q))
          << "pair " << n << ", lane " << l;
      far_moves +=
          std::fabs(demc::dot(step * (vq[l] - vp[l]), step * (vq[l] - vp[l]))) > 1e-3 * r[l] * r[l];
    }
  }
  EXPECT_GT(far_moves, 1000);    // the series' range was left in some lanes
}

TEST(KuhnLanes, AnglesAndExponentialsLaneByLane)
{
  // sin_cos: each lane in or beyond the two series' ranges; exp_neg: in and beyond its range
  const double phis[] = {0.0, 3e-4, -9e-4, 2e-3, -8e-3, 0.05, -2.0};
  for (double a : phis)
    for (double b : phis) {
      Double2 s, c;
      demc::sin_cos(Double2(a, b), s, c);
      for (int l = 0; l < 2; l++) {
        double s1, c1;
        demc::sin_cos(l == 0 ? a : b, s1, c1);
        EXPECT_TRUE(same(demc::lane(s, l), s1) && same(demc::lane(c, l), c1)) << a << ", " << b;
      }
    }
  const double Es[] = {
      0.0, 1e-9, 0.3, 5.0, 699.0, 800.0, std::numeric_limits<double>::infinity(), std::nan("")};
  for (double a : Es)
    for (double b : Es) {
      const Double2 e = demc::exp_neg(Double2(a, b));
      EXPECT_TRUE(same(demc::lane(e, 0), demc::exp_neg(a)) &&
                  same(demc::lane(e, 1), demc::exp_neg(b)))
          << a << ", " << b;
    }
}
