/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: the Kuhn–Suzuki–Daouadji linear–frictional contact.

   M. R. Kuhn, K. Suzuki, A. Daouadji, "Linear-frictional contact model for 3D
   discrete element (DEM) simulations of granular systems" (short communication).
   The algorithm is the paper's Fig. 1; line numbers below refer to it.

   One call of step() advances one contact by one time step. The movement within
   the step is taken as uniform (Eq. 4): the fraction alpha in [0, 1] of the step
   parameterises both the overlap and the tangential movement. Within the step the
   kernel resolves, each switchable by a Refinement bit:
     FRESH         first touch part-way through the step (Eqs. 7-8, lines 10-18);
     ELASTIC_SLIP  elastic movement before slip starts (Eqs. 9-15, lines 21-30);
     TURN          the turning of the force direction while it slides (Eqs. 16-21);
     PROJECT       the tilt of the tangent plane carrying the force (Eq. 22);
     TWIRL         the twirl of the pair about the normal carrying the force (Eq. 23).
   With every bit off the result is the conventional algorithm: f^t + kt dxi, scaled
   back onto the friction cone mu f^n if outside.

   Sign conventions (paper): n points from p towards q; du is the movement of q
   relative to p at the contact (Eq. 5); a positive dzeta closes the contact; the
   force on p is -f^n n + f^t (Eq. 3), so the tangential force on p follows the
   elastic movement of q relative to p.

   Plain C++: no allocation, exceptions, virtual calls or I/O; host/device callable.
------------------------------------------------------------------------- */

#ifndef DEMC_KUHN_CONTACT_H
#define DEMC_KUHN_CONTACT_H

#include "contact_geometry.h"

namespace demc {
namespace kuhn {

  enum Refinement : unsigned {
    FRESH = 1u,
    ELASTIC_SLIP = 2u,
    TURN = 4u,
    PROJECT = 8u,
    TWIRL = 16u,
    ALL = 31u
  };

  // Result::branch: which path of Fig. 1 the step took.
  enum Branch : int {
    BRANCH_SEPARATED = 0,      // lines 4-5: not touching at t+dt
    BRANCH_FRESH_STICK = 1,    // lines 10-14: first touch in this step, inside the cone
    BRANCH_FRESH_SLIP = 2,     // lines 15-16: first touch, capped at the cone
    BRANCH_STICK = 3,          // line 20: touching before, stays inside the cone
    BRANCH_SLIP = 4            // lines 21-43: touching before, reaches the cone (alpha_s says when)
  };

  struct Params {
    double kn, kt, mu;                    // normal and tangential stiffness, friction coefficient
    double damp_n = 0.0, damp_t = 0.0;    // contact dashpots (force per velocity)
    unsigned flags = ALL;                 // Refinement bits
    // relative tolerance for the near-zero tests: a constant, so that the compiler can fold it
    static constexpr double eps = 1e-12;
  };

  /* The parameters one contact's step runs with, for the styles' two variants of their contact
     loop. ALL_ON (every refinement on, known at compile time: the default): the copy `folded`
     with the flags set, so that the compiler folds the kernel's tests of them (the copy is dead
     code otherwise); the general variant reads p in place (a copy for every contact costs
     time). */
  template <bool ALL_ON> DEMC_FN_FLAT const Params &params_for_step(const Params &p, Params &folded)
  {
    folded = p;
    folded.flags = ALL;
    return ALL_ON ? folded : p;
  }

  struct Motion {                     // Fig. 1 line 1, geometry and movements over the step
    double zeta_new, zeta_old;        // overlaps at t+dt and t (<=0: not touching)
    Vec3 n, n_old;                    // unit normals at t+dt and t, from p towards q
    Vec3 du_p, du_q, dth_p, dth_q;    // translations and rotation vectors of p and q over the step
    Vec3 r_p, r_q;    // contact vectors at t+dt: centre of p (q) to the contact point
    double dt;        // time step (only damping uses it)
  };

  /* What step() needs of the movement: Motion reduced to the contact's own quantities.
     Callers that know the contact vectors' form compute it directly (demc::sphere_contact()
     for two spheres: one cross product instead of two, 13 numbers instead of 27). */
  struct Kinematics {
    double zeta_new, zeta_old;    // overlaps at t+dt and t
    Vec3 n, n_old;                // unit normals at t+dt and t, from p towards q
    Vec3 du;                      // movement of q relative to p at the contact (Eq. 5)
    double twirl;                 // the pair's rotation about n over the step (contact_twirl())
    double dt;                    // time step (only damping uses it)
  };

  struct Result {
    double fn;     // elastic normal force f^{n,t+dt} = kn zeta (>= 0); dashpot: f_damp
    Vec3 ft;       // new tangential force f^{t,t+dt}: the history to store
    Vec3 force;    // total force ON PARTICLE p: -fn n + ft + f_damp (Eq. 3 plus damping);
                   // q gets -force
    double Wn;     // stored normal elastic energy fn^2/(2 kn) at t+dt
    double Wt;     // stored tangential elastic energy |ft|^2/(2 kt) at t+dt
    double dWt, dWt_rev, dWt_irrev;    // tangential work increment, reversible, dissipated
    double dW_damp;                    // work done on the damping dashpots this step (>= 0)
    double alpha_o, alpha_s;    // fraction before touching, elastic fraction before slip (0 if n/a)
    int branch;                 // a Branch code
    Vec3 f_damp;                // dashpot force on p (included in force)
  };

