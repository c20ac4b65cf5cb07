/* -*- c++ -*- ----------------------------------------------------------
   dem-contact tests: a brute-force MDR spring bed, the oracle for the Jäger
   kernel. Test code only: it allocates, and it is slow on purpose.

   Method of dimensionality reduction for two elastic spheres (Hertz + Mindlin):
   N independent springs at x_j = (j + 1/2) dx in [0, a_max], dx = a_max / N.
   Spring j touches while z > g_j = x_j^2 / R. Its tangential displacement u_j (a
   2-vector) is elastic-perfectly-plastic with circular yield
       |u_j| <= mu kappa (z - g_j),      kappa = E* / G*,
   it starts at u = 0 at the moment it enters the contact and is reset to 0 when
   it leaves. Tangential force T = 2 G* sum u_j dx; stored energy
   U = G* sum |u_j|^2 dx (each spring has stiffness 2 G* dx).

   A movement (dz, ds) is applied proportionally in n_sub equal sub-steps. In
   each sub-step a spring that was already touching gets u += ds_sub; a spring
   that enters part-way gets the part of ds_sub after its entry time (exact for
   the straight path); then u is projected radially onto the yield circle of the
   sub-step's end. In 1-D (collinear paths) this is the exact elastic-perfectly-
   plastic response for any n_sub (the bounds and the input move linearly, so the
   clamp at the end is the exact solution); in 2-D the radial return converges as
   1/n_sub. The remaining error is the quadrature of the integral over x,
   O(dx^2): estimate it by refining N.
   Work: trapezoidal rule over the sub-steps, sum (T_a + T_b).ds_sub / 2.
------------------------------------------------------------------------- */

#ifndef DEMC_TEST_SPRING_BED_H
#define DEMC_TEST_SPRING_BED_H

#include <cmath>
#include <vector>

namespace springbed {

class SpringBed {
 public:
  SpringBed(double Estar, double Gstar, double R, double mu, double a_max, int n_springs) :
      Gstar_(Gstar), K_(mu * Estar / Gstar), dx_(a_max / n_springs), g_(n_springs),
      ux_(n_springs, 0.0), uy_(n_springs, 0.0)
  {
    for (int j = 0; j < n_springs; ++j) {
      const double x = (j + 0.5) * dx_;
      g_[j] = x * x / R;
    }
  }

  // Move proportionally from the current (z, s) to (z_new, s + ds) in n_sub sub-steps.
  void step(double z_new, double dsx, double dsy, int n_sub)
  {
    const double z0 = z_;
    for (int i = 0; i < n_sub; ++i) {
      const double za = z0 + (z_new - z0) * i / n_sub;
      const double zb = (i + 1 == n_sub) ? z_new : z0 + (z_new - z0) * (i + 1) / n_sub;
      const double hx = dsx / n_sub, hy = dsy / n_sub;
      const double Tax = Tx(), Tay = Ty();
      substep(za, zb, hx, hy);
      work_ += 0.5 * ((Tax + Tx()) * hx + (Tay + Ty()) * hy);
    }
    z_ = z_new;
  }

  double Tx() const { return 2.0 * Gstar_ * sum(ux_) * dx_; }
  double Ty() const { return 2.0 * Gstar_ * sum(uy_) * dx_; }
  double energy() const
  {
    double e = 0.0;
    for (std::size_t j = 0; j < ux_.size(); ++j) e += ux_[j] * ux_[j] + uy_[j] * uy_[j];
    return Gstar_ * e * dx_;
  }
  double work() const { return work_; }
  double z() const { return z_; }

 private:
  static double sum(const std::vector<double> &v)
  {
    double s = 0.0;
    for (double x : v) s += x;
    return s;
  }

  void substep(double za, double zb, double hx, double hy)
  {
    const double zmax = za > zb ? za : zb;
    // Springs are sorted by g; those with g >= max(za, zb) were and stay out (u = 0).
    for (std::size_t j = 0; j < g_.size() && g_[j] < zmax; ++j) {
      const double g = g_[j];
      if (zb <= g) {    // out at the end of the sub-step: it left
        ux_[j] = uy_[j] = 0.0;
        continue;
      }
      if (za > g) {    // touching throughout
        ux_[j] += hx;
        uy_[j] += hy;
      } else {    // entered part-way: only the movement after entry counts
        const double f = (zb - g) / (zb - za);
        ux_[j] = f * hx;
        uy_[j] = f * hy;
      }
      const double cap = K_ * (zb - g), l2 = ux_[j] * ux_[j] + uy_[j] * uy_[j];
      if (l2 > cap * cap) {
        const double s = cap / std::sqrt(l2);
        ux_[j] *= s;
        uy_[j] *= s;
      }
    }
  }

  double Gstar_, K_, dx_;
  std::vector<double> g_, ux_, uy_;
  double z_ = 0.0, work_ = 0.0;
};

}    // namespace springbed

#endif
