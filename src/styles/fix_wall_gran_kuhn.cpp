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
kuhn::Motion motion_of(const FixWallGranDemc::Contact &c, double zeta_old, double dt)
{
  kuhn::Motion m;
  m.zeta_new = c.overlap;
  m.zeta_old = zeta_old;
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

Vec3 tangential_force(const double *h)
{
  return {h[FixWallGranKuhn::H_FTX], h[FixWallGranKuhn::H_FTY], h[FixWallGranKuhn::H_FTZ]};
}
}    // namespace

/* ----------------------------------------------------------------------
   fix ID group wall/gran/kuhn kn kt mu [damping nu_n nu_t | restitution e x_t]
       [fresh|elastic_slip|turn|project|twirl yes/no] [conventional]
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

  allocate_history();
}

FixWallGranKuhn::~FixWallGranKuhn() = default;

/* ---------------------------------------------------------------------- */

int FixWallGranKuhn::law_keyword(int narg, char **arg, int iarg)
{
  const int used = parse_damping_keyword(narg, arg, iarg, false);
  if (used) return used;
  return parse_kuhn_refinement(lmp, "fix " + std::string(style), narg, arg, iarg, refinements);
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
  params.damp_n = advance ? dashpots.nu_n : 0.0;    // (restitution: add_restitution_dashpots())
  params.damp_t = advance ? dashpots.nu_t : 0.0;
  params.flags = refinements;
  const double zeta_old = (history_side(c.p) == side) ? h[H_ZETA] : 0.0;
  const kuhn::Motion motion = motion_of(c, zeta_old, dt);
  kuhn::Result res = kuhn::step(params, motion, tangential_force(h));
  // at the first setup after read_restart the last step's dashpot force again, as the limits
  // left it (see H_FDAMP_X and setup_repeats_dashpots); none for a fresh contact
  if (!advance && setup_repeats_dashpots && zeta_old > 0.0)
    res.force = res.force + Vec3{h[H_FDAMP_X], h[H_FDAMP_Y], h[H_FDAMP_Z]};
  if (advance) {
    // restitution damping: against the wall (infinite mass) the effective mass is the
    // particle's; then the dashpots' limits
    const kuhn::Kinematics m = kuhn::kinematics_of(motion);
    kuhn::add_restitution_dashpots(dashpots, m, atom->rmass[c.p], res);
    if (dashpot_limits.act_on(demc::has_tangential_dashpot(dashpots)))
      kuhn::limit_dashpots(dashpot_limits, mu, m, res);
    store_kuhn_history(h, res, c.overlap);
    h[H_SIDE] = side;
    h[H_FDAMP_X] = res.f_damp.x;
    h[H_FDAMP_Y] = res.f_damp.y;
    h[H_FDAMP_Z] = res.f_damp.z;
    cumulative[C_FRICTION] += res.dWt_irrev;
    cumulative[C_DAMPING] += res.dW_damp;
    cumulative[C_WORK] += res.dWt;
  }
  const double limit = mu * res.fn;
  const bool sliding = limit > 0.0 && demc::norm(res.ft) >= limit * (1.0 - 1e-9);
  return {res.force, res.Wn, res.Wt, sliding};
}

/* ----------------------------------------------------------------------
   separation: the kernel's separated step releases the stored tangential
   energy as dissipation
------------------------------------------------------------------------- */

void FixWallGranKuhn::part(const Contact &c, bool)
{
  double *h = history[c.p];
  cumulative[C_FRICTION] += kuhn::separation_energy(kt, tangential_force(h));
  for (int k = 0; k < H_SIZE; k++) h[k] = 0.0;
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
