/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: one contact step of the Kuhn-Suzuki-Daouadji law, for every
   caller: pair_style gran/kuhn, gran/kuhn/kk, fix wall/gran/kuhn and the
   region wall.

   The law itself is kuhn::step() (kuhn_contact.h); this file is what every
   caller did around it: the contact's record (its history between steps),
   the dashpots (constant, of restitution, and their limits), the last
   step's dashpot force again at a run's setup, the
   rolling and twisting resistance (rolling_twisting.h), the work tallies,
   the one rule for "sliding" and the energy released at parting.
   The callers only gather a contact's geometry and scatter the results.

   A wall is a partner of infinite mass and radius: its effective mass is
   the particle's, its rolling radius the particle's radius.

   Plain C++: no allocation, exceptions, virtual calls or I/O; host/device callable.
------------------------------------------------------------------------- */

#ifndef DEMC_KUHN_STEP_H
#define DEMC_KUHN_STEP_H

#include "kuhn_contact.h"
#include "rolling_twisting.h"

namespace demc {
namespace kuhn {

  /* A contact's record between steps. Zero for a fresh contact (and after parting). */
  struct Record {
    Vec3 ft;                        // tangential force on p
    double zeta;                    // overlap at the end of the last step (> 0: touching)
    double w_fric, w_damp;          // this contact's cumulative friction and damping work
    Vec3 f_damp;                    // the last step's dashpot force on p
    resistance::Springs springs;    // rolling spring and twisting angle
    Vec3 torque;                    // the resistance's last torque on p
  };

  /* Where a record lies in a caller's history array: ft, zeta, w_fric, w_damp first
     (RecordIndex), the others where the caller keeps them (-1: the option is off). */
  enum RecordIndex { R_FTX, R_FTY, R_FTZ, R_ZETA, R_WFRIC, R_WDAMP, R_FIXED };
  struct RecordLayout {
    int f_damp;         // 3 values
    int roll = -1;      // 3 values: rolling resistance only
    int twist = -1;     // twisting resistance only
    int torque = -1;    // 3 values: rolling or twisting
  };

  /* The record in history h. even: the sign to read the values that do not change under the
     exchange of p and q with (the scalars, the rolling spring: w_q - w_p and n both change
     sign); 1 for a caller that exchanges records as transfer_history() does, the sign of the
     stored overlap for fix neigh/history/kk, which negates every value. H: a pointer, or
     anything indexed as one (a strided row of a device's view). RESIST = false: a caller that
     knows at compile time that rolling and twisting are off (the layout has no slots for
     them) skips the slots' tests; the springs and torque read as zero. */
  template <bool RESIST = true, class H>
  DEMC_FN_FLAT Record read_record(const H &h, const RecordLayout &at, double even = 1.0)
  {
    Record r;
    r.ft = {h[R_FTX], h[R_FTY], h[R_FTZ]};
    r.zeta = even * h[R_ZETA];
    r.w_fric = even * h[R_WFRIC];
    r.w_damp = even * h[R_WDAMP];
    r.f_damp = {h[at.f_damp], h[at.f_damp + 1], h[at.f_damp + 2]};
    if (RESIST) {
      resistance::read_slots(h, at.roll, at.twist, at.torque, r.springs, r.torque, even);
    } else {
      r.springs = resistance::Springs{};
      r.torque = {0.0, 0.0, 0.0};
    }
    return r;
  }

  template <bool RESIST = true, class H>
  DEMC_FN_FLAT void write_record(const H &h, const RecordLayout &at, const Record &r)
  {
    h[R_FTX] = r.ft.x;
    h[R_FTY] = r.ft.y;
    h[R_FTZ] = r.ft.z;
    h[R_ZETA] = r.zeta;
    h[R_WFRIC] = r.w_fric;
    h[R_WDAMP] = r.w_damp;
    h[at.f_damp] = r.f_damp.x;
    h[at.f_damp + 1] = r.f_damp.y;
    h[at.f_damp + 2] = r.f_damp.z;
    if (RESIST) resistance::write_slots(h, at.roll, at.twist, at.torque, r.springs, r.torque);
  }

  // the history layout for the resistance options after `size` values; returns the new size
  DEMC_FN int place_resistance(const resistance::Params &p, int size, RecordLayout &at)
  {
    at.roll = at.twist = at.torque = -1;
    if (p.rolling) {
      at.roll = size;
      size += 3;
    }
    if (p.twisting != resistance::TWISTING_NONE) at.twist = size++;
    if (resistance::active(p)) {
      at.torque = size;
      size += 3;
    }
    return size;
  }

  /* One contact's parameters. p: the law's (with the refinement bits as the caller folds
     them, params_for_step()); restitution: dashpots that need the effective mass (nullptr:
     none); resist: rolling and twisting (nullptr: off; twisting marshall with the law's kt,
     damp_t and mu filled in, resistance_for()). */
  struct Law {
    const Params *p;
    const ContactDashpots *restitution;
    DashpotLimits limits;
    const resistance::Params *resist;
  };

