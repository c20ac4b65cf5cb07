/* ----------------------------------------------------------------------
   dem-contact: registers every style of the package with LAMMPS.
   Load with "plugin load demcontactplugin.so" or put its folder in
   LAMMPS_PLUGIN_PATH (tools/lmp does this).
------------------------------------------------------------------------- */

#include "lammpsplugin.h"
#include "version.h"

#include "fix_coulomb_friction.h"
#include "fix_demc_atom_energy.h"
#include "fix_jaeger_history.h"
#include "fix_neigh_history_demc.h"
#include "fix_wall_gran_coulomb.h"
#include "fix_wall_gran_jaeger.h"
#include "fix_wall_gran_kuhn.h"
#include "fix_wall_gran_region.h"
#include "pair_gran_coulomb.h"
#include "pair_gran_jaeger.h"
#include "pair_gran_kuhn.h"
#ifdef DEMC_HAS_KOKKOS_STYLES
#include "fix_jaeger_history_kokkos.h"
#include "fix_neigh_history_demc_kokkos.h"
#include "pair_gran_coulomb_kokkos.h"
#include "pair_gran_jaeger_kokkos.h"
#include "pair_gran_kuhn_kokkos.h"
#endif

using namespace LAMMPS_NS;

namespace {
template <class T> Pair *make_pair(LAMMPS *lmp)
{
  return new T(lmp);
}

template <class T> Fix *make_fix(LAMMPS *lmp, int narg, char **arg)
{
  return new T(lmp, narg, arg);
}

lammpsplugin_t describe(const char *style, const char *name, const char *info, void *handle)
{
  lammpsplugin_t plugin;
  plugin.version = LAMMPS_VERSION;
  plugin.style = style;
  plugin.name = name;
  plugin.info = info;
  plugin.author = "dem-contact developers";
  plugin.handle = handle;
  return plugin;
}

void register_pair(lammpsplugin_regfunc reg, void *lmp, void *handle, const char *name,
                   const char *info, lammpsplugin_factory1 *creator)
{
  lammpsplugin_t plugin = describe("pair", name, info, handle);
  plugin.creator.v1 = creator;
  (*reg)(&plugin, lmp);
}

void register_fix(lammpsplugin_regfunc reg, void *lmp, void *handle, const char *name,
                  const char *info, lammpsplugin_factory2 *creator)
{
  lammpsplugin_t plugin = describe("fix", name, info, handle);
  plugin.creator.v2 = creator;
  (*reg)(&plugin, lmp);
}
}    // namespace

