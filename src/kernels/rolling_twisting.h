/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: rolling and twisting resistance, the sub-models of LAMMPS's
   pair_style granular

     rolling sds k_roll gamma_roll mu_roll
     twisting sds k_twist gamma_twist mu_twist
     twisting marshall

   with LAMMPS's parameters and meaning (src/GRANULAR/gran_sub_mod_rolling.cpp,
   gran_sub_mod_twisting.cpp, granular_model.cpp), for any contact law: the law
   hands in the geometry it has and the normal force that scales the limits, and
   adds the torques.

   Rolling (Wang et al., Particuology 23 (2015) 49, Eq. 31, as LAMMPS): the rolling
   velocity v_r = R_eff (w_q - w_p) x n is integrated into a spring xi_r in the
   tangent plane; the rolling resistance force f_r = -k_roll xi_r - gamma_roll v_r,
   limited to |f_r| <= mu_roll |F_n| (scaled onto the limit, the spring set to the
   elastic part of the limited force), acts with the arm R_eff: the torque on p is
   -R_eff n x f_r, on q the opposite.
   Twisting (Marshall, J. Comput. Phys. 228 (2009) 1541, Eqs. 29-34, 44): the twist
   rate w_t = (w_q - w_p).n is integrated into an angle theta; the torque about n is
   M = -k theta - gamma w_t, limited to |M| <= mu |F_n|; the torque on p is -M n,
   on q +M n. sds takes k, gamma, mu as given; marshall forms them per contact from
   the tangential model and the contact radius a (marshall_twisting()).

   One deliberate difference from LAMMPS: the rolling spring is carried by the
   pair's rotation over the step exactly as gran/kuhn carries its tangential force
   (the tilt n_old -> n, then the twirl about n), so that a pair that rotates
   rigidly keeps it in its own frame; LAMMPS only projects it onto the new tangent
   plane (rescaled to its length when out of plane), which leaves it behind by the
   twirl. Where the pair does not rotate (n_old = n, no twirl) the two agree to
   round-off. The twisting angle is a scalar about n: no rotation acts on it.

   Sign conventions of the package: n is the unit normal from p to q, the
   angular velocities are taken as w_q - w_p. (LAMMPS: i = p, j = q, its normal
   from j to i is -n; its v_r and twist rate are the same numbers.)

   Plain C++: no allocation, exceptions, virtual calls or I/O; host/device callable.
------------------------------------------------------------------------- */

#ifndef DEMC_ROLLING_TWISTING_H
#define DEMC_ROLLING_TWISTING_H

#include "kernel_common.h"

namespace demc {
namespace resistance {

  /* One spring-dashpot-slider (LAMMPS's "sds"): stiffness, dashpot and the
     coefficient of the limit mu |F_n|. Rolling: k_roll (force per length), gamma_roll
     (force per velocity), mu_roll; twisting: k_twist (torque per radian), gamma_twist
     (torque per radian per time), mu_twist (a length). */
  struct Sds {
    double k = 0.0, gamma = 0.0, mu = 0.0;
  };

  enum Twisting : int { TWISTING_NONE = 0, TWISTING_SDS = 1, TWISTING_MARSHALL = 2 };

  /* A law's options. twist: the sds coefficients (TWISTING_SDS) or, for
     TWISTING_MARSHALL, the tangential model's stiffness k, dashpot gamma and friction
     coefficient mu, from which twisting_coefficients() forms the twisting ones per
     contact. */
  struct Params {
    bool rolling = false;
    Sds roll;
    int twisting = TWISTING_NONE;
    Sds twist;
  };

  DEMC_FN bool active(const Params &p)
  {
    return p.rolling || p.twisting != TWISTING_NONE;
  }

  /* Marshall's twisting coefficients from the tangential spring kt, its dashpot damp_t
     and friction coefficient mu_t, for a contact of radius a (Eqs. 32 and 44, as LAMMPS):
       k = kt a^2 / 2,  gamma = damp_t a^2 / 2,  mu = 2/3 mu_t a. */
  DEMC_FN Sds marshall_twisting(double kt, double damp_t, double mu_t, double a)
  {
    const double a2 = a * a;
    return {0.5 * kt * a2, 0.5 * damp_t * a2, (2.0 / 3.0) * mu_t * a};
  }