  namespace detail {

    // x clamped to [0, 1]; NaN -> 0
    DEMC_FN double clamp01(double x)
    {
      return x > 0.0 ? (x < 1.0 ? x : 1.0) : 0.0;
    }
    DEMC_FN double max2(double a, double b)
    {
      return a > b ? a : b;
    }
    DEMC_FN double max_abs_component(const Vec3 &v)
    {
      return max2(math::fabs(v.x), max2(math::fabs(v.y), math::fabs(v.z)));
    }

    /* |v| that neither overflows nor underflows for any finite v: movements from
       1e-300 to 1e300 must still give a direction. */
    DEMC_FN double length(const Vec3 &v)
    {
      const double d = dot(v, v);
      if (d > 1e-290 && d < 1e290) return math::sqrt(d);    // the usual case, no rescaling
      const double m = max_abs_component(v);
      if (!(m > 0.0)) return 0.0;
      if (m > 1e-150 && m < 1e150) return math::sqrt(dot(v, v));
      const Vec3 w = (1.0 / m) * v;
      return m * math::sqrt(dot(w, w));
    }

    /* |v| > R without a square root in the usual range (the stick test of every step); v2 is
       |v|^2 as the caller has it. DEMC_FN_FLAT (as add_damping()): when gran/kuhn/kk got its
       variant with the refinements known at compile time, GCC's inlining budget for that file
       ran out and it called these out of line, which made the pair loop slower. */
    DEMC_FN_FLAT bool longer_than(const Vec3 &v, double v2, double R)
    {
      if (v2 > 1e-290 && v2 < 1e290 && R < 1e145) return v2 > R * R;
      return length(v) > R;
    }
    DEMC_FN_FLAT bool longer_than(const Vec3 &v, double R)
    {
      return longer_than(v, dot(v, v), R);
    }

    DEMC_FN Vec3 unit_or_zero(const Vec3 &v)
    {
      const double d = dot(v, v);
      if (d > 1e-290 && d < 1e290) return (1.0 / math::sqrt(d)) * v;    // the usual case
      const double m = max_abs_component(v);
      if (!(m > 0.0)) return {0.0, 0.0, 0.0};
      const Vec3 w = (1.0 / m) * v;
      return (1.0 / math::sqrt(dot(w, w))) * w;
    }

    // Scale v onto length R (the friction limit of Eqs. 2 and 23); no direction: zero.
    DEMC_FN Vec3 scaled_to(const Vec3 &v, double R)
    {
      const double len = length(v);
      return len > 0.0 ? (R / len) * v : Vec3{0.0, 0.0, 0.0};
    }

    /* Lines 48-49, applied to f^{t,t} at the START of the step instead of to the new force
       at the end. The rigid rotation of the pair over the step carries the force it holds;
       applying it first makes f^{t,t}, dxi, m^{dxi} and m^{perp dxi} all lie in the new
       tangent plane, so the slip construction of Eqs. 9-21 works in one plane, and the
       final force needs no correction that would change its magnitude afterwards.
       PROJECT: the smallest rotation taking n_old to n. To first order this is Eq. 22's
       projection, but it keeps |f^t| (the projection shrinks it by the cosine of the tilt
       every step, so a rolling pair would lose stored energy).
       TWIRL: the rotation about n by the pair's mean spin 1/2 (dth_p + dth_q).n, applied
       exactly (Rodrigues); Eq. 23 is its first-order form, which lengthens f^t by the
       factor sqrt(1 + angle^2) each step. */
    DEMC_FN_FLAT Vec3 carried_by_pair_rotation(const Params &p, const Kinematics &m,
                                               const Vec3 &ft_old)
    {
      // (a zero force stays zero: no test for it, it would cost more than it saves)
      Vec3 f = ft_old;
      if (p.flags & PROJECT) {
        f = tilt_tangential(f, m.n_old, m.n);    // f^{t,t} lies in the plane normal to n_old
        if (p.flags & TWIRL) f = rotate_perpendicular_about(f, m.n, m.twirl);
      } else if (p.flags & TWIRL) {
        f = rotate_about(f, m.n, m.twirl);    // f need not be tangential to n
      }
      return f;
    }

    /* Eq. 7 (line 11): the fraction of the step before the surfaces touch.
       Guard: without a closing movement (dzeta <= 0) the instant of touch cannot be located
       from the movement; the whole step is then counted as in contact (alpha_o = 0). */
    DEMC_FN double fraction_before_touch(double zeta_new, double dzeta)
    {
      if (!(dzeta > 0.0)) return 0.0;
      return clamp01(1.0 - zeta_new / dzeta);
    }

