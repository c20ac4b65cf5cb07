/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: the Kuhn-Suzuki-Daouadji step of two contacts at once.

   step_pair() gives each of two contacts exactly what kuhn::step() gives it
   (the same bits: the unit tests compare them), from the formulas of
   kuhn_contact.h evaluated on Double2 (kernel_lanes.h): one instruction
   advances both contacts. The usual path is computed in the lanes: two
   touching contacts, every refinement on, the force inside the cone at the
   start (or on it), magnitudes and angles in the usual ranges. Anything else
   (a fresh or parted contact, a force outside the cone, extreme values) is
   computed by the scalar functions, lane by lane, or by step() itself.

   Host code only: the CPU style gran/kuhn calls it; gran/kuhn/kk calls
   step() per contact.
------------------------------------------------------------------------- */

#ifndef DEMC_KUHN_CONTACT_LANES_H
#define DEMC_KUHN_CONTACT_LANES_H

#include "kernel_lanes.h"
#include "kuhn_contact.h"

namespace demc {
namespace kuhn {
  namespace detail {

    // the scalar functions of kuhn_contact.h for two lanes (the rare ranges lane by lane)
    DEMC_FN_FLAT Mask2 longer_than(const Vec3x2 &v, Double2 v2, Double2 R)
    {
      if (all((v2 > 1e-290) & (v2 < 1e290) & (R < 1e145))) return v2 > R * R;
      return per_lane(
          [](const Vec3 &u, double u2, double r) {
            return longer_than(u, u2, r);
          },
          v, v2, R);
    }

    DEMC_FN_FLAT Double2 slip_onset(Double2 R0, Double2 dR, Double2 kt, const Vec3x2 &f0,
                                    const Vec3x2 &dxi, Double2 ff, Double2 fd, Double2 dd,
                                    double eps)
    {
      const Double2 bb = kt * kt * dd;
      const Double2 scale2 = onset_scale2(R0, dR, ff, bb);
      if (all(usual_onset_scale(scale2)))
        return usual_slip_onset(R0, dR, kt, ff, fd, bb, scale2, eps);
      return per_lane(
          [eps](double r0, double dr, double k, const Vec3 &f, const Vec3 &x, double a, double b,
                double c) {
            return slip_onset(r0, dr, k, f, x, a, b, c, eps);
          },
          R0, dR, kt, f0, dxi, ff, fd, dd);
    }

    DEMC_FN_FLAT Double2 slide_decay(Double2 fn_s, Double2 fn_end, Double2 kt_len, Double2 mu)
    {
      Double2 inv, s;
      decay_terms(fn_s, fn_end, mu, inv, s);
      if (all((fn_s > 0.0) & (fn_end > 0.0) & (mu > 0.0) & (lane_fabs(s) < 1.0 / 3.0)))
        return exp_neg(kt_len * inv * atanh_ratio(s * s));
      return per_lane(
          [](double a, double b, double c, double d) {
            return slide_decay(a, b, c, d);
          },
          fn_s, fn_end, kt_len, mu);
    }

    DEMC_FN_FLAT Vec3x2 turned_slip_force(const Vec3x2 &f_s, Double2 fn_s, Double2 fn_path_end,
                                          Double2 R_end, const Vec3x2 &dxi_r, Double2 d2,
                                          const Vec3x2 &n, Double2 kt, Double2 mu)
    {
      const Double2 f2 = dot(f_s, f_s);
      // (a zero f_s gives what the scalar function's normalisation gives it: no in-plane part)
      if (all((R_end > 0.0) & moderate(d2) & (moderate(f2) | (f2 == 0.0)))) {
        const Double2 len = lane_sqrt(d2);
        return turned_force(f_s, dxi_r, len, slide_decay(fn_s, fn_path_end, kt * len, mu), R_end,
                            n);
      }
      return per_lane(
          [](const Vec3 &f, double a, double b, double r, const Vec3 &x, double x2, const Vec3 &nn,
             double k, double m) {
            return turned_slip_force(f, a, b, r, x, x2, nn, k, m);
          },
          f_s, fn_s, fn_path_end, R_end, dxi_r, d2, n, kt, mu);
    }

    // x with its lanes swapped
    DEMC_FN_FLAT Double2 swapped(Double2 x)
    {
      return {lane(x, 1), lane(x, 0)};
    }
    DEMC_FN_FLAT Vec3x2 swapped(const Vec3x2 &x)
    {
      return {swapped(x.x), swapped(x.y), swapped(x.z)};
    }

