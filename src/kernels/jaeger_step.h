/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: one step of one Jäger contact, for every caller: the pair
   style (gran/jaeger), the wall fixes (wall/gran/jaeger and its region
   walls) and the Kokkos style (gran/jaeger/kk).

   In: the contact's geometry over the step (p -> q; a wall is a partner of
   infinite radius and mass, so the caller's effective radius and mass are the
   particle's), its material and its record; out: the force on p, the
   kernel's result and the step's tallies, the record advanced.

   How a caller stores its records (the pair's arena, the Kokkos pools, the
   walls' per-atom vectors) is the Store it hands in:
     double *record()                 the contact's record, null: none;
     double *open()                   memory for a new record with room for at
                                      least one point, the caller's own header
                                      fields (key, type pair, material) set;
                                      null: none now (the contact waits);
     int room(const double *rec)      the points rec has room for;
     double *reserve(double *rec, int points)
                                      rec with room for `points` points (it may
                                      move); null: none now (the contact waits);
     void close(double *rec)          the contact has parted.
   The rules, the same for every caller:
     - opening: open_record() (the driver's fields of a fresh record);
     - trimming: a history longer than history/max (a bound set smaller after
       the contact formed, e.g. after read_restart) is shortened to it by the
       kernel's force-keeping merges before the step (trim_record());
     - room: a record grows by the one point a step can push, up to
       history/max; the kernel is told the bound (it merges only when a history
       reaches it), or the record's room without one;
     - parting: a contact that no longer touches takes its last step to the
       open contact, overlap min(overlap, 0) (a wall contact may part with a
       positive overlap when the particle turns to another side), which clears
       the history and adds the work of the springs that leave;
     - a new material: move_to_material() (the same spring field);
     - rolling and twisting resistance (rolling_twisting.h), where the caller gives its options
       and a layout with their slots (WithResistance): the springs carried with the contact
       frame (tilt and twirl), the limits scaled by the Hertz force P, the torque a couple on
       p (q takes its opposite), repeated at a run's setup as the dashpot force is; twisting
       marshall from the Mindlin spring 2 G* a, the tangential dashpot and mu (resistance_of());
       the springs' energy is part of U_t and their work of the tangential work, so that the
       friction dissipation (work - U_t) holds the sliders' and, at parting, what they stored.
   Host/device callable, no allocation, no exceptions.
------------------------------------------------------------------------- */

#ifndef DEMC_JAEGER_STEP_H
#define DEMC_JAEGER_STEP_H

#include "jaeger_driver.h"
#include "rolling_twisting.h"

namespace demc {
namespace jaeger {

  // the law's keywords and the run's state a step needs
  struct StepSettings {
    double beta = 0.0, prune = 0.0;
    int max_length = 0;        // history/max, 0: unbounded
    bool work = true;          // track the tangential work and U_t
    int carry_length = 0;      // see stored_to_carry()
    double dt = 0.0;
    // false: a run's setup (nothing moved, the record is read; its dashpot force repeated)
    bool advance = true;
    bool normal_energy = true, tangential_energy = true;    // which energies to return
  };

  // a contact's geometry and movement over the step, p -> q
  struct StepContact {
    Vec3 n;            // unit normal from p to q
    Vec3 du;           // relative movement of the contact point over the step (q relative to p)
    double overlap;    // > 0 touching
    double twirl;      // the pair's rotation about n over the step
    double m_eff;      // effective mass, where the dashpots need it
    Vec3 w_rel;        // angular velocity of q minus that of p (rolling and twisting only)
  };

  struct StepOutcome {
    Vec3 force;            // on p (q takes the reaction)
    Vec3 torque;           // the rolling and twisting resistance's couple on p (q: -torque)
    StepResult res;        // the kernel's step (or the stored state at setup)
    double work;           // tangential work of the step (advancing or parting), with conversion
    double damping_work;   // the dashpots' work on the step's movement
    double un, ut;         // normal and stored tangential energy (where asked for)
    int merges, pruned, forced;    // points merged (trimming included), pruned, merged because full
    double *rec;           // the record after the step (null: none)
    bool wait;             // the store had no room: nothing was done
    bool opened, parted, sliding;
  };

  // the driver's fields of a fresh record: empty history, nothing done or stored yet
  template <class L> DEMC_FN void open_record(double *rec)
  {
    rec[L::length] = 0.0;
    rec[L::work] = rec[L::dampwork] = rec[L::stored] = 0.0;
    for (int k = 0; k < 3; k++) rec[L::fdamp_x + k] = 0.0;
    *record_spent<L>(rec) = PruneSpent{};
    if (L::resist >= 0)
      for (int k = 0; k < RESISTANCE_SLOTS; k++) rec[L::resist + k] = 0.0;
  }

  /* The resistance's parameters of a contact of material mat at overlap: twisting marshall takes
     the stiffness of a fresh contact's tangential spring (Mindlin's) 2 G* a (the package's G*,
     jaeger_hertz.h; 8 G* a with LAMMPS's G*, a quarter of it), the tangential dashpot and mu. */
  DEMC_FN resistance::Params resistance_of(const resistance::Params &options, const Material &mat,
                                           double overlap, double P, const ContactDashpots &d,
                                           double m_eff)
  {
    resistance::Params p = options;
    if (p.twisting == resistance::TWISTING_MARSHALL)
      p.twist = {2.0 * mat.Gstar * contact_radius(mat, overlap),
                 tangential_dashpot(d, P, overlap, m_eff), mat.mu};
    return p;
  }

  /* The resistance's step of a touching contact with record rec (of layout L with its slots):
     advancing, the springs carried from the frame's old normal n_old and advanced, the couple
     kept; at a run's setup the kept couple again. Adds the couple, the work (without the
     dashpots'), the dashpots' work and (tangential_energy) the springs' energy to out. */
  template <class L>
  DEMC_FN void resist_step(const resistance::Params &options, const Material &mat,
                           const StepContact &c, const Vec3 &n_old, const ContactDashpots &d,
                           const StepSettings &s, double *rec, StepOutcome &out)
  {
    const double P = out.res.P;
    const resistance::Params p = resistance_of(options, mat, c.overlap, P, d, c.m_eff);
    const resistance::Input in = {c.n,  n_old, c.twirl, c.w_rel, mat.R, contact_radius(mat, c.overlap),
                                  P, s.advance ? s.dt : 0.0};
    resistance::Springs springs;
    Vec3 last;
    resistance::read_slots(rec, L::roll, L::twist, L::torque, springs, last);
    if (s.advance) {
      const resistance::Result r = resistance::step(p, in, springs);
      resistance::write_slots(rec, L::roll, L::twist, L::torque, springs, r.torque);
      out.torque = r.torque;
      out.work += r.work - r.damped;
      out.damping_work += r.damped;
      if (s.tangential_energy) out.ut += r.stored;
    } else {
      out.torque = last;
      if (s.tangential_energy) out.ut += resistance::held(p, in, springs).stored;
    }
  }

  /* A history longer than history/max (a bound set smaller after the contact formed) is
     shortened to it by the kernel's merges, which keep the force; returns the merges. */
  template <class L>
  DEMC_FN int trim_record(const Material &mat, double *rec, int room, int max_length)
  {
    if (max_length <= 0 || record_length<L>(rec) <= max_length) return 0;
    Stack st = record_stack<L>(rec, room);
    const int merges = shorten_to(mat, st, max_length);
    rec[L::length] = st.n;
    rec[L::stored] = -1.0;    // the merges moved springs: no longer known
    record_spent<L>(rec)->sealed = 0.0;    // and changed removals' costs: all looked at again
    return merges;
  }

  /* A history made with material `from` moved to `to` (the coefficients changed, or the atoms'
     types): the same spring field, slopes beyond a smaller friction cone returned onto it
     (change_material()). Returns the work the change did on the contact, added to the
     record's (from.Estar = 0: not known, nothing done). */
  template <class L>
  DEMC_FN double move_to_material(double *rec, int room, const Material &from, const Material &to)
  {
    if (!(from.Estar > 0.0) || same_material(from, to)) return 0.0;
    Stack st = record_stack<L>(rec, room);
    const double work = change_material(from, to, st);
    rec[L::work] += work;
    rec[L::stored] = -1.0;                 // U_t of the new material: taken from the history
    record_spent<L>(rec)->sealed = 0.0;    // the removals' costs too
    return work;
  }

  // the kernel's bound for a record: history/max, else the record's room
  DEMC_FN int stack_bound(int room, int max_length)
  {
    return max_length > 0 ? max_length : room;
  }

  // the force, step and work of a contact step that does nothing
  DEMC_FN void idle_outcome(StepOutcome &out)
  {
    out.force = {0.0, 0.0, 0.0};
    out.res = {{0.0, 0.0}, 0.0, 0.0, 0, STEP_NONE, -1.0, 0};
    out.work = out.damping_work = 0.0;
  }

  /* One step of one contact (see the file's header). touching: overlap > 0 for a pair; a
     caller may part a contact that still overlaps (a wall whose nearest side changed). A
     contact apart without a record, or apart at setup, is left as it is. */
  template <class L, class Store>
  DEMC_FN StepOutcome contact_step(Store &store, const Material &mat, const StepContact &c,
                                   bool touching, const ContactDashpots &dashpots,
                                   const DashpotLimits &limits, const StepSettings &s,
                                   const resistance::Params *resist = nullptr)
  {
    // the force, the step and their work are set by every path (idle_outcome() where it returns
    // early): the outcome is too large to live in registers, and each field set twice costs a
    // store per contact
    StepOutcome out;
    out.torque = {0.0, 0.0, 0.0};
    out.un = out.ut = 0.0;
    out.merges = out.pruned = out.forced = 0;
    out.wait = out.opened = out.parted = out.sliding = false;
    double *rec = store.record();
    out.rec = rec;
    if (!touching) {
      idle_outcome(out);
      if (rec == nullptr || !s.advance) return out;
      // parting: the last step still does work as the springs leave (the kernel clears them)
      Stack st = record_stack<L>(rec, stack_bound(store.room(rec), s.max_length));
      const double apart = c.overlap < 0.0 ? c.overlap : 0.0;
      out.work = parting_work<L>(mat, rec, st, c.n, c.twirl, c.du, apart, s.beta, s.work);
      store.close(rec);
      out.rec = nullptr;
      out.parted = true;
      return out;
    }

    // the normal the resistance's springs were carried to: the frame's, before its update
    const Vec3 n_old =
        (L::resist >= 0 && rec != nullptr) ? frame::normal(frame::load(rec + L::qw)) : c.n;
    const frame::Quat q = contact_frame<L>(rec, rec != nullptr, s.advance, c.n, c.twirl);
    if (rec == nullptr && s.advance) {
      rec = store.open();
      if (rec == nullptr) {
        idle_outcome(out);
        out.wait = true;
        return out;
      }
      open_record<L>(rec);
      out.opened = true;
    }
    if (s.advance) {
      const Vec2 ds = step_shift(q, c.du, c.n, c.overlap, record_length<L>(rec) == 0);
      out.merges = trim_record<L>(mat, rec, store.room(rec), s.max_length);
      // room for the one point a step can push: records grow as their histories do, also with
      // history/max, where the kernel is told the bound and merges only when a history reaches it
      const int length = record_length<L>(rec);
      const int need = (s.max_length > 0 && length + 1 > s.max_length) ? s.max_length : length + 1;
      if (store.room(rec) < need) {
        rec = store.reserve(rec, need);
        if (rec == nullptr) {
          idle_outcome(out);
          out.wait = true;
          return out;
        }
      }
      Stack st = record_stack<L>(rec, stack_bound(store.room(rec), s.max_length));
      const int n_before = st.n;
      out.res =
          advance_record<L>(mat, rec, st, q, c.overlap, ds, s.beta, s.work, s.carry_length, s.prune);
      out.work = out.res.work;
      out.merges += out.res.merges;
      out.pruned = out.res.pruned;
      out.forced = forced_merges(out.res, n_before, st.capacity);
    } else {
      const Stack st = rec ? record_stack<L>(rec, store.room(rec)) : Stack{};
      out.res = stored_force(mat, rec ? &st : nullptr, c.overlap);
      out.work = 0.0;
    }
    out.rec = rec;

    const ContactForce f = assemble_force<L>(rec, q, out.res, c.n, c.du, c.overlap, mat, dashpots,
                                             limits, c.m_eff, s.dt, s.advance);
    out.force = f.force;
    out.damping_work = f.damping_work;
    if (s.normal_energy) out.un = normal_energy(mat, c.overlap);
    if (s.tangential_energy && rec)
      out.ut = record_stored_energy<L>(mat, rec, record_stack<L>(rec, store.room(rec)));
    out.sliding = at_friction_limit(mat, out.res);
    if (L::resist >= 0 && resist != nullptr && rec != nullptr)
      resist_step<L>(*resist, mat, c, n_old, dashpots, s, rec, out);
    return out;
  }

}    // namespace jaeger
}    // namespace demc

#endif
