/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: numerically exact Coulomb friction (Sakamaki, Krengel, Mueller,
   Chen, Matuttis, "Implementation of numerically exact Coulomb friction for
   discrete element simulations in three dimensions"), the per-contact decision
   of pair_style gran/coulomb and fix wall/gran/coulomb.

   No tangential spring: static friction is a constraint force found from the
   relative tangential acceleration at the contact, sliding friction is
   mu |F_N| against the sliding velocity, and which of the two acts is decided
   from the relative tangential velocity estimated one step ahead.

   Conventions: a contact of particles p and q, n the unit normal from p to q,
   u the tangential velocity of q relative to p at the contact point, F the
   friction force on p (-F on q). A force F on p changes the relative
   tangential acceleration by -F / m_t (m_t: the tangential reduced mass,
   Eq. 24). In LAMMPS's velocity Verlet the force found at one step changes the
   velocity that moves the particles over the next step by h F / m with h = dt
   (h = dt / 2 at setup, where the velocities are full-step ones).

   Host/device callable (DEMC_FN), no allocation, no exceptions.
------------------------------------------------------------------------- */

#ifndef DEMC_COULOMB_FRICTION_H
#define DEMC_COULOMB_FRICTION_H

#include "kernel_common.h"

namespace demc {
namespace coulomb {

  /* ---------------------------------------------------------------------
   One dimension (Sec. 3.1): m x'' = f_ext + friction at rest (v = 0).
   f_I = f_ext - limit (region I, v > 0), f_II = f_ext + limit (region II,
   v < 0), limit = mu |F_N|; a_I = f_I / m, a_II = -f_II / m (Eqs. 10-12).
     case 1, SLIDES_POSITIVE: a_I > 0, a_II < 0: leaves v = 0 upwards, friction -limit
     case 2, SLIDES_NEGATIVE: a_I < 0, a_II > 0: leaves v = 0 downwards, friction +limit
     case 3, STATIC: a_I <= 0, a_II <= 0: the flow is pulled into v = 0 from both sides;
             friction f(lambda) - f_ext with the Lagrange parameter lambda = a_I / (a_I + a_II)
             (Eq. 17), which makes the total force (1 - lambda) f_I + lambda f_II zero
     case 4, PAINLEVE: a_I > 0, a_II > 0: the flow leaves v = 0 on both sides, which needs
             limit < 0. The styles' normal force of a step is a function of the overlap and
             its rate alone (soft contacts), never of the friction, and their limit is
             mu max(F_N, 0) with mu >= 0, so this case cannot arise in them; given such input
             the kernel applies no friction (a negative limit is no limit) and lambda is -1.
   --------------------------------------------------------------------- */
  enum Case1D { SLIDES_POSITIVE = 1, SLIDES_NEGATIVE = 2, STATIC = 3, PAINLEVE = 4 };

  struct AtRest1D {
    Case1D kase;
    double lambda;      // Eq. 17 for STATIC, 0 or 1 for the sliding cases, -1 for PAINLEVE
    double friction;    // the friction force
  };

  DEMC_FN AtRest1D at_rest_1d(double f_ext, double limit, double m)
  {
    const double a_I = (f_ext - limit) / m, a_II = -(f_ext + limit) / m;
    if (a_I > 0.0 && a_II > 0.0) return {PAINLEVE, -1.0, 0.0};
    if (a_I > 0.0) return {SLIDES_POSITIVE, 0.0, -limit};
    if (a_II > 0.0) return {SLIDES_NEGATIVE, 1.0, limit};
    // a_I + a_II = -2 limit / m: zero only for limit = 0 = f_ext, where any lambda gives 0
    const double sum = a_I + a_II;
    const double lambda = sum < 0.0 ? a_I / sum : 0.5;
    return {STATIC, lambda, (1.0 - lambda) * (-limit) + lambda * limit};
  }

  /* The decision of one contact over a step (Eqs. 25-26), from
     v_free = u + h a,
   the relative tangential velocity one step ahead that every force but this contact's friction
   gives (Eq. 25 with sg = 0; a: the relative tangential acceleration of those forces), and
     v_slide = v_free - h (limit / m_t) v_free / |v_free|,
   the one that sliding friction would give (Eq. 25, sg = -1 against the motion). If sliding
   friction would reverse the velocity within the step (Eq. 26: v_free . v_slide <= 0, which
   for these parallel vectors is |v_free| <= h limit / m_t), the contact sticks: the force is
     F = m_t v_free / h = m_t a + m_t u / h,
   the Lagrange parameter's static friction (in 3-D the convex hull of the sliding forces of
   all directions is the disc of radius limit; m_t a is its point that makes the relative
   tangential acceleration zero) plus the force m_t u / h that brings a nearly stuck contact
   to relative rest. Otherwise it slides: F = limit v_free / |v_free|, against the sliding
   velocity at the end of the step (which stays parallel to v_free). Either way |F| <= limit
   and the velocity left, v_free - h F / m_t, is zero (sticking) or parallel to v_free
   (sliding). */
  struct Decision {
    Vec3 force;    // on p
    bool sticks;
  };

  DEMC_FN Decision decide(const Vec3 &v_free, double inv_mass_t, double limit, double h)
  {
    const double cap = limit > 0.0 ? limit : 0.0;    // a negative limit is no limit
    const double reach = h * inv_mass_t * cap;       // h limit / m_t
    const double speed2 = norm2(v_free);
    if (speed2 <= reach * reach) {
      // (inv_mass_t = 0: both bodies immovable, v_free is fixed: nothing to hold, no force)
      const Vec3 zero = {0.0, 0.0, 0.0};
      return {inv_mass_t > 0.0 ? (1.0 / (h * inv_mass_t)) * v_free : zero, true};
    }
    return {(cap / math::sqrt(speed2)) * v_free, false};
  }

  /* ---------------------------------------------------------------------
   Many contacts (pair_style gran/coulomb iterate). With the normal forces of
   the step given, the friction forces F_c of all contacts minimise the convex
     f(F) = 1/2 F.W F - F.v_free / h   over the product of the discs |F_c| <= limit_c,
   W F the change of the relative tangential velocities that the friction forces F give over
   the kick, divided by h (W = J M^-1 J^T, the Delassus operator), whose gradient is -u(F) / h
   with u(F) the relative tangential velocities after the kick. W's diagonal block of a
   contact is 1/m_t times the identity of its tangent plane, so decide() is the exact solution
   of one contact with the others' forces fixed: onto_disc(F_c + m_t u_c(F) / h). The solver's
   per-contact steps below are preconditioned by m_t (its metric sum_c |F_c|^2 / m_t).
   --------------------------------------------------------------------- */

  // the point of the disc |F| <= limit nearest to f (a negative limit is no force); V: Vec3 or
  // Vec2 (a tangential vector in its contact's basis)
  template <class V> DEMC_FN V onto_disc(const V &f, double limit)
  {
    const double cap = limit > 0.0 ? limit : 0.0;
    const double len2 = norm2(f);
    if (len2 <= cap * cap) return f;
    return (cap / math::sqrt(len2)) * f;
  }
  // m_t / h from 1/m_t; 0 where both bodies are immovable (inv_mass_t = 0)
  DEMC_FN double mass_over_h(double inv_mass_t, double h)
  {
    return inv_mass_t > 0.0 ? 1.0 / (h * inv_mass_t) : 0.0;
  }
  /* A projected gradient step of one contact from the force f at which the relative tangential
   velocity after the kick is u: onto_disc(f + scale u) with scale = step m_t / h; step 1 is
   decide()'s exact solution of the contact alone. scale = 0 (both bodies immovable): no force. */
  template <class V>
  DEMC_FN V scaled_gradient_step(const V &f, const V &u, double scale, double limit)
  {
    if (!(scale > 0.0)) return 0.0 * f;
    return onto_disc(f + scale * u, limit);
  }
  DEMC_FN Vec3 gradient_step(const Vec3 &f, const Vec3 &u, double inv_mass_t, double limit,
                             double step, double h)
  {
    return scaled_gradient_step(f, u, step * mass_over_h(inv_mass_t, h), limit);
  }
  /* How far a contact's force f is from its own solution with the others' forces fixed: the
   force change decide() would make, |gradient_step(f, u, ..., 1, h) - f| (zero for every
   contact exactly at the minimum of f(F)); for a sticking contact m_t |u| / h. Squared, from
   mass_over_h(): the solver's form. */
  template <class V>
  DEMC_FN double contact_residual2(const V &f, const V &u, double mass_h, double limit)
  {
    return norm2(scaled_gradient_step(f, u, mass_h, limit) - f);
  }
  DEMC_FN double contact_residual(const Vec3 &f, const Vec3 &u, double inv_mass_t, double limit,
                                  double h)
  {
    return math::sqrt(contact_residual2(f, u, mass_over_h(inv_mass_t, h), limit));
  }
  /* Nesterov's momentum of accelerated projected gradient (FISTA's sequence in the form of
   Mazhar et al.'s APGD): from theta_k the next theta and the extrapolation factor beta. */
  struct Momentum {
    double theta, beta;
  };

  DEMC_FN Momentum nesterov_momentum(double theta)
  {
    const double t2 = theta * theta;
    const double next = 0.5 * (-t2 + theta * math::sqrt(t2 + 4.0));
    return {next, theta * (1.0 - theta) / (t2 + next)};
  }

  /* One dimension with a velocity: the same decision for a scalar v (m x'' = f_ext + friction),
   the friction force; at v = 0 it is at_rest_1d()'s (the kernel tests check it). */
  DEMC_FN double step_1d(double v, double f_ext, double limit, double m, double h)
  {
    const Vec3 v_free = {v + h * f_ext / m, 0.0, 0.0};
    return -decide(v_free, 1.0 / m, limit, h).force.x;    // F acts on p; here on the particle q
  }

  /* ---------------------------------------------------------------------
   the tangential reduced mass (Eq. 24) of two spheres touching at the
   arms arm_p, arm_q (centre to contact point): for a tangential force and
   a sphere's scalar moment of inertia I, r I^-1 r = arm^2 / I. A body that
   cannot move (fix freeze, a wall) has 1/m = 1/I = 0; a particle that does
   not rotate has 1/I = 0.
   --------------------------------------------------------------------- */
  DEMC_FN double tangential_inverse_mass(double inv_m_p, double inv_I_p, double arm_p,
                                         double inv_m_q, double inv_I_q, double arm_q)
  {
    return inv_m_p + arm_p * arm_p * inv_I_p + inv_m_q + arm_q * arm_q * inv_I_q;
  }

  /* A body's velocities, the forces on it that this friction is not part of, and its inverse
   mass and moment of inertia (0 for a body that does not move or does not rotate). A wall is a
   body of inverse mass 0 whose velocity and spin are the wall's. */
  struct Body {
    Vec3 v, w;    // velocity, angular velocity
    Vec3 f, t;    // force and torque
    double inv_m, inv_I;
  };

  // the velocity of the point at r from the body's centre after a kick of length h
  DEMC_FN Vec3 point_velocity_after(const Body &b, const Vec3 &r, double h)
  {
    return (b.v + (h * b.inv_m) * b.f) + cross(b.w + (h * b.inv_I) * b.t, r);
  }

  DEMC_FN Vec3 tangential_part(const Vec3 &w, const Vec3 &n)
  {
    return w - dot(w, n) * n;
  }

  /* The friction pass's per-body arithmetic, the same on the host (the friction fix) and on a
   Kokkos device (gran/coulomb/kk): the velocity of the surface point at arm n from the centre
   of a body of velocity v and spin w, and that point's velocity change per unit time of a kick
   by the force f and torque t on the body (inverse mass inv_m and moment of inertia inv_I). */
  DEMC_FN Vec3 surface_velocity(const Vec3 &v, const Vec3 &w, double arm, const Vec3 &n)
  {
    return v + arm * cross(w, n);
  }

  DEMC_FN Vec3 surface_kick(const Vec3 &f, const Vec3 &t, double inv_m, double inv_I, double arm,
                            const Vec3 &n)
  {
    return inv_m * f + (arm * inv_I) * cross(t, n);
  }

  /* the tangential velocity of q relative to p at the contact point (contact vectors r_p, r_q
   from the centres) after a kick of length h by the bodies' forces; h = 0: now */
  DEMC_FN Vec3 relative_tangential_velocity(const Body &p, const Body &q, const Vec3 &r_p,
                                            const Vec3 &r_q, const Vec3 &n, double h)
  {
    return tangential_part(point_velocity_after(q, r_q, h) - point_velocity_after(p, r_p, h), n);
  }

  /* The friction force of the step moves the kinetic energy by exactly -F . (u_before + u_after)
   h / 2 over the kick of length h (the impulse times the mean velocity at the contact point,
   rotation included): the work of friction that the styles book as dissipated, with u_before
   the relative tangential velocity before the kick and u_after after it. */
  DEMC_FN double kick_dissipation(const Vec3 &force, const Vec3 &u_before, const Vec3 &u_after,
                                  double h)
  {
    return 0.5 * h * dot(force, u_before + u_after);
  }

  /* ---------------------------------------------------------------------
   normal laws: hooke (F = kn d) and hertz (F = 4/3 E* sqrt(R* d) d); a
   type pair's law as a kind and a stiffness factor k (kn, or 4/3 E*, to be
   multiplied by sqrt(R*) per contact)
   --------------------------------------------------------------------- */
  enum NormalLaw { HOOKE = 0, HERTZ = 1 };

  struct NormalForce {
    double elastic;    // repulsive magnitude P
    double energy;     // stored elastic energy
  };

  // k: kn (hooke) or 4/3 E* sqrt(R*) (hertz); overlap > 0
  DEMC_FN NormalForce normal_force(int law, double k, double overlap)
  {
    if (law == HERTZ) {
      const double s = math::sqrt(overlap);
      const double P = k * overlap * s;
      return {P, 0.4 * P * overlap};
    }
    return {k * overlap, 0.5 * k * overlap * overlap};
  }

  /* The normal force with its dashpot, kept repulsive (Eq. 7: the damping cannot reverse the
   elastic force): P elastic, damping the dashpot's repulsive part (negative while the
   surfaces part). Returns the total repulsive magnitude F_N >= 0. */
  DEMC_FN double damped_normal_force(double P, double damping)
  {
    const double total = P + damping;
    return total > 0.0 ? total : 0.0;
  }

}    // namespace coulomb
}    // namespace demc

#endif