    // The two contacts' numbers in lanes
    struct PairInput {
      Double2 kn, kt, mu, damp_n, damp_t, zeta_new, zeta_old, twirl, dt;
      Vec3x2 n, n_old, du, ft_old;
    };
    // the two contacts' motions (Kinematics) in lanes
    struct Kinematics2 {
      Double2 zeta_new, zeta_old;
      Vec3x2 n, n_old, du;
      Double2 twirl, dt;
    };
    DEMC_FN_FLAT PairInput pair_input(const Params &pa, const Params &pb, const Kinematics2 &m,
                                      const Vec3x2 &ft_old)
    {
      return {{pa.kn, pb.kn},
              {pa.kt, pb.kt},
              {pa.mu, pb.mu},
              {pa.damp_n, pb.damp_n},
              {pa.damp_t, pb.damp_t},
              m.zeta_new,
              m.zeta_old,
              m.twirl,
              m.dt,
              m.n,
              m.n_old,
              m.du,
              ft_old};
    }
    DEMC_FN_FLAT PairInput pair_input(const Params &pa, const Kinematics &ma, const Vec3 &fa,
                                      const Params &pb, const Kinematics &mb, const Vec3 &fb)
    {
      const Kinematics2 m = {{ma.zeta_new, mb.zeta_new},
                             {ma.zeta_old, mb.zeta_old},
                             pack(ma.n, mb.n),
                             pack(ma.n_old, mb.n_old),
                             pack(ma.du, mb.du),
                             {ma.twirl, mb.twirl},
                             {ma.dt, mb.dt}};
      return pair_input(pa, pb, m, pack(fa, fb));
    }

    // what lines 22-45 change when a lane slides; opens: its path parts the surfaces (the
    // scalar step takes it: slide_through_opening())
    struct Slide2 {
      Double2 a_s, dWt;
      Vec3x2 ft;
      Mask2 opens;
    };

    /* Lines 22-45 for two lanes that both slide: the formulas of continuing_contact() */
    DEMC_FN_FLAT Slide2 slide_lanes(Double2 R_old, Double2 R_new, Double2 fn_old, Double2 dzeta,
                                    Double2 fd, Double2 dd, Double2 ff, const Vec3x2 &f_from,
                                    Vec3x2 dxi, Double2 kn, Double2 kt, Double2 mu, const Vec3x2 &n)
    {
      Slide2 out;
      slip_movement(dxi, dd, fd, f_from, n);
      out.a_s = slip_onset(R_old, mu * kn * dzeta, kt, f_from, dxi, ff, fd, dd, Params::eps);
      const SlideStart<Vec3x2, Double2> st =
          slide_start(out.a_s, f_from, fd, dd, dxi, fn_old, dzeta, kn, kt);
      out.opens = path_opens(st);
      out.ft =
          turned_slip_force(st.f_s, st.fn_s, st.fn_path_end, R_new, st.dxi_r, st.dxi_r2, n, kt, mu);
      out.dWt = slide_work(st, out.ft);
      return out;
    }

    /* slide_lanes() for two lanes of which at least one slides. A lane that does not slide
       takes its partner's numbers (its result is not used): its own would be no slide at all (a
       zero movement left, for one), which only the scalar functions take. (A choice by lanes,
       not a branch: pairs of one sliding and one sticking contact are common in chute flow, and
       a branch on them was mispredicted half the time.) */
    DEMC_FN_FLAT Slide2 slide_pair(Mask2 slides, Double2 R_old, Double2 R_new, Double2 fn_old,
                                   Double2 dzeta, Double2 fd, Double2 dd, Double2 ff,
                                   const Vec3x2 &f_from, const Vec3x2 &dxi, const PairInput &in)
    {
      const auto pick = [slides](const auto &x) {
        return sel(slides, x, swapped(x));
      };
      return slide_lanes(pick(R_old), pick(R_new), pick(fn_old), pick(dzeta), pick(fd), pick(dd),
                         pick(ff), pick(f_from), pick(dxi), pick(in.kn), pick(in.kt), pick(in.mu),
                         pick(in.n));
    }

    DEMC_FN_FLAT void set_lane(Result &r, int l, Double2 fn, const Vec3x2 &ft, const Vec3x2 &force,
                               const WorkSplit<Double2> &w, Double2 dWt, Double2 dW_damp,
                               Double2 alpha_s, bool slides, const Vec3x2 &f_damp)
    {
      r.fn = lane(fn, l);
      r.ft = lane(ft, l);
      r.force = lane(force, l);
      r.Wn = lane(w.Wn, l);
      r.Wt = lane(w.Wt, l);
      r.dWt = lane(dWt, l);
      r.dWt_rev = lane(w.dWt_rev, l);
      r.dWt_irrev = lane(w.dWt_irrev, l);
      r.dW_damp = lane(dW_damp, l);
      r.alpha_o = 0.0;
      r.alpha_s = lane(alpha_s, l);
      r.branch = slides ? BRANCH_SLIP : BRANCH_STICK;
      r.f_damp = lane(f_damp, l);
    }

  }    // namespace detail