    /* Smallest alpha in [0, 1] at which g(alpha) = A alpha^2 + 2 B alpha + C changes from
       >= 0 to < 0, where g = (mu f^n(alpha))^2 - |f^t(alpha)|^2 along the elastic path
       (Eq. 9). A, B, C are Eqs. 11-13 (in any common scale); 1 if the path never leaves
       the cone within the step.

       Lines 25-27 as printed run the second if/else after the first, so line 27 would
       overwrite line 25; the intent is an if / else-if chain. Rather than testing A ~ 0,
       the root is taken in the cancellation-free form of the quadratic formula:
         B <= 0:  alpha_s = C / (sqrt(B^2 - AC) - B)   (= Eq. 10 rationalised; it is
                  exactly Eq. 14, -C/(2B), when A = 0, so no A ~ 0 test is needed)
         B >  0:  alpha_s = -(B + sqrt(B^2 - AC)) / A  (Eq. 10 itself, no cancellation;
                  only when A < 0: with A >= 0 both roots are negative)
       C ~ 0 (line 25: on the cone at the start): g ~ alpha (A alpha + 2B), so the path
       leaves at once if B <= 0 and returns to the cone at -2B/A if B > 0. Line 25's
       max(0, -2B/A) agrees except when B < 0 < A (strong normal unloading): then -2B/A
       is the spurious root where |f^t| meets -mu f^n, and slip starts at 0.
       C < 0 beyond round-off: the force starts outside the cone, it slips at once
       (continuing_contact returns such a force onto the cone before asking). tol is the
       round-off allowance on C, in C's units. */
    DEMC_FN_FLAT double slip_onset_root(double A, double B, double C, double tol)
    {
      if (C < -tol) return 0.0;
      const bool b_neg = B <= 0.0, a_neg = A < 0.0;
      if (C <= 0.0) {    // on the cone (C slightly negative is round-off)
        if (b_neg) return 0.0;
        return a_neg ? clamp01(-2.0 * B / A) : 1.0;
      }
      const double disc = B * B - A * C;
      if (disc < 0.0) return 1.0;                      // g > 0 throughout (needs A > 0)
      const double s = math::sqrt(max2(disc, 0.0));    // (NaN: 0)
      // s - B > 0 unless A = B = 0 (then g = C > 0)
      if (b_neg) return (s - B > 0.0) ? clamp01(C / (s - B)) : 1.0;
      return a_neg ? clamp01(-(B + s) / A) : 1.0;
    }

    /* Lines 22-27. Inputs: R0 = mu f^{n,t}, dR = mu kn dzeta, f0 = f^{t,t}, df = kt dxi.
       The roots do not depend on the units of A, B, C: they are formed directly where B^2
       and A C can neither overflow nor underflow, in units of the largest force otherwise.
       C's tolerance is relative to the square of the largest force. */
    DEMC_FN_FLAT double slip_onset(double R0, double dR, const Vec3 &f0, const Vec3 &df, double eps)
    {
      const double scale2 = max2(max2(R0 * R0, dR * dR), max2(dot(f0, f0), dot(df, df)));
      double u = 1.0, tol = eps * scale2;    // u: 1 / the unit of force
      if (!(scale2 > 1e-140 && scale2 < 1e140)) {
        const double scale =
            max2(max2(math::fabs(R0), math::fabs(dR)), max2(length(f0), length(df)));
        if (!(scale > 0.0)) return 0.0;
        u = 1.0 / scale;
        tol = eps;
      }
      const double r0 = u * R0, a = u * dR;
      const Vec3 g0 = u * f0, b = u * df;
      const double A = a * a - dot(b, b);        // Eq. 11
      const double B = r0 * a - dot(g0, b);      // Eq. 12
      const double C = r0 * r0 - dot(g0, g0);    // Eq. 13
      return slip_onset_root(A, B, C, tol);
    }

    /* slip_onset() from the products the caller has already formed: ff = |f0|^2, fd = f0.dxi,
       dd = |dxi|^2 with df = kt dxi. Where the squares can neither overflow nor underflow,
       Eqs. 11-13 follow from them at once (three dot products fewer per sliding step);
       elsewhere slip_onset() rescales. */
    DEMC_FN_FLAT double slip_onset(double R0, double dR, double kt, const Vec3 &f0, const Vec3 &dxi,
                                   double ff, double fd, double dd, double eps)
    {
      const double bb = kt * kt * dd;
      const double scale2 = max2(max2(R0 * R0, dR * dR), max2(ff, bb));
      if (!(scale2 > 1e-140 && scale2 < 1e140)) return slip_onset(R0, dR, f0, kt * dxi, eps);
      return slip_onset_root(dR * dR - bb, R0 * dR - kt * fd, R0 * R0 - ff, eps * scale2);
    }

    /* |v|^2 inside [1e-100, 1e100]: squares and products of two such lengths neither
       overflow nor underflow, so a direction can be found without normalising first. */
    DEMC_FN bool moderate(double len2)
    {
      return len2 > 1e-100 && len2 < 1e100;
    }

    /* exp(-E), Eq. 18's decay of tan(theta / 2) along the slide, for the exponent
       E = kt |dxi_r| / (mu logmean(fn_s, fn_end)), with the logarithmic mean
       (b - a) / ln(b / a) (= a when a = b): the paper's (1/(c1 c2)) ln(1 + c2) written so
       that the c2 -> 0 limit (line 38) needs no special case and no cancellation.
       With s = (fn_end - fn_s) / (fn_end + fn_s), ln(fn_end / fn_s) = 2 atanh(s), so
         E = kt |dxi_r| 2 atanh(s) / (mu s (fn_end + fn_s)),
       and 2 atanh(s) / s is a series in s^2 (demc::atanh_ratio()) for |s| < 1/3, i.e. forces
       within a factor of 2; beyond, ln(fn_end / fn_s) itself (demc::log_far_from_one()).
       Inline, without the library's pow (or log1p and exp), which is faster. 0 for an infinite
       E: the normal force reaches zero on the path (the integral of 1/f^n diverges), or
       mu = 0. DEMC_FN_FLAT: with a third variant of gran/kuhn's contact loop (restitution
       damping) GCC called it out of line in the default one. */
    DEMC_FN_FLAT double slide_decay(double fn_s, double fn_end, double kt_len, double mu)
    {
      if (!(fn_s > 0.0) || !(fn_end > 0.0) || !(mu > 0.0)) return 0.0;
      const double inv = 1.0 / (mu * (fn_end + fn_s));
      const double s = (fn_end - fn_s) * (mu * inv);    // |s| < 1
      const double ratio = math::fabs(s) < 1.0 / 3.0 ? atanh_ratio(s * s)
                                                     : log_far_from_one(fn_end / fn_s) / s;
      return exp_neg(kt_len * inv * ratio);
    }

