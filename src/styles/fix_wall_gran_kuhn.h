/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: faithful DEM contact laws for LAMMPS (plugin package)
   fix wall/gran/kuhn: frictional walls with the Kuhn-Suzuki-Daouadji
   linear-frictional contact of pair_style gran/kuhn (same kernel,
   kernels/kuhn_contact.h). The wall is body q of the contact, of infinite
   radius and mass; each particle keeps one history record for the wall.
------------------------------------------------------------------------- */

#ifdef FIX_CLASS
// clang-format off
FixStyle(wall/gran/kuhn,FixWallGranKuhn);
// clang-format on
#else

#ifndef DEMC_FIX_WALL_GRAN_KUHN_H
#define DEMC_FIX_WALL_GRAN_KUHN_H

#include "fix_wall_gran_fixed_history.h"

#include "kuhn_step.h"

namespace LAMMPS_NS {

class FixWallGranKuhn : public FixWallGranFixedHistory {
 public:
  FixWallGranKuhn(class LAMMPS *, int, char **);
  ~FixWallGranKuhn() override;
  double memory_usage() override;

  // one particle's record: tangential force on the particle, overlap at the end of the
  // last step, this contact's friction and damping work, the surface it touches (a Side)
  // KuhnHistoryIndex (kuhn_keywords.h), then the side of the wall, then the dashpot force of
  // the last step, which the force of a run's setup repeats (so that a run after another, or
  // after read_restart, continues as the one that went straight on)
  enum HistoryIndex {
    H_FTX,
    H_FTY,
    H_FTZ,
    H_ZETA,
    H_WFRIC,
    H_WDAMP,
    H_SIDE,
    H_FDAMP_X,
    H_FDAMP_Y,
    H_FDAMP_Z,
    H_SIZE
  };
  // with rolling or twisting resistance (keywords rolling, twisting) the record continues
  // after H_SIZE: the rolling spring (3 values), the twisting angle, the resistance's torque
  // on the particle of the last step (demc::kuhn::place_resistance())

 protected:
  void check_restored_history(int) const override;
  int law_keyword(int, char **, int) override;
  Touch touch(const Contact &, int, bool) override;
  void part(const Contact &, bool) override;
  int history_side(int) const override;

 private:
  double kn, kt, mu;       // (the dashpots: FixWallGranDemc)
  unsigned refinements;    // demc::kuhn::Refinement bits
  // rolling and twisting resistance: the options, and with the law's coefficients filled in
  demc::resistance::Params resistance, resistance_law;
  demc::kuhn::RecordLayout record_layout = {H_FDAMP_X};
  int history_size = H_SIZE;
  const demc::resistance::Params *resist() const
  {
    return record_layout.torque >= 0 ? &resistance_law : nullptr;
  }
};

}    // namespace LAMMPS_NS

#endif
#endif
