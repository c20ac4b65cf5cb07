/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: one contact step of pair_style gran/coulomb, written once for
   every caller (the pair style, fix wall/gran/coulomb, and the Kokkos style
   and region wall to come): the contact's geometry, its type pair's
   parameters and its record in; the normal force with its dashpot, the
   rolling and twisting resistance, the tallies, the row the friction fix
   decides the friction of, and the new record out.

   A wall is a partner of infinite radius and mass: r_eff is the particle's
   radius and m_eff its mass (effective_radius(r_p, WALL_RADIUS)), arm_q is
   not used.

   The friction itself is not part of the step: it is decided once every
   other force of the step is known (kernels/coulomb_friction.h), from the
   row this step returns.

   Plain C++, host/device callable (DEMC_FN), POD in and out, no
   allocation, no exceptions, no virtual calls.
------------------------------------------------------------------------- */

#ifndef DEMC_COULOMB_STEP_H
#define DEMC_COULOMB_STEP_H

#include "contact_geometry.h"
#include "coulomb_friction.h"
#include "jaeger_hertz.h"
#include "rolling_twisting.h"

namespace demc {
namespace coulomb {

  /* the stiffness factor of a normal law from its coefficients (hooke: kn; hertz: E, nu):
     kn, or 4/3 E* with E* of two bodies of one material, E / (2 (1 - nu^2)) */
  DEMC_FN double stiffness_factor(int law, double c1, double c2)
  {
    return law == HERTZ ? (4.0 / 3.0) * jaeger::effective_young(c1, c2, c1, c2) : c1;
  }

  // a contact's stiffness from the factor: kn, or 4/3 E* sqrt(R*)
  DEMC_FN double contact_stiffness(int law, double kfactor, double r_eff)
  {
    return law == HERTZ ? kfactor * math::sqrt(r_eff) : kfactor;
  }

  // the radius of a flat wall (infinite), as LAMMPS's fix wall/gran takes a wall radius of 0
  constexpr double WALL_RADIUS = 0.0;
  DEMC_FN double effective_radius(double r_p, double r_q)
  {
    return r_q == WALL_RADIUS ? r_p : r_p * r_q / (r_p + r_q);
  }

  // a type pair's (or a wall's) parameters
  struct StepParams {
    int law;           // NormalLaw
    double kfactor;    // stiffness_factor()
    double mu;         // friction coefficient
    ContactDashpots dashpots;
    resistance::Params resistance;
  };

  /* one contact over one step: SphereContact's geometry (n from p to q, du Eq. 5, the pair's
     twirl, the arms), the partners' spins (rolling and twisting only), the effective radius
     and mass (restitution damping only), the step (0 at setup) */
  struct StepGeometry {
    SphereContact c;
    Vec3 w_rel;       // angular velocity of q minus that of p
    double r_eff;     // effective_radius()
    double m_eff;     // effective mass (a wall: the particle's)
    double dt;        // the step's length, 0 at a setup
  };

  /* What a contact keeps between steps for this step (the friction fix keeps the friction):
     the normal dashpot force of the last step (its repulsive part as applied), the rolling
     and twisting springs, the resistance's torque on p of the last step. The first setup after
     read_restart repeats the dashpot force and the torque (the velocities they came from are
     gone) so that the run continues as the one that went straight on. */
  struct Record {
    double fdamp;
    resistance::Springs springs;
    Vec3 torque;
  };

  /* where a record's values are in a caller's row of doubles (-1: not kept) */
  struct RecordLayout {
    int fdamp, roll, twist, torque;
  };

  DEMC_FN Record load_record(const double *h, const RecordLayout &l)
  {
    Record r;
    r.fdamp = h[l.fdamp];
    resistance::read_slots(h, l.roll, l.twist, l.torque, r.springs, r.torque);
    return r;
  }

  DEMC_FN void store_record(double *h, const RecordLayout &l, const Record &r)
  {
    h[l.fdamp] = r.fdamp;
    resistance::write_slots(h, l.roll, l.twist, l.torque, r.springs, r.torque);
  }

