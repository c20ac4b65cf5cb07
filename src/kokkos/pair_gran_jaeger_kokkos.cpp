/* ----------------------------------------------------------------------
   dem-contact: faithful DEM contact laws for LAMMPS (plugin package)
   pair_style gran/jaeger/kk: the Kokkos variant of pair_style gran/jaeger.

   One physics: the functor below is the body of PairGranJaeger::compute()
   on views, step for step: the same geometry and movements
   (demc::sphere_contact(), what PairGranDemc::sphere_contact() calls) and
   the same contact step (demc::jaeger::contact_step(), kernels/jaeger_step.h:
   open, frame, shift, the carried U_t, demc::jaeger::step(), force with
   dashpots, parting) on a record of the same layout, the pools being its
   Store (PoolStore). What differs is where the data live (Kokkos
   views, a record of fixed size per contact) and how sums are formed (a
   parallel reduction).

   Per-contact history: a record per contact in the pools of
   FixJaegerHistoryKokkos (small records of small_capacity points, big ones of
   capacity = history/max points); the touch flag of a neighbor slot names the
   record (FixJaegerHistoryKokkos::flag_of(); 0: none). A contact opened in the
   loop takes the next small record (an atomic counter), a full small record
   whose history can still grow moves to a big one before its step
   (make_room()); a contact that finds a pool full waits, untouched, and runs
   its step alone once the pool has grown (finish_waiting(): a loop over the
   atoms with waiting pairs only), as LAMMPS's Kokkos styles redo a neighbor
   list build that ran out of room.

   Orientation. As in the CPU style, a record describes the contact with p =
   the atom of smaller ID (frame, stack, work): it is the same record whichever
   atom lists the pair, so it needs no transfer rule. The records reach the
   pools from the history fix's per-atom stores as they are.

   Which records hold a contact: one whose frame quaternion is not zero (a unit
   quaternion; a closed record's header is zeroed here). The
   touch flag (which decides what pre_exchange() saves) is set from that on
   every compute() of a touching or flagged pair; a flag of 0 means no record,
   so a pair apart with flag 0 needs no look at the pool.
------------------------------------------------------------------------- */

#include "pair_gran_jaeger_kokkos.h"

#include "contact_geometry.h"
#include "jaeger_step.h"

#include "atom_kokkos.h"
#include "atom_masks.h"
#include "error.h"
#include "fix.h"
#include "fix_jaeger_history_kokkos.h"
#include "force.h"
#include "kokkos.h"
#include "memory_kokkos.h"
#include "modify.h"
#include "neigh_list_kokkos.h"
#include "neigh_request.h"
#include "neighbor.h"
#include "update.h"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

using namespace LAMMPS_NS;
using demc::Vec3;
namespace jaeger = demc::jaeger;
namespace frame = demc::frame;