  // The twisting coefficients of a contact of radius a (TWISTING_MARSHALL only uses a).
  DEMC_FN Sds twisting_coefficients(const Params &p, double a)
  {
    if (p.twisting == TWISTING_MARSHALL)
      return marshall_twisting(p.twist.k, p.twist.gamma, p.twist.mu, a);
    return p.twist;
  }

  /* A contact's history: the rolling spring xi_r (a length, in the tangent plane, global
     components) and the twisting angle theta (radians). Zero for a fresh contact. */
  struct Springs {
    Vec3 roll;
    double twist;
  };

  /* The geometry of one step. The pair's rotation over the step is given as gran/kuhn
     takes it: the tilt from the normal at t (n_old) to the normal at t+dt (n), then the
     twirl about n by the pair's mean spin (demc::SphereContact::twirl, contact_twirl()).
     A law that carries a contact frame passes the frame's normal before its update as
     n_old and the same twirl. */
  struct Input {
    Vec3 n, n_old;    // unit normals at t+dt and t, from p to q
    double twirl;     // the pair's rotation about n over the step (radians)
    Vec3 w_rel;       // angular velocity of q minus that of p
    double r_eff;     // rolling radius: r_p r_q / (r_p + r_q); a flat wall: r_p
    double a;         // contact radius (twisting marshall only)
    double fn;        // the normal force whose magnitude scales the limits (LAMMPS: Fncrit)
    double dt;
  };

  /* One step's outcome. Energies of the two springs together: stored at t+dt (1/2 k |xi|^2 + 1/2 k
     theta^2), the work the particles did on the resistance over the step, and the energy
     dissipated, work minus the change of the stored energy, of which `damped` went into the
     dashpots (where a limit capped a spring, the cap's cut taken from its dashpot:
     detail::book_capped_damping()). The work is the trapezoid -dt (v_r . (f_0 + f_r) +
     w_t (M_0 + M)) / 2 of the resistance at the start of the step (f_0 = -k xi - gamma v_r, M_0 =
     -k theta - gamma w_t: the last step's, as the carried springs hold its elastic part, with this
     step's rates in the dashpots) and at its end: velocity-Verlet changes the kinetic energy by the
     mean of a step's two forces over its displacement (up to a term that telescopes), so that an
     elastic step dissipates exactly its dashpot's share and the balance closes to second order in
     dt (the end-of-step torque alone leaves 1/2 k du^2 per step, a drift of first order).
     (marshall: both stored energies with this step's stiffness; the change of stiffness with the
     contact radius is not counted here.) */
  struct Result {
    Vec3 torque;          // on p; q gets -torque
    Vec3 f_roll;          // the rolling resistance force f_r (LAMMPS's fr)
    double m_twist;       // the twisting torque about n, M (the torque on q is M n)
    double stored, work, dissipated, damped;
  };

  namespace detail {

    // The pair's rotation applied to a tangential spring: as gran/kuhn's PROJECT and TWIRL.
    DEMC_FN_FLAT Vec3 carried(const Vec3 &xi, const Input &in)
    {
      return rotate_perpendicular_about(tilt_tangential(xi, in.n_old, in.n), in.n, in.twirl);
    }

    struct Part {    // one spring's share of a Result
      double work, stored_before, stored, damped;
      bool capped;
    };

    /* The dashpot's share of a step that the limit capped. The cap's cut comes off the dashpot,
       as gran/kuhn's Coulomb cap cuts its dashpot's addition and never the law's own force
       (demc::limit_dashpot_force()): the dashpot is booked with the step's dissipation (work
       minus the change of stored energy) up to its own gamma |v|^2 dt, and the slider with the
       rest, so that both are >= 0 and sum to the dissipation. (Booking gamma |v|^2 dt in full
       left the slider a negative share where the dashpot pushed the trial force over the limit
       against a spring loaded the other way.) Where the step dissipates nothing, LAMMPS's
       limit with a dashpot that alone exceeds it (the spring reset to the elastic part of the
       capped force stores more than the work), the dashpot books nothing and the slider the
       negative remainder. */
    DEMC_FN void book_capped_damping(Part &part)
    {
      const double dissipated = part.work - (part.stored - part.stored_before);
      part.damped = dissipated > 0.0 ? (part.damped < dissipated ? part.damped : dissipated) : 0.0;
    }

    // f scaled onto the limit where it is longer (the resistance at the start of a step)
    DEMC_FN Vec3 within_limit(const Vec3 &f, double limit)
    {
      const double mag = norm(f);
      return mag > limit ? (limit / mag) * f : f;
    }

