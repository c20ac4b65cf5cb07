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
  using std::sin;
  using std::sqrt;
  using std::tan;
}    // namespace math
}    // namespace demc
#endif

namespace demc {

/* DEMC_FN_FLAT: a kernel's entry point, inlined into the caller's contact loop even where the
   compiler judges it too big, so that its input and result structs need not pass through
   memory. */

/* Three-vector with the few operations the kernels need. A plain aggregate,
   so it can live in Kokkos views and be copied to devices. */
struct Vec3 {
  double x, y, z;
};

DEMC_FN Vec3 operator+(const Vec3 &a, const Vec3 &b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
DEMC_FN Vec3 operator-(const Vec3 &a, const Vec3 &b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
DEMC_FN Vec3 operator-(const Vec3 &a) { return {-a.x, -a.y, -a.z}; }
DEMC_FN Vec3 operator*(double s, const Vec3 &a) { return {s * a.x, s * a.y, s * a.z}; }
DEMC_FN Vec3 operator*(const Vec3 &a, double s) { return {s * a.x, s * a.y, s * a.z}; }
DEMC_FN double dot(const Vec3 &a, const Vec3 &b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
DEMC_FN Vec3 cross(const Vec3 &a, const Vec3 &b)
{
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
DEMC_FN double norm2(const Vec3 &a) { return dot(a, a); }
DEMC_FN double norm(const Vec3 &a) { return math::sqrt(dot(a, a)); }

/* sin and cos of an angle. Contact rotations per time step are tiny (omega dt ~ 1e-4):
   below 1e-2 the Taylor series to phi^8 is exact to round-off (the first omitted term,
   phi^9/9! or phi^10/10!, is < 3e-24) and far cheaper than the library calls. */
DEMC_FN void sin_cos(double phi, double &s, double &c)
{
  if (math::fabs(phi) < 1e-2) {
    const double p2 = phi * phi;
    s = phi * (1.0 - p2 / 6.0 * (1.0 - p2 / 20.0 * (1.0 - p2 / 42.0)));
    c = 1.0 - p2 / 2.0 * (1.0 - p2 / 12.0 * (1.0 - p2 / 30.0 * (1.0 - p2 / 56.0)));
    return;
  }
  s = math::sin(phi);
  c = math::cos(phi);
}

/* Rotate v about the unit axis k by angle phi (Rodrigues): exact, length-preserving. */
DEMC_FN Vec3 rotate_about(const Vec3 &v, const Vec3 &k, double phi)
{
  if (phi == 0.0) return v;
  double s, c;
  sin_cos(phi, s, c);
  return c * v + s * cross(k, v) + ((1.0 - c) * dot(k, v)) * k;
}

/* The smallest rotation that takes unit vector a to unit vector b, applied to v.
   Written without angles (no acos): R v = v + (a x b) x v / ... in the
   half-angle form below, exact for any a, b that are not antiparallel. */
DEMC_FN Vec3 rotate_a_to_b(const Vec3 &v, const Vec3 &a, const Vec3 &b)
{
  const Vec3 w = cross(a, b);    // sin(angle) * axis
  const double c = dot(a, b);    // cos(angle)
  if (c <= -1.0 + 1e-14) return v;    // antiparallel: no unique rotation; caller projects
  // R = I + [w]x + [w]x^2 / (1 + c)
  const Vec3 wv = cross(w, v);
  return v + wv + (1.0 / (1.0 + c)) * cross(w, wv);
}

}    // namespace demc

#endif