namespace {

using Rec = FixJaegerHistoryKokkos<LMPDeviceType>;
static_assert(std::is_same_v<KK_FLOAT, double>,
              "gran/jaeger/kk stores history points (4 doubles) in fix neigh/history/kk's values: "
              "it needs a LAMMPS built with double precision Kokkos floats (KOKKOS_PREC=DOUBLE)");
static_assert(sizeof(jaeger::Point) == 4 * sizeof(double), "a history point is 4 doubles");

/* ----------------------------------------------------------------------
   The pair loop: one atom i of the half list and all its neighbors j.
   Device code: only Kokkos and kernel (DEMC_FN) calls, no host-only or std::
   math, no virtual calls. NEIGHFLAG: HALF or HALFTHREAD (several threads may
   add to the same j); NEWTON_PAIR: only 0 is instantiated (see init_style());
   EVFLAG: tally energy/virial; ADVANCE: 0 at setup (forces from the stored
   history, nothing advanced), 1 during a run. L: the records' layout, the CPU
   style's (jaeger::PairRecord, or jaeger::PairResistRecord with the rolling and
   twisting resistance's slots), chosen once per loop on the host
   (jaeger::with_layout()): the resistance's code is compiled only into the loops
   whose records have its slots.
------------------------------------------------------------------------- */

struct WaitingTag {};    // the loop over the atoms with waiting pairs (finish_waiting())

template <class DeviceType, int NEIGHFLAG, int NEWTON_PAIR, int EVFLAG, int ADVANCE, class L>
struct JaegerPairLoop :
    PairGranJaegerKernelData<DeviceType>,
    DemcForceScatter<DeviceType, NEIGHFLAG> {
  typedef DeviceType device_type;
  typedef PairGranJaegerSums value_type;
  typedef PairGranJaegerKernelData<DeviceType> Data;
  enum {
    R_FORCED_RUN = Rec::R_FORCED_RUN,
    R_QW = Rec::R_QW,
    R_QX = Rec::R_QX,
    R_QY = Rec::R_QY,
    R_QZ = Rec::R_QZ,
    R_WORK = Rec::R_WORK,
    R_DAMPWORK = Rec::R_DAMPWORK,
    R_LENGTH = Rec::R_LENGTH,
    R_TYPES = Rec::R_TYPES,
    R_STORED = Rec::R_STORED,
    R_POINTS = Rec::R_POINTS
  };

  typedef DemcForceScatter<DeviceType, NEIGHFLAG> Scatter;
  explicit JaegerPairLoop(const Data &d) : Data(d), Scatter(d) {}

  // the record of a touch flag (FixJaegerHistoryKokkos), contiguous (LayoutRight rows); none: null
  KOKKOS_INLINE_FUNCTION double *record_of(int flag) const
  {
    if (flag <= 0) return nullptr;
    return Rec::names_big(flag) ? &this->big(Rec::row_of(flag), 0)
                                : &this->pool(Rec::row_of(flag), 0);
  }

  // the points a record of this flag has room for
  KOKKOS_INLINE_FUNCTION int room_of(int flag) const
  {
    return Rec::names_big(flag) ? this->capacity : this->small_capacity;
  }

  /* A full small record whose history can still grow moves to a big record before its step
     (the kernel then finds room for its push, as in the CPU arena). Returns false when the big
     records' pool is full: the pair waits, its touch flag negated (finish_waiting()). */
  KOKKOS_INLINE_FUNCTION bool make_room(double *&rec, int &flag, value_type &sums) const
  {
    const Data &d = *this;
    if (d.capacity == d.small_capacity || Rec::names_big(flag) ||
        (int) rec[R_LENGTH] < d.small_capacity)
      return true;
    int r = take_freed_row(Rec::BIG_POOL, sums);
    if (r < 0) r = Kokkos::atomic_fetch_add(&d.big_used(), 1);
    if (r >= d.big_records) {
      sums.waiting_big += 1.0;
      return false;
    }
    double *to = &d.big(r, 0);
    const int n = jaeger::record_values<L>(rec);
    for (int k = 0; k < n; k++) to[k] = rec[k];
    free_record(flag, sums);
    rec = to;
    flag = Rec::flag_of(true, r);
    return true;
  }

  /* The first compute() after an init: a history made with another material than its
     contact's now is moved to it, as PairGranJaeger::convert_histories() (params.old_mat: the
     histories' materials; E* = 0 where not known). */
  KOKKOS_INLINE_FUNCTION void convert_history(double *rec, int flag, int i, int j, int itype,
                                              value_type &sums) const
  {
    const Data &d = *this;
    const int stride = static_cast<int>(d.params.extent(0));
    const int now = jaeger::type_pair_key(itype, d.type[j], stride);
    const int before = jaeger::stored_type_pair_key(rec[R_TYPES], now, stride);
    rec[R_TYPES] = now;
    const jaeger::Material &from = d.params(before / stride, before % stride).old_mat;
    const jaeger::Material &to = d.params(now / stride, now % stride).mat;
    const double R = jaeger::effective_radius(d.radius[i], d.radius[j]);
    const double work = jaeger::move_to_material<L>(
        rec, room_of(flag), jaeger::with_radius(from, R), jaeger::with_radius(to, R));
    sums.converted += ((NEWTON_PAIR || j < d.nlocal) ? 1.0 : 0.5) * work;
  }

  // atom i has a pair that waits for a record: to the list of atoms to run again, once
  KOKKOS_INLINE_FUNCTION void note_waiting(int i) const
  {
    if (Kokkos::atomic_exchange(&this->waiting_mark(i), 1) == 0)
      this->waiting_atoms(Kokkos::atomic_fetch_add(&this->waiting_count(), 1)) = i;
  }

  KOKKOS_INLINE_FUNCTION static void close_record(double *rec)
  {
    for (int k = 0; k < R_POINTS; k++) rec[k] = 0.0;
  }

  /* A record of pool `p` (Rec::SMALL_POOL, Rec::BIG_POOL) freed in an earlier step of this
     neighbor list (FixJaegerHistoryKokkos::freed), or -1. A loop takes only rows put before
     it: those it puts lie beyond them. */
  KOKKOS_INLINE_FUNCTION int take_freed_row(int p, value_type &sums) const
  {
    const auto &ring = this->freed[p];
    if (ring.available <= 0) return -1;
    const int k = Kokkos::atomic_fetch_add(&this->freed_counts(2 * p), 1);
    if (k >= ring.available) return -1;
    sums.freed_taken[p] += 1.0;
    return ring.rows((ring.head + k) % ring.size);
  }

  // the record of touch flag `flag` (> 0), which no flag names any more, to its pool's ring
  KOKKOS_INLINE_FUNCTION void free_record(int flag, value_type &sums) const
  {
    const int p = Rec::names_big(flag) ? Rec::BIG_POOL : Rec::SMALL_POOL;
    const auto &ring = this->freed[p];
    const int k = Kokkos::atomic_fetch_add(&this->freed_counts(2 * p + 1), 1);
    ring.rows((ring.tail + k) % ring.size) = Rec::row_of(flag);
    sums.freed_put[p] += 1.0;
  }

  /* Neighbor jj of atom i: true if the pair needs the contact law, touching or holding a
     record (j and rsq are then set). A zero touch flag means no record (see the file
     header): most pairs apart are done without reading their slot, which is far from the
     flags in memory. */
  KOKKOS_INLINE_FUNCTION bool needs_contact(const DemcScannedAtom<DeviceType> &a, int jj, int &j,
                                            double &rsq, value_type &) const
  {
    const Data &d = *this;
    return demc_overlaps(d, a, jj, j, rsq) || demc_row(d.touch, a.i)(jj) != 0;
  }

  /* After the pools grew (finish_waiting()): the pairs that wait, i.e. that touch and have no
     record, or whose touch flag is negated (a full small record that waits for a big one).
     Every other contact took its record. */
  KOKKOS_INLINE_FUNCTION bool waits(const DemcScannedAtom<DeviceType> &a, int jj, int &j,
                                    double &rsq) const
  {
    const bool overlaps = demc_overlaps(*this, a, jj, j, rsq);
    const int flag = demc_row(this->touch, a.i)(jj);
    return (overlaps && flag == 0) || flag < 0;
  }

  /* The pools' record of a touch flag: the Store of demc::jaeger::contact_step(). A new
     record takes the flag's closed record, else the next free small one; a full small record
     moves to a big one (make_room()). Where a pool is full the contact waits. */
  struct PoolStore {
    const JaegerPairLoop &loop;
    value_type &sums;
    double *mem;    // the flag's record (also a closed one), null: none
    int flag;
    bool has;       // mem holds a contact
    int types;      // the type pair's key (R_TYPES)
    KOKKOS_INLINE_FUNCTION double *record() const { return has ? mem : nullptr; }
    KOKKOS_INLINE_FUNCTION double *open()
    {
      if (mem == nullptr) {
        int r = loop.take_freed_row(Rec::SMALL_POOL, sums);
        if (r < 0) r = Kokkos::atomic_fetch_add(&loop.pool_used(), 1);
        if (r >= loop.pool_records) {
          sums.waiting += 1.0;
          return nullptr;
        }
        mem = &loop.pool(r, 0);
        flag = Rec::flag_of(false, r);
      }
      mem[R_FORCED_RUN] = 0.0;
      mem[R_TYPES] = types;
      has = true;
      return mem;
    }
    KOKKOS_INLINE_FUNCTION int room(const double *) const { return loop.room_of(flag); }
    KOKKOS_INLINE_FUNCTION double *reserve(double *, int)
    {
      return loop.make_room(mem, flag, sums) ? mem : nullptr;
    }
    KOKKOS_INLINE_FUNCTION void close(double *rec)
    {
      close_record(rec);
      loop.free_record(flag, sums);
      mem = nullptr;
      has = false;
      flag = 0;
    }
  };

  /* The step of pair (i, j), neighbor jj of i, that needs_contact(): the force on i is added
     to f_i and tor_i, the reaction to j through a_f and a_torque. */
  template <class AccessF, class AccessT>
  KOKKOS_INLINE_FUNCTION void contact(int i, int jj, int j, double rsq, value_type &sums,
                                      const AccessF &a_f, const AccessT &a_torque, Vec3 &f_i,
                                      Vec3 &tor_i) const
  {
    const Data &d = *this;
    const double step_dt = ADVANCE ? d.dt : 0.0;
    const int itype = d.type[i];
    const tagint tag_i = d.tag[i];
    const Vec3 x_i = demc_vec3(d.x, i), x_j = demc_vec3(d.x, j);
    const double dx = x_j.x - x_i.x, dy = x_j.y - x_i.y, dz = x_j.z - x_i.z;
    const double rad_i = d.radius[i], rad_j = d.radius[j];
    const double radsum = rad_i + rad_j;
    const bool touching = rsq < radsum * radsum;
    const auto touch_i = demc_row(d.touch, i);
    int flag = touch_i(jj);
    if (flag < 0) flag = -flag;    // waited for a big record (make_room()): its step now
    double *rec = record_of(flag);
    const bool has = rec != nullptr && Rec::holds_contact(rec);
    if (d.convert && has) convert_history(rec, flag, i, j, itype, sums);
    // CPU: a pair apart keeps its record at setup and parts on the next step
    if (!touching && !(has && ADVANCE)) {
      touch_i(jj) = has ? flag : 0;
      return;
    }
    const int jtype = d.type[j];
    const PairGranJaegerTypeParams &c = d.params(itype, jtype);
    // with newton off a pair with a ghost is computed on two ranks: count half on each
    const double weight = (NEWTON_PAIR || j < d.nlocal) ? 1.0 : 0.5;

    // records are oriented by atom IDs (p = smaller ID): any list order, any rank, same record
    const bool i_first = tag_i < d.tag[j];
    const int p = i_first ? i : j, q = i_first ? j : i;
    const demc::SphereContact g = demc::sphere_contact(
        i_first ? x_i : x_j, i_first ? x_j : x_i, d.radius[p], d.radius[q], demc::math::sqrt(rsq),
        demc_vec3(d.v, p), demc_vec3(d.v, q), demc_vec3(d.omega, p), demc_vec3(d.omega, q), step_dt,
        false);    // the frame carries the normal: no old normal needed
    const jaeger::Material mat = jaeger::with_radius(c.mat, jaeger::effective_radius(rad_i, rad_j));
    const double m_eff = demc::needs_effective_mass(c.dashpots) ? d.effective_mass(i, j) : 0.0;

    PoolStore store{*this, sums, rec, flag, has,
                    jaeger::type_pair_key(itype, jtype, static_cast<int>(d.params.extent(0)))};
    jaeger::StepSettings s;
    s.beta = d.beta;
    s.prune = d.prune;
    s.max_length = d.capacity;    // (big records hold history/max points, or the default bound)
    s.work = d.work;
    s.carry_length = d.carry_length;
    s.dt = d.dt;
    s.advance = ADVANCE;
    // (at a run's setup the last step's dashpot force again, as the limits left it: as the CPU
    // style, R_FDAMP_X)
    // energies and counts only on energy steps, where compute pair reads them (as the CPU style)
    s.normal_energy = s.tangential_energy = d.eflag;
    const Vec3 w_rel =
        L::resist >= 0 ? demc_vec3(d.omega, q) - demc_vec3(d.omega, p) : Vec3{0.0, 0.0, 0.0};
    const jaeger::StepContact sc = {g.n, g.du, g.overlap, g.twirl, m_eff, w_rel};
    const jaeger::StepOutcome o =
        jaeger::contact_step<L>(store, mat, sc, touching, c.dashpots, this->dashpot_limits, s,
                                demc::resistance::active(c.resist) ? &c.resist : nullptr);
    if (o.wait) {    // nothing done: the pair waits for its pool to grow (finish_waiting())
      note_waiting(i);
      touch_i(jj) = store.has ? -store.flag : 0;
      return;
    }
    sums.work += weight * o.work;
    touch_i(jj) = o.rec ? store.flag : 0;
    if (o.parted) return;
    if (o.opened) sums.opened += weight;
    if (!ADVANCE && has) sums.held += weight;
    if (ADVANCE) {
      sums.merges += o.merges;
      count_forced_merges(o.rec, o.forced, weight, sums);
      sums.damping += weight * o.damping_work;
    }
    const Vec3 force = o.force;
    const double un = o.un, ut = o.ut;
    if (d.eflag) {
      sums.tangential += weight * ut;
      sums.normal += weight * un;
      sums.contacts += weight;
      if (o.sliding) sums.sliding += weight;
    }

    // force on p is `force`, q takes the reaction; torques from the contact vectors
    const Vec3 torque_axis = demc::sphere_torque_arm(g, force);
    // (and the rolling and twisting resistance's couple: o.torque on p)
    const Vec3 tor_p = g.arm_p * torque_axis + o.torque, tor_q = g.arm_q * torque_axis - o.torque;
    const Vec3 fi = i_first ? force : -force;
    f_i = f_i + fi;
    tor_i = tor_i + (i_first ? tor_p : tor_q);
    if (NEWTON_PAIR || j < d.nlocal)
      demc_add_force_torque(a_f, a_torque, j, -fi, i_first ? tor_q : tor_p);
    // energy and virial of this pair's force on i, branch vector x_i - x_j
    if (EVFLAG) demc_tally<NEIGHFLAG, NEWTON_PAIR>(d, sums, i, j, un + ut, fi, Vec3{-dx, -dy, -dz});
  }

  /* merges a step of this contact made because its history was full: counted, and the
     contact once per run (its record takes the run's stamp) */
  KOKKOS_INLINE_FUNCTION void count_forced_merges(double *rec, int forced, double weight,
                                                  value_type &sums) const
  {
    if (forced == 0) return;
    sums.forced += forced;
    sums.forced_run += weight * forced;
    if (rec[R_FORCED_RUN] != this->run_stamp) {
      rec[R_FORCED_RUN] = this->run_stamp;
      sums.forced_contacts += weight;
    }
  }

  // the first pass's requests: the partner's data and a record's header and first points
  KOKKOS_INLINE_FUNCTION void prefetch_pair(int i, int jj, int j) const
  {
    const double *rec = record_of(demc_row(this->touch, i)(jj));
    demc_prefetch(&this->type[j], false);
    demc_prefetch(&this->tag[j], false);
    if (rec)
      demc_prefetch_contact<Scatter>(*this, j, rec, jaeger::kRecordPrefetch);
    else
      demc_prefetch_contact<Scatter>(*this, j, &this->v(j, 0), 1);
  }

  /* before the second pass: the headers have arrived, ask for the histories' top points where
     the first pass did not reach them (as PairGranJaeger::prefetch_stack_tops()) */
  KOKKOS_INLINE_FUNCTION void prefetch_pending(const DemcContactBlock &pending) const
  {
    for (int k = 0; k < pending.n; k++) {
      const double *rec = record_of(demc_row(this->touch, pending.pairs[k].i)(pending.pairs[k].jj));
      if (rec)
        jaeger::ask_for_top_points<L>(rec, [](const double *p) {
          demc_prefetch(p, true);
        });
    }
  }

  // devices: an atom in one pass; host spaces: a block of atoms in two (DemcContactBlock)
  KOKKOS_INLINE_FUNCTION void operator()(const int ii, value_type &sums) const
  {
    demc_atom_in_one_pass(*this, ii, sums);
  }
  KOKKOS_INLINE_FUNCTION void operator()(DemcBlockTag, const int item, value_type &sums) const
  {
    demc_block_in_two_passes(*this, item, sums);
  }
  // after the pools grew: atom waiting_atoms(k), whose waiting pairs take their steps now
  KOKKOS_INLINE_FUNCTION void operator()(WaitingTag, const int k, value_type &sums) const
  {
    const int i = this->waiting_atoms(k);
    demc_atom_contacts(
        *this, i, sums,
        [this](const DemcScannedAtom<DeviceType> &a, int jj, int &j, double &rsq, value_type &) {
          return waits(a, jj, j, rsq);
        });
    this->waiting_mark(i) = 0;
  }
};

}    // namespace