    /* Lines 31-43: the force slides along the remaining movement dxi_r while the cone
       radius follows mu f^n(alpha), f^n linear from fn_s to fn_path_end (Eq. 17).
       Eq. 16, d theta / d alpha = -kt |dxi| sin(theta) / (mu f^n(alpha)), integrates in
       closed form: Eq. 18's ln|csc - cot| is ln|tan(theta/2)|, so
         tan(theta1 / 2) = tan(theta0 / 2) exp(-E),
         E = kt |dxi_r| / (mu logmean(fn_s, fn_path_end)),
       which keeps the sign of theta0 (Eq. 19 is automatic) and needs no look-up table.
       theta0 = 0 and theta0 = pi are fixed points (pi is unstable but exact).
       theta is the FULL angle from the movement to the force, atan2(S, C) with
       C = f.d and S = f.(n x d) (line 32 uses arcsine, which folds angles beyond 90 degrees;
       with normal unloading a sliding force can lie more than 90 degrees from the movement).
       Only ratios are needed: with rho = sqrt(C^2 + S^2), (X, Y) = (rho + C, S) (or, for
       C < 0 where that cancels, (|S|, sign(S) (rho - C))) is proportional to
       (cos theta/2, sin theta/2), and the final force, mu f^{n,t+dt} along theta1
       (Eqs. 20-21) in the new tangent plane, is
         R_end / (|d| h) ((2 X Y) (n x d) + (X^2 - Y^2) d),  h = X^2 + Y^2,
       after Y *= exp(-E): two square roots and two or three divisions in all. Extreme
       lengths are normalised first (moderate()). No in-plane force (f^n reached 0): it
       builds along the movement.
       turned_force() is the turn itself, for a start-of-slide force f of moderate length (or
       zero) and a remaining movement d of moderate length len_d, with decay = exp(-E);
       turned_slip_force() brings any lengths into that range first. */
    DEMC_FN_FLAT Vec3 turned_force(const Vec3 &f, const Vec3 &d, double len_d, double decay,
                                   double R_end, const Vec3 &n)
    {
      const Vec3 n_x_d = cross(n, d);
      double C = dot(f, d), S = dot(f, n_x_d);
      double rho = math::sqrt(C * C + S * S);
      if (!(rho > 1e-150)) {    // (for moderate f and d: an in-plane part below 1e-50 |f|)
        C = rho = 1.0;          // as if along the movement
        S = 0.0;
      }
      const bool forward = C >= 0.0;
      const double X = forward ? rho + C : math::fabs(S);
      // tan(theta1/2) = tan(theta0/2) exp(-E)
      const double Y = (forward ? S : (S < 0.0 ? -1.0 : 1.0) * (rho - C)) * decay;
      const double h = X * X + Y * Y;
      // h = 0 only for theta0 = pi with E infinite: it stays at pi
      if (!(h > 0.0)) return (-R_end / len_d) * d;
      const double scale = R_end / (h * len_d);
      return ((2.0 * X * Y) * scale) * n_x_d + ((X * X - Y * Y) * scale) * d;
    }

    /* dxi, the movement's tangential part, is normal to n up to the round-off of the whole
       movement it was taken from (about 1e-16 |du|). The turn builds the force on its
       direction, so a dxi that leans out of the tangent plane carries the force out of it:
       found by fuzz_kuhn, a sliding contact unloaded by a purely normal movement (dxi all
       round-off, along n) came out with its tangential force along the normal, and the next
       step dissipated a negative amount. Where dxi leans by more than 1e-10 rad (a tangential
       movement below about 1e-6 of the normal one), its normal part is removed; what is left
       below 1e-8 of it is round-off: no tangential movement (the force returns radially onto
       the cone if that shrank, else it stays). A genuine movement leans by about 1e-16, so the
       usual step is unchanged.
       d2 = |d|^2 on entry and on return. Returns where d was changed. */
    DEMC_FN_FLAT bool in_tangent_plane(Vec3 &d, double &d2, const Vec3 &n)
    {
      const double dn = dot(d, n);
      if (!(dn * dn > 1e-20 * d2)) return false;
      const Vec3 d_t = d - dn * n;
      const double d_t2 = dot(d_t, d_t);
      const bool none = d_t2 <= 1e-16 * d2;
      d = none ? 0.0 * d : d_t;
      d2 = none ? 0.0 : d_t2;
      return true;
    }

