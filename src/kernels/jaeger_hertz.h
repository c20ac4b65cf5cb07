/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: Jäger contact, part 1 of 4 -- 2-vectors, effective material,
   Hertz normal law.

   See jaeger_contact.h for the whole kernel and its API. This header holds what
   the history stack and the step need from contact mechanics:
     R = R1 R2 / (R1 + R2)                         effective radius
     E* = [(1-nu1^2)/E1 + (1-nu2^2)/E2]^-1         effective Young's modulus
     G* = [(2-nu1)/(4 G1) + (2-nu2)/(4 G2)]^-1     effective shear modulus, Gi = Ei/(2(1+nui))
     kappa = E* / G*                               (identical spheres: (2-nu)/(2(1-nu)))
     P(z) = 4/3 E* sqrt(R) z^(3/2),  dP/dz = 2 E* a,  a = sqrt(R z)
   Tangential stiffness of a fresh contact: 2 G* a.
------------------------------------------------------------------------- */

#ifndef DEMC_JAEGER_HERTZ_H
#define DEMC_JAEGER_HERTZ_H

#include "kernel_common.h"

namespace demc {
namespace jaeger {

  // a vector in the tangent plane of the contact frame (its components along the frame's axes)
  using demc::Vec2;

  DEMC_FN double length(const Vec2 &a)
  {
    return math::sqrt(a.x * a.x + a.y * a.y);
  }

  /* Effective properties of a contact. mu is the friction coefficient. Make it with
     material() or make_material(): the last three members are derived, as the step reads them
     many times (a division or a square root each, the slowest arithmetic there is). A contact
     loop derives the type pair's part once (kappa, cone) and per contact only what depends on
     the radius (with_radius()). */
  struct Material {
    double Estar, Gstar, R, mu;
    double kappa;    // Estar / Gstar
    double cone;     // mu kappa
    double hertz;    // 4/3 Estar sqrt(R): P = hertz z^(3/2)
  };

  // whether two materials make the same contact law (the radius aside)
  DEMC_FN bool same_material(const Material &a, const Material &b)
  {
    return a.Estar == b.Estar && a.Gstar == b.Gstar && a.mu == b.mu;
  }

  /* The styles keep materials in tables per type pair (types 1..n, index a (n + 1) + b, the
     same for a, b and b, a), and each contact history names the type pair it was made with by
     such an index, the smaller type first, so that a contact's records on both sides agree. */
  DEMC_FN int type_pair_key(int a, int b, int stride)
  {
    return (a < b ? a : b) * stride + (a < b ? b : a);
  }
  // a history's stored key if it names a type pair of the table, else `now` (0: not known)
  DEMC_FN int stored_type_pair_key(double stored, int now, int stride)
  {
    // the range is tested on the double: converting one beyond int (a damaged record) to int
    // is undefined; a fraction (no key) is not converted either
    const double table = static_cast<double>(stride) * stride;
    if (!(stored > 0.0 && stored < table)) return now;
    const int key = static_cast<int>(stored);
    return key == stored ? key : now;
  }

  // m with effective radius R (and the Hertz constant that goes with it)
  DEMC_FN Material with_radius(Material m, double R)
  {
    m.R = R;
    m.hertz = (4.0 / 3.0) * m.Estar * math::sqrt(R);
    return m;
  }

  DEMC_FN Material material(double Estar, double Gstar, double R, double mu)
  {
    return with_radius({Estar, Gstar, 0.0, mu, Estar / Gstar, mu * Estar / Gstar, 0.0}, R);
  }

  DEMC_FN double effective_radius(double R1, double R2)
  {
    return R1 * R2 / (R1 + R2);
  }

  DEMC_FN double effective_young(double E1, double nu1, double E2, double nu2)
  {
    return 1.0 / ((1.0 - nu1 * nu1) / E1 + (1.0 - nu2 * nu2) / E2);
  }

  DEMC_FN double effective_shear(double E1, double nu1, double E2, double nu2)
  {
    const double G1 = E1 / (2.0 * (1.0 + nu1)), G2 = E2 / (2.0 * (1.0 + nu2));
    return 1.0 / ((2.0 - nu1) / (4.0 * G1) + (2.0 - nu2) / (4.0 * G2));
  }

  DEMC_FN Material make_material(double E1, double nu1, double R1, double E2, double nu2, double R2,
                                 double mu)
  {
    return material(effective_young(E1, nu1, E2, nu2), effective_shear(E1, nu1, E2, nu2),
                    effective_radius(R1, R2), mu);
  }

  // Ratio of normal to tangential stiffness.
  DEMC_FN double kappa(const Material &m)
  {
    return m.kappa;
  }

  // K = mu kappa: the steepest |ds/dz| a history segment may have (the cone in (z, s) space).
  DEMC_FN double cone_slope(const Material &m)
  {
    return m.cone;
  }

  DEMC_FN double contact_radius(const Material &m, double z)
  {
    return z > 0.0 ? math::sqrt(m.R * z) : 0.0;
  }

  DEMC_FN double hertz_force(const Material &m, double z)
  {
    return z > 0.0 ? m.hertz * z * math::sqrt(z) : 0.0;
  }

  DEMC_FN double normal_stiffness(const Material &m, double z)
  {
    return 2.0 * m.Estar * contact_radius(m, z);
  }

  DEMC_FN double normal_energy(const Material &m, double z)
  {
    return z > 0.0 ? (8.0 / 15.0) * m.Estar * math::sqrt(m.R) * z * z * math::sqrt(z) : 0.0;
  }

  /* integral_{z0}^{z1} (P(zeta) - P(z0)) dzeta for z0, z1 >= 0, either order.
     With q = sqrt(zeta) and d = sqrt(z1) - sqrt(z0) it is the polynomial
     c d^2 (3 q0^3 + 4 q0^2 d + 2 q0 d^2 + 0.4 d^3), c = 4/3 E* sqrt(R): no
     difference of large numbers, so it stays accurate for the tiny steps of a DEM
     run (where W(z1) - W(z0) - (z1 - z0) P(z0) would cancel to noise). */
  DEMC_FN double hertz_excess_integral(const Material &m, double z0, double z1)
  {
    const double q0 = math::sqrt(z0), q1 = math::sqrt(z1);
    if (q0 + q1 == 0.0) return 0.0;
    const double d = (z1 - z0) / (q0 + q1);
    const double c = m.hertz;
    return c * d * d * (3.0 * q0 * q0 * q0 + d * (4.0 * q0 * q0 + d * (2.0 * q0 + 0.4 * d)));
  }

}    // namespace jaeger
}    // namespace demc

#endif