/* ---------------------------------------------------------------------- */

template <class DeviceType>
PairGranJaegerKokkos<DeviceType>::PairGranJaegerKokkos(LAMMPS *lmp) :
    PairGranJaeger(lmp), shared(lmp, *this), fix_historyKK(nullptr)
{
  datamask_read |= RMASS_MASK | MASK_MASK;    // restitution damping's effective mass
}

/* ---------------------------------------------------------------------- */

template <class DeviceType> PairGranJaegerKokkos<DeviceType>::~PairGranJaegerKokkos()
{
  if (copymode) return;
  shared.destroy(*this);
  // ~PairGranJaeger() deletes the placeholder's ID when its own (CPU) history fix was never
  // made: hand it the Kokkos history fix under that ID (also one whose creation stopped with
  // an error in unpack_restart(): it is in the fix list, but fix_historyKK was not set)
  if (modify->get_fix_by_id(history_fix_id() + "_DUMMY") == nullptr) {
    Fix *made = modify->get_fix_by_id(history_fix_id());
    if (made) {
      delete[] made->id;
      made->id = utils::strdup(history_fix_id() + "_DUMMY");
    }
  }
}

/* ---------------------------------------------------------------------- */

template <class DeviceType> void PairGranJaegerKokkos<DeviceType>::init_style()
{
  // the settings LAMMPS's fix neigh/history/kk supports
  shared.check_settings(running_style_name(), style_name, energy_per_atom);

  PairGranDemc::init_style();    // not PairGranJaeger::init_style(): it makes the CPU history fix
  resolve_work();
  damping_table.init_restitution(running_style_name(), atom->ntypes, setflag);
  set_record_layout();    // (the records' header: check_record_size(), the history fix)

  // the Kokkos history fix replaces the placeholder made in PairGranJaeger's constructor
  // (keeping its place in the fix list), with records of up to history/max points
  if (fix_historyKK == nullptr) check_record_size();
  if (fix_historyKK == nullptr && modify->get_fix_by_id(history_fix_id() + "_DUMMY") == nullptr) {
    // made by an init_style() that stopped with an error after the fix was made
    fix_historyKK =
        dynamic_cast<FixJaegerHistoryKokkos<DeviceType> *>(modify->get_fix_by_id(history_fix_id()));
    if (fix_historyKK == nullptr)
      error->all(FLERR, "Pair gran/jaeger/kk: its history fix is missing");
  }
  if (fix_historyKK == nullptr) {
    auto cmd = fmt::format("{} all {} {}", history_fix_id(),
                           execution_space == Device ? "DEMC/JAEGER_HISTORY/KK/DEVICE"
                                                     : "DEMC/JAEGER_HISTORY/KK/HOST",
                           capacity());
    fix_historyKK = dynamic_cast<FixJaegerHistoryKokkos<DeviceType> *>(
        modify->replace_fix(history_fix_id() + "_DUMMY", cmd, 1));
    if (fix_historyKK == nullptr)
      error->all(FLERR, "Pair gran/jaeger/kk could not create its history fix");
  } else if (fix_historyKK->capacity() != capacity()) {
    error->all(FLERR,
               "Pair gran/jaeger/kk: history/max cannot change once contact histories exist (they "
               "have room for "
               "{} points, history/max asks for {}): use 'history/max {}' or a new pair_style",
               fix_historyKK->capacity(), capacity(), fix_historyKK->capacity());
  }
  fix_historyKK->pair = this;
  fix_historyKK->header = record_header();

  shared.request_list(*this);

  // coefficients per type pair for the device, filled by init_one()
  shared.size_type_params(k_params, atom->ntypes, "PairGranJaeger::params");
}