  namespace detail {
    // contact l's motion and stored force
    inline Kinematics lane_motion(const PairInput &in, int l)
    {
      return {lane(in.zeta_new, l), lane(in.zeta_old, l), lane(in.n, l), lane(in.n_old, l),
              lane(in.du, l),       lane(in.twirl, l),    lane(in.dt, l)};
    }
    /* step() of each contact, out of line: the rare cases of step_pair() (inlined, the scalar
       step made the compiler keep the usual path's numbers in memory) */
    __attribute__((noinline)) inline void step_each(const PairInput &in, const Params &pa,
                                                    const Params &pb, Result &ra, Result &rb)
    {
      ra = step(pa, lane_motion(in, 0), lane(in.ft_old, 0));
      rb = step(pb, lane_motion(in, 1), lane(in.ft_old, 1));
    }
  }    // namespace detail

  /* step() of two contacts, from their numbers in lanes (pa and pb: their parameters, as in
     the lanes): ra = step(pa, motion 0, force 0), rb = step(pb, motion 1, force 1), to the bit.
     Meant for contacts with every refinement on (others are handed to step()). */
  DEMC_FN_FLAT void step_pair(const detail::PairInput &in, const Params &pa, const Params &pb,
                              Result &ra, Result &rb)
  {
    using namespace detail;
    // lines 4-18 (parted or fresh) and reduced refinements: the scalar step
    if (!(all((in.zeta_new > 0.0) & (in.zeta_old > 0.0)) && pa.flags == ALL && pb.flags == ALL)) {
      step_each(in, pa, pb, ra, rb);
      return;
    }
    Double2 dzeta, dd;
    Vec3x2 dxi;
    split_movement(in.du, in.n, dzeta, dxi, dd);
    const Double2 fn = in.kn * in.zeta_new;
    const Vec3x2 f_start =    // carried_by_pair_rotation()
        rotate_perpendicular_about(tilt_tangential(in.ft_old, in.n_old, in.n), in.n, in.twirl);
    const Double2 f_start2 = dot(f_start, f_start);
    const Double2 fn_old = in.kn * in.zeta_old;
    const Double2 R_old = in.mu * fn_old, R_new = in.mu * fn;
    if (any(longer_than(f_start, f_start2, R_old * (1.0 + 0.25 * Params::eps)))) {
      step_each(in, pa, pb, ra, rb);    // outside the cone: returned onto it first (outside_cone())
      return;
    }
    const Double2 fd = dot(f_start, dxi);
    Vec3x2 ft = f_start + in.kt * dxi;    // line 20
    Double2 dWt = elastic_work(fd, in.kt, dd), alpha_s = 0.0;
    const Mask2 slides = longer_than(ft, dot(ft, ft), R_new);    // line 21
    if (any(slides)) {
      const Slide2 s =
          slide_pair(slides, R_old, R_new, fn_old, dzeta, fd, dd, f_start2, f_start, dxi, in);
      if (any(slides & s.opens)) {
        step_each(in, pa, pb, ra, rb);
        return;
      }
      ft = sel(slides, s.ft, ft);
      dWt = sel(slides, s.dWt, dWt);
      alpha_s = sel(slides, s.a_s, alpha_s);
    }
    const WorkSplit<Double2> w = work_split(fn, in.zeta_new, ft, f_start2, in.kt, dWt);
    const Mask2 damped = ((in.damp_n != 0.0) | (in.damp_t != 0.0)) & (in.dt > 0.0);
    Vec3x2 force = contact_force(fn, in.n, ft);
    Vec3x2 f_damp = pack(Vec3{0.0, 0.0, 0.0}, Vec3{0.0, 0.0, 0.0});
    Double2 dW_damp = 0.0;
    if (any(damped)) {
      Vec3x2 on_dashpots, damped_force;
      Double2 dW;
      dashpots(in.damp_n, in.damp_t, 1.0 / in.dt, dzeta, dxi, dd, in.n, fn, ft, on_dashpots, dW,
               damped_force);
      force = sel(damped, damped_force, force);
      f_damp = sel(damped, on_dashpots, f_damp);
      dW_damp = sel(damped, dW, dW_damp);
    }
    set_lane(ra, 0, fn, ft, force, w, dWt, dW_damp, alpha_s, lane(slides, 0), f_damp);
    set_lane(rb, 1, fn, ft, force, w, dWt, dW_damp, alpha_s, lane(slides, 1), f_damp);
  }

  // step_pair() from each contact's parameters, motion and stored force
  DEMC_FN_FLAT void step_pair(const Params &pa, const Kinematics &ma, const Vec3 &fa,
                              const Params &pb, const Kinematics &mb, const Vec3 &fb, Result &ra,
                              Result &rb)
  {
    step_pair(detail::pair_input(pa, ma, fa, pb, mb, fb), pa, pb, ra, rb);
  }

}    // namespace kuhn
}    // namespace demc

#endif
