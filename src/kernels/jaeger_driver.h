/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: the per-contact driver of Jäger's contact, one for the pair
   style (gran/jaeger), the wall fixes (wall/gran/jaeger and its region
   walls) and the Kokkos style (gran/jaeger/kk).

   A contact's record: a header, then its history points (demc::jaeger::Point,
   4 doubles each). The pair style's arena records and the Kokkos slots share
   one layout, RecordField; the wall fixes keep the material their history was
   made with where the pair records name their type pair, so their header
   places the same fields elsewhere (RecordLayout gives the offsets). The parts
   of a step, in the order of demc::jaeger::contact_step() (jaeger_step.h),
   which every caller calls:
     1. frame: the contact frame carried from the last step, tilted to the new
        normal and twirled (contact_frame.h), or a new one;
     2. the step's tangential movement in that frame, only its part after first
        touch for a fresh contact (step_shift());
     3. U_t to carry through the step or not (stored_to_carry()), the kernel's
        step (demc::jaeger::step()) and the record's header after it
        (advance_record());
     4. the force on p: the step's (or at setup the stored) normal and
        tangential force with the dashpots (assemble_force());
     5. parting: the last step's work as the springs leave (parting_work()).
   Host/device callable, no allocation: the callers own the memory (the
   arena grows records before the step, the Kokkos slot is fixed).
------------------------------------------------------------------------- */

#ifndef DEMC_JAEGER_DRIVER_H
#define DEMC_JAEGER_DRIVER_H

#include "contact_frame.h"
#include "contact_geometry.h"
#include "jaeger_contact.h"

namespace demc {
namespace jaeger {

  /* The record of a pair contact (pair style and Kokkos). REC_KEY is the store's own value:
     the arena's capacity of the record (CPU), the run in which the contact last merged
     because its history was full (Kokkos, see forced_merges()). REC_STORED: the stored
     tangential energy U_t carried from step to step, negative when not known (then taken from
     the whole history when next needed). REC_FDAMP_X..Z: the dashpot force on p of the last
     step (global frame), which the force of a run's setup repeats. REC_TYPES: the type pair
     whose material the history holds (type_pair_key()). REC_PRUNE_FORCE, REC_PRUNE_SHIFT,
     REC_PRUNE_LOAD, REC_PRUNE_SEAL, REC_PRUNE_NEXT: what the pruning rule has spent of the
     contact's error budget, the budget's load, where its next search may start and when it is
     due (demc::jaeger::PruneSpent). */
  enum RecordField {
    REC_KEY,
    REC_LENGTH,
    REC_QW,
    REC_QX,
    REC_QY,
    REC_QZ,
    REC_WORK,
    REC_DAMPWORK,
    REC_TYPES,
    REC_STORED,
    REC_FDAMP_X,
    REC_FDAMP_Y,
    REC_FDAMP_Z,
    REC_PRUNE_FORCE,
    REC_PRUNE_SHIFT,
    REC_PRUNE_LOAD,
    REC_PRUNE_SEAL,
    REC_PRUNE_NEXT,
    REC_HEADER
  };

  /* where a record keeps the fields the driver reads and writes. RESIST: where the rolling and
     twisting resistance's RESISTANCE_SLOTS values start (the rolling spring, 3 values, the
     twisting angle, the resistance's last torque on p, 3 values; rolling_twisting.h), -1: the
     record has none (the resistance is off: its records keep their size). */
  constexpr int RESISTANCE_SLOTS = 7;
  template <int LENGTH, int QW, int WORK, int DAMPWORK, int STORED, int FDAMP_X, int HEADER,
            int RESIST = -1>
  struct RecordLayout {
    static constexpr int length = LENGTH, qw = QW, work = WORK, dampwork = DAMPWORK,
                         stored = STORED, fdamp_x = FDAMP_X, spent = FDAMP_X + 3, header = HEADER;
    static constexpr int resist = RESIST, roll = RESIST, twist = RESIST < 0 ? -1 : RESIST + 3,
                         torque = RESIST < 0 ? -1 : RESIST + 4;
  };
  using PairRecord =
      RecordLayout<REC_LENGTH, REC_QW, REC_WORK, REC_DAMPWORK, REC_STORED, REC_FDAMP_X, REC_HEADER>;
  // a layout L with the resistance's slots after its header (the history starts after them)
  template <class L>
  using WithResistance = RecordLayout<L::length, L::qw, L::work, L::dampwork, L::stored, L::fdamp_x,
                                      L::header + RESISTANCE_SLOTS, L::header>;
  using PairResistRecord = WithResistance<PairRecord>;

