/* ----------------------------------------------------------------------
   dem-contact: faithful DEM contact laws for LAMMPS (plugin package)
   fix wall/gran/kuhn: walls with the Kuhn-Suzuki-Daouadji contact.

   LAMMPS work only: the per-particle history record and the call of
   demc::kuhn::step() (the kernel of pair_style gran/kuhn) with the
   particle as p and the wall as q. Wall geometry, motion, force and
   energy output: FixWallGranDemc.
------------------------------------------------------------------------- */

#include "fix_wall_gran_kuhn.h"

#include "demc_restart_records.h"

#include "kuhn_keywords.h"
#include "resistance_keywords.h"

#include "demc_citations.h"
#include "kuhn_contact.h"

#include "atom.h"
#include "citeme.h"
#include "error.h"
#include "memory.h"

#include <cstring>

using namespace LAMMPS_NS;
using demc::Vec3;
namespace kuhn = demc::kuhn;
static_assert(int(FixWallGranKuhn::H_WDAMP) == int(KH_WDAMP) &&
                  int(FixWallGranKuhn::H_SIDE) == int(KH_SIZE),
              "the wall's history starts with the shared Kuhn history");

namespace {
kuhn::Motion motion_of(const FixWallGranDemc::Contact &c, double dt)
{
  kuhn::Motion m;
  m.zeta_new = c.overlap;
  m.zeta_old = 0.0;    // (the record's: demc::kuhn::contact_step())
  m.n = c.n;
  m.n_old = c.n_old;
  m.du_p = c.du_p;
  m.du_q = c.du_q;
  m.dth_p = c.dth_p;
  m.dth_q = c.dth_q;
  m.r_p = c.r_p;
  m.r_q = c.r_q;
  m.dt = dt;
  return m;
}
}    // namespace

/* ----------------------------------------------------------------------
   fix ID group wall/gran/kuhn kn kt mu [damping nu_n nu_t | restitution e x_t]
       [fresh|elastic_slip|turn|project|twirl yes/no] [conventional]
       [rolling sds k_roll gamma_roll mu_roll] [twisting sds k_twist gamma_twist mu_twist |
       twisting marshall]
       wallstyle args [wiggle ... | translate ...]
------------------------------------------------------------------------- */

FixWallGranKuhn::FixWallGranKuhn(LAMMPS *lmp, int narg, char **arg) :
    FixWallGranFixedHistory(lmp, narg, arg, H_SIZE), kn(0.0), kt(0.0), mu(0.0),
    refinements(kuhn::ALL)
{
  if (lmp->citeme) lmp->citeme->add(demc::cite_kuhn_suzuki_daouadji);
  if (narg < 7)
    error->all(FLERR,
               "Fix {} expects: kn kt mu [damping nu_n nu_t | restitution e x_t] wallstyle args "
               "[keyword value ...]",
               style);
  kn = utils::numeric(FLERR, arg[3], false, lmp);
  kt = utils::numeric(FLERR, arg[4], false, lmp);
  mu = utils::numeric(FLERR, arg[5], false, lmp);
  parse_wall(narg, arg, 6);
  if (kn <= 0.0) error->all(FLERR, law_error("kn must be > 0, got {}"), kn);
  if (kt <= 0.0) error->all(FLERR, law_error("kt must be > 0, got {}"), kt);
  if (mu < 0.0) error->all(FLERR, law_error("mu must be >= 0, got {}"), mu);

  history_size = kuhn::place_resistance(resistance, H_SIZE, record_layout);
  resistance_law = kuhn::resistance_for(resistance, kt, dashpots.nu_t, mu);
  set_history_size(history_size);
  allocate_history();
}

FixWallGranKuhn::~FixWallGranKuhn() = default;

/* ---------------------------------------------------------------------- */

int FixWallGranKuhn::law_keyword(int narg, char **arg, int iarg)
{
  const int used = parse_damping_keyword(narg, arg, iarg, false);
  if (used) return used;
  const std::string command = "fix " + std::string(style);
  const int refinement = parse_kuhn_refinement(lmp, command, narg, arg, iarg, refinements);
  if (refinement) return refinement;
  return parse_resistance_keyword(lmp, command, narg, arg, iarg, resistance);
}

/* ---------------------------------------------------------------------- */

int FixWallGranKuhn::history_side(int i) const
{
  return static_cast<int>(history[i][H_SIDE]);
}

/* ----------------------------------------------------------------------
   one particle touching surface `side`; at setup (advance = false) the
   force follows from the stored history without changing it
------------------------------------------------------------------------- */

FixWallGranDemc::Touch FixWallGranKuhn::touch(const Contact &c, int side, bool advance)
{
  double *h = history[c.p];
  kuhn::Params params;
  params.kn = kn;
  params.kt = kt;
  params.mu = mu;
  params.damp_n = dashpots.nu_n;    // (restitution: Law::restitution)
  params.damp_t = dashpots.nu_t;
  params.flags = refinements;
  // the wall: a partner of infinite mass and radius, turning with the wall
  const kuhn::Kinematics m = kuhn::kinematics_of(motion_of(c, dt));
  const double radius = atom->radius[c.p];
  const kuhn::Geometry g = {c.overlap, c.n, c.n_old, m.du, m.twirl, atom->rmass[c.p],
                            (1.0 / dt) * c.dth_q - demc_vec(atom->omega[c.p]), radius};
  const kuhn::Law law = {&params, &dashpots, dashpot_limits, resist()};
  const kuhn::Phase phase =
      advance ? kuhn::ADVANCE : kuhn::REPEAT;
  kuhn::Record rec = kuhn::read_record(h, record_layout);
  const kuhn::Outcome o = kuhn::contact_step(law, g, phase, dt, rec);
  if (advance) {
    kuhn::write_record(h, record_layout, rec);
    h[H_SIDE] = side;
    cumulative[C_FRICTION] += o.friction;
    cumulative[C_DAMPING] += o.damping;
    cumulative[C_WORK] += o.work;
  }
  return {o.force, o.Wn, o.Wt, o.sliding, o.torque};
}

/* ----------------------------------------------------------------------
   separation: the energy the record holds is released as dissipation
------------------------------------------------------------------------- */

void FixWallGranKuhn::part(const Contact &c, bool)
{
  double *h = history[c.p];
  cumulative[C_FRICTION] +=
      kuhn::parting_energy(kt, resist(), kuhn::read_record(h, record_layout), atom->radius[c.p]);
  for (int k = 0; k < history_size; k++) h[k] = 0.0;
}

// a history read from a restart file (FixWallGranFixedHistory's record)
void FixWallGranKuhn::check_restored_history(int i) const
{
  demc_restart::checked_int(lmp, history[i][H_SIDE], NO_SIDE, HI_SIDE,
                            law_error("wall side of a contact"));
}

double FixWallGranKuhn::memory_usage()
{
  return history_memory() + contacts_memory();
}
