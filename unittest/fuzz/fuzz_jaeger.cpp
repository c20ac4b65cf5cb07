/* libFuzzer target: the Jaeger kernel on random overlaps, tangential shifts, beta and
   capacities. After every step: the stack invariants (z* strictly increasing, every
   slope inside the cone, force inside the Coulomb cone, no NaN), the capacity, and on
   collinear paths with the exact history a non-negative dissipation (tangential work
   minus the energy stored in the springs). A twin stack advanced with work = false must
   stay bitwise equal (the work integral only reads the stack). The stored energy the step
   carries equals the closed form to rounding (the allowance of carried_energy_bound.h, as in
   the unit test JaegerEnergy.CarriedStoredEnergyEqualsTheClosedForm). */
#include "../kernels/carried_energy_bound.h"
#include "jaeger_contact.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace demc;

namespace {

void require(bool ok, const char *what)
{
  if (!ok) {
    std::fprintf(stderr, "property violated: %s\n", what);
    std::abort();
  }
}

}    // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  FuzzedDataProvider in(data, size);
  const double E = std::pow(10.0, in.ConsumeFloatingPointInRange<double>(3, 11));
  const double nu = in.ConsumeFloatingPointInRange<double>(-0.9, 0.49);
  const double mu = in.ConsumeFloatingPointInRange<double>(0.0, 2.0);
  const double R = std::pow(10.0, in.ConsumeFloatingPointInRange<double>(-4, 0));
  const jaeger::Material mat = jaeger::make_material(E, nu, R, E, nu, R, mu);
  const double beta = in.ConsumeBool() ? 0.0 : in.ConsumeFloatingPointInRange<double>(0.0, 2.0);
  const bool bounded = in.ConsumeBool();
  const int capacity = bounded ? in.ConsumeIntegralInRange<int>(2, 12) : 256;
  const bool collinear = in.ConsumeBool();
  std::vector<jaeger::Point> pts(capacity + 1), twin_pts(capacity + 1);
  jaeger::Stack st{pts.data(), 0, capacity}, twin{twin_pts.data(), 0, capacity};

  const double zscale = R * 1e-3;
  double z = zscale, sx = 0.0, sy = 0.0, work = 0.0, carried = 0.0;
  demc_test::CarriedEnergyBound bound;
  const int steps = in.ConsumeIntegralInRange<int>(1, 200);
  for (int k = 0; k < steps && in.remaining_bytes() > 0; k++) {
    const double dz = zscale * in.ConsumeFloatingPointInRange<double>(-0.6, 0.6);
    jaeger::Vec2 ds = {zscale * in.ConsumeFloatingPointInRange<double>(-1.0, 1.0),
                       collinear ? 0.0
                                 : zscale * in.ConsumeFloatingPointInRange<double>(-1.0, 1.0)};
    z = std::fabs(z + dz) + 1e-6 * zscale;
    if (!bounded && st.n + 1 > st.capacity) break;
    const double z_before = jaeger::top_point(st).z;
    const std::vector<jaeger::Point> before(st.pts, st.pts + st.n);
    const jaeger::StepResult r = jaeger::step(mat, st, z, ds, beta, true, carried);
    const jaeger::StepResult r_twin = jaeger::step(mat, twin, z, ds, beta, false);
    require(r_twin.work == 0.0 && r_twin.T.x == r.T.x && r_twin.T.y == r.T.y && twin.n == st.n,
            "work = false changes only the work");
    for (int i = 0; i < st.n; i++)
      require(twin.pts[i].z == st.pts[i].z && twin.pts[i].tx == st.pts[i].tx &&
                  twin.pts[i].ty == st.pts[i].ty,
              "work = false keeps the stack");
    work += r.work;
    sx += ds.x;
    sy += ds.y;
    require(std::isfinite(r.T.x) && std::isfinite(r.T.y) && std::isfinite(r.P) &&
                std::isfinite(r.work),
            "finite outputs");
    require(jaeger::check_invariants(mat, st) == jaeger::INV_OK, "stack invariants");
    require(st.n <= capacity, "capacity");
    const double U = jaeger::stored_energy(mat, st);
    bound.add_step(mat, z_before, z, ds, r, U);
    bound.add_written_points(mat, before.data(), static_cast<int>(before.size()), st, U);
    require(std::fabs(r.stored - U) <= bound.allowed(st.n), "carried stored energy = closed form");
    carried = r.stored;
    if (collinear && beta == 0.0 && !bounded) {
      // the springs hold no more energy than the tangential work done on them: the
      // dissipation (work - stored) is never negative, on any collinear path
      const double scale = (mu * jaeger::hertz_force(mat, z) + 1.0) * zscale * 1e-9 + 1e-300;
      require(work - jaeger::stored_energy(mat, st) >= -scale, "non-negative dissipation");
    }
  }
  (void) sx;
  (void) sy;
  return 0;
}