  /* f(layout) with the records' layout, chosen once for many contacts: L, or WithResistance<L>
     where the records have the resistance's slots (the step's resistance code is then compiled
     only into the second). (nvcc: f may be a host or a device lambda.) */
#ifdef __CUDACC__
#pragma nv_exec_check_disable
#endif
  template <class L, class F> DEMC_FN auto with_layout(bool resisting, F &&f)
  {
    if (resisting) return f(WithResistance<L>{});
    return f(L{});
  }

  // what the pruning rule has spent of a record's budget (5 doubles after the dashpot force)
  template <class L> DEMC_FN PruneSpent *record_spent(double *rec)
  {
    static_assert(sizeof(PruneSpent) == 5 * sizeof(double), "the spent budget is 5 doubles");
    return reinterpret_cast<PruneSpent *>(rec + L::spent);
  }

  template <class L> DEMC_FN int record_length(const double *rec)
  {
    return static_cast<int>(rec[L::length]);
  }

  // the values a record holds: its header and its history's points
  template <class L> DEMC_FN int record_values(const double *rec)
  {
    return L::header + 4 * record_length<L>(rec);
  }

  // the history of a record; capacity: the points it has room for (or history/max)
  template <class L> DEMC_FN Stack record_stack(double *rec, int capacity)
  {
    Stack st;
    st.pts = reinterpret_cast<Point *>(rec + L::header);
    st.n = record_length<L>(rec);
    st.capacity = capacity;
    return st;
  }

  /* The pair loops (gran/jaeger, gran/jaeger/kk on host spaces) ask the caches for the first
     kRecordPrefetch values of a record (header and first points) with the partner's data, and,
     once those have arrived, for the history's kTopPrefetch top points where they lie beyond:
     ask_for_top_points() calls ask(p) for an address in each cache line of those (none where
     the first request held them). A step reads the top points and, where the last slip
     segment is popped and the one below cut (most steps of a packing at rest), the two below
     it. */
  constexpr int kRecordPrefetch = 24, kTopPrefetch = 4;
  template <class L, class Ask> DEMC_FN void ask_for_top_points(const double *rec, Ask ask)
  {
    const int end = record_values<L>(rec);
    const int begin = end - 4 * kTopPrefetch;
    const double *lo = rec + (begin > kRecordPrefetch ? begin : kRecordPrefetch);
    for (const double *p = rec + end - 1; p >= lo; p -= 8) ask(p);
    if (lo < rec + end) ask(lo);
  }

  /* 1. The contact frame of this step: the record's (has_record), tilted to the normal n and
     twirled when the step advances; a new frame on n for a contact without a record. */
  template <class L>
  DEMC_FN frame::Quat contact_frame(const double *rec, bool has_record, bool advance, const Vec3 &n,
                                    double twirl)
  {
    if (!has_record) return frame::init_frame(n);
    const frame::Quat q = frame::load(rec + L::qw);
    return advance ? frame::update(q, n, twirl) : q;
  }

  /* 2. The step's tangential movement du in the frame q. A contact touching since this step
     only (fresh: an empty history) feels the movement after first touch only, the old
     overlap being overlap + du.n (n: the normal from p to q). */
  DEMC_FN_FLAT Vec2 step_shift(const frame::Quat &q, const Vec3 &du, const Vec3 &n, double overlap,
                          bool fresh)
  {
    const frame::Local l = frame::to_local(q, du);
    const Vec2 ds = {l.x, l.y};
    return fresh ? fresh_contact_shift(overlap + dot(du, n), overlap, ds) : ds;
  }

  // U_t of a record: carried where known, else from the whole history (O(length))
  template <class L>
  DEMC_FN double record_stored_energy(const Material &mat, const double *rec, const Stack &st)
  {
    return stored_energy(mat, st, rec[L::stored]);
  }

  /* 3a. U_t before the step for a contact that carries it through the step, else -1.
     Carrying costs about a walk over one history segment on every step; not carrying, a walk
     over the whole history on each energy step. So a history carries U_t while it is at
     least as long as carry_length, the steps between energy steps (and stops below half of
     that); carry_length 0: always (the wall fixes, which tally U_t every step). */
  template <class L>
  DEMC_FN double stored_to_carry(const Material &mat, const double *rec, const Stack &st, bool work,
                                 int carry_length)
  {
    if (!work) return -1.0;
    const int length = st.n;
    const bool carrying = rec[L::stored] >= 0.0;
    if (carrying ? 2 * (long long) length < carry_length : length < carry_length) return -1.0;
    return record_stored_energy<L>(mat, rec, st);
  }

