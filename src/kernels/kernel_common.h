/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: contact-law kernels shared by the LAMMPS and Kokkos styles.

   Kernels are plain C++: no LAMMPS, no allocation, no exceptions, no virtual
   calls. Every function is marked DEMC_FN so that a Kokkos build compiles it
   for host and device alike; the math functions below are taken from Kokkos
   in that case, so no host-only std:: call reaches device code.
------------------------------------------------------------------------- */

#ifndef DEMC_KERNEL_COMMON_H
#define DEMC_KERNEL_COMMON_H

#if defined(DEMC_KOKKOS)
#include <Kokkos_Core.hpp>
#define DEMC_FN KOKKOS_INLINE_FUNCTION
#define DEMC_FN_FLAT KOKKOS_FORCEINLINE_FUNCTION
namespace demc {
namespace math {
  using Kokkos::atan;
  using Kokkos::atan2;
  using Kokkos::cos;
  using Kokkos::exp;
  using Kokkos::fabs;
  using Kokkos::log;
  using Kokkos::log1p;
  using Kokkos::pow;
  using Kokkos::sin;
  using Kokkos::sqrt;
  using Kokkos::tan;
}    // namespace math
}    // namespace demc
#else
#include <cmath>
#define DEMC_FN inline
#if defined(__GNUC__)
#define DEMC_FN_FLAT inline __attribute__((always_inline))
#else
#define DEMC_FN_FLAT inline
#endif
namespace demc {
namespace math {
  using std::atan;
  using std::atan2;
  using std::cos;
  using std::exp;
  using std::fabs;
  using std::log;
  using std::log1p;
  using std::pow;
  using std::sin;
  using std::sqrt;
  using std::tan;
}    // namespace math
}    // namespace demc
#endif

namespace demc {

/* DEMC_FN_FLAT: a kernel's entry point and the helpers on its main path, inlined into the
   caller's contact loop even where the compiler judges it too big, so that their input and
   result structs need not pass through memory. (In the larger Kokkos functors GCC kept the
   helpers out of line: gran/kuhn/kk executed 6 % more instructions.) */

/* Three-vector with the few operations the kernels need. A plain aggregate,
   so it can live in Kokkos views and be copied to devices. */
struct Vec3 {
  double x, y, z;
};

DEMC_FN Vec3 operator+(const Vec3 &a, const Vec3 &b)
{
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
DEMC_FN Vec3 operator-(const Vec3 &a, const Vec3 &b)
{
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
DEMC_FN Vec3 operator-(const Vec3 &a)
{
  return {-a.x, -a.y, -a.z};
}
DEMC_FN Vec3 operator*(double s, const Vec3 &a)
{
  return {s * a.x, s * a.y, s * a.z};
}
DEMC_FN Vec3 operator*(const Vec3 &a, double s)
{
  return {s * a.x, s * a.y, s * a.z};
}
DEMC_FN double dot(const Vec3 &a, const Vec3 &b)
{
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
DEMC_FN Vec3 cross(const Vec3 &a, const Vec3 &b)
{
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
DEMC_FN double norm2(const Vec3 &a)
{
  return dot(a, a);
}
DEMC_FN double norm(const Vec3 &a)
{
  return math::sqrt(dot(a, a));
}

/* sin and cos of an angle. Contact rotations per time step are tiny (omega dt ~ 1e-4 to 1e-3):
   there a short Taylor series is exact to round-off and far cheaper than the library calls.
   Below 1e-3 the series to phi^5 (sin) and phi^4 (cos) leave out terms below phi^6/5040 and
   phi^6/720 relative (< 2e-21); below 1e-2 the series to phi^8 leaves out terms below
   phi^9/9! or phi^10/10! (< 3e-24). */
DEMC_FN_FLAT void sin_cos(double phi, double &s, double &c)
{
  // multiplications by the reciprocals: a division by a constant is a real division
  // (the slowest arithmetic there is) unless the compiler may use reciprocal math
  constexpr double r6 = 1.0 / 6.0, r20 = 1.0 / 20.0, r42 = 1.0 / 42.0;
  constexpr double r12 = 1.0 / 12.0, r30 = 1.0 / 30.0, r56 = 1.0 / 56.0;
  const double a = math::fabs(phi), p2 = phi * phi;
  if (a < 1e-3) {
    s = phi * (1.0 - p2 * r6 * (1.0 - p2 * r20));
    c = 1.0 - 0.5 * p2 * (1.0 - p2 * r12);
    return;
  }
  if (a < 1e-2) {
    s = phi * (1.0 - p2 * r6 * (1.0 - p2 * r20 * (1.0 - p2 * r42)));
    c = 1.0 - 0.5 * p2 * (1.0 - p2 * r12 * (1.0 - p2 * r30 * (1.0 - p2 * r56)));
    return;
  }
  s = math::sin(phi);
  c = math::cos(phi);
}

/* Rotate v about the unit axis k by angle phi (Rodrigues): exact, length-preserving. phi = 0
   returns v exactly (sin_cos gives 0 and 1), so there is no test for it. */
DEMC_FN Vec3 rotate_about(const Vec3 &v, const Vec3 &k, double phi)
{
  double s, c;
  sin_cos(phi, s, c);
  return c * v + s * cross(k, v) + ((1.0 - c) * dot(k, v)) * k;
}

/* Rotate v, perpendicular to the unit axis k, about k by angle phi: Rodrigues without the
   term along k (zero for such v). */
DEMC_FN_FLAT Vec3 rotate_perpendicular_about(const Vec3 &v, const Vec3 &k, double phi)
{
  double s, c;
  sin_cos(phi, s, c);
  return c * v + s * cross(k, v);
}

/* The smallest rotation that takes unit vector a to unit vector b, applied to the part of v
   perpendicular to a (the part along a is dropped): the tilt that carries a tangential
   vector from the plane normal to a into the plane normal to b. Exact and without angles:
     R = I - (a + b)(a + b)^T / (1 + c) + 2 b a^T,   c = a.b,
   applied to v_t = v - (a.v) a gives v_t - (b.v_t) / (1 + c) (a + b), which is normal to b
   and has the length of v_t. Antiparallel a, b (no unique rotation): v_t unrotated. */
DEMC_FN_FLAT Vec3 tilt_tangential(const Vec3 &v, const Vec3 &a, const Vec3 &b)
{
  const double c = dot(a, b);
  const double av = dot(a, v);
  const Vec3 v_t = v - av * a;
  if (c <= -1.0 + 1e-14) return v_t;
  const double bv_t = dot(b, v) - c * av;
  return v_t - (bv_t / (1.0 + c)) * (a + b);
}

}    // namespace demc

#endif
