/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: faithful DEM contact laws for LAMMPS (plugin package)
   pair_style gran/kuhn/kk: the Kokkos variant of pair_style gran/kuhn.

   The contact law is the same kernel as the CPU style's, demc::kuhn::step()
   (kernels/kuhn_contact.h), called from a Kokkos functor; this class only
   moves geometry, movements and per-contact history in and out of it, on
   the device, through LAMMPS's fix neigh/history/kk (the subclass
   FixNeighHistoryDemcKokkos). Modelled on LAMMPS's own pair_style
   gran/hooke/history/kk, but the functor is a struct of views, not a copy
   of the pair style.

   Supported: Kokkos half neighbor lists (neigh half: HALF or HALFTHREAD)
   with newton off, as for gran/hooke/history/kk: LAMMPS's
   fix neigh/history/kk cannot move histories with newton on, and the pair
   loop needs a half list (see init_style()).
------------------------------------------------------------------------- */

#ifdef PAIR_CLASS
// clang-format off
PairStyle(gran/kuhn/kk,PairGranKuhnKokkos<LMPDeviceType>);
PairStyle(gran/kuhn/kk/device,PairGranKuhnKokkos<LMPDeviceType>);
PairStyle(gran/kuhn/kk/host,PairGranKuhnKokkos<LMPHostType>);
// clang-format on
#else

#ifndef DEMC_PAIR_GRAN_KUHN_KOKKOS_H
#define DEMC_PAIR_GRAN_KUHN_KOKKOS_H

#include "pair_gran_kuhn.h"

#include "pair_gran_demc_kokkos.h"

namespace LAMMPS_NS {

template <class DeviceType> class FixNeighHistoryKokkos;

/* What one compute() sums over the contacts of this rank: the LAMMPS energy and virial
   and the pvector terms of this step (weight 1/2 for a pair with a ghost, newton off). */
struct PairGranKuhnSums {
  double evdwl;
  double v[6];
  double normal, tangential;    // stored energies (pvector E_NORMAL, E_TANGENTIAL)
  double friction, damping;     // dissipation in this step (added to the cumulative sums)
  double contacts, sliding;     // pvector E_CONTACTS, E_SLIDING
  KOKKOS_INLINE_FUNCTION PairGranKuhnSums() :
      evdwl(0.0), v{0.0, 0.0, 0.0, 0.0, 0.0, 0.0}, normal(0.0), tangential(0.0), friction(0.0),
      damping(0.0), contacts(0.0), sliding(0.0)
  {
  }
  KOKKOS_INLINE_FUNCTION void operator+=(const PairGranKuhnSums &o)
  {
    evdwl += o.evdwl;
    for (int k = 0; k < 6; k++) v[k] += o.v[k];
    normal += o.normal;
    tangential += o.tangential;
    friction += o.friction;
    damping += o.damping;
    contacts += o.contacts;
    sliding += o.sliding;
  }
};

/* Everything the pair loop reads and writes: views and plain values only, so that the
   functor copied to the device holds no pointer into host objects (the pair style
   itself is not copied, unlike LAMMPS's own Kokkos pair styles). */
template <class DeviceType> struct PairGranKuhnKernelData : DemcLoopViews<DeviceType> {
  // the kernel's parameters per type pair: the CPU style's (PairGranKuhn::type_params())
  typename Kokkos::DualView<demc::kuhn::Params **, Kokkos::LayoutRight, DeviceType>::t_dev_const_um
      params;
  // restitution damping per type pair (PairGranDemc::pair_dashpots)
  typename Kokkos::DualView<demc::ContactDashpots **, Kokkos::LayoutRight,
                            DeviceType>::t_dev_const_um dashpots;
  // rolling and twisting per type pair (PairGranKuhn::resistance_params)
  typename Kokkos::DualView<demc::resistance::Params **, Kokkos::LayoutRight,
                            DeviceType>::t_dev_const_um resistance;
  // a contact's record in the history (PairGranKuhn::record_layout, history_size)
  demc::kuhn::RecordLayout layout;
  int history_size;
};

template <class DeviceType> class PairGranKuhnKokkos : public PairGranKuhn {
 public:
  typedef DeviceType device_type;
  typedef ArrayTypes<DeviceType> AT;

  PairGranKuhnKokkos(class LAMMPS *);
  ~PairGranKuhnKokkos() override;
  void compute(int, int) override;
  void init_style() override;
  double init_one(int, int) override;
  double single(int, int, int, int, double, double, double, double &) override;

 protected:
  PairGranKuhnKernelData<DeviceType> kdata;
  Kokkos::DualView<demc::kuhn::Params **, Kokkos::LayoutRight, DeviceType> k_params;
  Kokkos::DualView<demc::ContactDashpots **, Kokkos::LayoutRight, DeviceType> k_dashpots;
  Kokkos::DualView<demc::resistance::Params **, Kokkos::LayoutRight, DeviceType> k_resistance;
  PairGranDemcKokkosShared<DeviceType> shared;    // set-up and bookkeeping around the functor
  FixNeighHistoryKokkos<DeviceType> *fix_historyKK;

  template <int NEIGHFLAG, int EVFLAG, int ADVANCE, int ALL_ON>
  void launch(int inum, PairGranKuhnSums &sums);

  // single(): the history of pair (i,j) in i's or j's Kokkos neighbor list, read on the host
  bool find_history_host(int i, int j, double *history, double &ft_sign);
};

}    // namespace LAMMPS_NS

#endif
#endif