/* ----------------------------------------------------------------------
   a big contact record has room for history/max points, and the history fix
   keeps at least 64 of them. LAMMPS cannot clean up a fix whose constructor
   fails (the error raised by its destructor ends the program), so a
   history/max that cannot work is refused here: one whose records overflow
   an int, or whose first records cannot be allocated
------------------------------------------------------------------------- */

template <class DeviceType> void PairGranJaegerKokkos<DeviceType>::check_record_size()
{
  constexpr int FIRST_RECORDS = 64;
  const int most = (MAXSMALLINT / FIRST_RECORDS - record_header()) / 4;
  if (capacity() > most)
    error->all(FLERR,
               "Pair gran/jaeger/kk: history/max {} gives contact records too large to index (at "
               "most {})",
               capacity(), most);
  const size_t values = (size_t) FIRST_RECORDS * (record_header() + 4 * (size_t) capacity());
  try {
    // their size at once, without touching it
    Kokkos::View<double *, DeviceType> probe(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "probe"), values);
  } catch (const std::exception &e) {
    error->one(FLERR,
               "Pair gran/jaeger/kk: history/max {} needs at least {:.3g} GB on this process for "
               "the first {} contact records ({} points each), which cannot be allocated; use a "
               "smaller history/max ({})",
               capacity(), values * sizeof(double) / 1e9, FIRST_RECORDS, capacity(), e.what());
  }
}

