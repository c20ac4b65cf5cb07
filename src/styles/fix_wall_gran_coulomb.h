/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: faithful DEM contact laws for LAMMPS (plugin package)
   fix wall/gran/coulomb: frictional walls with the numerically exact
   Coulomb friction of pair_style gran/coulomb (Sakamaki et al.). The fix
   adds the normal force; each wall contact joins the particle contacts in
   the pair style's friction fix, which decides all friction at once after
   every other force. The wall is body q of the contact, immovable (of
   infinite mass) and moving as the wall does.
------------------------------------------------------------------------- */

#ifdef FIX_CLASS
// clang-format off
FixStyle(wall/gran/coulomb,FixWallGranCoulomb);
// clang-format on
#else

#ifndef DEMC_FIX_WALL_GRAN_COULOMB_H
#define DEMC_FIX_WALL_GRAN_COULOMB_H

#include "fix_wall_gran_fixed_history.h"

#include "coulomb_step.h"

namespace LAMMPS_NS {

class FixCoulombFriction;

class FixWallGranCoulomb : public FixWallGranFixedHistory {
 public:
  FixWallGranCoulomb(class LAMMPS *, int, char **);
  ~FixWallGranCoulomb() override;
  void init() override;
  double memory_usage() override;

  // one particle's record: the friction force on it (3), state and work (as in the pair
  // style's history), then the
  // side of the wall it touches, then the normal dashpot force of the last step (its repulsive
  // part as applied), which the first setup after read_restart repeats; then (rolling and
  // twisting) the rolling spring (3), the twisting angle and their torque of the last step (3)
  enum HistoryIndex {
    H_FX,
    H_FY,
    H_FZ,
    H_STATE,
    H_WORK,
    H_SIDE,
    H_FDAMP,
    H_ROLL,
    H_TWIST = H_ROLL + 3,
    H_TORQUE,
    H_SIZE = H_TORQUE + 3
  };

  // the friction fix's decision for a wall contact of this fix
  void friction_applied(int p, const demc::Vec3 &force, const demc::Vec3 &r_q,
                        const demc::Vec3 &wall_move, bool sliding, double dissipated);

 protected:
  int law_keyword(int, char **, int) override;
  int parse_dashpot_limit_keyword(int, char **, int) override;
  Touch touch(const Contact &, int, bool) override;
  void part(const Contact &, bool) override;
  int history_side(int) const override;
  void check_restored_history(int) const override;
  int record_handle() const override;
  void record_moved(int handle, double *record) override;

 private:
  int law;              // demc::coulomb::NormalLaw
  double c1, c2, mu;    // hooke: kn; hertz: E, nu
  demc::coulomb::StepParams step_params;
  static constexpr demc::coulomb::RecordLayout RECORD_LAYOUT = {H_FDAMP, H_ROLL, H_TWIST, H_TORQUE};
  demc::resistance::Params resistance;    // keywords rolling, twisting
  FixCoulombFriction *friction;
  int last_handle = -1;    // the friction fix's handle of the contact touched last
};

}    // namespace LAMMPS_NS

#endif
#endif
