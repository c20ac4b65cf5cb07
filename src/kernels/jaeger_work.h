/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: Jäger contact, part 3 of 4 -- the tangential work of a step.

   See jaeger_contact.h for the API. The work increment integral T.ds over a
   proportional step is summed spring by spring in the MDR picture (springs at
   radius x, g = x^2/R, u0(g) = s - s*(g) before the step, capacity K (z - g),
   K = mu kappa, each of stiffness 2 G* dx). With the apex z* of the step:
     A  g < z*, touching throughout: stuck, u = u0 + t ds. Closed form:
        W_A = ds.(T*(z*) + 2 G* a* d*) + G* a* |ds|^2,   d* = s - s*(z*).
     B  z* <= g, touching throughout: stuck until it reaches its yield circle at
        t1, then slides along the step's slip direction e to u = K (z' - g) e.
        Its plastic slip dp = e.(u0 + ds) - K (z' - g) >= 0 accrues at the constant
        rate rho = e.ds - K dz, so t1 = 1 - dp/rho.
     C  entering (dz > 0): slides along e from its entry.
     D  leaving (dz < 0): stuck until it reaches the shrinking circle, then dragged
        along uc/|uc| to zero, uc = u0 + t_e ds its free displacement when it leaves
        at t_e = (z - g)/|dz|.
   For collinear paths this is the exact elastic-perfectly-plastic history of
   every spring (the input and the bounds move linearly in a proportional step),
   so the work is exact for any step size. Within a history segment the
   integrands are polynomials of degree <= 4 in x (split D where uc changes
   sign), so 3-point Gauss–Legendre in x per piece is exact. On the top segment
   (most steps touch no other) they are quadratics in w = z0 - g, also in the
   plane, and are integrated in closed form from the moments of w instead
   (integrate_staying_top, integrate_leaving_top). In the plane, the
   same rules with the kernel's slip direction e are the kernel's model of the
   path within the step (Jäger's approximation); the rate rho is then clipped so
   that each spring slips for at most the step.
------------------------------------------------------------------------- */

#ifndef DEMC_JAEGER_WORK_H
#define DEMC_JAEGER_WORK_H

#include "jaeger_stack.h"

namespace demc {
namespace jaeger {
  namespace detail {

    /* The outcome of a non-elastic step, found before the stack is changed. */
    struct Plan {
      int k_top;     // segment holding the new top; its upper end becomes `top`
      Point top;     // the top once the leaving springs are dropped (old top or cut point)
      int k;         // segment holding the apex; -1: the origin (full sliding)
      Point apex;    // (z*, P*, T*) of the apex
      Vec2 v;        // s' - s*(z*): its direction is the slip direction; 0: no slip
      bool slips;    // a new slip segment is pushed (set_slip_direction())
      Vec2 e;        // its direction v / |v| where it slips
      /* slopes the walk down has read (segment index, -1: none): those of the top segment
         and of the apex's, which the work integral reads again (plan_slope()) */
      int k_m1 = -1, k_m2 = -1;
      Vec2 m1, m2;
    };

    // the slope of segment k (lo -> hi), from the plan where its walk read it
    DEMC_FN Vec2 plan_slope(const Material &mat, const Plan &p, int k, const Point &lo,
                            const Point &hi)
    {
      if (k == p.k_m1) return p.m1;
      if (k == p.k_m2) return p.m2;
      return segment_slope(mat, lo, hi);
    }

    /* Whether the step slips (|v| > 0 and the new top above the apex) and along which direction:
       decided once for the work integral and the stack. */
    DEMC_FN void set_slip_direction(Plan &p, double z1)
    {
      const double lv = length(p.v);
      p.slips = lv > 0.0 && z1 > p.apex.z;
      p.e = p.slips ? (1.0 / lv) * p.v : Vec2{0.0, 0.0};
    }

    /* One step's data for the spring integrals. */
    struct StepGeometry {
      double z0, z1, dz;        // overlap before and after, z1 - z0
      Vec2 ds;                  // tangential movement
      Vec2 e;                   // slip direction of the new annulus (B and C)
      double rho;               // e.ds - K dz: the rate of plastic slip along e
      double inv_rho;           // 1 / rho when rho > 0, else 0
      double K;                 // mu kappa
      double inv_adz;           // 1 / |dz| when dz < 0 (springs leave), else 0
      double inv_R;             // 1 / R
      double ds2;               // |ds|^2
      double K_e_ds;            // K e.ds: the slide's work rate per unit capacity (B)
      double z_apex;            // overlap of the apex
      double a0, a1, a_apex;    // contact radii sqrt(R z) at z0, z1 and z_apex (0 below 0)
    };

    /* Old displacement of a spring in segment lo -> hi: u0(g) = d + m (z_hi - g). */
    struct SegmentField {
      Vec2 d, m;
      double z_hi;
    };

    DEMC_FN Vec2 old_displacement(const SegmentField &f, double g)
    {
      return f.d + (f.z_hi - g) * f.m;
    }

    // Work (per unit spring stiffness 2 G* dx) of the stuck phase u = u0 + t ds, t in [0, t1].
    DEMC_FN double stuck_work(const Vec2 &u0, const Vec2 &ds, double t1)
    {
      return t1 * dot(u0, ds) + 0.5 * t1 * t1 * dot(ds, ds);
    }

    /* Region B: touching throughout, ends on the yield circle along e. Along a segment
       u0 = d + w m with w = z_hi - g, so everything but w is the same for all its springs and
       is formed once per segment (the quadrature evaluates this at every node):
         dp = e.(u0 + ds) - K (z1 - g) = p0 + w p1,   u0.ds = d.ds + w m.ds. */
    struct RegionB {
      const StepGeometry &s;
      double z_hi, d_ds, m_ds, p0, p1;
      DEMC_FN RegionB(const StepGeometry &step, const SegmentField &f) :
          s(step), z_hi(f.z_hi), d_ds(dot(f.d, step.ds)), m_ds(dot(f.m, step.ds)),
          p0(dot(step.e, f.d + step.ds) - step.K * (step.z1 - f.z_hi)),
          p1(dot(step.e, f.m) - step.K)
      {
      }
      DEMC_FN double operator()(double g) const
      {
        const double w = z_hi - g, w1 = s.z1 - g;    // w1: final capacity / K
        const double dp = max2(p0 + w * p1, 0.0);
        const double slip_time = (s.rho > dp) ? dp * s.inv_rho : 1.0;    // rho > dp >= 0
        const double stuck = 1.0 - slip_time;    // stuck_work(u0, ds, stuck)
        return stuck * (d_ds + w * m_ds) + 0.5 * stuck * stuck * s.ds2 +
            s.K_e_ds * slip_time * (w1 - 0.5 * slip_time * s.dz);
      }
    };

    /* Region D: leaves at t_e; dragged to zero along its own free displacement uc (|uc| > 0),
       reaching the shrinking circle after slip_time = |uc| / rho, rho = a / |uc| + K |dz|,
       a = uc.ds, if that is before t_e. Work of the dragged phase: K (a / |uc|) |dz| slip_time^2 / 2.
       With den = a + K |dz| |uc| = rho |uc| that takes one division in either case (this runs
       at every quadrature node of an unloading step). */
    DEMC_FN double work_region_d(const StepGeometry &s, const SegmentField &f, double g)
    {
      const double adz = -s.dz;
      const double t_e = min2(1.0, (s.z0 - g) * s.inv_adz);
      const Vec2 u0 = old_displacement(f, g);
      const Vec2 uc = u0 + t_e * s.ds;
      const double luc = length(uc);
      if (!(luc > 0.0)) return stuck_work(u0, s.ds, t_e);
      const double a = dot(uc, s.ds), den = a + s.K * adz * luc, luc2 = luc * luc;
      double slip_time, dragged;
      if (den * t_e > luc2) {    // rho t_e > |uc|: den > 0
        const double q = 1.0 / den;
        slip_time = luc2 * q;
        dragged = a * luc * luc2 * q * q;    // (a / |uc|) slip_time^2
      } else {
        slip_time = t_e;
        dragged = (a / luc) * t_e * t_e;
      }
      return stuck_work(u0, s.ds, t_e - slip_time) + 0.5 * s.K * adz * dragged;
    }

    // Region D as a function of g alone, for integrate_region()
    struct RegionD {
      const StepGeometry &s;
      const SegmentField &f;
      DEMC_FN double operator()(double g) const { return work_region_d(s, f, g); }
    };

    /* x = sqrt(R g) for g >= 0: the step's radii where g is one of its overlaps (the usual
       ends of a region), a square root otherwise. */
    DEMC_FN double radius_at(const Material &mat, const StepGeometry &s, double g)
    {
      if (g == s.z0) return s.a0;
      if (g == s.z1) return s.a1;
      if (g == s.z_apex) return s.a_apex;
      return math::sqrt(mat.R * g);
    }

    /* 3-point Gauss–Legendre of a region's integrand over x = sqrt(R g) in
       [sqrt(R g_lo), sqrt(R g_hi)]: exact for polynomials of degree 5 in x. */
    template <class Integrand>
    DEMC_FN double integrate_region(const Material &mat, const StepGeometry &s, double g_lo,
                                    double g_hi, double x_lo, double x_hi,
                                    const Integrand &integrand)
    {
      if (!(g_hi > g_lo)) return 0.0;
      const double half = 0.5 * mat.R * (g_hi - g_lo) / (x_hi + x_lo), mid = 0.5 * (x_hi + x_lo);
      const double node = 0.7745966692414834 * half;    // sqrt(3/5)
      const double xs[3] = {mid - node, mid, mid + node};
      const double ws[3] = {5.0 / 9.0, 8.0 / 9.0, 5.0 / 9.0};
      double sum = 0.0;
      for (int i = 0; i < 3; ++i) sum += ws[i] * integrand(xs[i] * xs[i] * s.inv_R);
      return half * sum;
    }
    // the same where the radii of the ends are not at hand
    template <class Integrand>
    DEMC_FN double integrate_region(const Material &mat, const StepGeometry &s, double g_lo,
                                    double g_hi, const Integrand &integrand)
    {
      if (!(g_hi > g_lo)) return 0.0;
      return integrate_region(mat, s, g_lo, g_hi, radius_at(mat, s, g_lo), radius_at(mat, s, g_hi),
                              integrand);
    }

    /* Region D over [g_lo, g_hi] of one segment, split where |uc(g)| is smallest
       (uc is linear in g; in 1-D that is its sign change, a kink of the integrand). */
    DEMC_FN double integrate_leaving(const Material &mat, const StepGeometry &s,
                                     const SegmentField &f, double g_lo, double g_hi)
    {
      if (!(g_hi > g_lo)) return 0.0;
      // uc(g) = uc(g_hi) + B (g - g_hi) with B = -m - ds/|dz| (while t_e < 1).
      const Vec2 uc_hi = old_displacement(f, g_hi) + ((s.z0 - g_hi) * s.inv_adz) * s.ds;
      const Vec2 B = (-1.0) * f.m - s.inv_adz * s.ds;
      const double B2 = dot(B, B);
      if (B2 > 0.0) {
        const double g_split = g_hi - dot(uc_hi, B) / B2;
        if (g_split > g_lo && g_split < g_hi)
          return integrate_region(mat, s, g_lo, g_split, RegionD{s, f}) +
              integrate_region(mat, s, g_split, g_hi, RegionD{s, f});
      }
      return integrate_region(mat, s, g_lo, g_hi, RegionD{s, f});
    }

    /* D = a - b for the radii a = sqrt(R g_a), b = sqrt(R g_b) of overlaps dg = g_a - g_b apart,
       without cancellation: R dg / (a + b). inv_R = 1 / R. */
    DEMC_FN double radius_difference(double inv_R, double a, double b, double dg)
    {
      return dg / (inv_R * (a + b));
    }

    /* integrals of w dx and w^2 dx over the springs x in [b, a] of a segment whose top is at
       radius a, w = (a^2 - x^2) / R, given D = a - b (radius_difference()): D^2 (2a + b) / (3R)
       and D^3 (4a^2/3 - a D + D^2/5) / R^2, positive terms only, without a division (1/R is
       formed once per step). (stored_energy() takes them too.) */
    DEMC_FN double moment_w1(double inv_R, double a, double b, double D)
    {
      return D * D * (2.0 * a + b) * ((1.0 / 3.0) * inv_R);
    }
    DEMC_FN double moment_w2(double inv_R, double a, double D)
    {
      return D * D * D * ((4.0 / 3.0) * a * a - a * D + 0.2 * D * D) * (inv_R * inv_R);
    }

    /* integral |d + w m|^2 dx over the springs between radius b and a of a segment whose top is
       at radius a (w = (a^2 - x^2) / R, d: the springs' displacement at the top), dz the overlaps'
       difference: the stored energy of those springs over G*. */
    DEMC_FN double segment_energy(double inv_R, const Vec2 &d, const Vec2 &m, double a, double b,
                                  double dz)
    {
      const double D = radius_difference(inv_R, a, b, dz);
      return dot(d, d) * D + 2.0 * dot(d, m) * moment_w1(inv_R, a, b, D) +
          dot(m, m) * moment_w2(inv_R, a, D);
    }

    /* integrals of 1, w and w^2 dx over the springs x in [x_bottom, x_top] of a segment, where
       w = w_top + (x_top^2 - x^2) / R, given the overlaps' difference dg = (x_top^2 - x_bottom^2)
       / R: sums of positive terms only (the moments of the shift from the top, moment_w2()).
       inv_R = 1 / R. */
    struct Moments {
      double w0, w1, w2;
    };
    DEMC_FN Moments moments_below(double inv_R, double w_top, double x_top, double x_bottom,
                                  double dg)
    {
      if (!(dg > 0.0)) return {0.0, 0.0, 0.0};
      const double D = radius_difference(inv_R, x_top, x_bottom, dg);
      const double v1 = moment_w1(inv_R, x_top, x_bottom, D), v2 = moment_w2(inv_R, x_top, D);
      return {D, w_top * D + v1, w_top * (w_top * D + 2.0 * v1) + v2};
    }

    /* Region B on the top segment (slope m, d = 0), the springs g in [g_lo, g_hi]: there
       dp = rho + w p1 with p1 = e.m - K <= 0, so a spring slips for 1 - beta w of the step,
       beta = -p1 / rho, until w* = 1 / beta, where it no longer reaches its circle (at the apex,
       to rounding). On either side of w* the integrand of RegionB is a quadratic in w:
         slipping  (0.5 dz + w) K e.ds
                   + w^2 [beta (m.ds - K e.ds) + beta^2 (|ds|^2 - K e.ds dz) / 2]
         stuck     w m.ds + |ds|^2 / 2
       integrated with the moments of w instead of the quadrature (which takes no account of
       w*). rho <= 0 (1 / rho taken as 0): beta = 0, every spring slips throughout, as in
       RegionB. Also returns the region's integral of w^2 dx: its springs held |m|^2 w^2 of
       stored energy (over G*) before the step. */
    struct TopIntegral {
      double work, w2;
    };
    DEMC_FN TopIntegral integrate_staying_top(const Material &mat, const StepGeometry &s,
                                              const Vec2 &m, double g_lo, double g_hi,
                                              double x_bottom, double x_top)
    {
      if (!(g_hi > g_lo)) return {0.0, 0.0};
      const double m_ds = dot(m, s.ds), c1 = s.K_e_ds;
      const double beta = max2((s.K - dot(s.e, m)) * s.inv_rho, 0.0);
      // w* below the bottom (to rounding: at it): every spring of the region reaches its circle
      const double g_star = beta > 0.0 ? s.z0 - 1.0 / beta : g_lo;
      const double g_cut = min2(max2(g_star, g_lo), g_hi);
      const double x_cut = (g_cut == g_lo) ? x_bottom
          : (g_cut == g_hi)                ? x_top
                                           : radius_at(mat, s, g_cut);
      const Moments stuck = moments_below(s.inv_R, s.z0 - g_cut, x_cut, x_bottom, g_cut - g_lo);
      TopIntegral I = {m_ds * stuck.w1 + 0.5 * s.ds2 * stuck.w0, stuck.w2};
      if (g_hi > g_cut) {    // some springs reach their circle (then 1 / beta > z0 - g_hi)
        const Moments slip = moments_below(s.inv_R, s.z0 - g_hi, x_top, x_cut, g_hi - g_cut);
        const double c2 = beta * (m_ds - c1) + 0.5 * beta * beta * (s.ds2 - c1 * s.dz);
        I.work += 0.5 * c1 * s.dz * slip.w0 + c1 * slip.w1 + c2 * slip.w2;
        I.w2 += slip.w2;
      }
      return I;
    }
    DEMC_FN TopIntegral integrate_staying_top(const Material &mat, const StepGeometry &s,
                                              const Vec2 &m, double g_lo, double g_hi)
    {
      return integrate_staying_top(mat, s, m, g_lo, g_hi, radius_at(mat, s, g_lo),
                                   radius_at(mat, s, g_hi));
    }

    /* Region D on the top segment (slope m, no shift below the top: d = 0), the springs from
       g_from up to the top z0 leaving. There u0 = w m and uc = w U with U = m + ds / |dz|, w =
       z0 - g: every time and displacement of work_region_d() scales with w -- the spring slips
       for w sigma of the step, whether it reaches the circle before it leaves is the same for
       all -- and the integrand is c w^2. The quadrature (exact for it) is replaced by the
       moment of w^2: one square root and one division instead of five and four. (With that
       moment, as integrate_staying_top().) */
    DEMC_FN TopIntegral integrate_leaving_top(const Material &mat, const StepGeometry &s,
                                              const Vec2 &m, double g_from, double x_from)
    {
      if (!(s.z0 > g_from)) return {0.0, 0.0};
      const double adz = -s.dz;
      const Vec2 U = m + s.inv_adz * s.ds;
      const double lU = length(U), U_ds = dot(U, s.ds);
      double sigma = 0.0, dragged = 0.0;    // slip time / w, (a / |uc|) slip time^2 / w^2
      if (lU > 0.0) {
        const double den = U_ds + s.K * adz * lU, lU2 = lU * lU;
        sigma = (den * s.inv_adz > lU2) ? lU2 / den : s.inv_adz;
        dragged = (U_ds / lU) * sigma * sigma;
      }
      const double stuck = s.inv_adz - sigma;    // stuck time / w
      const double c =
          stuck * dot(m, s.ds) + 0.5 * stuck * stuck * s.ds2 + 0.5 * s.K * adz * dragged;
      const double a = s.a0, b = x_from;
      const double w2 = moment_w2(s.inv_R, a, radius_difference(s.inv_R, a, b, s.z0 - g_from));
      return {c * w2, w2};
    }
    DEMC_FN TopIntegral integrate_leaving_top(const Material &mat, const StepGeometry &s,
                                              const Vec2 &m, double g_from)
    {
      return integrate_leaving_top(mat, s, m, g_from, radius_at(mat, s, g_from));
    }

    /* What a step that slips (or unloads) does to the energy: the work integral T.ds, and the
       stored energy U_t after it (-1: not carried). */
    struct StepEnergy {
      double work, stored;
    };

    /* whether a step carries U_t: with the work integral, from a known value (stored >= 0; the
       caller passes -1 where it would rather take U_t from the history when it needs it) */
    DEMC_FN bool carried(bool work, double stored)
    {
      return work && stored >= 0.0;
    }

    /* a carried U_t after a step: >= 0, as U_t is (where the springs nearly come back to rest
       the sum can round to a tiny negative value, which would read as "not carried") */
    DEMC_FN double carried_value(double U)
    {
      return U > 0.0 ? U : 0.0;
    }

    // StepResult::stored of a step: U_t after it where carried, else -1
    DEMC_FN double carried_after(bool carry, double U)
    {
      return carry ? carried_value(U) : -1.0;
    }

    /* The work integral T.ds of a step that slips somewhere (or unloads), from the stack BEFORE
       the step and the step's plan; and U_t after it from U_t before it (`stored`) without a walk
       over the whole history: the springs inside the apex stay stuck, so their energy grows by
       their work (region A); those above it lose their old displacements and take those of the
       new slip segment, u = K (z1 - g) e. The old energy above the apex is summed over the
       segments the work integral visits anyway (on the top segment from the moments of w its
       closed forms take). Full sliding (no apex) leaves only the new segment. Carry = false:
       the work only (stored -1), as fast as before U_t was carried. */
    template <bool Carry>
    DEMC_FN StepEnergy slip_step_work(const Material &mat, const Stack &st, double z0, double z1,
                                      const Vec2 &ds, const Plan &p, double stored)
    {
      const double K = cone_slope(mat);
      // what every node would need (the divisions and square roots included), once per step
      StepGeometry s;    // (member by member: no zero fill of what is set below)
      s.z0 = z0;
      s.z1 = z1;
      s.dz = z1 - z0;
      s.ds = ds;
      s.K = K;
      s.inv_adz = 0.0;
      s.inv_R = 1.0 / mat.R;
      s.ds2 = dot(ds, ds);
      s.z_apex = p.apex.z;
      s.a0 = contact_radius(mat, z0);
      s.a1 = contact_radius(mat, z1);
      s.a_apex = contact_radius(mat, p.apex.z);
      if (s.dz < 0.0) s.inv_adz = 1.0 / -s.dz;
      const bool slipping = p.slips;
      if (slipping) {
        s.e = p.e;
        s.rho = dot(s.e, ds) - K * s.dz;
        s.inv_rho = s.rho > 0.0 ? 1.0 / s.rho : 0.0;
        s.K_e_ds = K * dot(s.e, ds);
      } else {
        s.e = {0.0, 0.0};
        s.rho = s.inv_rho = s.K_e_ds = 0.0;
      }
      // A: inside the apex, closed form.
      const double a_apex = s.a_apex;
      const Vec2 d_apex = p.v - ds;
      const double W = dot(ds, force_of(p.apex) + (2.0 * mat.Gstar * a_apex) * d_apex) +
          mat.Gstar * a_apex * dot(ds, ds);
      // B and D: the old segments above the apex, from the top down.
      double WBD = 0.0, U_above = 0.0;
      const double z_apex = p.apex.z, z_stay = min2(z0, z1);
      const bool carry = Carry && p.k >= 0;    // full sliding: no old energy to sum
      Vec2 d = {0.0, 0.0};
      /* the radii x = sqrt(R g) of the region ends, from the walk: a segment's lower end is
         the next one's upper end (one square root per segment; the ends at z0, z1 and the apex
         are the step's) */
      double x_hi = s.a0;
      const double x_stay = z_stay == z0 ? s.a0 : s.a1;
      for (int k = st.n - 1; k >= 0 && k >= p.k; --k) {
        const Point hi = st.pts[k], lo = point_below(st, k);
        const SegmentField f = {d, plan_slope(mat, p, k, lo, hi), hi.z};
        const double g_lo = max2(lo.z, z_apex), g_stay = min2(hi.z, z_stay);
        const double g_from = max2(g_lo, max2(z1, 0.0));
        // (every segment above the apex's lies above it: lo.z >= z_apex)
        const double x_lo = lo.z > z_apex ? contact_radius(mat, lo.z) : s.a_apex;
        const double x_g_stay = hi.z <= z_stay ? x_hi : x_stay;
        const double x_g_from = g_from == g_lo ? x_lo : s.a1;
        if (k == st.n - 1) {    // the top segment, d = 0: closed forms
          // its springs above the apex stay (up to g_stay) or leave (from g_from)
          const TopIntegral B = slipping
              ? integrate_staying_top(mat, s, f.m, g_lo, g_stay, x_lo, x_g_stay)
              : TopIntegral{0.0, 0.0};
          const TopIntegral D = s.dz < 0.0 ? integrate_leaving_top(mat, s, f.m, g_from, x_g_from)
                                           : TopIntegral{0.0, 0.0};
          WBD += B.work + D.work;
          const bool all_springs = (slipping || !(g_stay > g_lo)) && (s.dz < 0.0 || g_stay == hi.z);
          if (carry)
            U_above += all_springs
                ? dot(f.m, f.m) * (B.w2 + D.w2)
                : segment_energy(s.inv_R, d, f.m, s.a0, radius_at(mat, s, g_lo), hi.z - g_lo);
        } else {
          if (slipping)
            WBD += integrate_region(mat, s, g_lo, g_stay, x_lo, x_g_stay, RegionB(s, f));
          if (s.dz < 0.0) WBD += integrate_leaving(mat, s, f, g_from, hi.z);
          if (carry)
            U_above += segment_energy(s.inv_R, d, f.m, radius_at(mat, s, hi.z),
                                      radius_at(mat, s, g_lo), hi.z - g_lo);
        }
        d = d + (hi.z - lo.z) * f.m;
        x_hi = x_lo;
      }
      // C: entering springs slide along e from their entry (a slip step with dz > 0).
      if (slipping && s.dz > 0.0) {
        const double a1 = s.a1, a0 = s.a0;
        const double int_w2 = moment_w2(s.inv_R, a1, radius_difference(s.inv_R, a1, a0, s.dz));
        WBD += 0.5 * K * dot(s.e, ds) * int_w2 / s.dz;
      }
      const double work = W + 2.0 * mat.Gstar * WBD;
      if (!Carry) return {work, -1.0};
      // the new slip segment's springs, |u| = K (z1 - g) from the apex (the origin: radius 0)
      const double D_new = p.k < 0 ? s.a1 : radius_difference(s.inv_R, s.a1, a_apex, z1 - z_apex);
      const double U_new = slipping ? K * K * moment_w2(s.inv_R, s.a1, D_new) : 0.0;
      const double U_kept = p.k < 0 ? 0.0 : stored - mat.Gstar * U_above + W;
      return {work, carried_value(U_kept + mat.Gstar * U_new)};
    }

  }    // namespace detail
}    // namespace jaeger
}    // namespace demc

#endif
