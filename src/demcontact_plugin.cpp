/* ----------------------------------------------------------------------
   dem-contact: registers every style of the package with LAMMPS.
   Load with "plugin load demcontactplugin.so" or put its folder in
   LAMMPS_PLUGIN_PATH (tools/lmp does this).
------------------------------------------------------------------------- */

#include "lammpsplugin.h"
#include "version.h"

#include "pair_gran_kuhn.h"

using namespace LAMMPS_NS;

namespace {
template <class T> Pair *make_pair(LAMMPS *lmp)
{
  return new T(lmp);
}

void register_pair(lammpsplugin_regfunc reg, void *lmp, void *handle, const char *name,
                   const char *info, lammpsplugin_factory1 *creator)
{
  lammpsplugin_t plugin;
  plugin.version = LAMMPS_VERSION;
  plugin.style = "pair";
  plugin.name = name;
  plugin.info = info;
  plugin.author = "dem-contact developers";
  plugin.creator.v1 = creator;
  plugin.handle = handle;
  (*reg)(&plugin, lmp);
}
}    // namespace

extern "C" void lammpsplugin_init(void *lmp, void *handle, void *regfunc)
{
  auto reg = (lammpsplugin_regfunc) regfunc;
  register_pair(reg, lmp, handle, "gran/kuhn",
                "Kuhn-Suzuki-Daouadji linear-frictional contact (dem-contact)",
                (lammpsplugin_factory1 *) &make_pair<PairGranKuhn>);
}