    // dxi_r: the movement left, in the tangent plane, and d2 = |dxi_r|^2 (slide_start())
    DEMC_FN_FLAT Vec3 turned_slip_force(const Vec3 &f_s, double fn_s, double fn_path_end,
                                        double R_end, const Vec3 &dxi_r, double d2, const Vec3 &n,
                                        double kt, double mu)
    {
      if (!(R_end > 0.0)) return {0.0, 0.0, 0.0};    // mu = 0 or no normal force: no friction
      const bool d_moderate = moderate(d2);
      const double len_dxi = d_moderate ? math::sqrt(d2) : length(dxi_r);
      // no sliding left: the force only returns onto a cone that shrank. (Scaled onto a cone
      // that grew, it gained energy without work: found by fuzz_kuhn, a contact of tiny mu
      // loaded along an oblique normal, whose round-off dxi had pushed the trial outside.)
      if (!(len_dxi > 0.0)) return longer_than(f_s, R_end) ? scaled_to(f_s, R_end) : f_s;
      const Vec3 d = d_moderate ? dxi_r : (1.0 / len_dxi) * dxi_r;
      const double len_d = d_moderate ? len_dxi : 1.0;
      const Vec3 f = moderate(dot(f_s, f_s)) ? f_s : unit_or_zero(f_s);
      return turned_force(f, d, len_d, slide_decay(fn_s, fn_path_end, kt * len_dxi, mu), R_end, n);
    }

    // Eq. 6 (line 9): the movement's normal closing dzeta and tangential part dxi
    DEMC_FN_FLAT void split_movement(const Vec3 &du, const Vec3 &n, double &dzeta, Vec3 &dxi,
                                     double &dd)
    {
      dzeta = -dot(du, n);
      dxi = du + dzeta * n;
      dd = dot(dxi, dxi);
    }

    // line 45 for elastic movement, 1/2 dxi.(f_from + trial), from fd = f_from.dxi, dd = |dxi|^2
    DEMC_FN_FLAT double elastic_work(double fd, double kt, double dd)
    {
      return fd + (0.5 * kt) * dd;
    }

    /* Lines 28-30 from the onset a_s: the work before slip, the force where slip starts
       (Eq. 15), the movement left and the normal force along the slide (Eq. 17). */
    struct SlideStart {
      double dWt;
      Vec3 f_s, dxi_r;
      double dxi_r2;    // |dxi_r|^2
      double fn_s, fn_path_end;
    };
    /* dxi: the movement without its round-off out of the tangent plane (slip_movement()), so
       that the elastic part, the turn and the slide's work all stay in the plane. */
    DEMC_FN_FLAT SlideStart slide_start(double a_s, const Vec3 &f_from, double fd, double dd,
                                        const Vec3 &dxi, double fn_old, double dzeta, double kn,
                                        double kt)
    {
      SlideStart st;
      st.dWt = a_s * (fd + (0.5 * a_s * kt) * dd);    // line 28: a_s dxi.(f_from + a_s kt dxi / 2)
      st.f_s = f_from + (a_s * kt) * dxi;             // Eq. 15
      st.fn_s = fn_old + a_s * kn * dzeta;
      st.dxi_r = (1.0 - a_s) * dxi;    // line 30
      st.dxi_r2 = dot(st.dxi_r, st.dxi_r);
      st.fn_path_end = st.fn_s + (1.0 - a_s) * kn * dzeta;
      return st;
    }

    /* The movement a step that leaves the cone slips with: dxi without the round-off that leans
       out of the tangent plane (in_tangent_plane()), and fd = f_from.dxi, dd = |dxi|^2 to
       match, for the onset, the elastic part, the turn and the work alike. Found by fuzz_kuhn:
       with the cleaning after the onset (for the turn only, then for the turn and the work),
       a purely normal movement of a contact of tiny mu first took the force out of the plane
       elastically (a_s kt dxi along n) and then did a round-off amount of negative work. Where
       dxi does not lean (every genuine movement) it changes nothing. */
    DEMC_FN_FLAT void slip_movement(Vec3 &dxi, double &dd, double &fd, const Vec3 &f_from,
                                    const Vec3 &n)
    {
      if (in_tangent_plane(dxi, dd, n)) fd = dot(f_from, dxi);
    }

    // line 45 over the slide: the trapezoid (continuing_contact() says why it dissipates)
    DEMC_FN_FLAT double slide_work(const SlideStart &st, const Vec3 &ft)
    {
      return st.dWt + 0.5 * dot(st.dxi_r, st.f_s + ft);
    }

    /* Whether the slide's normal force (Eq. 17) reaches zero before the step ends: the path
       parts the surfaces, though the caller's final overlap says they touch. (In a LAMMPS step
       the final overlap is the path's end to round-off, so only a normal that turns by nearly
       half a turn within one step gives that; found by fuzz_kuhn.) */
    DEMC_FN_FLAT bool path_opens(const SlideStart &st)
    {
      return st.fn_path_end <= 0.0;
    }

    /* A slide whose path parts the surfaces (path_opens()). The slide ends where the cone does,
       at zero force, after the fraction w = fn_s / (fn_s - fn_path_end) of its movement; the
       movement after that loads the spring afresh along its direction, capped at the final
       cone, as fresh_contact() does. Each part dissipates >= 0: the slide to zero force
       dissipates 1/2 R_s (w |dxi_r| cos(theta_s) + R_s / kt) >= 0, because at the onset the
       path leaves the cone (|dxi_r| cos(theta_s) >= mu kn dzeta_r / kt, and w mu kn dzeta_r =
       -R_s); the fresh part 1/2 F.dxi - |F|^2 / (2 kt) >= 0. (Continued through the opening,
       the trapezoid took the start force over the whole movement and could dissipate a
       negative amount; turned_slip_force() gave the final force along the movement.) */
    struct OpenedSlide {
      Vec3 ft;
      double dWt;
    };
    DEMC_FN OpenedSlide slide_through_opening(const SlideStart &st, double R_new, double kt)
    {
      const double w = clamp01(st.fn_s / (st.fn_s - st.fn_path_end));    // NaN (fn_s <= 0): 0
      const Vec3 after = (1.0 - w) * st.dxi_r;
      const Vec3 trial = kt * after;
      const Vec3 ft = longer_than(trial, R_new) ? scaled_to(trial, R_new) : trial;
      return {ft, st.dWt + 0.5 * w * dot(st.dxi_r, st.f_s) + 0.5 * dot(after, ft)};
    }

