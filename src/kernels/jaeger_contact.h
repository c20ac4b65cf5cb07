/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: Jäger's exact Hertz–Mindlin–Deresiewicz contact with an
   equivalent load history (M. R. Kuhn, "Implementation of the Jäger contact
   model for discrete element simulations"; the algorithm as stated in
   design note jaeger-algorithm.md, derived from the method of dimensionality
   reduction, MDR).

   Physics in one paragraph (MDR). A row of independent springs at radius
   x in [0, a], a = sqrt(R z). Spring x touches while z > x^2/R, enters with zero
   tangential displacement u(x), and is elastic-perfectly-plastic with the
   circular yield |u(x)| <= mu kappa (z - x^2/R). T = 2 G* integral u dx.
   The state is a polyline s*(z) (the equivalent history): every touching spring
   has u(x) = s - s*(x^2/R), and the force is T = (1/kappa) sum m_i dP*_i.
   For collinear paths this is exact for any step size; for paths turning in
   the contact plane the alignment of each new slip annulus with one direction
   is Jäger's approximation.

   ---------------------------------------------------------------- API
   Everything is in namespace demc::jaeger, header-only, DEMC_FN.
     material(Estar, Gstar, R, mu); with_radius(mat, R); make_material(E1,nu1,R1, E2,nu2,R2, mu);
     kappa(mat); cone_slope(mat) = mu kappa;
     hertz_force(mat, z); normal_stiffness(mat, z); normal_energy(mat, z)
                                                        (jaeger_hertz.h)
     Point{z, P, tx, ty}; Stack{pts, n, capacity}; check_invariants(mat, st)
                                                        (jaeger_stack.h)
     StepResult step(mat, st, z_new, ds, beta[, work, stored])  (this file)
     double stored_energy(mat, st[, carried])           (this file)
     Vec2 fresh_contact_shift(z_old, z_new, ds)         (this file)

   Per-contact state the caller stores: the stack only -- n (an int) and
   n points of 4 doubles. The current overlap, normal force and tangential force
   are the top point; there is no other state (no shift s: the kernel needs
   shifts only relative to the top). For the dissipation, the caller may also
   accumulate the work increments (1 double), and to carry U_t, 1 more. The contact
   frame (contact_frame.h) is 4 more doubles.

   step(mat, st, z_new, ds, beta) advances the contact by one movement applied
   proportionally: from the current overlap (top point, 0 if n = 0) to z_new, and
   by the tangential shift increment ds (a 2-vector in the contact frame).
   Returns the new tangential force T (contact frame), normal force P, the
   tangential work increment and the number of merges done.
     - Capacity. Each step pushes at most one point net. The growable caller
       (CPU arena) guarantees capacity >= n + 1 before calling; then no merge is
       forced. If the stack is full when a push is due (the fixed-capacity
       Kokkos slot, history/max), the kernel first merges the adjacent elastic
       pair whose slopes differ least (force unchanged) -- see make_room --
       and counts it in merges. capacity >= 1 is required.
     - beta in [0, 2]: the memory approximation; after an elastic push the top
       two elastic segments are merged while their slopes differ by no more than
       beta mu kappa (force unchanged). beta = 0: exact.
     - Work increment integral T.ds over the step, summed spring by spring in
       the MDR picture (jaeger_work.h): each spring sticks until it reaches its
       yield circle, then slides. For collinear paths this is the exact history
       of every spring, so the work is exact for any step size (closed form for
       elastic pushes and for the top segment; 3-point Gauss in x per deeper
       history segment, exact for the polynomial integrands). In the plane it
       is the kernel's model of the path within the step (slides along the
       step's slip direction).
       Cost O(segments popped or dropped), like the step.
       Friction dissipation = (accumulated work) - stored_energy(mat, st).
     - Stored energy carried: with work = true and stored = U_t before the step (>= 0; from
       stored_energy() or the last step's StepResult::stored), StepResult::stored is U_t after
       it, at the cost of about one history segment's energy per step instead of a walk over
       the history (stored_energy(), O(n)) whenever U_t is needed. Equal to that walk to
       rounding; merges in the step take it from the walk. stored = -1 (the default): not
       carried, StepResult::stored = -1, nothing else changes.
       work = false skips it (the work returned is 0; the stack and force are the
       same): the integral is about a quarter of a step's cost where contacts slip.
     - Fresh contact: if the contact was open at the start of the step (n = 0),
       pass ds = fresh_contact_shift(z_old, z_new, ds_step), the part of the
       movement after first touch. A step to z_new <= 0 clears the history and
       returns the work done while the springs left the contact: call it on the
       step the pair parts, to keep the work account complete.
   stored_energy(mat, st): the elastic energy of the tangential spring field,
   U_t = G* integral_0^a |u(x)|^2 dx, in closed form from the polyline, O(n).
   (Check of the prefactor: uniform u = s gives T = 2 G* a s and U = G* a s^2
   = T s / 2.)

   ---------------------------------------------------------------- step
   K = mu kappa. h(z) = K (z' - z) - |s' - s*(z)| is non-increasing in z because
   every segment is inside the cone; the apex z* of the new slip annulus is its
   crossing of 0.
   1. z' <= 0: the contact opened; clear the stack (n = 0).
   2. dz >= 0 and |ds| <= K dz (h >= 0 at the top): elastic, push (z', slope ds/dz).
   3. Otherwise:
      a. unloading (dz < 0): drop the stack above z', cutting the segment that
         holds z'; r = s' - s*(z') collects ds and the shift of the dropped part.
         |r| = 0 to rounding: no slip, done (the degenerate case, no division).
      b. walk down: in segment k with t = z_k - z, solve
         |r + m_k t| = K (z' - z_k + t), the unique root t >= 0 of a quadratic
         (the "smallest root" of the note); no root in the segment: pop it.
      c. cut the segment at z*, push the slip segment (z', slope K e),
         e = (s' - s*(z*)) / |s' - s*(z*)|.
      d. no crossing above 0: full sliding, the stack is one slip segment from
         the origin, T = mu P e.
------------------------------------------------------------------------- */

#ifndef DEMC_JAEGER_CONTACT_H
#define DEMC_JAEGER_CONTACT_H

#include "jaeger_stack.h"
#include "jaeger_work.h"

namespace demc {
namespace jaeger {

  // StepResult::kind: what the step did.
  enum StepKind : int {
    STEP_NONE = 0,         // no movement
    STEP_SEPARATED = 1,    // z' <= 0: history cleared
    STEP_ELASTIC = 2,      // elastic push, no slip anywhere
    STEP_UNLOAD = 3,       // unloading without slip (r = 0): the stack was only cut
    STEP_SLIP = 4,         // an outer annulus slipped, apex inside the history
    STEP_SLIDING = 5       // full sliding, T = mu P e
  };

  struct StepResult {
    Vec2 T;           // tangential force, contact frame
    double P;         // normal force
    double work;      // tangential work increment integral T.ds over the step
    int merges;       // history points removed by merging in this step
    int kind;         // a StepKind
    double stored;    // U_t after the step if carried (see step()), else -1
    int pruned;       // history points removed by the pruning rule in this step
  };

  /* U_t = G* integral_0^a |u(x)|^2 dx with u(x) = s - s*(x^2/R). On segment k,
     u = d_k + m_k w with d_k = s - s*(z_k) (0 at the top) and
     w = z_k - x^2/R = (a_k^2 - x^2)/R, so the integral is closed form:
       int dx = D,  int w dx = D^2 (2a + b) / (3R),
       int w^2 dx = D^3 (4a^2/3 - a D + D^2/5) / R^2,
     a = a_k, b = a_(k-1), D = a - b = R dz / (a + b): positive terms only. A segment's b is
     the next one's a: one square root per segment. O(n): with work = true the step carries
     U_t (StepResult::stored), and callers need this walk only without it, after merges, and
     to start from a history whose U_t they do not know. */
  DEMC_FN double stored_energy(const Material &mat, const Stack &st)
  {
    double U = 0.0;
    Vec2 d = {0.0, 0.0};
    const double inv_R = 1.0 / mat.R;
    double a = st.n > 0 ? contact_radius(mat, st.pts[st.n - 1].z) : 0.0;
    for (int k = st.n - 1; k >= 0; --k) {
      const Point hi = st.pts[k], lo = point_below(st, k);
      const Vec2 m = segment_slope(mat, lo, hi);
      const double b = contact_radius(mat, lo.z);
      U += detail::segment_energy(inv_R, d, m, a, b, hi.z - lo.z);
      d = d + (hi.z - lo.z) * m;
      a = b;
    }
    return mat.Gstar * U;
  }

  // U_t of a history whose caller carries it: the carried value where known (>= 0), else the walk
  DEMC_FN double stored_energy(const Material &mat, const Stack &st, double carried)
  {
    return carried >= 0.0 ? carried : stored_energy(mat, st);
  }

  /* What the pruning rule has spent of a contact's error budget (5 doubles the caller keeps
     with the history; zero for a new contact): `force`, a bound on how far every later
     tangential force may lie from the one of the unpruned history along collinear movements
     (not on turning paths: prune_points()), and `shift`, a bound on how far any spring's
     displacement may lie from its unpruned one there, both summed over the removals
     since the contact last opened and lowered where a full slide brings the two fields together
     (see prune_points() and full_slide_restores()); `load`, the largest normal force at which
     the rule removed points since then, the scale of the budget; `sealed`, 0 or the overlap z* of
     a point up to which (itself included) the last search found every removal too dear, while
     the budget has not grown since (first_unsealed()); `next`, the history length at which the
     next search is due (prune_below_top()). */
  struct PruneSpent {
    double force, shift, load, sealed, next;
  };

  /* The pruning tolerance of the styles' default (keyword prune): along collinear movements a
     contact's removals together never move a later force by more than 1e-2 mu P_r (P_r: the
     largest normal force at which the rule removed points since the contact opened). Reversals
     at rising load each cost about their amplitude times the load's relative rise, so a long
     loading's history outgrows a smaller budget; the examples' curves stay within their
     run-to-run noise of prune 0 at this one. */
  constexpr double kDefaultPrune = 1e-2;
  /* The rule prunes a history once it is longer than kPruneLength + kPruneSlack points, back to
     kPruneLength: shorter histories cost little memory, and the search costs O(length), paid
     once per kPruneSlack points of growth. No removal spends more than kPruneShare of what is
     left of the budget: it then lasts for the many cheap removals of long loadings (in steady
     shear their costs span eight decades) instead of going to the first dear ones. */
  constexpr int kPruneLength = 64, kPruneSlack = 8;
  constexpr double kPruneShare = 1.0 / 256.0;

  namespace detail {

    /* Pruning: the effect of removing point k (mid, between lo = point k-1 and hi = point k+1) on
       every later force. Removing it joins its two segments into their force-space chord
       lo -> hi: the stored forces, the current one included, stay, but the spring field u(x)
       moves, by du(g) for the springs g = x^2/R in [z_lo, z_hi] (piecewise linear in g: 0 at hi,
       du_mid at z_mid, du_lo at z_lo) and by du_lo for every spring below z_lo (the shift from
       hi to them); the springs above hi keep theirs. Elastic-perfectly-plastic springs with a
       convex yield circle, driven by the same movement, never move further apart (the return to
       the circle is a projection; springs that leave re-enter at zero in both), so along
       collinear movements (where the kernel is that spring field) no later force of the contact
       can differ by more than the field's L1 distance 2 G* integral |du| dx <=
       2 G* [|du_mid| (a_hi - a_mid) + max(|du_mid|, |du_lo|) (a_mid - a_lo) + |du_lo| a_lo]:
       the `bound`, and no spring by more than `sup` = max(|du_mid|, |du_lo|). For a reversal of
       tangential amplitude dT the bound is of order (dT / mu P)^2 mu P: decaying vibrations
       leave points of ever smaller effect. */
    struct Removal {
      double bound;                // largest effect on any later tangential force
      double sup;                  // largest shift of any spring
      Vec2 m_lo, m_hi, m_chord;    // slopes of the two segments and of their chord
      Vec2 d_mid, d_lo, du_lo;     // s - s*(z) at mid and lo (from hi), the shift below lo
      double dz_lo, dz_hi, a_hi, a_mid, a_lo;
    };

    // x in [low, 1 / low] (false for NaN)
    DEMC_FN bool in_range(double x, double low)
    {
      return x >= low && x <= 1.0 / low;
    }

    /* Whether the computed `bound` surely exceeds `budget`: a lower bound without square roots
       or slopes, for the common case of a point that stays. Differences of lo, mid, hi in units
       of the top (zeta = dz / z_hi, p = dP / P_hi, t = dT / P_hi): segments a = lo-mid,
       b = mid-hi, c = lo-hi, exact slopes m = kappa t / p. With xi = t_b p_a - t_a p_b the
       chord's slope is m_c - m_b = -kappa xi / (p_b p_c), so |du_mid| = z_hi zeta_b kappa |xi|
       / (p_b p_c); the bound's first two terms are at least 2 G* |du_mid| (a_hi - a_lo) >=
       G* R dz_c |du_mid| / a_hi. Rounding: where both segments lie inside the cone to
       rho = 2^-36 (|t| <= mu p (1 + rho); read_slope() clips by no more), the computed du_mid
       is within 1e-10 K dz_b of the exact one (which lowers the bound by at most
       2 G* a_hi dz_b 1e-10 K), the radius differences and the sums lose under 20 eps, and where
       |xi| >= 2^-46 mu p_a p_b the computed xi is within 16 % of the exact one. So, with
       g = G* a_hi z_hi / P_hi and b = budget / P_hi, the computed bound exceeds the budget where
         0.69 (kappa zeta_b zeta_c |xi| g)^2 > 2 p_b^2 p_c^2 (b^2 + 4 zeta_b^2 (1e-10 K)^2 g^2),
       with xi as computed (and (x + y)^2 <= 2 x^2 + 2 y^2); the code takes 0.25 for 0.345 (its
       own rounding), and g^2 = G*^2 R z_hi^3 / P_hi^2 needs no square root. The operand ranges are
       checked so that no product overflows or falls below the normal range; outside them, and
       for a slope at the cone beyond rho, the test says nothing. */
    DEMC_FN bool removal_exceeds_surely(const Material &mat, const Point &lo, const Point &mid,
                                        const Point &hi, double budget)
    {
      constexpr double kCone = 1.0 + 0x1p-35, kXiFloor = 0x1p-92, kLow = 0x1p-100;
      const double inv_z = 1.0 / hi.z, inv_P = 1.0 / hi.P;
      const double zb = (hi.z - mid.z) * inv_z, zc = (hi.z - lo.z) * inv_z;
      const double pa = (mid.P - lo.P) * inv_P, pb = (hi.P - mid.P) * inv_P;
      const double pc = (hi.P - lo.P) * inv_P, gP = mat.Gstar * inv_P;
      if (!(mid.z > lo.z && zb > 0.0 && zc <= 1.5 && pa >= 0x1p-200 && pb >= 0x1p-200 &&
            pc <= 1.5 && in_range(mat.mu, 0x1p-50) && in_range(kappa(mat), kLow) &&
            in_range(gP, kLow) && in_range(mat.R, kLow) && in_range(hi.z, kLow)))
        return false;
      const Vec2 ta = inv_P * (force_of(mid) - force_of(lo));
      const Vec2 tb = inv_P * (force_of(hi) - force_of(mid));
      const double mu2 = mat.mu * mat.mu;
      if (!(dot(ta, ta) <= kCone * mu2 * (pa * pa) && dot(tb, tb) <= kCone * mu2 * (pb * pb)))
        return false;
      const Vec2 xi = pa * tb - pb * ta;
      const double q_xi = dot(xi, xi);
      if (!(q_xi >= kXiFloor * mu2 * (pa * pb) * (pa * pb))) return false;
      const double g2 = gP * gP * (mat.R * hi.z * hi.z * hi.z);
      const double S = 1e-10 * cone_slope(mat), b = budget * inv_P;
      const double lhs = 0.25 * kappa(mat) * kappa(mat) * g2 * (zb * zb) * (zc * zc) * q_xi;
      const double rhs = (pb * pb) * (pc * pc) * (b * b + 4.0 * (zb * zb) * (S * S) * g2);
      return lhs >= 0x1p-800 && lhs > rhs;
    }

    /* Whether removing point k (0 <= k <= n-2) changes no later force by more than `budget`
       (r.bound <= budget); r is complete only then. Most tests in a long history keep the point,
       so the bound is taken in stages: removal_exceeds_surely() first (not in GPU code, where
       its live values cost the pair loop spills), then the springs below lo,
       2 G* |du_lo| a_lo (the three slopes, two square roots), and where that term alone exceeds
       the budget the point stays without the rest. The decision is the full bound's to the last
       bit: its terms are non-negative and rounding is monotone, so the computed sum is never
       below the computed term. */
    DEMC_FN bool removal_fits(const Material &mat, const Stack &st, int k, double budget,
                              Removal &r)
    {
      const Point lo = point_below(st, k), mid = st.pts[k], hi = st.pts[k + 1];
      if (!DEMC_GPU_CODE && removal_exceeds_surely(mat, lo, mid, hi, budget)) return false;
      r.m_lo = segment_slope(mat, lo, mid);
      r.m_hi = segment_slope(mat, mid, hi);
      r.m_chord = segment_slope(mat, lo, hi);
      r.dz_lo = mid.z - lo.z;
      r.dz_hi = hi.z - mid.z;
      r.d_mid = r.dz_hi * r.m_hi;
      r.d_lo = r.d_mid + r.dz_lo * r.m_lo;
      r.du_lo = (r.dz_lo + r.dz_hi) * r.m_chord - r.d_lo;
      r.a_lo = contact_radius(mat, lo.z);
      const double two_G = 2.0 * mat.Gstar, l_lo = length(r.du_lo);
      if (!(two_G * (l_lo * r.a_lo) <= budget)) return false;
      const Vec2 du_mid = r.dz_hi * r.m_chord - r.d_mid;
      const double inv_R = 1.0 / mat.R;
      r.a_hi = contact_radius(mat, hi.z);
      r.a_mid = contact_radius(mat, mid.z);
      const double w_hi = radius_difference(inv_R, r.a_hi, r.a_mid, r.dz_hi);
      const double w_lo = radius_difference(inv_R, r.a_mid, r.a_lo, r.dz_lo);
      const double l_mid = length(du_mid);
      r.bound = two_G * (l_mid * w_hi + max2(l_mid, l_lo) * w_lo + l_lo * r.a_lo);
      r.sup = max2(l_mid, l_lo);
      return r.bound <= budget;
    }

    /* The cheapest removals of one pass over the history, at most kPruneSlack + 1 (enough to go
       back to kPruneLength from one push past the rule's length), no two of them adjacent:
       removing point k changes the spring field by du_k, which depends only on points k-1, k,
       k+1, so the costs of removals that share no point add (the changes add; triangle
       inequality), whatever their order. Sorted by cost, cheapest first. */
    struct Candidates {
      static constexpr int kMax = kPruneSlack + 1;
      int n = 0;
      int k[kMax];
      double cost[kMax], sup[kMax];

      DEMC_FN void drop(int i)
      {
        for (; i + 1 < n; ++i) {
          k[i] = k[i + 1];
          cost[i] = cost[i + 1];
          sup[i] = sup[i + 1];
        }
        --n;
      }
      DEMC_FN void insert(int point, const Removal &r)
      {
        int i = n < kMax ? n++ : kMax - 1;
        for (; i > 0 && cost[i - 1] > r.bound; --i) {
          k[i] = k[i - 1];
          cost[i] = cost[i - 1];
          sup[i] = sup[i - 1];
        }
        k[i] = point;
        cost[i] = r.bound;
        sup[i] = r.sup;
      }
      // the cost a candidate must stay within to enter
      DEMC_FN double entry(double budget) const
      {
        return n < kMax ? budget : min2(budget, cost[n - 1]);
      }
    };

    /* One pass from the top down (a point's upper neighbour, k + 1, is the only one seen before
       it): each point whose removal costs less than the candidates' dearest (and the budget)
       enters, unless its upper neighbour is a cheaper candidate; a dearer one it replaces.
       removal_fits() keeps a point as soon as a lower bound of its cost exceeds the entry, most
       often without a square root. */
    DEMC_FN void cheapest_removals(const Material &mat, const Stack &st, double budget,
                                   Candidates &c, int from)
    {
      Removal r;
      for (int k = st.n - 2; k >= from; --k) {
        if (!removal_fits(mat, st, k, c.entry(budget), r)) continue;
        int above = -1;
        for (int i = 0; i < c.n; ++i)
          if (c.k[i] == k + 1) above = i;
        if (above >= 0) {
          if (!(r.bound < c.cost[above])) continue;
          c.drop(above);
        }
        c.insert(k, r);
      }
    }

    /* Where a search starts: the point the last search sealed (PruneSpent.sealed, its overlap;
       0: none), if it is still found at its place, n - 3 of that search's n points (next -
       kPruneSlack - 3), else 0. A removal's cost depends on the point and its two neighbours
       only; between searches a history grows at the top, is cut from the top down or merges its
       top segments, which leave the points below the sealed one and their costs as they were,
       while a merge of a full history (history/max) below it moves the sealed point down the
       indices, and a cut below it removes it. So where it is found, every point below it keeps
       the cost the last search found too dear; the point itself is looked at again (its upper
       neighbour may be new). Skipping a point never weakens the bound: it can only leave a
       removable point in place. */
    DEMC_FN int first_unsealed(const Stack &st, const PruneSpent &spent)
    {
      const int k = static_cast<int>(spent.next) - kPruneSlack - 3;
      return spent.sealed > 0.0 && k >= 0 && k < st.n && st.pts[k].z == spent.sealed ? k : 0;
    }

    /* The pruning rule, after a push onto a history longer than kPruneLength + kPruneSlack
       points: remove the points whose removals cost the least (their bounds; one pass,
       cheapest_removals()), down to kPruneLength points, while each removal costs at most
       kPruneShare of what is left of the budget prune mu P_r (P_r, spent.load: the largest normal
       force at a removal since the contact opened, this one's included; a budget relative to the
       current force, once spent at a larger load, would forbid every removal after the load fell,
       and the history would grow without bound). Each removal adds its bound to spent.force and
       its largest spring shift to spent.shift. Any interior point may go, so the chains of nested
       reversals that a decaying vibration under load leaves lose their smallest, whose bounds
       fall geometrically with the amplitude: their sum stays within the budget. Whole-run bound,
       collinear movements: the removals' field distances add (triangle inequality) and never
       grow afterwards (the springs' projection), so at every later step the force lies within
       spent.force of the unpruned history's, and the rule keeps spent.force within prune mu P_r.
       Turning paths have no such bound: a partial slip gives the annulus its apex spring's
       direction, whose apex depth can be ill-conditioned, so one step can turn a difference delta
       of the fields into O(sqrt(delta)) of the forces (test
       JaegerPrune.PlanarSlipStepIsNotLipschitz). U_t is then taken from the whole history.
       Returns the number removed. */
    DEMC_FN int prune_points(const Material &mat, Stack &st, double prune, PruneSpent &spent,
                             StepResult &res)
    {
      const double P = top_point(st).P, load = max2(spent.load, P), limit = prune * mat.mu * load;
      // (a load above the budget's own makes the budget larger: every point is looked at again)
      const int from = P > spent.load ? 0 : first_unsealed(st, spent);
      Candidates c;
      cheapest_removals(mat, st, kPruneShare * (limit - spent.force), c, from);
      // the cheapest first, as many as the budget's share holds and the rule's length asks for
      int take = 0;
      while (take < c.n && st.n - take > kPruneLength &&
             c.cost[take] <= kPruneShare * (limit - spent.force)) {
        spent.force += c.cost[take];
        spent.shift += c.sup[take];
        ++take;
      }
      // (from the highest point down, so that the lower ones keep their indices)
      for (int done = 0; done < take; ++done) {
        int highest = 0;
        for (int i = 1; i < take; ++i)
          if (c.k[i] > c.k[highest]) highest = i;
        remove_point(st, c.k[highest]);
        c.k[highest] = -1;
      }
      if (take > 0) spent.load = load;
      /* a search that removes nothing seals the history up to the point below the top's
         neighbour (the top may be moved in place by the next push); the next search, after
         kPruneSlack more pushes, looks at the points above it only: O(kPruneSlack), not O(n), in
         a history that must grow until its removals are cheap */
      spent.sealed = take == 0 ? st.pts[st.n - 3].z : 0.0;    // (st.n > kPruneLength here)
      if (take > 0 && res.stored >= 0.0) res.stored = stored_energy(mat, st);
      return take;
    }
    /* After a push: a history longer than kPruneLength + kPruneSlack points is searched once it
       has grown by kPruneSlack points since the last search left it (or since it was cut below
       that): a search that removes only what the budget's share allows, or nothing, leaves the
       history long, and searching it again at every push would cost O(n) a push. No spent budget
       to keep (spent null): no pruning, as no whole-run bound could be kept. */
    DEMC_FN_FLAT int prune_below_top(const Material &mat, Stack &st, double prune,
                                     PruneSpent *spent, StepResult &res)
    {
      if (!(prune > 0.0) || !spent) return 0;
      spent->next = min2(spent->next, static_cast<double>(st.n + kPruneSlack));
      if (!(st.n > kPruneLength + kPruneSlack && st.n >= spent->next)) return 0;
      const int removed = prune_points(mat, st, prune, *spent, res);
      spent->next = st.n + kPruneSlack;
      return removed;
    }

    /* A full slide (no apex above the origin: every spring slides) lowers what the pruning has
       spent. v = s' - s*(0) is the pruned field's displacement of the centre spring before the
       return, whose overshoot |v| - K z' beyond its yield circle is the smallest of all springs
       (h(z) = K (z' - z) - |s' - s*(z)| does not increase with z). Where it exceeds spent.shift,
       every spring of the unpruned field, within spent.shift of the pruned one, lies beyond its
       circle too: both slide fully, to u = K (z' - g) e with e = v / |v| in each. Their fields
       then differ only by the directions, |e - e_0| <= 2 |v - v_0| / (|v| + |v_0|)
       (Dunkl-Williams) <= 2 D / (2 |v| - D), D = spent.shift: the forces by mu P' times that, the
       springs by K z' times that (collinear paths: 0, as e = e_0; the bound keeps the general
       value). */
    DEMC_FN void full_slide_restores(const Material &mat, double z1, double P1, const Vec2 &v,
                                     PruneSpent &spent)
    {
      const double D = spent.shift, lv = length(v), K = cone_slope(mat);
      if (!(D > 0.0) || !(lv - K * z1 > D)) return;
      const double eps = min2(2.0, 2.0 * D / (2.0 * lv - D));
      spent.force = min2(spent.force, mat.mu * P1 * eps);
      spent.shift = min2(spent.shift, K * z1 * eps);
      spent.sealed = 0.0;    // the budget may have grown: every point is looked at again
    }

    constexpr double kHuge = 1.7976931348623157e308;

    /* The first t >= 0 at which h(t) = K (c + t) - |r + m t| reaches 0, given
       h(0) < 0: the root of the quadratic (K(c+t))^2 - |r + m t|^2 = 0,
       A t^2 + B t + C with A = K^2 - |m|^2 >= 0 and C < 0. Written in the
       cancellation-free form for either sign of B. No root: kHuge. A slightly
       negative A (rounding) is covered too: the smaller positive root. */
    DEMC_FN double slip_crossing(const Vec2 &r, const Slope &slope, double c, double K)
    {
      const Vec2 m = slope.m;
      const double lr = length(r), lm = slope.len;
      const double C = (K * c - lr) * (K * c + lr);
      if (C >= 0.0) return 0.0;    // h(0) >= 0 to rounding: the crossing is here
      const double A = (K - lm) * (K + lm);
      const double B = 2.0 * (K * K * c - dot(r, m));
      if (B > 0.0) {
        const double D = B * B - 4.0 * A * C;
        if (D < 0.0) return kHuge;
        return -2.0 * C / (B + math::sqrt(D));
      }
      if (A > 0.0) return (-B + math::sqrt(B * B - 4.0 * A * C)) / (2.0 * A);
      return kHuge;
    }

    DEMC_FN void push_point(const Material &mat, Stack &st, const Point &p, StepResult &res)
    {
      // (make_room()'s own test first, inline: a full stack is rare)
      if (st.n >= st.capacity && st.n > 0) res.merges += make_room(mat, st, p);
      if (st.n < st.capacity) st.pts[st.n++] = p;
    }

    /* A merge (beta, or a full stack) moves the springs below it (the approximation), and so
       does an unload that drops a nonzero r within its rounding allowance (3e in step()): U_t
       is then taken from the whole history. (Found by fuzz_jaeger: after a tangential step of
       2e-15 of the overlap, an unload dropped r = 7e-22 against r_tol = 8e-22; the U_t
       carried past it kept that displacement's energy, 1.4e-13 of U_t, the history not.) */
    DEMC_FN void take_stored_where_springs_moved(const Material &mat, const Stack &st,
                                                 StepResult &res, bool dropped_r = false)
    {
      if ((res.merges > 0 || dropped_r) && res.stored >= 0.0) res.stored = stored_energy(mat, st);
    }

    /* Work integral T.ds of an elastic push: no spring slips, the force follows
       the new segment of slope m = ds/dz, T(z) = T0 + (m/kappa)(P(z) - P(z0)). */
    DEMC_FN double elastic_work(const Material &mat, const Vec2 &T0, const Vec2 &ds, double z0,
                                double z1)
    {
      const double dz = z1 - z0;
      return dot(T0, ds) +
          dot(ds, ds) / (kappa(mat) * dz * dz) * hertz_excess_integral(mat, z0, z1);
    }

    /* Step 2: elastic push of (z1, slope ds/dz), then the beta merge. No spring slips: U_t grows
       by the work (carry: step() carries U_t, `stored` before the step). */
    DEMC_FN StepResult elastic_push(const Material &mat, Stack &st, double z1, double P1,
                                    const Vec2 &ds, double beta, bool work, bool carry,
                                    double stored, double prune, PruneSpent *spent)
    {
      const Point top = top_point(st);
      const double W = work ? elastic_work(mat, force_of(top), ds, top.z, z1) : 0.0;
      StepResult res = {force_of(top), P1, W, 0, STEP_ELASTIC, carried_after(carry, stored + W), 0};
      if (st.n > 0 && !(P1 > top.P)) {
        // dz so small that P does not change in double precision: a new point would
        // have no force increment to read its slope from. Extend the top instead.
        st.pts[st.n - 1].z = z1;
        res.P = top.P;
        return res;
      }
      const Vec2 T1 = force_of(top) + ((P1 - top.P) / (kappa(mat) * (z1 - top.z))) * ds;
      push_point(mat, st, {z1, P1, T1.x, T1.y}, res);
      res.merges += merge_similar_top(mat, st, beta);
      take_stored_where_springs_moved(mat, st, res);
      res.pruned = prune_below_top(mat, st, prune, spent, res);
      res.T = T1;
      return res;
    }

    /* Step 3a, unloading to z1 < z(top): find the segment k_top holding z1 and the
       new top there (a stored point, or the cut point), and r = s' - s*(z1): ds
       plus the shift carried by the dropped part. r_tol is the rounding
       allowance of r (the slopes are read back from differences). s_top, s_cut: the slopes
       of the top segment and of segment k_top, which the walk on needs again. */
    DEMC_FN Vec2 locate_cut(const Material &mat, const Stack &st, double z1, double P1,
                            const Vec2 &ds, int &k_top, Point &top, double &r_tol, Slope &s_top,
                            Slope &s_cut)
    {
      Vec2 r = ds;
      r_tol = 4.0 * kEps * (math::fabs(ds.x) + math::fabs(ds.y));
      for (int k = st.n - 1;; --k) {
        const Point hi = st.pts[k], lo = point_below(st, k);
        const Slope s = read_slope(mat, lo, hi);
        if (k == st.n - 1) s_top = s;
        s_cut = s;
        const double dropped = hi.z - max2(lo.z, z1);
        r = r + dropped * s.m;
        r_tol += dropped * (segment_slope_error(mat, lo, hi) + 4.0 * kEps * s.len);
        if (lo.z < z1) {
          k_top = k;
          top = (hi.z == z1) ? hi : point_on_segment(lo, hi, z1, P1);
          return r;
        }
      }
    }

    /* Steps 3b-3d without touching the stack: walk down from the top (segment
       k_top, upper end `top` at overlap z1 - c, r = s' - s*(top)) to the apex; first: the
       slope of segment k_top where the caller has read it, m_top: the top segment's where
       the caller has read it. The plan keeps the slopes of the top segment and of the apex's
       for the work integral. DEMC_FN_FLAT:
       with slip_step_work() in two forms, GCC kept more of it behind a call. */
    DEMC_FN_FLAT Plan find_apex(const Material &mat, const Stack &st, int k_top, const Point &top,
                                Vec2 r, double c, const Slope *first = nullptr,
                                const Vec2 *m_top = nullptr)
    {
      const double K = cone_slope(mat);
      // (member by member: the slip direction is set_slip_direction()'s, the slopes are read
      // only where their index is set)
      Plan p;
      p.k_top = k_top;
      p.top = top;
      p.k = -1;
      p.apex = origin_point();
      p.v = r;
      if (m_top) {
        p.k_m1 = st.n - 1;
        p.m1 = *m_top;
      }
      Point hi = top;
      for (int k = k_top; k >= 0; --k) {
        const Point lo = point_below(st, k);
        const Slope slope = (first && k == k_top) ? *first : read_slope(mat, lo, st.pts[k]);
        const Vec2 m = slope.m;
        if (k == st.n - 1) {
          p.k_m1 = k;
          p.m1 = m;
        }
        const double t = slip_crossing(r, slope, c, K), L = hi.z - lo.z;
        if (t < L && hi.z - t > lo.z) {    // the apex is in this segment (or at its top)
          p.k = k;
          p.k_m2 = k;
          p.m2 = m;
          p.apex = hi;
          p.v = r;
          if (t > 0.0) {
            const double z_apex = hi.z - t;
            p.apex = point_on_segment(lo, hi, z_apex, hertz_force(mat, z_apex));
            p.v = r + t * m;
          }
          return p;
        }
        r = r + L * m;    // the whole segment slips: it will be popped
        c += L;
        hi = lo;
      }
      p.v = r;    // no crossing above the origin: full sliding
      return p;
    }

    /* The plan of a step that is not elastic from the top `top` to z1 (P1 = P(z1)) by ds:
       3a-3e. dropped_r: an unload that drops a nonzero r within its rounding allowance. (One
       function that returns the plan it makes: no copy of it in step().) */
    DEMC_FN_FLAT Plan plan_slip(const Material &mat, const Stack &st, const Point &top, double z1,
                                double P1, const Vec2 &ds, bool &dropped_r)
    {
      const double dz = z1 - top.z;
      if (!(dz < 0.0)) return find_apex(mat, st, st.n - 1, top, ds, dz);
      // 3a. unloading: springs leave the contact
      int k_top = 0;
      Point cut = top;
      double r_tol = 0.0;
      Slope s_top, s_cut;
      const Vec2 r = locate_cut(mat, st, z1, P1, ds, k_top, cut, r_tol, s_top, s_cut);
      const double lr = length(r);
      if (!(lr <= r_tol)) return find_apex(mat, st, k_top, cut, r, 0.0, &s_cut, &s_top.m);
      // 3e. degenerate: r = 0 to rounding, nothing slips
      Plan p = {k_top, cut, k_top, cut, {0.0, 0.0}};
      p.k_m1 = st.n - 1;
      p.m1 = s_top.m;
      p.k_m2 = k_top;
      p.m2 = s_cut.m;
      dropped_r = lr > 0.0;
      return p;
    }

    /* Apply a plan: keep the stack up to the apex, push the slip segment. */
    DEMC_FN void apply_plan(const Material &mat, Stack &st, const Plan &p, double z1, double P1,
                            double prune, PruneSpent *spent, StepResult &res)
    {
      st.n = p.k + 1;
      if (p.k >= 0) st.pts[p.k] = p.apex;
      if (!p.slips) {    // the apex is the top: nothing slips
        res.kind = STEP_UNLOAD;
        res.T = force_of(top_point(st));
        return;
      }
      const Vec2 T1 = force_of(p.apex) + (mat.mu * (P1 - p.apex.P)) * p.e;
      push_point(mat, st, {z1, P1, T1.x, T1.y}, res);
      take_stored_where_springs_moved(mat, st, res);
      res.pruned = prune_below_top(mat, st, prune, spent, res);
      res.T = T1;
      res.kind = (p.k >= 0) ? STEP_SLIP : STEP_SLIDING;
      if (p.k < 0 && spent) full_slide_restores(mat, z1, P1, p.v, *spent);
    }

    /* Step 3, a step that is not elastic: plan, work integral, stack. One named result, built
       in step()'s return slot (built beside step()'s other results, it was copied out through a
       temporary whose narrow stores the copy's wide loads had to wait for); inline, as a call
       per step costs more than that copy did. */
    DEMC_FN_FLAT StepResult slip_step(const Material &mat, Stack &st, const Point &top,
                                      double z_new, double P1, const Vec2 &ds, bool work,
                                      bool carry, double stored, double prune, PruneSpent *spent)
    {
      bool dropped_r = false;
      Plan p = plan_slip(mat, st, top, z_new, P1, ds, dropped_r);
      set_slip_direction(p, z_new);
      StepEnergy E = {0.0, -1.0};
      if (carry)
        E = slip_step_work<true>(mat, st, top.z, z_new, ds, p, stored);
      else if (work)
        E = slip_step_work<false>(mat, st, top.z, z_new, ds, p, stored);
      StepResult res = {force_of(top), P1, E.work, 0, STEP_SLIP, E.stored, 0};
      apply_plan(mat, st, p, z_new, P1, prune, spent, res);
      if (dropped_r) take_stored_where_springs_moved(mat, st, res, dropped_r);
      return res;
    }

  }    // namespace detail

  DEMC_FN StepResult step(const Material &mat, Stack &st, double z_new, const Vec2 &ds, double beta,
                          bool work = true, double stored = -1.0, double prune = 0.0,
                          PruneSpent *spent = nullptr)
  {
    const Point top = top_point(st);
    const bool carry = detail::carried(work, stored);
    if (!(z_new > 0.0)) {    // 1. separated: every spring leaves
      const detail::Plan p = {-1, origin_point(), -1, origin_point(), {0.0, 0.0}};
      const double W = work ? detail::slip_step_work<false>(mat, st, top.z, z_new, ds, p, -1.0).work
                            : 0.0;
      st.n = 0;
      if (spent) *spent = PruneSpent{};    // every spring left: no removal remains
      return {{0.0, 0.0}, 0.0, W, 0, STEP_SEPARATED, detail::carried_after(carry, 0.0), 0};
    }
    const double dz = z_new - top.z, P1 = hertz_force(mat, z_new);
    if (dz >= 0.0 && length(ds) <= cone_slope(mat) * dz) {    // 2. elastic
      if (dz == 0.0)
        return {force_of(top), top.P, 0.0, 0, STEP_NONE, detail::carried_after(carry, stored), 0};
      return detail::elastic_push(mat, st, z_new, P1, ds, beta, work, carry, stored, prune,
                                  spent);
    }
    return detail::slip_step(mat, st, top, z_new, P1, ds, work, carry, stored, prune, spent);
  }

  /* A contact that was open at the start of the step (stack empty, previous
     overlap z_old <= 0 < z_new) touches only during the last part
     z_new / (z_new - z_old) of a proportional step; only that part of the
     tangential movement acts on it. The caller passes this to step(). */
  DEMC_FN Vec2 fresh_contact_shift(double z_old, double z_new, const Vec2 &ds)
  {
    if (!(z_old < 0.0) || !(z_new > 0.0)) return ds;
    return (z_new / (z_new - z_old)) * ds;
  }

  /* The same history under another material (pair_coeff changed E, nu or mu of a contact
     that has a history). The stack holds forces, which depend on the material; the spring
     field they stand for does not: its displacement slopes m = kappa dT/dP in (z, s) space.
     Each point is recomputed from the old slopes with the new Hertz force and kappa, so an E
     or nu change keeps the field exactly (as LAMMPS's granular styles keep their
     displacement histories) and the forces follow from it. A slope steeper than the new cone
     (a smaller mu) is first limited to it: those springs slip back to their new capacity,
     segment by segment (exact where a segment's springs all exceed it; a spring-by-spring
     return would keep more of the deeper segments' displacement). Afterwards every slope is
     inside the new cone, so is the force, and the invariants hold.
     Returns the change of the stored energy U_t that the new material makes of the field as
     it is, (G*_new / G*_old - 1) U_t: no spring moves, so it is no friction, and the callers
     count it as work done on the contact; what the springs release by slipping back to a
     smaller cone (U_t lower still after the return) is friction dissipation. */
  DEMC_FN double change_material(const Material &old_mat, const Material &new_mat, Stack &st)
  {
    const double U_old = stored_energy(old_mat, st);
    Point lo_old = origin_point(), lo_new = origin_point();
    const double K = cone_slope(new_mat);
    for (int k = 0; k < st.n; ++k) {
      const Point hi_old = st.pts[k];
      const double dP_old = hi_old.P - lo_old.P;
      Vec2 m = {0.0, 0.0};
      if (dP_old > 0.0) {
        m = (kappa(old_mat) / dP_old) * (force_of(hi_old) - force_of(lo_old));
        const double len = length(m);
        if (len > K) m = (K / len) * m;
      }
      const double P = hertz_force(new_mat, hi_old.z);
      const Vec2 T = force_of(lo_new) + ((P - lo_new.P) / kappa(new_mat)) * m;
      st.pts[k] = {hi_old.z, P, T.x, T.y};
      lo_old = hi_old;
      lo_new = st.pts[k];
    }
    return (new_mat.Gstar / old_mat.Gstar - 1.0) * U_old;
  }

}    // namespace jaeger
}    // namespace demc

#endif
