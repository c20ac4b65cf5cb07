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
  using Kokkos::bit_cast;
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
#include <cstring>
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
  // std::bit_cast is C++20; the CPU build is C++17
  template <class To, class From> inline To bit_cast(const From &from)
  {
    static_assert(sizeof(To) == sizeof(From), "bit_cast between types of one size");
    To to;
    std::memcpy(&to, &from, sizeof(To));
    return to;
  }
}    // namespace math
}    // namespace demc
#endif

/* DEMC_GPU_CODE: 1 where this is a GPU's device code. Shortcuts that save a CPU time at the cost
   of more live values are left out there, where the contact loops are near the register limit;
   they must not change a result. */
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__) || defined(__SYCL_DEVICE_ONLY__)
#define DEMC_GPU_CODE 1
#else
#define DEMC_GPU_CODE 0
#endif

namespace demc {

/* DEMC_FN_FLAT: a kernel's entry point and the helpers on its main path, inlined into the
   caller's contact loop even where the compiler judges it too big, so that their input and
   result structs need not pass through memory. (In the larger Kokkos functors GCC kept the
   helpers out of line.) */

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

/* A vector of a contact's tangent plane, its components along two axes of the plane
   (gran/jaeger's contact frame, the friction solver's tangent_basis()). */
struct Vec2 {
  double x, y;
};

DEMC_FN Vec2 operator+(const Vec2 &a, const Vec2 &b)
{
  return {a.x + b.x, a.y + b.y};
}
DEMC_FN Vec2 operator-(const Vec2 &a, const Vec2 &b)
{
  return {a.x - b.x, a.y - b.y};
}
DEMC_FN Vec2 operator*(double s, const Vec2 &a)
{
  return {s * a.x, s * a.y};
}
DEMC_FN double dot(const Vec2 &a, const Vec2 &b)
{
  return a.x * b.x + a.y * b.y;
}
DEMC_FN double norm2(const Vec2 &a)
{
  return dot(a, a);
}

/* An orthonormal basis (t1, t2) of the plane normal to the unit vector n, with t1 x t2 = n
   (Duff et al., "Building an orthonormal basis, revisited", JCGT 6(1), 2017: no normalisation,
   one division, no branch near a degenerate direction). */
struct TangentBasis {
  Vec3 t1, t2;
};
DEMC_FN TangentBasis tangent_basis(const Vec3 &n)
{
  const double sign = n.z >= 0.0 ? 1.0 : -1.0;
  const double a = -1.0 / (sign + n.z);
  const double b = n.x * n.y * a;
  return {{1.0 + sign * n.x * n.x * a, sign * b, -sign * n.x}, {b, sign + n.y * n.y * a, -n.y}};
}
// a tangential vector's components in the basis, and back
DEMC_FN Vec2 in_basis(const Vec3 &v, const TangentBasis &t)
{
  return {dot(v, t.t1), dot(v, t.t2)};
}
DEMC_FN Vec3 from_basis(const Vec2 &v, const TangentBasis &t)
{
  return v.x * t.t1 + v.y * t.t2;
}

/* sin and cos of an angle. Contact rotations per time step are tiny (omega dt ~ 1e-4 to 1e-3):
   there a short Taylor series is exact to round-off and far cheaper than the library calls.
   Below 1e-3 the series to phi^5 (sin) and phi^4 (cos) leave out terms below phi^6/5040 and
   phi^6/720 relative (< 2e-21); below 1e-2 the series to phi^8 leaves out terms below
   phi^9/9! or phi^10/10! (< 3e-24). */
DEMC_FN_FLAT void sin_cos_below_1e3(double phi, double p2, double &s, double &c)
{
  // multiplications by the reciprocals: a division by a constant is a real division
  // (the slowest arithmetic there is) unless the compiler may use reciprocal math
  constexpr double r6 = 1.0 / 6.0, r20 = 1.0 / 20.0, r12 = 1.0 / 12.0;
  s = phi * (1.0 - p2 * r6 * (1.0 - p2 * r20));
  c = 1.0 - 0.5 * p2 * (1.0 - p2 * r12);
}
DEMC_FN_FLAT void sin_cos_below_1e2(double phi, double p2, double &s, double &c)
{
  constexpr double r6 = 1.0 / 6.0, r20 = 1.0 / 20.0, r42 = 1.0 / 42.0;
  constexpr double r12 = 1.0 / 12.0, r30 = 1.0 / 30.0, r56 = 1.0 / 56.0;
  s = phi * (1.0 - p2 * r6 * (1.0 - p2 * r20 * (1.0 - p2 * r42)));
  c = 1.0 - 0.5 * p2 * (1.0 - p2 * r12 * (1.0 - p2 * r30 * (1.0 - p2 * r56)));
}
DEMC_FN_FLAT void sin_cos(double phi, double &s, double &c)
{
  const double a = math::fabs(phi), p2 = phi * phi;
  if (a < 1e-3) {
    sin_cos_below_1e3(phi, p2, s, c);
    return;
  }
  if (a < 1e-2) {
    sin_cos_below_1e2(phi, p2, s, c);
    return;
  }
  s = math::sin(phi);
  c = math::cos(phi);
}

/* exp(-E) for E >= 0 and logarithms, inline and without library calls in the usual range: a
   sliding contact of gran/kuhn needs both (Kuhn et al., Eq. 18); inline they leave the
   compiler free to schedule them with the rest of the contact law, and they run on any Kokkos
   device as they are. Both are accurate to a few units in the last place (the kernel tests
   check them against long double).

   2^k for an integer k in [-1022, 1023], assembled from its bits. */
DEMC_FN double pow2i(int k)
{
  return math::bit_cast<double>(static_cast<unsigned long long>(k + 1023) << 52);
}

/* exp(-E): E = k ln 2 - r with an integer k and |r| <= ln(2) / 2 (Cody and Waite: ln 2 in two
   parts, the first with a short mantissa, so that k ln2_hi is exact), then exp(r) by its Taylor
   series to r^13 (the first omitted term is below 5e-18), evaluated by Estrin's scheme (short
   dependency chains). Beyond E = 700 (a factor below 1e-304) and for NaN: the library. */
DEMC_FN_FLAT double exp_neg_reduced(double E, double k, double two_to_minus_k)
{
  constexpr double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  const double r = (k * ln2_hi - E) + k * ln2_lo;    // exp(-E) = 2^-k exp(r)
  constexpr double c2 = 1.0 / 2, c3 = 1.0 / 6, c4 = 1.0 / 24, c5 = 1.0 / 120, c6 = 1.0 / 720,
                   c7 = 1.0 / 5040, c8 = 1.0 / 40320, c9 = 1.0 / 362880, c10 = 1.0 / 3628800,
                   c11 = 1.0 / 39916800, c12 = 1.0 / 479001600, c13 = 1.0 / 6227020800;
  const double r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
  const double lo = ((1.0 + r) + r2 * (c2 + c3 * r)) + r4 * ((c4 + c5 * r) + r2 * (c6 + c7 * r));
  const double hi = ((c8 + c9 * r) + r2 * (c10 + c11 * r)) + r4 * (c12 + c13 * r);
  return (lo + r8 * hi) * two_to_minus_k;
}
// the integer k of exp_neg_reduced(): E / ln 2 rounded (E >= 0)
constexpr double exp_neg_inv_ln2 = 1.4426950408889634;
DEMC_FN double exp_neg(double E)
{
  if (!(E >= 0.0 && E < 700.0)) return math::exp(-E);
  const int k = static_cast<int>(E * exp_neg_inv_ln2 + 0.5);
  return exp_neg_reduced(E, static_cast<double>(k), pow2i(-k));
}

/* 2 atanh(s) / s = 2 (1 + t/3 + t^2/5 + ...), t = s^2, for |s| <= 1/3 (t <= 1/9): sixteen terms,
   the first omitted below 2e-17. */
DEMC_FN_FLAT double atanh_ratio(double t)
{
  constexpr double a1 = 1.0 / 3, a2 = 1.0 / 5, a3 = 1.0 / 7, a4 = 1.0 / 9, a5 = 1.0 / 11,
                   a6 = 1.0 / 13, a7 = 1.0 / 15, a8 = 1.0 / 17, a9 = 1.0 / 19, a10 = 1.0 / 21,
                   a11 = 1.0 / 23, a12 = 1.0 / 25, a13 = 1.0 / 27, a14 = 1.0 / 29, a15 = 1.0 / 31;
  const double t2 = t * t, t4 = t2 * t2, t8 = t4 * t4;
  const double lo =
      ((1.0 + a1 * t) + t2 * (a2 + a3 * t)) + t4 * ((a4 + a5 * t) + t2 * (a6 + a7 * t));
  const double hi =
      ((a8 + a9 * t) + t2 * (a10 + a11 * t)) + t4 * ((a12 + a13 * t) + t2 * (a14 + a15 * t));
  return 2.0 * (lo + t8 * hi);
}

/* ln q for a normal q > 0: q = 2^e m with m in [sqrt(1/2), sqrt(2)) (read from the bits),
   ln q = e ln 2 + 2 atanh((m - 1) / (m + 1)). Meant for q outside [1/2, 2] (there |e| >= 1 and
   the two terms never cancel by more than half; closer to 1, use atanh_ratio() directly on
   s = (q - 1) / (q + 1) formed from a difference). Subnormal or infinite q: the library. */
DEMC_FN double log_far_from_one(double q)
{
  if (!(q >= 2.2250738585072014e-308 && q <= 1.7976931348623157e308)) return math::log(q);
  const unsigned long long bits = math::bit_cast<unsigned long long>(q);
  int e = static_cast<int>(bits >> 52) - 1023;    // q > 0: no sign bit
  double m = math::bit_cast<double>((bits & 0xfffffffffffffULL) | (1023ULL << 52));    // [1, 2)
  if (m > 1.4142135623730951) {
    m *= 0.5;
    e += 1;
  }
  const double s = (m - 1.0) / (m + 1.0);
  constexpr double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  return e * ln2_hi + (e * ln2_lo + s * atanh_ratio(s * s));
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

/* The smallest rotation that takes unit vector a to unit vector b, applied to a vector v in the
   plane normal to a: the tilt that carries a tangential vector from the plane normal to a into
   the plane normal to b. Exact and without angles:
     R = I - (a + b)(a + b)^T / (1 + c) + 2 b a^T,   c = a.b,
   applied to v with a.v = 0 gives v - (b.v) / (1 + c) (a + b), of the length of v. The result
   is normal to b for any v (its b-part cancels); a part alpha a of v (a tangential force's
   round-off off its plane) is not removed first, which would cost a dot product: it is turned
   into the new plane at length alpha tan(theta / 2) for a tilt by theta. Antiparallel a, b (no
   unique rotation): v unrotated. */
DEMC_FN_FLAT Vec3 tilt_tangential(const Vec3 &v, const Vec3 &a, const Vec3 &b)
{
  const double c = dot(a, b);
  if (c <= -1.0 + 1e-14) return v;
  return v - (dot(b, v) / (1.0 + c)) * (a + b);
}

}    // namespace demc

#endif
