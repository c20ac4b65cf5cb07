/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: faithful DEM contact laws for LAMMPS (plugin package)
   fix wall/gran/jaeger: frictional walls with Jaeger's Hertz-Mindlin-
   Deresiewicz contact of pair_style gran/jaeger (same kernel,
   kernels/jaeger_contact.h, and contact frame, kernels/contact_frame.h).
   The wall is body q of the contact, of infinite radius and mass, with its
   own elastic moduli; each particle keeps one record for the wall: the
   equivalent load history (variable length), the frame, the work.
------------------------------------------------------------------------- */

#ifdef FIX_CLASS
// clang-format off
FixStyle(wall/gran/jaeger,FixWallGranJaeger);
// clang-format on
#else

#ifndef DEMC_FIX_WALL_GRAN_JAEGER_H
#define DEMC_FIX_WALL_GRAN_JAEGER_H

#include "demc_restart_records.h"
#include "fix_wall_gran_demc.h"
#include "jaeger_step.h"

#include <vector>

namespace demc {
namespace jaeger {
  struct Material;
  struct StepResult;
}    // namespace jaeger
namespace frame {
  struct Quat;
}
}    // namespace demc

namespace LAMMPS_NS {

class FixWallGranJaeger : public FixWallGranDemc {
 public:
  FixWallGranJaeger(class LAMMPS *, int, char **);
  ~FixWallGranJaeger() override;
  void init() override;
  void post_force(int) override;
  double memory_usage() override;
  void grow_arrays(int) override;
  void copy_arrays(int, int, int) override;
  void set_arrays(int) override;
  int pack_exchange(int, double *) override;
  int exchange_size(int) const;    // what pack_exchange(i) writes
  int unpack_exchange(int, double *) override;
  int pack_restart(int, double *) override;
  void unpack_restart(int, int) override;
  int size_restart(int) override;
  int maxsize_restart() override;
  void *extract(const char *, int &) override;

  /* one particle's record (empty: not touching): header, then the stack, 4 doubles a point.
     The header is the pair style's (demc::jaeger::RecordField, the same fields at the same
     places), the key being the wall side and the type pair the particle's type, followed by
     the material the stack was made with (W_ESTAR..W_MU, see keep_material()). W_STORED: the
     stored tangential energy U_t, carried from step to step (the fix tallies it on every
     step); negative: not known (after a change of material or a merge outside a step), then
     taken from the whole history.
     W_FDAMP_X..Z: the dashpot force of the last step, which the force of a run's setup repeats
     (so that a run after another, or after read_restart, continues as the one that went
     straight on). W_PRUNE_FORCE, W_PRUNE_SHIFT: what the pruning rule has spent of the contact's
     error budget (demc::jaeger::PruneSpent). */
  enum Header {
    W_SIDE = demc::jaeger::REC_KEY,
    W_LENGTH = demc::jaeger::REC_LENGTH,
    W_QW = demc::jaeger::REC_QW,
    W_QX = demc::jaeger::REC_QX,
    W_QY = demc::jaeger::REC_QY,
    W_QZ = demc::jaeger::REC_QZ,
    W_WORK = demc::jaeger::REC_WORK,
    W_DAMPWORK = demc::jaeger::REC_DAMPWORK,
    W_TYPE = demc::jaeger::REC_TYPES,
    W_STORED = demc::jaeger::REC_STORED,
    W_FDAMP_X = demc::jaeger::REC_FDAMP_X,
    W_FDAMP_Y = demc::jaeger::REC_FDAMP_Y,
    W_FDAMP_Z = demc::jaeger::REC_FDAMP_Z,
    W_PRUNE_FORCE = demc::jaeger::REC_PRUNE_FORCE,
    W_PRUNE_SHIFT = demc::jaeger::REC_PRUNE_SHIFT,
    W_ESTAR = demc::jaeger::REC_HEADER,
    W_GSTAR,
    W_MU,
    W_HEADER
  };

 protected:
  // a record read from a restart file into atom i's, checked
  void restore_record(int i, std::vector<double> &rec);
  // what pack_exchange() wrote (n values), read from a restart file into atom i's, checked (the
  // region walls' lists hold these)
  void restore_exchanged(int i, const double *buf, long n);
  int law_keyword(int, char **, int) override;
  Touch touch(const Contact &, int, bool) override;
  void part(const Contact &, bool) override;
  int history_side(int) const override;
  double friction_dissipation(double) const override;

 private:
  double youngs, poisson, mu;                  // (the dashpots: FixWallGranDemc)
  double beta;                                 // memory approximation, 0 = exact
  double prune;                                // pruning tolerance (of mu P), 0 = keep all
  int max_length;                              // history/max: points per record, 0 = unbounded
  // rolling and twisting resistance (keywords rolling, twisting; twisting marshall: the
  // contact's Mindlin spring, demc::jaeger::resistance_of())
  demc::resistance::Params resistance;
  // the records have the resistance's slots (demc::jaeger::WithResistance)
  bool resisting() const { return demc::resistance::active(resistance); }
  // values before a record's history: W_HEADER, with rolling or twisting W_HEADER +
  // RESISTANCE_SLOTS
  int record_header() const;
  std::vector<double> estar, gstar;            // per particle type, with the wall (init)
  std::vector<std::vector<double>> records;    // per atom
  // a record made with another material (pair_coeff or the fix's E, nu, mu changed): moved
  // to mat's, the same spring field (demc::jaeger::change_material())
  void keep_material(std::vector<double> &rec, const demc::jaeger::Material &mat);

  demc::jaeger::Material material(int i) const;
  // the contact step of a particle with a surface, touching or parting (contact_step())
  demc::jaeger::StepOutcome step(const Contact &, int side, bool touching, bool advance);
  void update_maxexchange();
  // restart records: the writer and reader of records spread evenly over the atoms
  demc_restart::SpreadWriter restart_out;
  demc_restart::SpreadReader restart_in;
  void init_records_from_restart();
};

}    // namespace LAMMPS_NS

#endif
#endif
