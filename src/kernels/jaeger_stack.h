/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: Jäger contact, part 2 of 4 -- the equivalent-history stack.

   See jaeger_contact.h for the API and the algorithm. This header holds the
   storage layout and the operations on it that do not depend on the step:
   reading slopes back, cutting a segment, merging segments, invariants.

   Layout. The caller owns the memory: Stack{pts, n, capacity}, pts[0..n-1]
   bottom first. The origin (z* = 0, P* = 0, T* = 0) is IMPLICIT: it is not stored.
   Point k is the upper end of segment k; segment 0 starts at the origin.
   The top point pts[n-1] is the current state: overlap z, normal force P and
   tangential force T of the contact. n = 0: not in contact.

   A point stores the force-space image of the history polyline: (z*, P*, T*),
   4 doubles. The displacement-space slope of segment k is read back as
       m_k = kappa (T*_k - T*_(k-1)) / (P*_k - P*_(k-1))
   (force space: dT = (m / kappa) dP). The tangential shift s*(z) itself is not
   stored: the step only ever needs shifts relative to the top, s - s*(z), which
   it accumulates from the slopes while walking down. So a contact needs no state
   besides its stack.

   Elastic vs slip segments are told apart by the slope magnitude: a slip segment
   has |m| = mu kappa exactly (|dT| = mu dP in force space). The test allows for
   the rounding of the stored differences (see segment_is_slip). An elastic
   segment whose slope is within that tolerance of the cone is treated as slip,
   which only means the beta merge leaves it alone and a full stack prefers to
   merge other pairs.
------------------------------------------------------------------------- */

#ifndef DEMC_JAEGER_STACK_H
#define DEMC_JAEGER_STACK_H

#include "jaeger_hertz.h"

namespace demc {
namespace jaeger {

  struct Point {
    double z, P, tx, ty;    // z*, P* = P(z*), force-space point T* (contact frame)
  };

  struct Stack {
    Point *pts;      // caller-owned storage, bottom first, origin implicit
    int n;           // points in use
    int capacity;    // points available at pts
  };

  // Invariant violations reported by check_invariants (0 = all hold).
  enum InvariantError : int {
    INV_OK = 0,
    INV_SIZE = 1,          // n < 0 or n > capacity
    INV_NOT_FINITE = 2,    // a NaN or infinity
    INV_Z_ORDER = 3,       // z* not strictly increasing from 0
    INV_P_MISMATCH = 4,    // P* != P(z*)
    INV_SLOPE = 5,         // a segment outside the cone, |dT| > mu dP
    INV_COULOMB = 6        // the current force outside the Coulomb cone, |T| > mu P
  };

  namespace detail {

    constexpr double kEps = 2.220446049250313e-16;    // double machine epsilon

    DEMC_FN double max2(double a, double b)
    {
      return a > b ? a : b;
    }
    DEMC_FN double min2(double a, double b)
    {
      return a < b ? a : b;
    }
    DEMC_FN bool is_finite(double x)
    {
      return x - x == 0.0;
    }    // false for NaN and +-inf

  }    // namespace detail

  DEMC_FN Point origin_point()
  {
    return {0.0, 0.0, 0.0, 0.0};
  }

  DEMC_FN Vec2 force_of(const Point &p)
  {
    return {p.tx, p.ty};
  }

  // The current state: the top point, or the origin when not in contact.
  DEMC_FN Point top_point(const Stack &st)
  {
    return st.n > 0 ? st.pts[st.n - 1] : origin_point();
  }

  // Lower end of segment k (point k is its upper end).
  DEMC_FN Point point_below(const Stack &st, int k)
  {
    return k > 0 ? st.pts[k - 1] : origin_point();
  }

  /* Displacement-space slope m = ds/dz of a segment and its length |m| (the walk down needs
     it too). */
  struct Slope {
    Vec2 m;
    double len;
  };

  /* The slope of the segment lo -> hi, read back from force space, before the clip below. A
     segment with no force increment gets 0. */
  DEMC_FN Vec2 unclipped_slope(const Material &mat, const Point &lo, const Point &hi)
  {
    const double dP = hi.P - lo.P;
    if (!(dP > 0.0)) return {0.0, 0.0};
    const double s = kappa(mat) / dP;
    return {s * (hi.tx - lo.tx), s * (hi.ty - lo.ty)};
  }