    /* Lines 51-53. Line 51 prints f^{n,t}; the text says the stored energy comes from the
       final force, so f^{n,t+dt} is used. Line 52 uses the start-of-step force, of which the
       caller passes |f_start|^2. */
    DEMC_FN void split_work(double kt, double zeta_new, double f_start2, Result &r)
    {
      r.Wn = 0.5 * r.fn * zeta_new;    // fn^2 / (2 kn) with fn = kn zeta_new: no division
      const double half_compliance = kt > 0.0 ? 0.5 / kt : 0.0;
      r.Wt = dot(r.ft, r.ft) * half_compliance;
      r.dWt_rev = r.Wt - f_start2 * half_compliance;
      r.dWt_irrev = r.dWt - r.dWt_rev;
    }

    /* Contact damping (end of Sec. 2: nu du/dt added to the force of line 50), with separate
       normal and tangential coefficients, only while touching:
         f_damp = damp_n (du.n) n / dt + damp_t dxi / dt   (on p; resists the relative motion).
       The work done on the dashpots is f_damp . du = (damp_n (du.n)^2 + damp_t |dxi|^2) / dt,
       written in that non-negative form (dd = |dxi|^2). force: line 50 with the dashpots. */
    DEMC_FN_FLAT void dashpots(double damp_n, double damp_t, double inv_dt, double dzeta,
                               const Vec3 &dxi, double dd, const Vec3 &n, double fn, const Vec3 &ft,
                               Vec3 &f_damp, double &dW_damp, Vec3 &force)
    {
      // (demc::dashpot_coefficients(): du.n = -dzeta, the tangential movement dxi)
      const DashpotCoefficients c = dashpot_coefficients(damp_n, damp_t, inv_dt, -dzeta);
      const double on_n = c.on_n, on_t = c.on_t;
      if (damp_t == 0.0) {    // a normal dashpot alone (the usual choice): no 0 * dxi to add
        f_damp = on_n * n;
        dW_damp = damp_n * dzeta * dzeta * inv_dt;
        force = (on_n - fn) * n + ft;
        return;
      }
      f_damp = on_n * n + on_t * dxi;
      dW_damp = (damp_n * dzeta * dzeta + damp_t * dd) * inv_dt;
      force = (on_n - fn) * n + ft + on_t * dxi;
    }

    // Eq. 3 (line 50): the force on p without dashpots
    DEMC_FN_FLAT Vec3 contact_force(double fn, const Vec3 &n, const Vec3 &ft)
    {
      return -fn * n + ft;
    }

    /* Lines 10-18: the surfaces first touch during this step. There was no force at t
       (whatever history the caller passes is ignored: separation released it). Only the
       movement after touching, (1 - alpha_o) dxi, loads the tangential spring (Eq. 8).
       Normal force: kn zeta_new. Line 13 as printed (dzeta <- zeta_new - zeta_old, then
       kn dzeta on line 14) would count the gap -zeta_old as overlap when zeta_old < 0;
       the force after touching is kn zeta_new (Eq. 1). Line 16 caps at mu f^n, line 18
       is the work (exact when elastic). Takes the parameters by value: this rare branch stays
       out of line, and a reference would keep the caller's parameters in memory (a copy of
       them for every contact where the caller folds the refinement bits). */
    DEMC_FN void fresh_contact(bool fresh, double kt, double mu, double zeta_new, double dzeta,
                               const Vec3 &dxi, double fn, Result &r)
    {
      r.alpha_o = fresh ? fraction_before_touch(zeta_new, dzeta) : 0.0;
      const Vec3 dxi_touching = (1.0 - r.alpha_o) * dxi;
      const Vec3 trial = kt * dxi_touching;
      const double R = mu * fn;
      const bool capped = length(trial) > R;
      r.ft = capped ? scaled_to(trial, R) : trial;
      r.dWt = 0.5 * dot(dxi_touching, r.ft);
      r.branch = capped ? BRANCH_FRESH_SLIP : BRANCH_FRESH_STICK;
    }

    /* Where the elastic path of lines 20-30 starts. A force outside the cone beyond round-off
       (mu changed, or a caller's f^{n,t} differs from the one the force was capped with) is
       inadmissible: it first slips radially back onto the cone. No work is done; the released
       energy shows as dissipation because line 52 uses the original f^{t,t}. The onset is then
       found as for a force on the cone, so a reversing movement unloads elastically instead of
       sliding against the force. (Threshold eps/4 on |f|: C ~ -2 (|f|/R - 1) then stays above
       slip_onset's -eps.) f0f0 = |f0|^2. */
    DEMC_FN bool outside_cone(const Vec3 &f0, double f0f0, double R_old, double eps)
    {
      return longer_than(f0, f0f0, R_old * (1.0 + 0.25 * eps));
    }