/* ----------------------------------------------------------------------
   params.old_mat: the materials the histories were made with (E* = 0 for
   all while not known: none is converted then)
------------------------------------------------------------------------- */

template <class DeviceType> void PairGranJaegerKokkos<DeviceType>::set_history_materials()
{
  k_params.sync_host();
  const auto h = k_params.view_host();
  const int stride = atom->ntypes + 1;
  const bool known = history_materials.size() == pair_materials.size();
  for (int i = 1; i < stride; i++)
    for (int j = 1; j < stride; j++)
      h(i, j).old_mat = known ? history_materials[i * stride + j] : demc::jaeger::Material{};
  k_params.modify_host();
}

/* ---------------------------------------------------------------------- */

template <class DeviceType> double PairGranJaegerKokkos<DeviceType>::init_one(int i, int j)
{
  const double cut = PairGranJaeger::init_one(i, j);
  PairGranJaegerTypeParams c;
  c.mat = pair_materials[i * (atom->ntypes + 1) + j];
  c.dashpots = damping_table.pair_dashpots[i * (atom->ntypes + 1) + j];
  c.resist = resistance.at(i, j);
  shared.set_type_params(k_params, i, j, c);
  return cut;
}

/* ---------------------------------------------------------------------- */

template <class DeviceType>
void PairGranJaegerKokkos<DeviceType>::compute(int eflag_in, int vflag_in)
{
  // at setup the particles have not moved since the last step: forces are
  // evaluated from the stored history without advancing it (as the CPU style)
  const bool advance = (update->setupflag == 0);

  ev_init(eflag_in, vflag_in, 0);    // newton off: checked by check_settings() at every init
  const int inum =
      shared.load_views(*this, loop_inputs(), kdata, fix_historyKK, eflag_in, vflag_in);
  auto *k_list = static_cast<NeighListKokkos<DeviceType> *>(list);
  kdata.capacity = fix_historyKK->capacity();
  kdata.small_capacity = fix_historyKK->small_capacity();
  if (inum > 0 && (int) kdata.touch.extent(1) < k_list->maxneighs)
    error->one(FLERR, "Pair gran/jaeger/kk: the history arrays do not match the neighbor list");

  kdata.beta = beta;
  kdata.prune = prune;
  kdata.work = work;
  // (the stored energy also where the sum of the work starts: PairGranJaeger::seed_work)
  const bool seed = starts_work_sum(advance);
  kdata.eflag = (eflag_in || seed) ? 1 : 0;
  note_energy_step(eflag_in != 0);
  kdata.carry_length = carry_length;
  if (!advance) fix_historyKK->begin_run();    // a run's setup
  kdata.run_stamp = fix_historyKK->run_stamp();
  // the first compute() after an init: histories made with another material than their
  // contact's now are moved to it in this loop (each record once: the loop reads every record)
  kdata.convert = check_materials ? 1 : 0;
  if (check_materials) {
    check_materials = false;
    set_history_materials();
    history_materials = pair_materials;
  }
  k_params.template sync<DeviceType>();
  kdata.params = k_params.template view<DeviceType>();

  size_waiting_list();
  PairGranJaegerSums sums;
  run_loop(inum, 0, sums, advance);
  if (sums.waiting > 0.0 || sums.waiting_big > 0.0) finish_waiting(inum, sums, advance);

  // pvector: the same layout and meaning as the CPU style's (this rank's share)
  if (advance) {
    tangential_sum += sums.work;
    dissipated_damping += sums.damping;
  }
  tangential_sum += sums.converted;
  if (seed) start_work_sum(sums.tangential);
  fix_historyKK->merges += sums.merges;
  fix_historyKK->forced_merges += sums.forced;
  fix_historyKK->run_forced_merges += sums.forced_run;
  fix_historyKK->run_forced_contacts += sums.forced_contacts;
  fix_historyKK->run_contacts += sums.held + sums.opened;
  pvector[E_NORMAL] = sums.normal;
  pvector[E_TANGENTIAL] = sums.tangential;
  pvector[E_FRICTION] = work ? tangential_sum - sums.tangential : 0.0;    // work no: not known
  pvector[E_DAMPING] = dissipated_damping;
  pvector[E_CONTACTS] = sums.contacts;
  pvector[E_SLIDING] = sums.sliding;
  shared.store_results(*this, fix_historyKK, sums.evdwl, sums.v);
  setup_done(advance);
}

