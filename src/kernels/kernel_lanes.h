/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: two contacts at once, for the CPU styles' contact loops.

   The kernels' hot paths are templates on their number type (see sel() and
   all() in kernel_common.h). Double2 holds one number of each of two
   contacts in one SSE2 register, so that one instruction advances both: a
   sliding contact's step is a long chain of dependent divisions and square
   roots, which the processor cannot overlap with the next contact's on its
   own. Every operation is the IEEE operation of the scalar code, lane by
   lane, in the same order, so a lane gives the same bits as the scalar
   kernel (without FMA contraction; unit tests check it). Where a lane needs
   a rare branch (extreme magnitudes, large angles), the functions below
   compute both lanes with the scalar functions instead.

   Host code only (GCC/Clang vector extensions); the Kokkos styles call the
   scalar kernels.
------------------------------------------------------------------------- */

#ifndef DEMC_KERNEL_LANES_H
#define DEMC_KERNEL_LANES_H

#include "contact_geometry.h"
#include "kernel_common.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace demc {

typedef double demc_v2d __attribute__((vector_size(16)));
typedef long long demc_v2m __attribute__((vector_size(16)));

// a lane mask: all bits set where the comparison holds
struct Mask2 {
  demc_v2m m;
};
inline Mask2 operator&(Mask2 a, Mask2 b)
{
  return {a.m & b.m};
}
inline Mask2 operator|(Mask2 a, Mask2 b)
{
  return {a.m | b.m};
}
inline Mask2 operator!(Mask2 a)
{
  return {~a.m};
}
inline bool all(Mask2 a)
{
  return (a.m[0] & a.m[1]) != 0;
}
inline bool any(Mask2 a)
{
  return (a.m[0] | a.m[1]) != 0;
}
inline bool lane(Mask2 a, int l)
{
  return a.m[l] != 0;
}

// two doubles; a double converts to both lanes
struct Double2 {
  demc_v2d v;
  Double2() = default;
  Double2(double a) : v{a, a} {}
  Double2(double a, double b) : v{a, b} {}
  explicit Double2(demc_v2d w) : v(w) {}
};
inline Double2 operator+(Double2 a, Double2 b)
{
  return Double2(a.v + b.v);
}
inline Double2 operator-(Double2 a, Double2 b)
{
  return Double2(a.v - b.v);
}
inline Double2 operator*(Double2 a, Double2 b)
{
  return Double2(a.v * b.v);
}
inline Double2 operator/(Double2 a, Double2 b)
{
  return Double2(a.v / b.v);
}
inline Double2 operator-(Double2 a)
{
  return Double2(-a.v);
}
inline Mask2 operator<(Double2 a, Double2 b)
{
  return {a.v < b.v};
}
inline Mask2 operator<=(Double2 a, Double2 b)
{
  return {a.v <= b.v};
}
inline Mask2 operator>(Double2 a, Double2 b)
{
  return {a.v > b.v};
}
inline Mask2 operator>=(Double2 a, Double2 b)
{
  return {a.v >= b.v};
}
inline Mask2 operator==(Double2 a, Double2 b)
{
  return {a.v == b.v};
}
inline Mask2 operator!=(Double2 a, Double2 b)
{
  return {a.v != b.v};
}
inline double lane(Double2 a, int l)
{
  return a.v[l];
}
inline Double2 sel(Mask2 m, Double2 a, Double2 b)
{
  return Double2(m.m ? a.v : b.v);
}
inline Double2 lane_sqrt(Double2 a)
{
#if defined(__SSE2__)
  return Double2((demc_v2d) _mm_sqrt_pd((__m128d) a.v));
#else
  return {math::sqrt(a.v[0]), math::sqrt(a.v[1])};
#endif
}
inline Double2 lane_fabs(Double2 a)
{
  return Double2(
      (demc_v2d) ((demc_v2m) a.v & (demc_v2m) {0x7fffffffffffffffLL, 0x7fffffffffffffffLL}));
}

// three-vectors of two contacts
struct Vec3x2 {
  Double2 x, y, z;
};
inline Vec3x2 operator+(const Vec3x2 &a, const Vec3x2 &b)
{
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
inline Vec3x2 operator-(const Vec3x2 &a, const Vec3x2 &b)
{
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
inline Vec3x2 operator*(Double2 s, const Vec3x2 &a)
{
  return {s * a.x, s * a.y, s * a.z};
}
inline Double2 dot(const Vec3x2 &a, const Vec3x2 &b)
{
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
inline Vec3x2 cross(const Vec3x2 &a, const Vec3x2 &b)
{
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline Vec3x2 sel(Mask2 m, const Vec3x2 &a, const Vec3x2 &b)
{
  return {sel(m, a.x, b.x), sel(m, a.y, b.y), sel(m, a.z, b.z)};
}
inline Vec3 lane(const Vec3x2 &a, int l)
{
  return {lane(a.x, l), lane(a.y, l), lane(a.z, l)};
}

// lane l of a scalar argument: the scalar (a parameter both contacts share)
inline double lane(double a, int)
{
  return a;
}
inline Double2 pack(double a, double b)
{
  return {a, b};
}
inline Mask2 pack(bool a, bool b)
{
  return {demc_v2m{a ? -1LL : 0LL, b ? -1LL : 0LL}};
}
inline Vec3x2 pack(const Vec3 &a, const Vec3 &b)
{
  return {{a.x, b.x}, {a.y, b.y}, {a.z, b.z}};
}

// the geometry of two contacts (demc::sphere_contact() of Double2): that of contact l
inline SphereContact lane(const SphereContactOf<Vec3x2, Double2> &c, int l)
{
  return {lane(c.overlap, l), lane(c.n, l),     lane(c.n_old, l), lane(c.du, l),
          lane(c.twirl, l),   lane(c.arm_p, l), lane(c.arm_q, l)};
}

// f, a scalar function, of each lane of the arguments: the rare branches (out of line, so that
// the scalar code does not swell the lanes' usual path)
template <class F, class... A> __attribute__((noinline)) auto per_lane(F f, const A &...a)
{
  return pack(f(lane(a, 0)...), f(lane(a, 1)...));
}

// kernel_common.h's functions of two lanes
DEMC_FN_FLAT void sin_cos(Double2 phi, Double2 &s, Double2 &c)
{
  const Double2 a = lane_fabs(phi), p2 = phi * phi;
  if (all(a < 1e-3)) {
    sin_cos_below_1e3(phi, p2, s, c);
    return;
  }
  if (all(a < 1e-2)) {
    Double2 s3, c3;
    sin_cos_below_1e3(phi, p2, s3, c3);
    sin_cos_below_1e2(phi, p2, s, c);
    s = sel(a < 1e-3, s3, s);
    c = sel(a < 1e-3, c3, c);
    return;
  }
  double s0, c0, s1, c1;
  sin_cos(lane(phi, 0), s0, c0);
  sin_cos(lane(phi, 1), s1, c1);
  s = {s0, s1};
  c = {c0, c1};
}

DEMC_FN_FLAT Double2 exp_neg(Double2 E)
{
  if (!all((E >= 0.0) & (E < 700.0)))
    return per_lane(
        [](double e) {
          return exp_neg(e);
        },
        E);
  const Double2 kr = E * exp_neg_inv_ln2 + 0.5;
  const int k0 = static_cast<int>(lane(kr, 0)), k1 = static_cast<int>(lane(kr, 1));
  return exp_neg_reduced(E, Double2(k0, k1), Double2(pow2i(-k0), pow2i(-k1)));
}

}    // namespace demc

#endif