    /* Rolling sds (LAMMPS's GranSubModRollingSDS::calculate_forces, history_update on,
       no synchronized Verlet): xi += dt v_r; f_r = -k xi - gamma v_r; beyond the limit
       f_r is scaled onto it and xi set to its elastic part (-f_r - gamma v_r) / k; a
       spring of zero length beyond the limit gives no force at all (as LAMMPS).
       k = 0 (LAMMPS divides by k): the dashpot's force scaled onto the limit, the spring
       kept at zero. */
    DEMC_FN_FLAT Part roll(const Sds &c, const Input &in, Vec3 &xi, Vec3 &f_r)
    {
      Part part;
      const Vec3 v = in.r_eff * cross(in.w_rel, in.n);
      const Vec3 xi_c = carried(xi, in);
      part.stored_before = 0.5 * c.k * dot(xi_c, xi_c);
      const double limit = c.mu * math::fabs(in.fn);
      // the force of the last step, -k xi - gamma v_r (the spring holds its elastic part, also
      // at the limit), with this step's rate in the dashpot; without a spring, its dashpot
      const Vec3 f_start = c.k > 0.0 ? -c.k * xi_c - c.gamma * v
                                     : within_limit(-c.gamma * v, limit);
      xi = xi_c + in.dt * v;
      f_r = -c.k * xi - c.gamma * v;
      const double mag = norm(f_r);
      part.capped = mag > limit;
      // the dashpot's share of f_r is -gamma v wherever f_r = -k xi - gamma v holds
      part.damped = c.gamma * in.dt * dot(v, v);
      if (part.capped) {
        const double inv_mag = 1.0 / mag;
        if (norm2(xi) == 0.0) {
          f_r = {0.0, 0.0, 0.0};
          part.damped = 0.0;
        } else if (c.k > 0.0) {
          const double inv_k = 1.0 / c.k;
          xi = (-limit * inv_k * inv_mag) * f_r + (-c.gamma * inv_k) * v;
          f_r = (limit * inv_mag) * f_r;
        } else {
          xi = {0.0, 0.0, 0.0};
          f_r = (limit * inv_mag) * f_r;
          part.damped = -in.dt * dot(f_r, v);
        }
      }
      part.stored = 0.5 * c.k * dot(xi, xi);
      part.work = -0.5 * in.dt * dot(f_start + f_r, v);
      if (part.capped) book_capped_damping(part);
      return part;
    }

    /* Twisting sds and marshall (LAMMPS's GranSubModTwistingSDS / Marshall): theta +=
       dt w_t; M = -k theta - gamma w_t; beyond the limit M = -limit sign(w_t) and theta
       = (limit sign(w_t) - gamma w_t) / k. The sign is the twist rate's, as in LAMMPS
       (Marshall's Eq. 34), not the trial torque's: the two agree while the spring is
       loaded by the twist. One deliberate difference: at w_t = 0 (exactly) LAMMPS releases
       a spring beyond the limit to zero; here it is held on the limit (the sign of
       theta), as the rolling spring is: a spring that sits on its limit while the pair
       turns rigidly (w_t = 0) would otherwise be released by the round-off of the normal
       force, which breaks objectivity. k = 0: as for rolling. */
    DEMC_FN_FLAT Part twist(const Sds &c, const Input &in, double &theta, double &M)
    {
      Part part;
      const double w_t = dot(in.w_rel, in.n);
      part.stored_before = 0.5 * c.k * theta * theta;
      const double sign = w_t != 0.0 ? (w_t > 0.0) - (w_t < 0.0) : (theta > 0.0) - (theta < 0.0);
      const double limit = c.mu * math::fabs(in.fn);
      double M_start = -c.k * theta - c.gamma * w_t;    // as f_start for rolling
      if (c.k == 0.0 && math::fabs(M_start) > limit) M_start = -limit * sign;
      theta += w_t * in.dt;
      M = -c.k * theta - c.gamma * w_t;
      part.capped = math::fabs(M) > limit;
      part.damped = c.gamma * in.dt * w_t * w_t;    // M = -k theta - gamma w_t holds (k > 0)
      if (part.capped) {
        M = -limit * sign;
        if (c.k > 0.0) {
          theta = (limit * sign - c.gamma * w_t) / c.k;
        } else {
          theta = 0.0;
          part.damped = -in.dt * M * w_t;
        }
      }
      part.stored = 0.5 * c.k * theta * theta;
      part.work = -0.5 * in.dt * (M_start + M) * w_t;
      if (part.capped) book_capped_damping(part);
      return part;
    }