/* ---------------------------------------------------------------------- */

template <class DeviceType>
template <int NEIGHFLAG, int EVFLAG, int ADVANCE, class L>
void PairGranJaegerKokkos<DeviceType>::launch(int inum, int waiting, PairGranJaegerSums &sums)
{
  JaegerPairLoop<DeviceType, NEIGHFLAG, 0, EVFLAG, ADVANCE, L> loop(kdata);
  if (waiting > 0)
    Kokkos::parallel_reduce("PairGranJaegerKokkos::compute_waiting",
                            Kokkos::RangePolicy<DeviceType, WaitingTag>(0, waiting), loop, sums);
  else
    demc_launch_pair_loop<DeviceType>("PairGranJaegerKokkos::compute", inum, loop, sums,
                                      this->static_schedule);
  loop.contribute(kdata);
}

// a mark per atom and room for all in the list of atoms with waiting pairs (zero: none waits)
template <class DeviceType> void PairGranJaegerKokkos<DeviceType>::size_waiting_list()
{
  if (!kdata.waiting_count.is_allocated())
    kdata.waiting_count = Kokkos::View<int, DeviceType>("PairGranJaeger::waiting_count");
  if ((int) kdata.waiting_mark.extent(0) < atom->nmax) {
    kdata.waiting_mark =
        Kokkos::View<int *, DeviceType>("PairGranJaeger::waiting_mark", atom->nmax);
    kdata.waiting_atoms =
        Kokkos::View<int *, DeviceType>("PairGranJaeger::waiting_atoms", atom->nmax);
  }
}

