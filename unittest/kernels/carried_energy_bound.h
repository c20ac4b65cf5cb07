/* Rounding allowance of the stored energy U_t that the Jaeger kernel carries from step to step
   (StepResult::stored), against the closed form stored_energy(), for the kernel test and the
   fuzz target.

   A carried value adds, on each step, terms computed to a few eps of their own magnitudes: U_t
   before the step and the new slip segment's energy (both at most U_max, the largest U_t so
   far), and the stuck springs' work ds.(T* + 2 G* a* d*) + G* a* |ds|^2, whose two parts can be
   far larger than the result (they cancel where the springs' displacements nearly reverse):
   |T*| <= mu P(z) (Coulomb), a* <= a(z), |d*| <= K z + |ds| (the apex's shift is on the cone),
   z the larger overlap of the step. The closed form adds up n segments, each to a few eps of
   U_max. So: 16 eps times the sum of the steps' magnitudes since the carried value last restarted
   from an exact one (separation, full sliding, a merge), plus n U_max. */

#ifndef DEMC_TEST_CARRIED_ENERGY_BOUND_H
#define DEMC_TEST_CARRIED_ENERGY_BOUND_H

#include "jaeger_contact.h"

#include <cmath>

namespace demc_test {

class CarriedEnergyBound {
 public:
  // after a step from overlap z0 to z1 by ds that returned r, with U_t = U (closed form) after it
  void add_step(const demc::jaeger::Material &mat, double z0, double z1,
                const demc::jaeger::Vec2 &ds, const demc::jaeger::StepResult &r, double U)
  {
    using namespace demc::jaeger;
    U_max_ = std::fmax(U_max_, U);
    const bool restart = r.kind == STEP_SEPARATED || r.kind == STEP_SLIDING || r.merges > 0;
    const double z = std::fmax(z0, z1), a = contact_radius(mat, z), s = length(ds);
    const double region_a =
        s * (mat.mu * hertz_force(mat, z) + 2.0 * mat.Gstar * a * (cone_slope(mat) * z + s)) +
        mat.Gstar * a * s * s;
    sum_ = (restart ? 0.0 : sum_) + U_max_ + region_a;
  }
  double allowed(int n) const { return 16.0 * kEps * (sum_ + n * U_max_) + 1e-300; }
  // |carried - U| in units of eps times the summed magnitudes
  double in_eps(double diff, int n) const { return diff / (kEps * (sum_ + n * U_max_) + 1e-300); }

 private:
  static constexpr double kEps = 2.220446049250313e-16;
  double U_max_ = 0.0, sum_ = 0.0;
};

}    // namespace demc_test

#endif
