/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: what the package's particle-wall fixes share.

   FixWallGranDemc does the LAMMPS side of a granular wall that does not
   depend on the contact law (modelled on LAMMPS's fix wall/gran):
   - the wall: a pair of planes (xplane, yplane, zplane; lo and hi, either
     NULL) or a z cylinder around the z axis, holding the particles inside;
     or a LAMMPS region (region ID), parsed here for the region wall fixes
     (fix_wall_gran_region.h), which do the rest of a region wall's work;
   - its motion: wiggle (as fix wall/gran) or translate with a velocity
     that is constant or given by equal-style variables; the displacement is
     accumulated step by step and kept in restart files; a zplane or the
     zcylinder can also rotate about its z axis (rotate: a turntable, a drum);
   - the contact of a particle with the wall over one step, with the
     general contact vectors (Contact below): the particle is p, the wall
     is q, a body of infinite radius and mass that moves with the wall
     (translation of its axis point, rotation about its z axis). n points
     from the particle to the wall, du is the movement of the wall relative
     to the particle at the contact point (Eq. 5), the contact point is the
     middle of the overlap;
   - applying the force and its torque, the force and the torque about its
     axis on the wall, the work the wall does, the energy terms of the pair
     styles (global vector) and their cumulative sums.
   Derived fixes parse the law's coefficients, keep one history record per
   particle (one wall per fix) and call the kernel.
------------------------------------------------------------------------- */

#ifndef DEMC_FIX_WALL_GRAN_DEMC_H
#define DEMC_FIX_WALL_GRAN_DEMC_H

#include "fix.h"

#include "pair_gran_demc.h"

#include <string>

namespace LAMMPS_NS {

class FixWallGranDemc : public Fix {
 public:
  // the particle p and the wall q over one step: n points from p to q, du is the movement of
  // q relative to p at the contact point (Eq. 5)
  struct Contact {
    int p, q;               // atom index, -1 for the wall
    double r, overlap;      // centre-to-wall distance and overlap at t+dt
    demc::Vec3 n, n_old;    // normals at t+dt and t
    // contact point (middle of the overlap) from p's centre, and from the wall's z axis
    demc::Vec3 r_p, r_q;
    demc::Vec3 du_p, du_q, dth_p, dth_q;    // translations and rotations over the step
    demc::Vec3 du;                          // Eq. 5
  };
  enum WallStyle { XPLANE = 0, YPLANE = 1, ZPLANE = 2, ZCYLINDER = 3, REGION = 4 };
  // which surface a particle touches: the lo or hi plane; the cylinder is LO_SIDE
  enum Side { NO_SIDE = 0, LO_SIDE = 1, HI_SIDE = 2 };
  // global vector: force on the wall (x, y, z), then the pair styles' energy layout, then the
  // torque on the wall about its z axis and the cumulative work the wall did on the particles
  enum VectorIndex {
    V_FX,
    V_FY,
    V_FZ,
    V_ENERGY,
    V_TORQUE_Z = V_ENERGY + PairGranDemc::E_SIZE,
    V_WALL_WORK,
    V_SIZE
  };
  // a region wall's vector appends the x and y components of the torque on the wall (about
  // its reference point; the z component is V_TORQUE_Z)
  enum RegionVectorIndex { V_TORQUE_X = V_SIZE, V_TORQUE_Y, V_REGION_SIZE };
  static constexpr int energy_slot(int e) { return static_cast<int>(V_ENERGY) + e; }

  FixWallGranDemc(class LAMMPS *, int, char **);
  ~FixWallGranDemc() override;
  int setmask() override;
  void init() override;
  void setup(int) override;
  void post_force(int) override;
  void reset_dt() override;
  double compute_scalar() override;
  double compute_vector(int) override;
  void write_restart(FILE *) override;
  void restart(char *) override;
  // per-atom array of keyword contacts (LAMMPS's fix wall/gran layout): in contact (1 or 0),
  // the wall's force on the particle (3), the contact point on the wall's surface (3), radius
  enum ContactColumn { K_TOUCH, K_FX, K_FY, K_FZ, K_X, K_Y, K_Z, K_RADIUS, K_SIZE };

  // distance from a particle centre x to surface `side` of the wall displaced by d,
  // and the unit normal n from the centre towards that surface
  double wall_gap(int side, const demc::Vec3 &x, const demc::Vec3 &d, demc::Vec3 &n) const;
  int nearest_side(const demc::Vec3 &x, const demc::Vec3 &d) const;

 protected:
  // what a law gives back for one particle in contact
  struct Touch {
    demc::Vec3 force;                           // on the particle
    double normal_energy, tangential_energy;    // stored at t+dt
    bool sliding;
    demc::Vec3 couple = {0.0, 0.0, 0.0};    // a torque on the particle besides the force's
  };
  // this rank's cumulative sums (rank 0 carries the totals after a restart)
  // C_WORK: the tangential work of the contacts (gran/jaeger's friction = work - stored);
  // C_WALL_WORK: the work the moving wall did on the particles
  enum Cumulative { C_FRICTION, C_DAMPING, C_WORK, C_WALL_WORK, C_SIZE };
  double cumulative[C_SIZE];
  double dt;

  // called by the derived constructor after the law's leading coefficients
  void parse_wall(int narg, char **arg, int iarg);
  /* damping nu_n nu_t | restitution e x_t (once, one of them): the contact dashpots, constant
     or from a coefficient of restitution with the particle's mass as the effective mass
     (hertz: the Hertz factor, else the linear spring's); returns the arguments used, 0 if
     arg[iarg] is neither */
  int parse_damping_keyword(int narg, char **arg, int iarg, bool hertz);
  demc::ContactDashpots dashpots;
  // a record's dashpot force of the last step is repeated by every setup (as the pair styles
  // do: PairGranDemc::setup_done()); fix wall/gran/coulomb's whole last step (its friction too)
  // only by the first setup after read_restart
  bool first_setup_after_restart = false;
  bool damping_keyword;
  /* damping_cap yes|no, limit_damping: how the dashpots' force joins the law's (as the pair
     styles' keywords; demc::limit_dashpot_force()); returns the arguments used, 0 if arg[iarg]
     is neither (fix wall/gran/coulomb refuses both) */
  virtual int parse_dashpot_limit_keyword(int narg, char **arg, int iarg);
  demc::DashpotLimits dashpot_limits;
  // restitution damping refuses rigid bodies (their particles' mass is not theirs): at init()
  void check_restitution_damping();
  // arguments consumed by a keyword of the law at arg[iarg], 0 if it is none
  virtual int law_keyword(int narg, char **arg, int iarg) = 0;
  virtual Touch touch(const Contact &c, int side, bool advance) = 0;
  // atom c.p no longer touches the surface of its history: close the record
  virtual void part(const Contact &c, bool advance) = 0;
  virtual int history_side(int i) const = 0;    // NO_SIDE if no record
  /* A region wall keeps a contact's record in its particle's list, not in the particle's slot,
     once the contact's step is taken (FixWallGranRegion). A law whose step goes on after the
     fix's post_force (gran/coulomb: its friction fix) gives a handle of the contact just
     touched (-1: none) and is told where its record lies then. */
  virtual int record_handle() const { return -1; }
  virtual void record_moved(int, double *) {}
  // this rank's cumulative friction dissipation, given its stored tangential energy
  virtual double friction_dissipation(double stored_tangential) const;

  Contact make_contact(int i, int side, bool advance) const;
  /* a tangential force on particle p that the law adds after this fix's post_force (gran/coulomb's
     friction, decided once every force is known): the particle's row of keyword contacts, the
     wall's reaction and torque about its axis (r_q: the contact point from the axis), its work
     over the step (wall_move: the wall's movement at the contact point), the sliding count and
     the friction work it dissipated */
  void add_late_tangential_force(int p, const demc::Vec3 &force, const demc::Vec3 &r_q,
                                 const demc::Vec3 &wall_move, bool sliding, double dissipated);
  void unknown_keyword(const char *word, bool region_fix) const;    // an error
  std::string law_error(const std::string &what) const;    // "Fix <style>: <what>"
  double contacts_memory() const;                          // bytes of the contacts array

  // a step's tallies: begin_tallies() clears this step's sums, apply() adds a contact's force
  // and torque to particle i and its reaction, work and energies to the sums, end_tallies()
  // adds the cumulative ones
  void begin_tallies();
  void apply(int i, const Contact &c, const Touch &t);
  void end_tallies();
  std::string region_id;    // wall style region: the region's ID

 private:
  int wallstyle;
  bool has_lo, has_hi;
  double lo, hi, cylradius;
  enum Motion { STATIC, WIGGLE, TRANSLATE };
  int motion;
  int wiggle_axis;
  double amplitude, period;
  double velocity[3];     // translate: constant components
  std::string vstr[3];    // translate: equal-style variable names ("" = constant)
  int vvar[3];
  // rotate: angular velocity about the wall's z axis, a constant or an equal-style variable
  bool rotating;
  double spin;
  std::string spin_str;
  int spin_var;
  double step_turn;        // the wall's rotation angle over the current step
  double disp[3];          // wall displacement since the fix was defined
  double elapsed;          // time since the fix was defined
  demc::Vec3 step_move;    // wall movement over the current step
  double local[V_REGION_SIZE], global[V_REGION_SIZE];
  bool reduced;

  int parse_wall_style(int narg, char **arg, int iarg);
  int parse_plane(int narg, char **arg, int iarg);
  int parse_motion(int narg, char **arg, int iarg);
  int parse_rotation(int narg, char **arg, int iarg);
  int find_equal_variable(const std::string &name) const;
  double rate_at_step_end(int var, double constant) const;
  void check_wall() const;
  demc::Vec3 advance_wall();
  /* keyword contacts: the per-atom array, filled anew at every post_force() for the atoms
     owned then (it does not migrate with them), zeros for those not touching */
  bool contacts_output;
  double **contacts;
  int contacts_nmax;
  int parse_contacts(int narg, char **arg, int iarg);
  void clear_contacts();    // grown to atom->nmax, owned rows zeroed
  void store_contact(int i, const Contact &c, const Touch &t);
};

}    // namespace LAMMPS_NS

#endif