// the history fix's record pools and their rings of freed records, as they are now, for a loop
template <class DeviceType> void PairGranJaegerKokkos<DeviceType>::load_pools()
{
  kdata.pool = fix_historyKK->pool;
  kdata.big = fix_historyKK->big;
  kdata.pool_used = fix_historyKK->pool_used;
  kdata.big_used = fix_historyKK->big_used;
  kdata.pool_records = static_cast<int>(kdata.pool.extent(0));
  kdata.big_records = static_cast<int>(kdata.big.extent(0));
  kdata.freed_counts = fix_historyKK->freed_counts;
  for (int p = 0; p < 2; p++) {
    const auto &ring = fix_historyKK->freed[p];
    auto &seen = kdata.freed[p];
    seen.rows = ring.rows;
    seen.size = static_cast<int>(ring.rows.extent(0));
    seen.available = seen.size > 0 ? static_cast<int>(ring.tail - ring.head) : 0;
    seen.head = seen.size > 0 ? static_cast<int>(ring.head % seen.size) : 0;
    seen.tail = seen.size > 0 ? static_cast<int>(ring.tail % seen.size) : 0;
  }
}

/* ----------------------------------------------------------------------
   one pass of the pair loop over the list (waiting = 0) or over the atoms
   with waiting pairs, on the pools as they are now; the rings of freed
   records follow what it took and put
------------------------------------------------------------------------- */

template <class DeviceType>
void PairGranJaegerKokkos<DeviceType>::run_loop(int inum, int waiting, PairGranJaegerSums &sums,
                                                bool advance)
{
  load_pools();
  Kokkos::deep_copy(kdata.freed_counts, 0);
  shared.dispatch(evflag, advance, [&](auto neigh, auto ev, auto adv) {
    jaeger::with_layout<jaeger::PairRecord>(resisting(), [&](auto layout) {
      this->template launch<decltype(neigh)::value, decltype(ev)::value, decltype(adv)::value,
                            decltype(layout)>(inum, waiting, sums);
    });
  });
  fix_historyKK->freed_rings_advanced(sums.freed_taken, sums.freed_put);
}