    /* Lines 19-45: touching at t and at t+dt. f0 is f^{t,t} already carried by the pair's
       rotation. The within-step path follows Eq. 17, f^n(alpha) = f^{n,t} + alpha kn dzeta,
       while the final force uses f^{n,t+dt} = kn zeta_new (lines 20, 43); the two agree
       when zeta_new = zeta_old + dzeta. The products dd = |dxi|^2 and f0f0 = |f0|^2 come from
       the caller, who needs them too; with fd = f_from.dxi they give the work terms and the
       slip onset without further dot products. */
    DEMC_FN_FLAT void continuing_contact(const Params &p, const Kinematics &m, double dzeta,
                                         const Vec3 &dxi, double dd, const Vec3 &f0, double f0f0,
                                         double fn_new, Result &r)
    {
      const double fn_old = p.kn * m.zeta_old;    // line 7
      const double R_old = p.mu * fn_old, R_new = p.mu * fn_new;
      Vec3 f_from = f0;
      double ff = f0f0;
      if ((p.flags & ELASTIC_SLIP) && outside_cone(f0, f0f0, R_old, p.eps)) {
        f_from = scaled_to(f0, R_old);
        ff = dot(f_from, f_from);
      }
      const double fd = dot(f_from, dxi);
      const Vec3 trial = f_from + p.kt * dxi;    // line 20
      if (!longer_than(trial, R_new)) {          // line 21: inside the cone
        r.ft = trial;
        r.dWt = elastic_work(fd, p.kt, dd);    // line 45 (exact for elastic movement)
        r.branch = BRANCH_STICK;
        return;
      }
      r.branch = BRANCH_SLIP;
      Vec3 d = dxi;
      double d2 = dd, fd_s = fd;
      slip_movement(d, d2, fd_s, f_from, m.n);
      const double a_s = (p.flags & ELASTIC_SLIP)
          ? slip_onset(R_old, p.mu * p.kn * dzeta, p.kt, f_from, d, ff, fd_s, d2, p.eps)
          : 0.0;
      r.alpha_s = a_s;
      // Line 29 overwrites f^{t,t} in the paper; the start-of-slip force is kept apart
      // here because line 52 needs the START-of-step force f0 (otherwise the reversible
      // work would miss the elastic part before slip and the dissipation would absorb it).
      const SlideStart st = slide_start(a_s, f_from, fd_s, d2, d, fn_old, dzeta, p.kn, p.kt);
      if (!(p.flags & TURN)) {    // add, then scale onto the final cone (the conventional return)
        r.ft = scaled_to(st.f_s + p.kt * st.dxi_r, R_new);
      } else if (path_opens(st)) {
        const OpenedSlide o = slide_through_opening(st, R_new, p.kt);
        r.ft = o.ft;
        r.dWt = o.dWt;
        return;
      } else {
        r.ft = turned_slip_force(st.f_s, st.fn_s, st.fn_path_end, R_new, st.dxi_r, st.dxi_r2, m.n,
                                 p.kt, p.mu);
      }
      /* Line 45: trapezoid over the sliding part. Can its dissipation (line 53) be negative?
         With ELASTIC_SLIP on: no (beyond round-off). A start outside the cone adds
         (|f0|^2 - R_old^2) / (2 kt) >= 0 (outside_cone); the elastic part before slip
         contributes exactly 0. For the sliding part write R_s = |f_s| = mu fn_s,
         R_l = R_s + mu kn dzeta_r (Eq. 17's end) and the slip rate
         lambda' = |dxi_r| cos(theta) - mu kn dzeta_r / kt (>= 0 at the onset, which is where
         the path leaves the cone, and growing as theta -> 0).
         If f^{n,t+dt} = R_l / mu the dissipation is 1/2 (R_s lambda'(0) + R_l lambda'(1)) >= 0:
         the trapezoid rule for the slip power. For any other final radius R_e (a caller whose
         zeta_new differs from zeta_old + dzeta) it is a concave quadratic in R_e that is >= 0
         at R_e = 0, at R_l, and at R_e = |f_s + kt dxi_r| (there it is
         1/2 |F| dxi_r.(m^{f,t+dt} - F/|F|) >= 0 because the closed-form turn goes at least
         as far towards dxi as add-then-scale does; checked over a dense grid of theta0,
         movement and loading), hence >= 0 for every R_e < |F|, which is when this branch runs.
         (All this for R_l >= 0; a path that parts the surfaces, R_l < 0, ends at the opening
         instead: slide_through_opening().)
         With ELASTIC_SLIP off, slip is forced from alpha = 0 even while the movement unloads
         the force, and it can be negative:
           TURN off: exactly (|F| - R_e)(R_e + u.f0) / (2 kt) with F = f0 + kt dxi, u = F/|F|,
                     so >= -(|F| - R_e)(|f0| - R_e)^+ / (2 kt);
           TURN on:  a force opposite to the movement stays opposite (theta = pi is a fixed
                     point), down to the Cauchy-Schwarz limit
                     -1/2 |dxi| (|f0| + R_e) - (R_e^2 - |f0|^2)^+ / (2 kt).
         The tests check all three statements. */
      r.dWt = slide_work(st, r.ft);
    }

    // The dashpots into r (for m.dt > 0 only)
    DEMC_FN_FLAT void add_damping(const Params &p, const Kinematics &m, double dzeta,
                                  const Vec3 &dxi, double dd, Result &r)
    {
      dashpots(p.damp_n, p.damp_t, 1.0 / m.dt, dzeta, dxi, dd, m.n, r.fn, r.ft, r.f_damp, r.dW_damp,
               r.force);
    }

