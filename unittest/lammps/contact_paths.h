/* Test helper: random paths of a sphere pressed on a partner whose surface is the plane z = 0
   (a wall, or a sphere far larger), driven step by step as the prescribed-motion tests do, and
   what a style reports after each step. */

#ifndef DEMC_TEST_CONTACT_PATHS_H
#define DEMC_TEST_CONTACT_PATHS_H

#include "lammps_session.h"
#include "prescribed_motion.h"

#include "atom.h"
#include "fix.h"
#include "lammps.h"
#include "modify.h"

#include <random>
#include <string>
#include <vector>

namespace demc_test {

struct PathStep {
  demc::Vec3 v, w;
};

// approach, `segments` random segments keeping the overlap within [0.004, 0.016], lift-off
inline std::vector<PathStep> random_path(unsigned seed, int segments, double dt)
{
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_int_distribution<int> length(4, 20);
  std::vector<PathStep> path;
  double overlap = -0.08;    // (the start's gap)
  auto add = [&](const demc::Vec3 &v, const demc::Vec3 &w) {
    path.push_back({v, w});
    overlap -= dt * v.z;
  };
  while (overlap < 0.01) add({0.0, 0.0, -30.0}, {0.0, 0.0, 0.0});
  for (int s = 0; s < segments; s++) {
    const demc::Vec3 v = {3.0 * u(rng), 3.0 * u(rng), 4.0 * u(rng)}, w = {2.0 * u(rng), 2.0 * u(rng),
                                                                    2.0 * u(rng)};
    for (int k = length(rng); k > 0; k--) {
      demc::Vec3 vk = v;
      if ((overlap > 0.016 && vk.z < 0.0) || (overlap < 0.004 && vk.z > 0.0)) vk.z = -vk.z;
      add(vk, w);
    }
  }
  while (overlap > -0.01) add({1.0, 0.0, 40.0}, {0.0, 0.0, 0.0});
  return path;
}

// what each style reports after a step
struct Reported {
  demc::Vec3 f, t;
  double normal, tangential, friction, damping, contacts, longest;
};

/* a sphere (atom 1, diameter 1) along `path` from (0.1, -0.2, 0.58), against the partner that
   the commands `partner` make (a plane z = 0 or a sphere below it; the box from z = zlo), in a
   session with LAMMPS's command-line switches lammps_args; read: what the style reports after each step */
inline std::vector<Reported> drive_path(const std::vector<std::string> &partner,
                                        const std::vector<PathStep> &path, double dt,
                                        Reported (*read)(LammpsSession &), const std::string &zlo,
                                        const std::vector<std::string> &lammps_args = {})
{
  LammpsSession s(MPI_COMM_WORLD, lammps_args);
  s.load_plugin();
  s.commands({"units si", "atom_style sphere", "atom_modify map array", "boundary f f f",
              "comm_modify vel yes", "region box block -2 2 -2 2 " + zlo + " 2 units box",
              "create_box 1 box", "create_atoms 1 single 0.1 -0.2 0.58 units box",
              "set atom 1 diameter 1.0", "set group all density 1000",
              "timestep " + std::to_string(dt)});
  s.commands(partner);
  s.command("run 0 post no");
  auto *atom = s.lmp->atom;
  std::vector<Reported> out;
  for (const PathStep &p : path) {
    const int i = atom->map(1);
    put(atom->x[i], get(atom->x[i]) + dt * p.v);
    put(atom->v[i], p.v);
    put(atom->omega[i], p.w);
    s.command("run 1 pre no post no");
    out.push_back(read(s));
  }
  return out;
}

inline Reported read_pair(LammpsSession &s)
{
  const auto e = s.pair_extra();
  auto *fix = s.lmp->modify->get_fix_by_id("DEMC_GRAN_JAEGER_HISTORY0");
  return {get(s.forces()[1].data()), get(s.torques()[1].data()), e[0], e[1], e[2], e[3], e[4],
          fix->compute_vector(2)};
}

}    // namespace demc_test

#endif
