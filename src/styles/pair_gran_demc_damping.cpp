/* ----------------------------------------------------------------------
   dem-contact: contact damping per type pair (see header).
------------------------------------------------------------------------- */

#include "pair_gran_demc_damping.h"

#include "error.h"
#include "fix.h"
#include "modify.h"

#include <cmath>
#include <initializer_list>

using namespace LAMMPS_NS;

DemcDampingTable::DemcDampingTable(LAMMPS *lmp, const std::string &style,
                                   DemcCoefficientTable &table) :
    damp_n(table, "damp_n", DemcMix::DAMPING), damp_t(table, "damp_t", DemcMix::DAMPING),
    restitution(table, "restitution", DemcMix::DAMPING),
    restitution_t(table, "restitution_t", DemcMix::DAMPING), lmp(lmp), style(style)
{
}

/* ---------------------------------------------------------------------- */

std::string LAMMPS_NS::demc_damping_values_problem(bool restitution, double a, double b)
{
  if (!restitution)
    return (a < 0.0 || b < 0.0) ? fmt::format("damping coefficients must be >= 0, got {} {}", a, b)
                                : std::string();
  if (!(a > 0.0 && a <= 1.0))
    return fmt::format("the coefficient of restitution must be within (0, 1], got {}", a);
  if (b < 0.0) return fmt::format("the tangential dashpot ratio x_t must be >= 0, got {}", b);
  return {};
}

void LAMMPS_NS::demc_refuse_rigid_bodies(LAMMPS *lmp, const std::string &who)
{
  for (const auto &fix : lmp->modify->get_fix_list())
    if (fix->rigid_flag)
      lmp->error->all(FLERR,
                      "{}: restitution damping does not support fix {} ({}): the effective mass "
                      "would be the particle's, not its rigid body's",
                      who, fix->id, fix->style);
}

/* ---------------------------------------------------------------------- */

DemcDampingTable::DampingKind DemcDampingTable::kind(int i) const
{
  if (damp_n[i][i] > 0.0 || damp_t[i][i] > 0.0) return DASHPOTS;
  if (restitution[i][i] > 0.0 && restitution[i][i] < 1.0) return RESTITUTION;
  return NO_DAMPING;
}

/* dashpots of an unset pair: geometric means. A type without damping next to one with
   restitution counts as e = 1, x_t = 0 (undamped); constant dashpots and restitution have no
   mixing rule. */
void DemcDampingTable::mix(int i, int j)
{
  const DampingKind ki = kind(i), kj = kind(j);
  if ((ki == DASHPOTS && kj == RESTITUTION) || (ki == RESTITUTION && kj == DASHPOTS))
    lmp->error->all(FLERR,
                    "Pair {}: types {} and {} have different kinds of damping (constant dashpots "
                    "and restitution): no mixing rule; set pair_coeff {} {} explicitly",
                    style, i, j, i, j);
  for (double **a : std::initializer_list<double **>{damp_n, damp_t})
    a[i][j] = std::sqrt(a[i][i] * a[j][j]);
  restitution[i][j] = restitution_t[i][j] = 0.0;
  if (ki != RESTITUTION && kj != RESTITUTION) return;
  auto e_of = [&](int t) {
    return kind(t) == RESTITUTION ? restitution[t][t] : 1.0;
  };
  auto ratio_of = [&](int t) {
    return kind(t) == RESTITUTION ? restitution_t[t][t] : 0.0;
  };
  restitution[i][j] = std::sqrt(e_of(i) * e_of(j));
  restitution_t[i][j] = std::sqrt(ratio_of(i) * ratio_of(j));
}

void DemcDampingTable::set_pair_dashpots(int i, int j, int ntypes, bool hertz)
{
  demc::ContactDashpots d;
  d.nu_n = damp_n[i][j];
  d.nu_t = damp_t[i][j];
  if (restitution[i][j] > 0.0) {
    const double e = restitution[i][j];
    d.restitution_factor = hertz ? demc::hertz_restitution_factor(e)
                                 : demc::linear_restitution_factor(e);
    d.tangential_ratio = restitution_t[i][j];
  }
  const int stride = ntypes + 1;
  pair_dashpots.resize(stride * stride);
  pair_dashpots[i * stride + j] = pair_dashpots[j * stride + i] = d;
}

/* a type pair whose dashpots depend on the masses (restitution e < 1): a type with it (then
   its unset pairs mix to e < 1 too), or a pair set with it. Called before init_one(), which
   fills the unset pairs: their values are not read. */
bool DemcDampingTable::any_restitution(int ntypes, int **setflag) const
{
  for (int i = 1; i <= ntypes; i++)
    for (int j = i; j <= ntypes; j++) {
      if (i == j && kind(i) == RESTITUTION) return true;
      if (i != j && setflag[i][j] && restitution[i][j] > 0.0 && restitution[i][j] < 1.0)
        return true;
    }
  return false;
}

// pair_coeff's damping keyword and values of type pair i, j
std::string DemcDampingTable::words(int i, int j) const
{
  if (restitution[i][j] > 0.0)
    return fmt::format("restitution {:.17g} {:.17g}", restitution[i][j], restitution_t[i][j]);
  return fmt::format("damping {:.17g} {:.17g}", damp_n[i][j], damp_t[i][j]);
}

void DemcDampingTable::init_restitution(const std::string &running_style, int ntypes,
                                        int **setflag)
{
  freeze_groupbit = 0;
  if (!any_restitution(ntypes, setflag)) return;
  demc_refuse_rigid_bodies(lmp, "Pair " + running_style);
  const auto freezes = lmp->modify->get_fix_by_style("^freeze");
  if (freezes.size() > 1)
    lmp->error->all(FLERR, "Pair {}: restitution damping allows one fix freeze only",
                    running_style);
  if (!freezes.empty()) freeze_groupbit = freezes.front()->groupbit;
}
