/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: faithful DEM contact laws for LAMMPS (plugin package)
   pair_style gran/coulomb/kk: the Kokkos variant of pair_style gran/coulomb.

   The pair part runs on the Kokkos device: the same contact step as the
   CPU style's, demc::coulomb::contact_step() (kernels/coulomb_step.h), on
   the same geometry (demc::sphere_contact()), called from a Kokkos functor:
   the normal force with its dashpot, rolling and twisting, the contacts'
   records in fix neigh/history/kk (FixNeighHistoryDemcKokkos), and each
   contact's friction row.

   The friction is decided in the pass of the CPU style's friction fix
   (DEMC/COULOMB_FRICTION, a host fix, after every other force). The direct
   decision, where no wall contact joins the pair's, runs on the device
   (decide_friction(): every contact decided at once, Jacobi-like, the
   friction totals scattered atomically and exchanged between ranks through
   the fix). Otherwise (iterate, the first setup after read_restart, wall
   contacts) the fix decides on the host: the rows and the histories are
   brought to the host (no copy on host back ends) and handed to it, contact
   by contact in the order of the neighbor list (contacts_to_friction());
   the fix writes the friction forces and states into the host side of the
   histories, which friction_decided() marks modified, so the next step's
   loop takes them back to the device. LAMMPS's Kokkos Modify brings the
   atom data to the host for the fix and back.

   Supported: Kokkos half neighbor lists (neigh half: HALF or HALFTHREAD)
   with newton off, as gran/kuhn/kk.
------------------------------------------------------------------------- */

#ifdef PAIR_CLASS
// clang-format off
PairStyle(gran/coulomb/kk,PairGranCoulombKokkos<LMPDeviceType>);
PairStyle(gran/coulomb/kk/device,PairGranCoulombKokkos<LMPDeviceType>);
PairStyle(gran/coulomb/kk/host,PairGranCoulombKokkos<LMPHostType>);
// clang-format on
#else

#ifndef DEMC_PAIR_GRAN_COULOMB_KOKKOS_H
#define DEMC_PAIR_GRAN_COULOMB_KOKKOS_H

#include "pair_gran_coulomb.h"

#include "pair_gran_demc_kokkos.h"

namespace LAMMPS_NS {

template <class DeviceType> class FixNeighHistoryKokkos;

/* What one compute() sums over the contacts of this rank: the LAMMPS energy and virial and
   the pvector terms of the pair part (weight 1/2 for a pair with a ghost, newton off). */
struct PairGranCoulombSums {
  double evdwl;
  double v[6];
  double normal, tangential;    // stored energies (pvector E_NORMAL, E_TANGENTIAL)
  double damping, released;     // dashpots' dissipation, resistance's sliders and partings
  double contacts;              // pvector E_CONTACTS
  KOKKOS_INLINE_FUNCTION PairGranCoulombSums() :
      evdwl(0.0), v{0.0, 0.0, 0.0, 0.0, 0.0, 0.0}, normal(0.0), tangential(0.0), damping(0.0),
      released(0.0), contacts(0.0)
  {
  }
  KOKKOS_INLINE_FUNCTION void operator+=(const PairGranCoulombSums &o)
  {
    evdwl += o.evdwl;
    for (int k = 0; k < 6; k++) v[k] += o.v[k];
    normal += o.normal;
    tangential += o.tangential;
    damping += o.damping;
    released += o.released;
    contacts += o.contacts;
  }
};

/* A touching pair's row for the friction: the partner j and the step's FrictionRow, then what
   the direct decision on the device (decide_friction()) finds: the tangential inverse mass, the
   relative tangential velocities now and after the kick without friction, the friction force
   on i and whether the contact sticks. The rows of list atom i's neighbors start at
   first_row(i) (numbered over the list once per compute()); a row is valid where the pair's
   touch flag is set. */
struct CoulombContactRow {
  int j;
  demc::coulomb::FrictionRow row;
  double inv_mass;
  demc::Vec3 u_before, v_free, force;
  int sticks;
};

/* Everything the pair loop reads and writes: views and plain values only. */
template <class DeviceType> struct PairGranCoulombKernelData : DemcLoopViews<DeviceType> {
  // the contact step's parameters per type pair (PairGranCoulomb::type_step())
  typename Kokkos::DualView<demc::coulomb::StepParams **, Kokkos::LayoutRight,
                            DeviceType>::t_dev_const_um params;
  Kokkos::View<CoulombContactRow *, DeviceType> rows;
  Kokkos::View<int *, DeviceType> first_row;
  demc::coulomb::RecordLayout layout;    // PairGranCoulomb::record_layout
  int history_size;
  int mode;    // demc::coulomb::StepMode of a setup (SETUP or REPEAT; a run's steps: ADVANCE)
};

template <class DeviceType> class PairGranCoulombKokkos : public PairGranCoulomb {
 public:
  typedef DeviceType device_type;
  typedef ArrayTypes<DeviceType> AT;

  PairGranCoulombKokkos(class LAMMPS *);
  ~PairGranCoulombKokkos() override;
  void compute(int, int) override;
  void init_style() override;
  double init_one(int, int) override;
  double single(int, int, int, int, double, double, double, double &) override;
  void friction_decided(double dissipated, double sliding, int sweeps, double residual) override;
  void contacts_to_friction() override;
  bool decides_friction() const override { return true; }
  void decide_friction(double h, bool advance) override;

 protected:
  PairGranCoulombKernelData<DeviceType> kdata;
  Kokkos::DualView<demc::coulomb::StepParams **, Kokkos::LayoutRight, DeviceType> k_params;
  Kokkos::DualView<CoulombContactRow *, DeviceType> k_rows;
  Kokkos::DualView<int *, DeviceType> k_first_row;
  PairGranDemcKokkosShared<DeviceType> shared;    // set-up and bookkeeping around the functor
  FixNeighHistoryKokkos<DeviceType> *fix_historyKK;
  // decide_friction(), per atom (local and ghost): 1/m and 1/I (2 a row), the velocity and
  // spin after the kick of every other force (6), the friction totals (6)
  Kokkos::View<double *, DeviceType> d_inverse, d_free, d_totals;

  std::string history_fix_style() const override;
  void number_rows(int inum);
  template <int NEIGHFLAG, int EVFLAG, int ADVANCE, int RESIST>
  void launch(int inum, PairGranCoulombSums &sums);
  void hand_contacts_to_friction(int inum);
  void exchange_totals(int nall);
};

}    // namespace LAMMPS_NS

#endif
#endif