    DEMC_FN void add(Result &r, const Part &part)
    {
      r.stored += part.stored;
      r.work += part.work;
      r.dissipated += part.work - (part.stored - part.stored_before);
      r.damped += part.damped;
    }

  }    // namespace detail

  /* One step of one touching contact: advances s and returns the torques and tallies.
     Options that are off leave their spring untouched and add nothing. */
  DEMC_FN_FLAT Result step(const Params &p, const Input &in, Springs &s)
  {
    Result r;
    r.torque = r.f_roll = {0.0, 0.0, 0.0};
    r.m_twist = r.stored = r.work = r.dissipated = r.damped = 0.0;
    if (p.rolling) {
      detail::add(r, detail::roll(p.roll, in, s.roll, r.f_roll));
      r.torque = -in.r_eff * cross(in.n, r.f_roll);
    }
    if (p.twisting != TWISTING_NONE) {
      detail::add(r, detail::twist(twisting_coefficients(p, in.a), in, s.twist, r.m_twist));
      r.torque = r.torque - r.m_twist * in.n;
    }
    return r;
  }

  /* A contact's resistance in a caller's row of values h (a pointer, or anything indexed as
     one): the rolling spring at roll (3 values), the twisting angle at twist, the resistance's
     torque on p of the last step at torque (3 values); -1: not kept (read as zero). even: the
     sign the springs are read with (a caller whose rows are negated with the exchange of p and
     q: the springs change sign with w_q - w_p and n, the torque is stored as on p). */
  template <class H>
  DEMC_FN void read_slots(const H &h, int roll, int twist, int torque, Springs &s, Vec3 &t,
                          double even = 1.0)
  {
    s.roll = roll >= 0 ? even * Vec3{h[roll], h[roll + 1], h[roll + 2]} : Vec3{0.0, 0.0, 0.0};
    s.twist = twist >= 0 ? even * h[twist] : 0.0;
    t = torque >= 0 ? Vec3{h[torque], h[torque + 1], h[torque + 2]} : Vec3{0.0, 0.0, 0.0};
  }

  template <class H>
  DEMC_FN void write_slots(const H &h, int roll, int twist, int torque, const Springs &s,
                           const Vec3 &t)
  {
    if (roll >= 0) {
      h[roll] = s.roll.x;
      h[roll + 1] = s.roll.y;
      h[roll + 2] = s.roll.z;
    }
    if (twist >= 0) h[twist] = s.twist;
    if (torque >= 0) {
      h[torque] = t.x;
      h[torque + 1] = t.y;
      h[torque + 2] = t.z;
    }
  }

  /* The springs as a contact holds them between steps (a run's setup): their torques without
     dashpots, limits or rotation (the limits were applied when they were stored), and their
     energy; no work. in: n, r_eff and a (marshall) are read. */
  DEMC_FN Result held(const Params &p, const Input &in, const Springs &s)
  {
    Result r;
    r.torque = r.f_roll = {0.0, 0.0, 0.0};
    r.m_twist = r.stored = r.work = r.dissipated = r.damped = 0.0;
    if (p.rolling) {
      r.f_roll = -p.roll.k * s.roll;
      r.torque = -in.r_eff * cross(in.n, r.f_roll);
      r.stored = 0.5 * p.roll.k * dot(s.roll, s.roll);
    }
    if (p.twisting != TWISTING_NONE) {
      const Sds c = twisting_coefficients(p, in.a);
      r.m_twist = -c.k * s.twist;
      r.torque = r.torque - r.m_twist * in.n;
      r.stored += 0.5 * c.k * s.twist * s.twist;
    }
    return r;
  }

  /* The energy a contact's springs hold, released (all dissipated) when it parts; the
     caller then zeroes the springs. a: the last contact radius (marshall). */
  DEMC_FN double stored_energy(const Params &p, const Springs &s, double a)
  {
    double e = 0.0;
    if (p.rolling) e += 0.5 * p.roll.k * dot(s.roll, s.roll);
    if (p.twisting != TWISTING_NONE) {
      const Sds c = twisting_coefficients(p, a);
      e += 0.5 * c.k * s.twist * s.twist;
    }
    return e;
  }

}    // namespace resistance
}    // namespace demc

#endif