extern "C" void lammpsplugin_init(void *lmp, void *handle, void *regfunc)
{
  auto reg = (lammpsplugin_regfunc) regfunc;
  register_pair(reg, lmp, handle, "gran/kuhn",
                "Kuhn-Suzuki-Daouadji linear-frictional contact (dem-contact)",
                (lammpsplugin_factory1 *) &make_pair<PairGranKuhn>);
  register_pair(reg, lmp, handle, "gran/jaeger",
                "Jaeger Hertz-Mindlin-Deresiewicz contact with exact load history (dem-contact)",
                (lammpsplugin_factory1 *) &make_pair<PairGranJaeger>);
  register_fix(reg, lmp, handle, "DEMC/JAEGER_HISTORY",
               "variable-length contact histories for gran/jaeger (internal)",
               (lammpsplugin_factory2 *) &make_fix<FixJaegerHistory>);
  register_fix(reg, lmp, handle, "DEMC/ATOM_ENERGY",
               "per-atom energies of the dem-contact pair styles (internal)",
               (lammpsplugin_factory2 *) &make_fix<FixDemcAtomEnergy>);
  register_fix(reg, lmp, handle, "DEMC/NEIGH_HISTORY",
               "per-contact history for the dem-contact pair styles (internal)",
               (lammpsplugin_factory2 *) &make_fix<FixNeighHistoryDemc>);
  register_pair(reg, lmp, handle, "gran/coulomb",
                "numerically exact Coulomb friction of Sakamaki et al. (dem-contact)",
                (lammpsplugin_factory1 *) &make_pair<PairGranCoulomb>);
  register_fix(reg, lmp, handle, "DEMC/COULOMB_FRICTION",
               "the friction of pair gran/coulomb, after every other force (internal)",
               (lammpsplugin_factory2 *) &make_fix<FixCoulombFriction>);
  register_fix(reg, lmp, handle, "wall/gran/coulomb",
               "frictional walls with the exact Coulomb friction of gran/coulomb (dem-contact)",
               (lammpsplugin_factory2 *) &make_fix<FixWallGranCoulomb>);
  register_fix(reg, lmp, handle, "wall/gran/kuhn",
               "frictional walls with the Kuhn-Suzuki-Daouadji contact (dem-contact)",
               (lammpsplugin_factory2 *) &make_fix<FixWallGranKuhn>);
  register_fix(reg, lmp, handle, "wall/gran/jaeger",
               "frictional walls with Jaeger's Hertz-Mindlin-Deresiewicz contact (dem-contact)",
               (lammpsplugin_factory2 *) &make_fix<FixWallGranJaeger>);
  register_fix(reg, lmp, handle, "wall/gran/region/kuhn",
               "a region's surfaces as walls with the Kuhn-Suzuki-Daouadji contact (dem-contact)",
               (lammpsplugin_factory2 *) &make_fix<FixWallGranRegionKuhn>);
  register_fix(reg, lmp, handle, "wall/gran/region/jaeger",
               "a region's surfaces as walls with Jaeger's Hertz-Mindlin-Deresiewicz contact "
               "(dem-contact)",
               (lammpsplugin_factory2 *) &make_fix<FixWallGranRegionJaeger>);
  register_fix(reg, lmp, handle, "wall/gran/region/coulomb",
               "a region's surfaces as walls with the exact Coulomb friction of gran/coulomb "
               "(dem-contact)",
               (lammpsplugin_factory2 *) &make_fix<FixWallGranRegionCoulomb>);
#ifdef DEMC_HAS_KOKKOS_STYLES
  // Kokkos variants: "-k on -sf kk" picks gran/kuhn/kk for "pair_style gran/kuhn"
  register_pair(reg, lmp, handle, "gran/kuhn/kk", "gran/kuhn on Kokkos (dem-contact)",
                (lammpsplugin_factory1 *) &make_pair<PairGranKuhnKokkos<LMPDeviceType>>);
  register_pair(reg, lmp, handle, "gran/kuhn/kk/device",
                "gran/kuhn on Kokkos, device (dem-contact)",
                (lammpsplugin_factory1 *) &make_pair<PairGranKuhnKokkos<LMPDeviceType>>);
  register_pair(reg, lmp, handle, "gran/kuhn/kk/host", "gran/kuhn on Kokkos, host (dem-contact)",
                (lammpsplugin_factory1 *) &make_pair<PairGranKuhnKokkos<LMPHostType>>);
  register_fix(reg, lmp, handle, "DEMC/NEIGH_HISTORY/KK/DEVICE",
               "per-contact history for the dem-contact Kokkos pair styles (internal)",
               (lammpsplugin_factory2 *) &make_fix<FixNeighHistoryDemcKokkos<LMPDeviceType>>);
  register_fix(reg, lmp, handle, "DEMC/NEIGH_HISTORY/KK/HOST",
               "per-contact history for the dem-contact Kokkos pair styles (internal)",
               (lammpsplugin_factory2 *) &make_fix<FixNeighHistoryDemcKokkos<LMPHostType>>);
  // "-k on -sf kk" picks gran/jaeger/kk for "pair_style gran/jaeger"
  register_pair(reg, lmp, handle, "gran/jaeger/kk", "gran/jaeger on Kokkos (dem-contact)",
                (lammpsplugin_factory1 *) &make_pair<PairGranJaegerKokkos<LMPDeviceType>>);
  register_pair(reg, lmp, handle, "gran/jaeger/kk/device",
                "gran/jaeger on Kokkos, device (dem-contact)",
                (lammpsplugin_factory1 *) &make_pair<PairGranJaegerKokkos<LMPDeviceType>>);
  register_pair(reg, lmp, handle, "gran/jaeger/kk/host",
                "gran/jaeger on Kokkos, host (dem-contact)",
                (lammpsplugin_factory1 *) &make_pair<PairGranJaegerKokkos<LMPHostType>>);
  register_fix(reg, lmp, handle, "DEMC/JAEGER_HISTORY/KK/DEVICE",
               "fixed-capacity contact histories for gran/jaeger/kk (internal)",
               (lammpsplugin_factory2 *) &make_fix<FixJaegerHistoryKokkos<LMPDeviceType>>);
  register_fix(reg, lmp, handle, "DEMC/JAEGER_HISTORY/KK/HOST",
               "fixed-capacity contact histories for gran/jaeger/kk (internal)",
               (lammpsplugin_factory2 *) &make_fix<FixJaegerHistoryKokkos<LMPHostType>>);
  // "-k on -sf kk" picks gran/coulomb/kk for "pair_style gran/coulomb"
  register_pair(reg, lmp, handle, "gran/coulomb/kk", "gran/coulomb on Kokkos (dem-contact)",
                (lammpsplugin_factory1 *) &make_pair<PairGranCoulombKokkos<LMPDeviceType>>);
  register_pair(reg, lmp, handle, "gran/coulomb/kk/device",
                "gran/coulomb on Kokkos, device (dem-contact)",
                (lammpsplugin_factory1 *) &make_pair<PairGranCoulombKokkos<LMPDeviceType>>);
  register_pair(reg, lmp, handle, "gran/coulomb/kk/host",
                "gran/coulomb on Kokkos, host (dem-contact)",
                (lammpsplugin_factory1 *) &make_pair<PairGranCoulombKokkos<LMPHostType>>);
#endif
}