  /* Rounding can put a tiny segment's slope a little outside the cone, where the walk-down's
     quadratic would lose its single positive root: clip it to |m| <= mu kappa. */
  DEMC_FN Slope clip_to_cone(const Material &mat, const Vec2 &m)
  {
    const double K = cone_slope(mat), len = length(m);
    if (!(len > K)) return {m, len};
    const Vec2 clipped = (K / len) * m;
    return {clipped, length(clipped)};
  }

  DEMC_FN Slope read_slope(const Material &mat, const Point &lo, const Point &hi)
  {
    return clip_to_cone(mat, unclipped_slope(mat, lo, hi));
  }

  /* read_slope().m to the bit, without its square root where the slope is well inside the cone
     (|m|^2 <= 0.98 K^2 in rounded arithmetic puts |m| below K with a wide margin: no clip). */
  DEMC_FN Vec2 segment_slope(const Material &mat, const Point &lo, const Point &hi)
  {
    const Vec2 m = unclipped_slope(mat, lo, hi);
    const double K = cone_slope(mat);
    if (dot(m, m) <= 0.98 * (K * K)) return m;
    return clip_to_cone(mat, m).m;
  }

  /* Bound on the rounding error of segment_slope: the stored T* and P* carry
     relative errors of a few eps, the differences do not. */
  DEMC_FN double segment_slope_error(const Material &mat, const Point &lo, const Point &hi)
  {
    const double dP = hi.P - lo.P;
    if (!(dP > 0.0)) return 0.0;
    const double scale = length(force_of(hi)) + length(force_of(lo)) + mat.mu * hi.P;
    return 8.0 * detail::kEps * kappa(mat) * scale / dP;
  }

  /* Slip segment: |dT| = mu dP to within a relative 1e-9 and the absolute rounding
     of the stored forces. */
  DEMC_FN bool segment_is_slip(const Material &mat, const Point &lo, const Point &hi)
  {
    const double dP = hi.P - lo.P;
    const Vec2 dT = force_of(hi) - force_of(lo);
    const double tol = 1e-9 * mat.mu * dP +
        8.0 * detail::kEps * (length(force_of(hi)) + length(force_of(lo)) + mat.mu * hi.P);
    return mat.mu * dP - length(dT) <= tol;
  }

  /* The point of segment lo -> hi at overlap z (lo.z <= z <= hi.z) whose normal
     force P(z) = Pz is given. T* is linear in P* along a segment, so this is an
     interpolation in P: the cut keeps the segment's slope. */
  DEMC_FN Point point_on_segment(const Point &lo, const Point &hi, double z, double Pz)
  {
    const double dP = hi.P - lo.P;
    double f = dP > 0.0 ? (Pz - lo.P) / dP : 0.0;
    f = detail::max2(0.0, detail::min2(1.0, f));
    return {z, Pz, lo.tx + f * (hi.tx - lo.tx), lo.ty + f * (hi.ty - lo.ty)};
  }

  DEMC_FN void remove_point(Stack &st, int k)
  {
    for (int i = k; i + 1 < st.n; ++i) st.pts[i] = st.pts[i + 1];
    --st.n;
  }

  /* Merging: removing point k joins segments k and k+1 into the chord from
     point k-1 to point k+1. In force space that chord is the sum of the two
     increments, so every stored T* -- the current force included -- is unchanged,
     and the merged slope is the dP-weighted mean of the two, inside the cone.
     (The displacement-space polyline below the merge shifts, which is the
     approximation.) */

  /* Make room for pushing `next` onto a full stack (n == capacity). Candidates are
     every interior point of the stack extended by `next`: point k between
     segment k (below) and segment k+1 (above; for k = n-1 that is the pending
     segment to `next`). Picks the pair of ELASTIC segments whose slopes differ
     least; when there is none (a history of slip segments only) the pair of any
     kind whose slopes differ least, so the capacity always holds.
     Returns the number of merges (0 or 1). Needs capacity >= 1. */
  DEMC_FN int make_room(const Material &mat, Stack &st, const Point &next)
  {
    if (st.n < st.capacity || st.n == 0) return 0;
    int best_elastic = -1, best_any = -1;
    double diff_elastic = 0.0, diff_any = 0.0;
    for (int k = 0; k < st.n; ++k) {
      const Point lo = point_below(st, k), mid = st.pts[k];
      const Point hi = (k + 1 < st.n) ? st.pts[k + 1] : next;
      const double diff = length(segment_slope(mat, lo, mid) - segment_slope(mat, mid, hi));
      if (best_any < 0 || diff < diff_any) {
        best_any = k;
        diff_any = diff;
      }
      const bool elastic = !segment_is_slip(mat, lo, mid) && !segment_is_slip(mat, mid, hi);
      if (elastic && (best_elastic < 0 || diff < diff_elastic)) {
        best_elastic = k;
        diff_elastic = diff;
      }
    }
    remove_point(st, best_elastic >= 0 ? best_elastic : best_any);
    return 1;
  }

