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
   from an exact one (separation, full sliding, a merge), plus n U_max.

   The closed form also reads the spring field back from the stored points, and a point holds
   its overlap and forces only to an ulp: a stored apex rounded by eps z* moves the displacement
   of every spring below it by up to K eps z*. Where a segment is far thinner than the overlap
   and the force far inside the cone, that is far more than eps U_t (fuzz_jaeger: a slip annulus
   7e-8 of the overlap wide, the closed form 5.5e-10 of U_t off an exact evaluation, the carried
   value 6e-16; unit test JaegerEnergy.CarriedEnergyOfAThinSlipAnnulusIsExact). The carried value
   does not read the rounded point back, and the offset between the two stays until a restart:
   later steps take the energy of the springs they change from the stored points, in both. So
   where a test asks for it (add_written_points()), the allowance adds twice the closed form's
   one-ulp sensitivity to each point a step wrote, summed since the last restart. (A bound from
   the field's magnitudes instead, K eps z sqrt(G* a U_t) per point, is too loose: it would pass
   the fault fixed in 38edf08, 1.45e-13 of U_t, 28 times the sensitivity to any one point.) */

#ifndef DEMC_TEST_CARRIED_ENERGY_BOUND_H
#define DEMC_TEST_CARRIED_ENERGY_BOUND_H

#include "jaeger_contact.h"

#include <cmath>
#include <vector>

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
    if (restart) written_ = 0.0;
  }
  /* after add_step(): the points of st that the step wrote (new, or changed against `before`,
     the n_before points of the stack before the step) */
  void add_written_points(const demc::jaeger::Material &mat, const demc::jaeger::Point *before,
                          int n_before, const demc::jaeger::Stack &st, double U)
  {
    for (int k = 0; k < st.n; ++k) {
      const demc::jaeger::Point &p = st.pts[k];
      const bool same = k < n_before && p.z == before[k].z && p.P == before[k].P &&
          p.tx == before[k].tx && p.ty == before[k].ty;
      if (!same) written_ += point_rounding(mat, st, k, U);
    }
  }
  double allowed(int n) const
  {
    return 16.0 * kEps * (sum_ + n * U_max_) + 2.0 * written_ + 1e-300;
  }
  // sum over the stored points of point_rounding()
  static double stored_point_rounding(const demc::jaeger::Material &mat,
                                      const demc::jaeger::Stack &st, double U)
  {
    double sum = 0.0;
    for (int k = 0; k < st.n; ++k) sum += point_rounding(mat, st, k, U);
    return sum;
  }
  /* the largest change of the closed form U of st when one number of point k moves by one ulp
     (z, with P = P(z) along, or a force component) */
  static double point_rounding(const demc::jaeger::Material &mat, const demc::jaeger::Stack &st,
                               int k, double U)
  {
    using namespace demc::jaeger;
    std::vector<Point> pts(st.pts, st.pts + st.n);
    const Stack moved{pts.data(), st.n, st.n};
    double largest = 0.0;
    for (double towards : {-HUGE_VAL, HUGE_VAL})
      for (int field = 0; field < 3; ++field) {
        Point p = st.pts[k];
        double &x = field == 0 ? p.z : field == 1 ? p.tx : p.ty;
        x = std::nextafter(x, towards);
        if (field == 0) p.P = hertz_force(mat, p.z);
        pts[k] = p;
        largest = std::fmax(largest, std::fabs(stored_energy(mat, moved) - U));
      }
    return largest;
  }
  // |carried - U| in units of eps times the summed magnitudes
  double in_eps(double diff, int n) const { return diff / (kEps * (sum_ + n * U_max_) + 1e-300); }

 private:
  static constexpr double kEps = 2.220446049250313e-16;
  double U_max_ = 0.0, sum_ = 0.0;
  double written_ = 0.0;    // the written points' rounding since the last restart
};

}    // namespace demc_test

#endif