    /* Lines 4-5: apart at t+dt. No force; the tangential energy held at t is released
       without work (dWt = 0), so it all counts as dissipated. */
    DEMC_FN Result separated(const Params &p, const Vec3 &ft_old)
    {
      Result r{};
      r.branch = BRANCH_SEPARATED;
      split_work(p.kt, 0.0, dot(ft_old, ft_old), r);
      return r;
    }

  }    // namespace detail

  /* One time step of one contact (Fig. 1). ft_old is the stored f^{t,t} (in the tangent
     plane of n_old); the returned ft is the history for the next step. */
  DEMC_FN_FLAT Result step(const Params &p, const Kinematics &m, const Vec3 &ft_old)
  {
    using namespace detail;
    if (!(m.zeta_new > 0.0)) return separated(p, ft_old);

    double dzeta, dd;
    Vec3 dxi;
    split_movement(m.du, m.n, dzeta, dxi, dd);    // Eq. 6 (line 9)

    // every field is set below: zero-initialising the whole struct costs more than this step's
    // elastic arithmetic (it compiles to a block store on x86)
    Result r;
    r.fn = p.kn * m.zeta_new;    // Eq. 1 (lines 14, 20)
    r.alpha_o = r.alpha_s = 0.0;
    r.dW_damp = 0.0;
    r.f_damp = {0.0, 0.0, 0.0};
    double f_start2 = 0.0;        // |f^{t,t}|^2 (line 52)
    if (!(m.zeta_old > 0.0)) {    // line 10: f^{n,t} <= 0, not touching at t
      fresh_contact((p.flags & FRESH) != 0, p.kt, p.mu, m.zeta_new, dzeta, dxi, r.fn, r);
    } else {
      const Vec3 f_start = carried_by_pair_rotation(p, m, ft_old);
      f_start2 = dot(f_start, f_start);
      continuing_contact(p, m, dzeta, dxi, dd, f_start, f_start2, r.fn, r);
    }
    split_work(p.kt, m.zeta_new, f_start2, r);
    if ((p.damp_n != 0.0 || p.damp_t != 0.0) && m.dt > 0.0)
      add_damping(p, m, dzeta, dxi, dd, r);
    else
      r.force = contact_force(r.fn, m.n, r.ft);    // Eq. 3 (line 50)
    return r;
  }

  /* The tangential energy a contact holding ft_old releases when it parts (lines 4-5, the
     separated step): all of it dissipated. */
  DEMC_FN double separation_energy(double kt, const Vec3 &ft_old)
  {
    Params p;
    p.kn = p.mu = 0.0;
    p.kt = kt;
    return detail::separated(p, ft_old).dWt_irrev;
  }

  /* Restitution damping, whose dashpots depend on the pair's effective mass m_eff
     (demc::dashpot_force() with the linear spring's stiffness kn = fn / zeta): added to a step's
     result as step() adds the constant dashpots of Params (force on p and the work done on
     them), while touching and for m.dt > 0 only. Nothing for constant dashpots (d without a
     restitution factor), which Params carries. */
  DEMC_FN void add_restitution_dashpots(const ContactDashpots &d, const Kinematics &m, double m_eff,
                                        Result &r)
  {
    if (!needs_effective_mass(d) || !(m.dt > 0.0) || !(m.zeta_new > 0.0)) return;
    const Vec3 f = dashpot_force(d, m.du, m.n, r.fn, m.zeta_new, m_eff, m.dt);
    r.f_damp = r.f_damp + f;
    r.force = r.force + f;
    r.dW_damp += dot(f, m.du);
  }

  /* The dashpots of a step's result (the constant ones of step() and the restitution ones of
     add_restitution_dashpots(), both first) limited as lim says, with the law's normal force
     fn and its friction coefficient mu (demc::limit_dashpot_force()): the force on p and the
     work done on the dashpots follow. The law's own result (fn, ft, the work split, the
     history) is untouched. Callers skip it where lim.act_on() says it can change nothing. */
  DEMC_FN void limit_dashpots(const DashpotLimits &lim, double mu, const Kinematics &m, Result &r)
  {
    if (r.f_damp.x == 0.0 && r.f_damp.y == 0.0 && r.f_damp.z == 0.0) return;
    Vec3 f = r.f_damp;
    if (!limit_dashpot_force(lim, mu, r.fn, r.ft, m.n, f)) return;
    r.f_damp = f;
    r.force = detail::contact_force(r.fn, m.n, r.ft) + f;
    r.dW_damp = dot(f, m.du);
  }

  /* Motion reduced to Kinematics: Eq. 5 (line 8) for any contact vectors, and the twirl. */
  DEMC_FN Kinematics kinematics_of(const Motion &m)
  {
    const Vec3 du = m.du_q - m.du_p + (cross(m.dth_q, m.r_q) - cross(m.dth_p, m.r_p));
    return {m.zeta_new, m.zeta_old, m.n, m.n_old, du, contact_twirl(m), m.dt};
  }

  // The same step from the particles' movements.
  DEMC_FN_FLAT Result step(const Params &p, const Motion &m, const Vec3 &ft_old)
  {
    return step(p, kinematics_of(m), ft_old);
  }

}    // namespace kuhn
}    // namespace demc

#endif
