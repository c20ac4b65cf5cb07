/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: the geometry and movements of one contact over one step,
   the input of every contact-law kernel, from the two particles' state.

   p and q as in the papers: the normal n points from p to q. LAMMPS's
   velocity-Verlet has moved every particle by v dt (v: the half-step
   velocity it holds during the force computation) and turned it by
   omega dt, so the positions at the start of the step are x - v dt; the
   contact point is the middle of the overlap. At setup nothing has moved:
   pass step = 0.

   Host/device callable (DEMC_FN); shared by the CPU and Kokkos styles so
   that both hand the kernels the same numbers.
------------------------------------------------------------------------- */

#ifndef DEMC_CONTACT_GEOMETRY_H
#define DEMC_CONTACT_GEOMETRY_H

#include "kernel_common.h"

namespace demc {

/* 1 / |delta - dd| for |delta| = 1 / inv_r. A pair moves by a small fraction of its distance in
   one step: then, with e = (|dd|^2 - 2 delta.dd) / |delta|^2 (no cancellation), the series
   1/|delta| (1 + e)^(-1/2) = (1 - e/2 + 3e^2/8 - 5e^3/16 + 35e^4/128) / |delta| is exact to
   round-off (the first omitted term, 63 e^5 / 256, is below 8e-18 for |e| < 5e-4) and saves
   the square root and the division, the slowest operations of a contact's geometry.
   DEMC_FN_FLAT: GCC kept it out of line in gran/kuhn/kk's functor (as sphere_contact()). */
DEMC_FN_FLAT double inverse_length_after_move(const Vec3 &delta, const Vec3 &dd, double inv_r)
{
  const double e = (dot(dd, dd) - 2.0 * dot(delta, dd)) * (inv_r * inv_r);
  if (math::fabs(e) < 5e-4)
    return inv_r * (1.0 - e * (0.5 - e * (0.375 - e * (0.3125 - e * 0.2734375))));
  const Vec3 moved = delta - dd;
  return 1.0 / math::sqrt(dot(moved, moved));
}

/* Two spheres in the compact form the contact loops use. The contact vectors are
   r_p = arm_p n and r_q = -arm_q n, so Eq. 5 takes one cross product,
     du = step ((v_q - v_p) - (arm_p w_p + arm_q w_q) x n),
   and a force F on p (-F on q) has the torques arm_p (n x F) on p and arm_q (n x F) on q
   (sphere_torque_arm()). The general form, r_p and r_q kept apart with two cross products,
   makes a contact loop keep 27 numbers per contact live instead of 14.
   A law that carries its own frame (Jaeger: a quaternion per contact) has no use for the
   normal at the start of the step: with old_normal = false it is not computed (about 35
   instructions per contact) and n_old is set to n. */
struct SphereContact {
  double overlap;         // at t+dt
  Vec3 n, n_old;          // unit normals at t+dt and t, from p to q
  Vec3 du;                // movement of q relative to p at the contact point (Eq. 5)
  double twirl;           // the pair's mean rotation about n over the step
  double arm_p, arm_q;    // centre-to-contact-point distances
};

// DEMC_FN_FLAT: in the Kokkos functors GCC kept this out of line and passed its 15-number result
// through memory.
DEMC_FN_FLAT SphereContact sphere_contact(const Vec3 &x_p, const Vec3 &x_q, double rad_p,
                                          double rad_q, double r, const Vec3 &v_p, const Vec3 &v_q,
                                          const Vec3 &w_p, const Vec3 &w_q, double step,
                                          bool old_normal = true)
{
  SphereContact c;
  const Vec3 delta = x_q - x_p;
  c.overlap = rad_p + rad_q - r;
  const double inv_r = 1.0 / r;
  c.n = inv_r * delta;
  const Vec3 dd = step * (v_q - v_p);
  c.n_old = old_normal ? inverse_length_after_move(delta, dd, inv_r) * (delta - dd) : c.n;
  c.arm_p = rad_p - 0.5 * c.overlap;
  c.arm_q = rad_q - 0.5 * c.overlap;
  c.du = dd - step * cross(c.arm_p * w_p + c.arm_q * w_q, c.n);
  c.twirl = 0.5 * step * dot(w_p + w_q, c.n);
  return c;
}

/* n x F: the torques of a force F on p (-F on q) are arm_p (n x F) on p and arm_q (n x F)
   on q. */
DEMC_FN Vec3 sphere_torque_arm(const SphereContact &c, const Vec3 &force_on_p)
{
  return cross(c.n, force_on_p);
}

/* The pair's rotation about the contact normal over the step, the mean spin
   1/2 (dth_p + dth_q).n, of any struct with dth_p, dth_q and n (SphereContact::twirl for two
   spheres): the twirl that carries the tangential force (Kuhn et al., Eq. 23) and turns the
   contact frame (Jaeger). */
template <class G> DEMC_FN double contact_twirl(const G &g)
{
  return 0.5 * dot(g.dth_p + g.dth_q, g.n);
}

/* The dashpot formula of every contact law of the package: on a movement du over a step dt,
   with normal part un = du.n and tangential part u_t, the force on p is
     f_damp = on_n n + on_t u_t,  on_n = nu_n un / dt,  on_t = nu_t / dt. */
struct DashpotCoefficients {
  double on_n, on_t;
};
DEMC_FN DashpotCoefficients dashpot_coefficients(double nu_n, double nu_t, double inv_dt, double un)
{
  return {nu_n * un * inv_dt, nu_t * inv_dt};
}

/* Contact dashpots, the force on p: nu_n on the normal and nu_t on the tangential part
   of the relative velocity du/dt (du: SphereContact::du, n: the normal from p to q). */
DEMC_FN Vec3 contact_damping_force(const Vec3 &du, const Vec3 &n, double nu_n, double nu_t,
                                   double dt)
{
  if (dt <= 0.0 || (nu_n == 0.0 && nu_t == 0.0)) return {0.0, 0.0, 0.0};
  const double un = dot(du, n);
  const DashpotCoefficients c = dashpot_coefficients(nu_n, nu_t, 1.0 / dt, un);
  // a normal dashpot alone (the usual choice): its tangential part, exactly zero, not formed
  if (nu_t == 0.0) return c.on_n * n;
  const Vec3 ut = du - un * n;
  return c.on_n * n + c.on_t * ut;
}

/* Dashpots of a contact, per type pair: constant (nu_n, nu_t in force per velocity), or from a
   coefficient of restitution (restitution_factor > 0) as LAMMPS's pair_style granular computes
   them (damping coeff_restitution):
     eta_n = factor sqrt(m_eff k_nd),  k_nd = normal force / overlap
   (4/3 E* a for Hertz, kn for a linear spring), with
     Hertz:  factor = -2 sqrt(5/6) ln(e) / sqrt(pi^2 + ln(e)^2) sqrt(3/2)  (hertz_restitution_factor)
     linear: factor = -2 ln(e) / sqrt(pi^2 + ln(e)^2)  (linear_restitution_factor: the damped
             oscillator that parts with e times its approach speed)
   and eta_t = tangential_ratio eta_n (LAMMPS's x_gamma,t of tangential mindlin). */
struct ContactDashpots {
  double nu_n = 0.0, nu_t = 0.0;
  double restitution_factor = 0.0, tangential_ratio = 0.0;
};

// whether the dashpots depend on the contact's effective mass (callers form it only then)
DEMC_FN bool needs_effective_mass(const ContactDashpots &d)
{
  return d.restitution_factor > 0.0;
}

/* m_p m_q / (m_p + m_q); a particle held in place (fix freeze) counts as infinitely heavy, as in
   LAMMPS's pair_style granular: then the other one's mass */
DEMC_FN double effective_mass(double m_p, double m_q, bool p_frozen = false, bool q_frozen = false)
{
  if (q_frozen) return m_p;
  if (p_frozen) return m_q;
  return m_p * m_q / (m_p + m_q);
}

// the factors of a coefficient of restitution e in (0, 1]; 0 for e = 1 (no damping)
DEMC_FN double linear_restitution_factor(double e)
{
  constexpr double pi = 3.14159265358979323846;
  const double l = math::log(e);
  return -2.0 * l / math::sqrt(pi * pi + l * l);
}

DEMC_FN double hertz_restitution_factor(double e)
{
  constexpr double pi = 3.14159265358979323846, sqrt_5_6 = 0.91287092917527690,
                   sqrt_3_2 = 1.2247448713915890;
  const double l = math::log(e);
  return -2.0 * sqrt_5_6 * sqrt_3_2 * l / math::sqrt(pi * pi + l * l);
}

/* The dashpot force on p of a contact with (elastic) normal force P at overlap > 0 (n, du as for
   contact_damping_force()); m_eff: the effective mass m_p m_q / (m_p + m_q) (the particle's
   own mass against a wall). */
// restitution damping: the normal dashpot eta_n of a contact with normal force P at overlap
DEMC_FN double restitution_dashpot(const ContactDashpots &d, double P, double overlap, double m_eff)
{
  const double stiffness = overlap > 0.0 ? P / overlap : 0.0;
  return d.restitution_factor * math::sqrt(m_eff * (stiffness > 0.0 ? stiffness : 0.0));
}

DEMC_FN Vec3 dashpot_force(const ContactDashpots &d, const Vec3 &du, const Vec3 &n, double P,
                           double overlap, double m_eff, double dt)
{
  if (!needs_effective_mass(d)) return contact_damping_force(du, n, d.nu_n, d.nu_t, dt);
  const double eta_n = restitution_dashpot(d, P, overlap, m_eff);
  return contact_damping_force(du, n, eta_n, d.tangential_ratio * eta_n, dt);
}

// the tangential dashpot (force per velocity) of dashpot_force()
DEMC_FN double tangential_dashpot(const ContactDashpots &d, double P, double overlap, double m_eff)
{
  if (!needs_effective_mass(d)) return d.nu_t;
  return d.tangential_ratio * restitution_dashpot(d, P, overlap, m_eff);
}

/* How the dashpots' force joins a contact law's (the keywords damping_cap and limit_damping of
   the pair styles and wall fixes). */
struct DashpotLimits {
  bool coulomb = true;        // damping_cap yes: the whole tangential force on the law's cone
  bool no_tension = false;    // limit_damping: the normal force with its dashpot never pulls
  /* whether limit_dashpot_force() can change the force of dashpots with or without a
     tangential part (has_tangential_dashpot()): without, the cap has nothing to cut, and the
     contact loops skip the call, which would cost every damped contact a few dozen
     instructions */
  DEMC_FN bool act_on(bool tangential) const { return no_tension || (coulomb && tangential); }
};

// whether the dashpots d can give a tangential force (a constant nu_t or a ratio x_t)
DEMC_FN bool has_tangential_dashpot(const ContactDashpots &d)
{
  return d.nu_t > 0.0 || d.tangential_ratio > 0.0;
}

/* The dashpots' force f_damp on p as it acts beside a contact law's own force on p, -P n + T
   (P >= 0: the law's elastic normal force, the one its friction cone mu P is made of; T: its
   tangential force, which the law keeps on or inside that cone). Changed in place where a
   limit applies (returns whether it did):
   - coulomb: the whole tangential force T + f_t (f_t: the dashpot's tangential part) is
     returned radially onto the ball |F| <= mu P, Coulomb's law for the sum. The ball holds T
     (its radius is |T| where round-off leaves T a hair outside mu P), so the law's force is
     never cut, only the dashpot's addition to it: the dashpot force as it acts becomes
     F - T, with F the returned sum.
   - no_tension: the normal part pulls p towards q (f_damp.n > P) no more than the law's normal
     force pushes: the total normal force is then zero, never attractive.
   The dashpot force as it acts does non-negative work on the contact's movement du (what is
   cut is friction, not stored): normal, f_damp.n and du.n have one sign and the clamp keeps
   it (P >= 0); tangential, with f_t = c u_t (c >= 0) and F the point of a convex set nearest
   to T + f_t, a set that holds T, (F - T).(T + f_t - T) = |F - T|^2 + (F - T).(T + f_t - F)
   >= 0. The work is then counted as the dashpots' dissipation, so the energy balance closes
   as before. */
DEMC_FN bool limit_dashpot_force(const DashpotLimits &lim, double mu, double P, const Vec3 &T,
                                 const Vec3 &n, Vec3 &f_damp)
{
  if (!lim.coulomb && !lim.no_tension) return false;
  const double f_n = dot(f_damp, n);
  const bool pulls = lim.no_tension && f_n > P;
  Vec3 f_t = f_damp - f_n * n;
  bool capped = false;
  if (lim.coulomb) {
    const Vec3 sum = T + f_t;
    const double sum2 = dot(sum, sum), R = mu * P, T2 = dot(T, T);
    const double R2 = R * R > T2 ? R * R : T2;
    if (sum2 > R2) {
      f_t = math::sqrt(R2 / sum2) * sum - T;
      capped = true;
    }
  }
  if (!pulls && !capped) return false;
  f_damp = (pulls ? P : f_n) * n + f_t;
  return true;
}

}    // namespace demc

#endif
