/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: faithful DEM contact laws for LAMMPS (plugin package)
   pair_style gran/jaeger/kk: the Kokkos variant of pair_style gran/jaeger.

   The contact law is the CPU style's per-contact driver (kernels/jaeger_driver.h:
   demc::jaeger::step() in the contact frame of demc::frame, the dashpots),
   called from a Kokkos functor on the same geometry and movements
   (demc::sphere_contact()). This class only moves data in and out.

   Per-contact history: a record per contact in the pools of
   FixJaegerHistoryKokkos (which moves the records with the atoms), with room
   for a few points or, once a history outgrows that, for `capacity` points
   (history/max, default DEFAULT_CAPACITY); when a push finds the stack full
   the kernel merges the two most similar adjacent segments itself (the CPU
   style's rule with history/max). Record layout: FixJaegerHistoryKokkos::Record.

   Supported: Kokkos half neighbor lists (neigh half: HALF or HALFTHREAD)
   with newton off, as gran/kuhn/kk.
------------------------------------------------------------------------- */

#ifdef PAIR_CLASS
// clang-format off
PairStyle(gran/jaeger/kk,PairGranJaegerKokkos<LMPDeviceType>);
PairStyle(gran/jaeger/kk/device,PairGranJaegerKokkos<LMPDeviceType>);
PairStyle(gran/jaeger/kk/host,PairGranJaegerKokkos<LMPHostType>);
// clang-format on
#else

#ifndef DEMC_PAIR_GRAN_JAEGER_KOKKOS_H
#define DEMC_PAIR_GRAN_JAEGER_KOKKOS_H

#include "pair_gran_jaeger.h"

#include "pair_gran_demc_kokkos.h"

#include <vector>

namespace LAMMPS_NS {

template <class DeviceType> class FixJaegerHistoryKokkos;

/* What one compute() sums over the contacts of this rank: the LAMMPS energy and virial
   and the pvector terms of this step (weight 1/2 for a pair with a ghost, newton off),
   and the merge counters (per list entry, as the CPU style counts them). */
struct PairGranJaegerSums {
  double evdwl;
  double v[6];
  double normal, tangential;    // stored energies (pvector E_NORMAL, E_TANGENTIAL)
  double work, damping;         // tangential work and damping dissipation in this step
  double contacts, sliding;     // pvector E_CONTACTS, E_SLIDING
  double merges, forced;
  // new contacts that found the small records' pool full, and full small records that found
  // the big records' pool full (their steps run again, alone, once the pools have grown)
  double waiting, waiting_big;
  // records taken from the rings of freed records, and records freed, per pool (small, big)
  double freed_taken[2], freed_put[2];
  // this run's forced merges and contacts (FixJaegerHistoryKokkos::run_forced_merges ...),
  // weighted as the energies: records held at the run's setup, records opened
  double forced_run, forced_contacts, held, opened;
  double converted;    // work done on the contacts by changed coefficients (change_material())
  KOKKOS_INLINE_FUNCTION PairGranJaegerSums() :
      evdwl(0.0), v{0.0, 0.0, 0.0, 0.0, 0.0, 0.0}, normal(0.0), tangential(0.0), work(0.0),
      damping(0.0), contacts(0.0), sliding(0.0), merges(0.0), forced(0.0), waiting(0.0),
      waiting_big(0.0), freed_taken{0.0, 0.0}, freed_put{0.0, 0.0}, forced_run(0.0),
      forced_contacts(0.0), held(0.0), opened(0.0), converted(0.0)
  {
  }
  KOKKOS_INLINE_FUNCTION void operator+=(const PairGranJaegerSums &o)
  {
    evdwl += o.evdwl;
    for (int k = 0; k < 6; k++) v[k] += o.v[k];
    normal += o.normal;
    tangential += o.tangential;
    work += o.work;
    damping += o.damping;
    contacts += o.contacts;
    sliding += o.sliding;
    merges += o.merges;
    forced += o.forced;
    forced_run += o.forced_run;
    forced_contacts += o.forced_contacts;
    held += o.held;
    opened += o.opened;
    converted += o.converted;
    waiting += o.waiting;
    waiting_big += o.waiting_big;
    for (int k = 0; k < 2; k++) {
      freed_taken[k] += o.freed_taken[k];
      freed_put[k] += o.freed_put[k];
    }
  }
};

// contact coefficients of one type pair, as the device sees them
struct PairGranJaegerTypeParams {
  demc::jaeger::Material mat;        // without the radius (PairGranJaeger::pair_materials)
  demc::ContactDashpots dashpots;    // (PairGranJaeger::pair_dashpots)
  // at the first compute() after an init: the Material the histories of the type pair were
  // made with, to move from (set_history_materials())
  demc::jaeger::Material old_mat;
  // rolling and twisting resistance (PairGranJaeger::resistance)
  demc::resistance::Params resist;
  KOKKOS_INLINE_FUNCTION PairGranJaegerTypeParams() : mat{}, dashpots{}, old_mat{}, resist{} {}
};

/* Everything the pair loop reads and writes: views and plain values only, so that the
   functor copied to the device holds no pointer into host objects. */
template <class DeviceType> struct PairGranJaegerKernelData : DemcLoopViews<DeviceType> {
  typename Kokkos::DualView<PairGranJaegerTypeParams **, Kokkos::LayoutRight,
                            DeviceType>::t_dev_const_um params;
  int capacity, small_capacity;    // points of a big and of a small record
  /* the contact records (FixJaegerHistoryKokkos::pool and big), the records taken of each,
     the pools' sizes */
  Kokkos::View<double **, Kokkos::LayoutRight, DeviceType> pool, big;
  Kokkos::View<int, DeviceType> pool_used, big_used;
  int pool_records, big_records;
  /* the rings of freed records (FixJaegerHistoryKokkos::freed), small pool then big, as a
     loop sees them: it takes the `available` rows from `head` and puts from `tail` */
  struct FreeRingView {
    Kokkos::View<int *, DeviceType> rows;
    int size, head, available, tail;
  } freed[2];
  Kokkos::View<int[4], DeviceType> freed_counts;    // the loop's takes and puts per pool
  /* the atoms with a pair that waits (each once: waiting_mark(i) = 1), for the loop over them
     alone once the pools have grown, and their count */
  Kokkos::View<int *, DeviceType> waiting_atoms, waiting_mark;
  Kokkos::View<int, DeviceType> waiting_count;
  double beta;
  double prune;
  bool work;    // integrate the tangential work (pair_style keyword work)
  // the history length from which a contact carries U_t (demc::jaeger::stored_to_carry())
  int carry_length;
  double run_stamp;    // FixJaegerHistoryKokkos::run_stamp()
  int eflag;
  int convert;    // move histories made with another material to their contact's
};

template <class DeviceType> class PairGranJaegerKokkos : public PairGranJaeger {
 public:
  typedef DeviceType device_type;
  typedef ArrayTypes<DeviceType> AT;

  // points per contact without history/max: the whole history of nearly every contact in
  // dense slow flow (doc/pair_gran_jaeger.rst, accelerator section)
  static constexpr int DEFAULT_CAPACITY = 32;

  PairGranJaegerKokkos(class LAMMPS *);
  ~PairGranJaegerKokkos() override;
  void compute(int, int) override;
  void init_style() override;
  double init_one(int, int) override;
  double single(int, int, int, int, double, double, double, double &) override;
  double memory_usage() override;

  int capacity() const { return max_length > 0 ? max_length : DEFAULT_CAPACITY; }

 protected:
  PairGranJaegerKernelData<DeviceType> kdata;
  Kokkos::DualView<PairGranJaegerTypeParams **, Kokkos::LayoutRight, DeviceType> k_params;
  PairGranDemcKokkosShared<DeviceType> shared;    // set-up and bookkeeping around the functor
  FixJaegerHistoryKokkos<DeviceType> *fix_historyKK;

  /* the pair loop over the list's inum atoms, or over the `waiting` atoms (finish_waiting()), on
     records of layout L (PairGranJaeger::resisting()) */
  template <int NEIGHFLAG, int EVFLAG, int ADVANCE, class L>
  void launch(int inum, int waiting, PairGranJaegerSums &sums);
  // the step of the new contacts that found the record pool full, once it has grown
  void finish_waiting(int inum, PairGranJaegerSums &sums, bool advance);
  void load_pools();
  // one pass of the pair loop (launch())
  void run_loop(int inum, int waiting, PairGranJaegerSums &sums, bool advance);
  void size_waiting_list();

  void check_record_size();        // an impossible history/max: a LAMMPS error, not a crash
  void set_history_materials();    // params.old_mat for the pair loop

  // single(): the record of pair (i,j) in i's or j's Kokkos neighbor list, read on the host
  int find_record_host(int i, int j, std::vector<double> &record);
};

}    // namespace LAMMPS_NS

#endif
#endif
