/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: the input checks of PairGranDemc::init_style()
   (pair_gran_demc.h): what a granular pair style of the package needs of
   the atoms and the input, and the commands that cannot give the right
   numbers with it, each stopping with an error that says why.
------------------------------------------------------------------------- */

#ifndef DEMC_PAIR_GRAN_DEMC_CHECKS_H
#define DEMC_PAIR_GRAN_DEMC_CHECKS_H

#include <string>

namespace LAMMPS_NS {

class LAMMPS;
class Pair;

// atom attributes radius, rmass, omega and ghost velocities (style: "gran/kuhn", ...)
void demc_check_atom_requirements(LAMMPS *lmp, const std::string &style);
// pair hybrid/overlay: one contact law per type pair (me: the pair style, a sub-style)
void demc_check_overlapping_contact_laws(LAMMPS *lmp, Pair *me, const std::string &style);
// computes that take a pair force to be central, or miscount contacts with newton off
// (running_style: the style's name as the input gave it, /kk included)
void demc_refuse_unfit_computes(LAMMPS *lmp, const std::string &running_style);

}    // namespace LAMMPS_NS

#endif