  /* a run's step (advances the record), a setup (forces from the record as it is, no dashpots),
     or the first setup after read_restart (the last step's dashpot force and torque again) */
  enum StepMode { SETUP = 0, ADVANCE = 1, REPEAT = 2 };

  /* the contact as the friction fix takes it: the contact point at arm_p n from p's centre and
     (a particle q) at -arm_q n from q's; the limit mu F_N */
  struct FrictionRow {
    Vec3 n;
    double arm_p, arm_q, limit;
  };

  struct StepResult {
    Vec3 force;             // on p (-force on q): -F_N n
    Vec3 torque;            // the rolling and twisting torque on p (-torque on q)
    double F_N;             // the normal force with its dashpot, repulsive (Eq. 7)
    double normal_energy;   // stored in the normal spring at t+dt
    double damping_work;    // the dashpots' dissipation over the step (normal, rolling, twisting)
    double resistance_stored;     // stored in the rolling and twisting springs at t+dt
    double resistance_friction;   // dissipated by their sliders over the step
    FrictionRow row;
  };

  // the resistance's input from the step's geometry and normal force
  DEMC_FN resistance::Input resistance_input(const StepParams &p, const StepGeometry &g,
                                             double F_N)
  {
    const double a = p.resistance.twisting == resistance::TWISTING_MARSHALL
        ? math::sqrt(g.c.overlap * g.r_eff)
        : 0.0;
    return {g.c.n, g.c.n_old, g.c.twirl, g.w_rel, g.r_eff, a, F_N, g.dt};
  }

  /* The step of a touching contact (overlap > 0). The normal force: the law's elastic force
     and the dashpot's repulsive part, kept repulsive (Eq. 7); the damping work is the
     dashpot's force as applied over the step's normal movement. The resistance's limits scale
     with F_N (LAMMPS's Fncrit, |F_n + F_damp|, here never negative). DEMC_FN_FLAT: GCC kept it
     out of line in the pair loop, and its result went through memory. */
  DEMC_FN_FLAT StepResult contact_step(const StepParams &p, const StepGeometry &g, int mode, Record &rec)
  {
    StepResult out;
    const SphereContact &c = g.c;
    const NormalForce nf =
        normal_force(p.law, contact_stiffness(p.law, p.kfactor, g.r_eff), c.overlap);
    const double un = dot(c.du, c.n);
    double F_N;
    if (mode == REPEAT) {
      F_N = nf.elastic + rec.fdamp;
    } else {
      const double dt = mode == ADVANCE ? g.dt : 0.0;
      const double dashpot =
          -dot(dashpot_force(p.dashpots, c.du, c.n, nf.elastic, c.overlap, g.m_eff, dt), c.n);
      F_N = damped_normal_force(nf.elastic, dashpot);
    }
    out.F_N = F_N;
    out.force = -F_N * c.n;
    out.normal_energy = nf.energy;
    out.damping_work = 0.0;
    if (mode == ADVANCE) {
      rec.fdamp = F_N - nf.elastic;
      out.damping_work = -rec.fdamp * un;
    }
    out.torque = {0.0, 0.0, 0.0};
    out.resistance_stored = out.resistance_friction = 0.0;
    if (resistance::active(p.resistance)) {
      const resistance::Input in = resistance_input(p, g, F_N);
      const resistance::Result r = mode == ADVANCE ? resistance::step(p.resistance, in, rec.springs)
                                                   : resistance::held(p.resistance, in, rec.springs);
      out.torque = mode == REPEAT ? rec.torque : r.torque;
      if (mode == ADVANCE) {
        rec.torque = r.torque;
        out.damping_work += r.damped;
        out.resistance_friction = r.dissipated - r.damped;
      }
      out.resistance_stored = r.stored;
    }
    out.row = {c.n, c.arm_p, c.arm_q, p.mu * F_N};
    return out;
  }

  /* A contact that parts: the energy its rolling and twisting springs held, released (booked
     as friction); the caller clears the record. */
  DEMC_FN double parting_energy(const StepParams &p, const Record &rec, double a)
  {
    return resistance::active(p.resistance) ? resistance::stored_energy(p.resistance, rec.springs, a)
                                            : 0.0;
  }

}    // namespace coulomb
}    // namespace demc

#endif