/* ----------------------------------------------------------------------
   the contacts of this step that found a record pool full (new contacts,
   small records to move to big ones): the pools grow, and the loop runs
   again over the atoms that have such pairs (listed by note_waiting()), for
   the pairs that touch and have no record and for those whose touch flag
   says they wait, which are exactly these (every other contact took its
   record); their forces add to the first loop's, their sums to its sums
------------------------------------------------------------------------- */

template <class DeviceType>
void PairGranJaegerKokkos<DeviceType>::finish_waiting(int inum, PairGranJaegerSums &sums,
                                                      bool advance)
{
  fix_historyKK->grow_pools(static_cast<long>(sums.waiting), static_cast<long>(sums.waiting_big));
  int waiting = 0;
  Kokkos::deep_copy(waiting, kdata.waiting_count);
  Kokkos::deep_copy(kdata.waiting_count, 0);
  PairGranJaegerSums rest;
  // a setup's waiting contacts take a setup's step; the first loop moved every record to its
  // material (a waiting one before it waited): not again
  kdata.convert = 0;
  run_loop(inum, waiting, rest, advance);
  if (rest.waiting > 0.0 || rest.waiting_big > 0.0)
    error->one(FLERR, "Pair gran/jaeger/kk: {} contacts found no record after the pools grew",
               rest.waiting + rest.waiting_big);
  sums.waiting = sums.waiting_big = 0.0;
  sums += rest;
}

/* ----------------------------------------------------------------------
   the record of pair (i,j) in i's Kokkos neighbor list, or else in j's (if j
   is owned), read on the host with the hand-over's negation undone: 1, or 0
   if the pair holds no record, -1 if neither list holds the pair. As
   PairGranJaeger::single().
------------------------------------------------------------------------- */

template <class DeviceType>
int PairGranJaegerKokkos<DeviceType>::find_record_host(int i, int j, std::vector<double> &record)
{
  if (fix_historyKK == nullptr) return -1;
  int owner, slot;
  if (!find_single_slot(
          i, j,
          [this](int a, int b) {
            return shared.neighbor_slot_host(list, a, b, neighprev);
          },
          owner, slot))
    return -1;
  fix_historyKK->k_firstflag.sync_host();
  auto h_flags = fix_historyKK->k_firstflag.view_host();
  if (owner >= (int) h_flags.extent(0)) return -1;
  const int flag = h_flags(owner, slot);
  using R = FixJaegerHistoryKokkos<DeviceType>;
  if (flag <= 0) return 0;
  const auto &records = R::names_big(flag) ? fix_historyKK->big : fix_historyKK->pool;
  if (R::row_of(flag) >= (int) records.extent(0)) return 0;
  const auto h_record = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), Kokkos::subview(records, R::row_of(flag), Kokkos::ALL()));
  const double *rec = h_record.data();
  if (!R::holds_contact(rec)) return 0;
  const int n = static_cast<int>(rec[R::R_LENGTH]);
  record.assign(rec, rec + record_header() + 4 * n);
  return 1;
}

/* ----------------------------------------------------------------------
   per-contact state for compute pair/local, compute fabric and the like, as
   PairGranJaeger::single() (which reads the CPU history fix)
------------------------------------------------------------------------- */

template <class DeviceType>
double PairGranJaegerKokkos<DeviceType>::single(int i, int j, int itype, int jtype, double rsq,
                                                double, double, double &fforce)
{
  atomKK->sync(Host, X_MASK | RADIUS_MASK | TAG_MASK | TYPE_MASK);    // (type: contact_material())
  begin_single(i, j, rsq, fforce);    // (after the sync: it reads x)
  const double radsum = atom->radius[i] + atom->radius[j];
  std::vector<double> rec;
  if (rsq >= radsum * radsum) return 0.0;
  const int found = find_record_host(i, j, rec);
  if (found < 0) return 0.0;    // as the CPU style: a pair in neither list gives zeros
  return single_of_record(i, j, rsq, found > 0 ? rec.data() : nullptr, fforce);
}

/* ---------------------------------------------------------------------- */

template <class DeviceType> double PairGranJaegerKokkos<DeviceType>::memory_usage()
{
  return PairGranJaeger::memory_usage() +
      (double) k_params.extent(0) * k_params.extent(1) * sizeof(PairGranJaegerTypeParams);
}

namespace LAMMPS_NS {
template class PairGranJaegerKokkos<LMPDeviceType>;
#ifdef LMP_KOKKOS_GPU
template class PairGranJaegerKokkos<LMPHostType>;
#endif
}    // namespace LAMMPS_NS