  // The resistance's options for a law: twisting marshall takes its tangential spring, dashpot
  // and friction coefficient.
  DEMC_FN resistance::Params resistance_for(const resistance::Params &options, double kt,
                                            double damp_t, double mu)
  {
    resistance::Params r = options;
    if (r.twisting == resistance::TWISTING_MARSHALL) r.twist = {kt, damp_t, mu};
    return r;
  }

  /* The geometry of one step (the overlap and normals at t+dt and t, the movement of q
     relative to p at the contact, the pair's twirl: as Kinematics), and what only some
     options read: the effective mass (restitution damping), the angular velocity of q minus
     that of p and the rolling radius (rolling and twisting). */
  struct Geometry {
    double overlap;
    Vec3 n, n_old, du;
    double twirl;
    double m_eff;
    Vec3 w_rel;
    double r_eff;
  };

  /* ADVANCE: a step of the run; REPEAT: a run's setup, the forces of the record without
     changing it and the last step's dashpot force and resistance torque again (nothing has
     moved since; the half-step velocities the dashpots saw are not kept), so that a run
     continues as the one that went straight on. */
  enum Phase { ADVANCE, REPEAT };

  /* What a step gives its caller: the force on p at the contact point and the resistance's
     torque on p (a couple; q takes -force and -torque), the energies stored at t+dt (Wt: the
     tangential spring and the resistance's), the work the particles did over the step on the
     tangential spring and the resistance (without the dashpots), the energy friction and
     the dashpots dissipated (0 except in ADVANCE), and whether the contact slides (the
     law's slip branches: its force reached the cone in this step). */
  struct Outcome {
    Vec3 force, torque;
    double Wn, Wt;
    double work, friction, damping;
    bool sliding;
  };

  /* One step of a touching contact (overlap > 0) from its record rec, which ADVANCE
     replaces with the new one. dt: the time step (ignored but in ADVANCE). */
  DEMC_FN_FLAT Outcome contact_step(const Law &law, const Geometry &g, Phase phase, double dt,
                                    Record &rec)
  {
    const Params &p = *law.p;
    const bool advance = phase == ADVANCE;
    // no dashpots outside a run's step: the kernel skips them for a step of length 0
    const Kinematics m = {g.overlap, rec.zeta, g.n, g.n_old, g.du, g.twirl, advance ? dt : 0.0};
    Result res = step(p, m, rec.ft);
    if (phase == REPEAT) res.force = res.force + rec.f_damp;    // (zero for a fresh contact)
    bool tangential = p.damp_t > 0.0;
    if (law.restitution != nullptr) {
      add_restitution_dashpots(*law.restitution, m, g.m_eff, res);
      tangential = tangential || has_tangential_dashpot(*law.restitution);
    }
    if (law.limits.act_on(tangential)) limit_dashpots(law.limits, p.mu, m, res);

    Outcome o;
    o.force = res.force;
    o.torque = {0.0, 0.0, 0.0};
    o.Wn = res.Wn;
    o.Wt = res.Wt;
    o.work = advance ? res.dWt : 0.0;
    o.friction = advance ? res.dWt_irrev : 0.0;
    o.damping = advance ? res.dW_damp : 0.0;
    o.sliding = res.branch == BRANCH_SLIP || res.branch == BRANCH_FRESH_SLIP;
    if (law.resist != nullptr) {
      // the normal force that scales the limits: the law's elastic one; the contact radius of
      // LAMMPS's hooke (twisting marshall)
      const resistance::Input in = {g.n,  g.n_old, g.twirl, g.w_rel, g.r_eff,
                                    math::sqrt(g.overlap * g.r_eff), res.fn, m.dt};
      const resistance::Result r = advance ? resistance::step(*law.resist, in, rec.springs)
                                           : resistance::held(*law.resist, in, rec.springs);
      o.torque = phase == REPEAT ? rec.torque : r.torque;
      o.Wt += r.stored;
      if (advance) {
        o.work += r.work - r.damped;
        o.friction += r.dissipated - r.damped;
        o.damping += r.damped;
        rec.torque = o.torque;
      }
    }
    if (advance) {
      rec.ft = res.ft;
      rec.zeta = g.overlap;
      rec.w_fric += res.dWt_irrev;
      rec.w_damp += res.dW_damp;
      rec.f_damp = res.f_damp;
    }
    return o;
  }

  /* The energy a contact's record holds, all dissipated when it parts (the separated step of
     the law; the resistance's springs at the last contact radius); the caller then zeroes
     the record. r_eff: the rolling radius (twisting marshall only). */
  DEMC_FN double parting_energy(double kt, const resistance::Params *resist, const Record &rec,
                                double r_eff)
  {
    double e = separation_energy(kt, rec.ft);
    if (resist != nullptr) {
      const double zeta = rec.zeta > 0.0 ? rec.zeta : 0.0;
      e += resistance::stored_energy(*resist, rec.springs, math::sqrt(zeta * r_eff));
    }
    return e;
  }

}    // namespace kuhn
}    // namespace demc

#endif
