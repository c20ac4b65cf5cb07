/* Test helper: a restart file with a few very long contact histories among many atoms
   without contacts, the case in which LAMMPS's per-atom restart slots (each as large as the
   largest atom's data) made files unreadable.

   1000 spheres on a loose lattice touch nothing. Atom 1001 is held in place; atom 1002 presses
   on it, and atom 1003 on a wall/gran/jaeger zplane, both with a fixed overlap, and both are
   moved sideways (fix move) back and forth every step with an amplitude that shrinks by 0.1 %
   a step: every reversal pushes a point that no later one erases, so the two histories grow
   by a point a step (thousands of points) while every other atom has none. */

#ifndef DEMC_TEST_LONG_HISTORY_H
#define DEMC_TEST_LONG_HISTORY_H

#include <string>
#include <vector>

namespace demc_test {

// everything up to the run: atoms, pair style `pair` (with its coefficients), the wall, fixes
// the box and the 1000 spheres (IDs 1 to 1000) on a loose lattice, then `more`
inline std::vector<std::string> loose_lattice_input(const std::vector<std::string> &more)
{
  std::vector<std::string> lines = {"units si",
                                    "atom_style sphere",
                                    "atom_modify map array",
                                    "boundary f f f",
                                    "comm_modify vel yes",
                                    "region box block 0 0.032 0 0.032 0 0.036 units box",
                                    "create_box 1 box",
                                    "lattice sc 0.003 origin 0.5 0.5 0.5",
                                    "region loose block 0 0.03 0 0.03 0.006 0.036 units box",
                                    "create_atoms 1 region loose",
                                    "reset_atoms id sort yes"};
  lines.insert(lines.end(), more.begin(), more.end());
  return lines;
}

inline std::vector<std::string> long_history_input(const std::string &pair_args, bool newton)
{
  std::vector<std::string> lines = loose_lattice_input({
      // the pair, along x, overlapping by 10 um; atom 1003 on the wall at z = 0
      "create_atoms 1 single 0.005 0.003 0.0015 units box",
      "create_atoms 1 single 0.00699 0.003 0.0015 units box",
      "create_atoms 1 single 0.012 0.003 0.00099 units box",
      "set group all diameter 0.002",
      "set group all density 2650",
      "neighbor 0.0003 bin",
      "neigh_modify delay 0",
      "pair_style gran/jaeger" + pair_args,
      "pair_coeff * * 1e7 0.3 0.5",
      "fix wall all wall/gran/jaeger 1e7 0.3 0.5 zplane 0 NULL" + pair_args,
      "group free id 1:1000",
      "group held id 1001",
      "group moved id 1002 1003",
      // sideways (y), reversing every step, 1 um at first (a quarter of the slip distance)
      "variable vy equal 0.1*(1-2*(step%2))*0.999^step",
      "variable zero equal 0",
      "fix hold held move linear 0 0 0",
      "fix drive moved move variable NULL NULL NULL v_zero v_vy v_zero",
      "fix integrate free nve/sphere",
      "timestep 1e-5",
  });
  // (before the box: newton sets the bond flag too)
  lines.insert(lines.begin(), std::string("newton ") + (newton ? "on" : "off"));
  return lines;
}

/* the same 1000 spheres in a block region (fix wall/gran/region/LAW `wall_args`, fix ID wall)
   that none of them touches; atom 1001 is pressed into a corner of the block (three faces, 10 um
   each) and moved along z (along two of its faces, into and out of the third) back and forth
   every step with an amplitude that shrinks by 0.1 % a step: two of its three contacts grow a
   history point a step */
inline std::vector<std::string> long_region_history_input(const std::string &wall_args)
{
  return loose_lattice_input({
      "create_atoms 1 single 0.00099 0.00099 0.00099 units box",
      "set group all diameter 0.002",
      "set group all density 2650",
      "region cage block 0 0.032 0 0.032 0 0.036 side in units box",
      "fix wall all wall/gran/region/" + wall_args + " region cage",
      "group free id 1:1000",
      "group moved id 1001",
      "variable vz equal 0.1*(1-2*(step%2))*0.999^step",
      "variable zero equal 0",
      "fix drive moved move variable NULL NULL NULL v_zero v_zero v_vz",
      "fix integrate free nve/sphere",
      "timestep 1e-5",
  });
}

}    // namespace demc_test

#endif
