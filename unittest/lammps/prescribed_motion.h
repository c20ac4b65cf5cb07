/* Test helper: two spheres (atom IDs 1 and 2) driven with prescribed velocities and spins,
   one LAMMPS step at a time, as the two-sphere tests of both pair styles do; and the
   Vec3 reads and writes of per-atom arrays they use. */

#ifndef DEMC_TEST_PRESCRIBED_MOTION_H
#define DEMC_TEST_PRESCRIBED_MOTION_H

#include "kernel_common.h"
#include "lammps_session.h"

#include "atom.h"
#include "lammps.h"

namespace demc_test {

inline demc::Vec3 get(const double *a)
{
  return {a[0], a[1], a[2]};
}

inline void put(double *a, const demc::Vec3 &v)
{
  a[0] = v.x;
  a[1] = v.y;
  a[2] = v.z;
}

// velocities and spins of atoms 1 and 2 over one step
struct PairDrive {
  demc::Vec3 v1, v2, w1, w2;
};

/* Moves both atoms by v dt, as velocity-Verlet would, sets their velocities and spins and
   lets LAMMPS compute one step (run 1 pre no post no). */
inline void drive_one_step(LammpsSession &s, const PairDrive &d, double dt)
{
  auto *atom = s.lmp->atom;
  const int i1 = atom->map(1), i2 = atom->map(2);
  put(atom->x[i1], get(atom->x[i1]) + dt * d.v1);
  put(atom->x[i2], get(atom->x[i2]) + dt * d.v2);
  put(atom->v[i1], d.v1);
  put(atom->v[i2], d.v2);
  put(atom->omega[i1], d.w1);
  put(atom->omega[i2], d.w2);
  s.command("run 1 pre no post no");
}

}    // namespace demc_test

#endif