  /* 3b. The kernel's step of the history st (the record's, with room for one more point or
     the bound history/max) by the overlap `overlap` and the shift ds (beta, prune: the
     memory approximation and the pruning tolerance); the header follows:
     length, U_t (-1: not carried), cumulative work, frame. */
  template <class L>
  DEMC_FN StepResult advance_record(const Material &mat, double *rec, Stack &st,
                                    const frame::Quat &q, double overlap, const Vec2 &ds,
                                    double beta, bool work, int carry_length, double prune)
  {
    const double stored = stored_to_carry<L>(mat, rec, st, work, carry_length);
    const StepResult res =
        step(mat, st, overlap, ds, beta, work, stored, prune, record_spent<L>(rec));
    rec[L::length] = st.n;
    rec[L::stored] = res.stored;
    rec[L::work] += res.work;
    frame::store(rec + L::qw, q);
    return res;
  }

  /* The state of a contact that does not advance (a run's setup): the Hertz force of the
     overlap and the tangential force of the history's top point (none: zero). */
  DEMC_FN StepResult stored_force(const Material &mat, const Stack *st, double overlap)
  {
    StepResult res = {{0.0, 0.0}, hertz_force(mat, overlap), 0.0, 0, STEP_NONE, -1.0, 0};
    if (st && st->n > 0) res.T = force_of(st->pts[st->n - 1]);
    return res;
  }

  /* Merges a step made because the history was full (capacity: the bound history/max): only
     a push onto a full stack merges (make_room()), once; an elastic push may besides merge
     the top segments by beta, which the capacity does not force. n_before: the length
     before the step. */
  DEMC_FN int forced_merges(const StepResult &res, int n_before, int capacity)
  {
    if (res.kind == STEP_ELASTIC) return (n_before == capacity && res.merges > 0) ? 1 : 0;
    return res.merges;
  }

  // the force on p and the dashpots' work on the step's movement
  struct ContactForce {
    Vec3 force;
    double damping_work;
  };

  /* 4. The force on p: -P n + T (the tangential force in the frame q, to global) + the
     dashpots'. Advancing: the dashpot force of the movement du (limited as the keywords say;
     m_eff: the effective mass where the dashpots need it), kept in the record with its work;
     at a run's setup (not advancing) the record's last dashpot force again (nothing has moved
     since; the half-step velocities it came from are gone). rec may be null at setup (no
     record). */
  template <class L>
  DEMC_FN ContactForce assemble_force(double *rec, const frame::Quat &q, const StepResult &res,
                                      const Vec3 &n, const Vec3 &du, double overlap,
                                      const Material &mat, const ContactDashpots &dashpots,
                                      const DashpotLimits &limits, double m_eff, double dt,
                                      bool advance)
  {
    const Vec3 T = frame::to_global(q, res.T.x, res.T.y);
    Vec3 fdamp = {0.0, 0.0, 0.0};
    double dwd = 0.0;
    if (advance) {
      fdamp = dashpot_force(dashpots, du, n, res.P, overlap, m_eff, dt);
      if (limits.act_on(has_tangential_dashpot(dashpots)))
        limit_dashpot_force(limits, mat.mu, res.P, T, n, fdamp);
      rec[L::fdamp_x] = fdamp.x;
      rec[L::fdamp_x + 1] = fdamp.y;
      rec[L::fdamp_x + 2] = fdamp.z;
      dwd = dot(fdamp, du);
      rec[L::dampwork] += dwd;
    } else if (rec) {    // a run's setup: the last step's dashpot force again
      fdamp = {rec[L::fdamp_x], rec[L::fdamp_x + 1], rec[L::fdamp_x + 2]};
    }
    return {-res.P * n + T + fdamp, dwd};
  }

  // whether a contact's tangential force is at the friction limit (within a relative 1e-9)
  DEMC_FN bool at_friction_limit(const Material &mat, const StepResult &res)
  {
    const double limit = mat.mu * res.P * (1.0 - 1e-9);
    return mat.mu * res.P > 0.0 && res.T.x * res.T.x + res.T.y * res.T.y >= limit * limit;
  }

  /* 5. Parting: the step to an open contact (overlap <= 0) clears the history and returns the
     work done while its springs leave the contact. */
  template <class L>
  DEMC_FN double parting_work(const Material &mat, double *rec, Stack &st, const Vec3 &n,
                              double twirl, const Vec3 &du, double overlap, double beta, bool work)
  {
    const frame::Quat q = frame::update(frame::load(rec + L::qw), n, twirl);
    return step(mat, st, overlap, step_shift(q, du, n, overlap, false), beta, work, -1.0, 0.0,
                record_spent<L>(rec))
        .work;
  }

}    // namespace jaeger
}    // namespace demc

#endif