  /* Shorten a history to at most `length` >= 1 points (a bound set below the lengths histories
     already have, e.g. a smaller history/max after read_restart): the top point (the current
     force) is kept and the points below are merged away one at a time by make_room()'s rule,
     as if the top were being pushed onto a full stack. Returns the number of merges. */
  DEMC_FN int shorten_to(const Material &mat, Stack &st, int length)
  {
    int merges = 0;
    while (st.n > length && st.n > 1) {
      const Point top = st.pts[st.n - 1];
      const int capacity = st.capacity;
      st.n--;
      st.capacity = st.n;
      merges += make_room(mat, st, top);
      st.capacity = capacity;
      st.pts[st.n++] = top;
    }
    return merges;
  }

  /* The memory approximation of the paper (its Fig. 6), applied after an elastic
     push: while the top two segments are both elastic and their slopes differ by
     no more than beta mu kappa, merge them. beta = 0 merges only slopes that read
     back bitwise equal (e.g. the slope-0 segments of pure normal loading), which
     loses nothing. Returns the number of merges. */
  DEMC_FN int merge_similar_top(const Material &mat, Stack &st, double beta)
  {
    int merges = 0;
    const double limit = beta * cone_slope(mat);
    while (st.n >= 2) {
      const Point lo = point_below(st, st.n - 2), mid = st.pts[st.n - 2], hi = st.pts[st.n - 1];
      // the slopes first: usually they differ, and the slip tests take four square roots
      // (beta = 0: exactly equal slopes only, whatever the scale of their difference)
      const Vec2 dm = segment_slope(mat, lo, mid) - segment_slope(mat, mid, hi);
      if (limit > 0.0 ? dot(dm, dm) > limit * limit : (dm.x != 0.0 || dm.y != 0.0)) break;
      if (segment_is_slip(mat, lo, mid) || segment_is_slip(mat, mid, hi)) break;
      remove_point(st, st.n - 2);
      ++merges;
    }
    return merges;
  }

  /* Invariants of a stack (for tests and fuzzing). Tolerances are rounding
     allowances only: P* within 8 eps of P(z*); each segment |dT| <= mu dP plus 16
     eps of the forces involved; the current force |T| <= mu P (1 + 1e-12). */
  DEMC_FN int check_invariants(const Material &mat, const Stack &st)
  {
    if (st.n < 0 || st.n > st.capacity) return INV_SIZE;
    for (int k = 0; k < st.n; ++k) {
      const Point p = st.pts[k];
      if (!detail::is_finite(p.z) || !detail::is_finite(p.P) || !detail::is_finite(p.tx) ||
          !detail::is_finite(p.ty))
        return INV_NOT_FINITE;
    }
    for (int k = 0; k < st.n; ++k) {
      const Point lo = point_below(st, k), hi = st.pts[k];
      if (!(hi.z > lo.z)) return INV_Z_ORDER;
      const double P = hertz_force(mat, hi.z);
      if (math::fabs(hi.P - P) > 8.0 * detail::kEps * P) return INV_P_MISMATCH;
      const double dT = length(force_of(hi) - force_of(lo));
      const double tol =
          16.0 * detail::kEps * (length(force_of(hi)) + length(force_of(lo)) + mat.mu * hi.P);
      if (dT > mat.mu * (hi.P - lo.P) + tol) return INV_SLOPE;
    }
    const Point top = top_point(st);
    if (length(force_of(top)) > mat.mu * top.P * (1.0 + 1e-12)) return INV_COULOMB;
    return INV_OK;
  }

}    // namespace jaeger
}    // namespace demc

#endif
