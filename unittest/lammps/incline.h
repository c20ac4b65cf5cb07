/* Test helper: a sphere on an incline, for Coulomb's law with dashpots (the keywords damping_cap
   and limit_damping). Spheres of radius 1 cm and density 2500 kg/m3 lie on a flat support with
   gravity (9.81 m/s2) tilted by alpha about y. A solid sphere (I = 2/5 m R^2) rolls without
   slip while tan(alpha) <= 7/2 mu and then accelerates down the slope at 5/7 g sin(alpha);
   beyond, it slides at g (sin(alpha) - mu cos(alpha)): the closed forms the measured
   accelerations are held to.

   The support is a wall (fix wall/gran/<law> zplane 0 NULL) or, for the pair styles, a frozen
   sphere of radius 1000 m (not integrated; the neighbor list excludes pairs of two of them).
   Two spheres are used, 10 cm apart along y, each on its own support. On the big
   sphere the slope steepens as the sphere moves down it, by x / 1000 m: over the 1 cm a run
   covers the acceleration changes by at most g (cos + mu sin) 1e-5, 1e-5 relative.

   The acceleration is the least-squares slope of the velocity along x over 10 to 50 ms
   (after the start's normal oscillation has died out under the normal dashpot). A rolling
   contact without tangential damping keeps an oscillation of its tangential spring whose
   velocity amplitude is at most 2/7 g sin(alpha) / omega_t (omega_t ~ 5e3 to 2e4 rad/s here);
   its share of the slope is below 12 that / (omega_t L^2) over the window L = 40 ms, below
   1e-4 relative for both laws. */

#ifndef DEMC_TEST_INCLINE_H
#define DEMC_TEST_INCLINE_H

#include "lammps_session.h"

#include "atom.h"
#include "compute.h"
#include "fix.h"
#include "lammps.h"
#include "modify.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace demc_test {

struct Incline {
  std::string law;         // "kuhn", "jaeger" or "coulomb"
  bool wall;               // a wall fix, else the pair style against a frozen sphere
  double alpha;            // degrees
  std::string damping;     // e.g. "restitution 0.3 1"
  std::string keywords;    // of the pair style or the wall fix, e.g. "damping_cap no"
};

struct InclineRun {
  double a[2];            // each sphere's acceleration along the slope
  double energy_drift;    // change of kinetic + gravitational + stored + dissipated energy
  double gravity_work;    // the work gravity did over the run
  double damping;         // the dashpots' dissipation over the run
};

constexpr double INCLINE_G = 9.81, INCLINE_MU = 0.5, INCLINE_RADIUS = 0.01;
constexpr double INCLINE_DENSITY = 2500.0, INCLINE_BIG = 1000.0;
constexpr double INCLINE_PI = 3.14159265358979323846;

// the closed forms: rolling below tan(alpha) = 7/2 mu, sliding above
inline double incline_acceleration(double alpha_deg)
{
  const double a = alpha_deg * INCLINE_PI / 180.0;
  if (std::tan(a) <= 3.5 * INCLINE_MU) return 5.0 / 7.0 * INCLINE_G * std::sin(a);
  return INCLINE_G * (std::sin(a) - INCLINE_MU * std::cos(a));
}

// the law's coefficients (before the damping words) and the overlap at rest under normal load N
inline std::string incline_law_coefficients(const std::string &law)
{
  if (law == "coulomb") return "hertz 1e9 0.3 0.5";    // E* as jaeger's
  return law == "kuhn" ? "1e6 8e5 0.5" : "1e9 0.3 0.5";
}
inline double incline_overlap(const std::string &law, bool wall, double N)
{
  if (law == "kuhn") return N / 1e6;
  const double estar = 1.0 / (2.0 * (1.0 - 0.3 * 0.3) / 1e9);    // two bodies of E 1e9, nu 0.3
  const double R = wall ? INCLINE_RADIUS
                        : INCLINE_RADIUS * INCLINE_BIG / (INCLINE_RADIUS + INCLINE_BIG);
  return std::pow(3.0 * N / (4.0 * estar * std::sqrt(R)), 2.0 / 3.0);    // N = 4/3 E* R^1/2 d^3/2
}

inline std::vector<std::string> incline_input(const Incline &c)
{
  const double alpha = c.alpha * INCLINE_PI / 180.0;
  const double mass = INCLINE_DENSITY * 4.0 / 3.0 * INCLINE_PI * std::pow(INCLINE_RADIUS, 3);
  const double z0 =
      INCLINE_RADIUS - incline_overlap(c.law, c.wall, mass * INCLINE_G * std::cos(alpha));
  const std::string coeffs = incline_law_coefficients(c.law) + " " + c.damping;
  std::vector<std::string> in = {"units si",
                                 "atom_style sphere",
                                 "atom_modify map array",
                                 "boundary f f f",
                                 "comm_modify vel yes",
                                 c.wall ? "region box block -0.5 0.5 -0.5 0.5 -0.1 0.5 units box"
                                        // (neighbor bins no smaller than half the big sphere)
                                        : fmt::format("region box block {0} {1} {0} {1} {0} 0.5 "
                                                      "units box",
                                                      -INCLINE_BIG - 1.0, INCLINE_BIG + 1.0),
                                 "create_box 2 box"};
  for (double y : {-0.05, 0.05}) {
    in.push_back(fmt::format("create_atoms 1 single 0 {} {:.17g} units box", y, z0));
    if (!c.wall)
      in.push_back(fmt::format("create_atoms 2 single 0 {} {} units box", y, -INCLINE_BIG));
  }
  in.insert(in.end(),
            {fmt::format("set type 1 diameter {}", 2.0 * INCLINE_RADIUS),
             fmt::format("set type 2 diameter {}", 2.0 * INCLINE_BIG),
             fmt::format("set group all density {}", INCLINE_DENSITY), "group small type 1",
             "velocity all set 0 0 0", "neighbor 0.001 bin",
             "neigh_modify delay 0 exclude type 2 2"});
  if (c.wall) {
    // (gran/coulomb's wall needs its pair style, whose friction fix decides the friction)
    if (c.law == "coulomb")
      in.insert(in.end(), {"pair_style gran/coulomb", "pair_coeff * * " + coeffs});
    else
      in.push_back("pair_style none");
    in.push_back(
        fmt::format("fix w small wall/gran/{} {} {} zplane 0 NULL", c.law, coeffs, c.keywords));
  } else {
    in.insert(in.end(),
              {fmt::format("pair_style gran/{} {}", c.law, c.keywords), "pair_coeff * * " + coeffs,
               "compute e all pair gran/" + c.law});
  }
  in.insert(in.end(),
            {"fix integrate small nve/sphere",
             fmt::format("fix g small gravity {} vector {:.17g} 0 {:.17g}", INCLINE_G,
                         std::sin(alpha), -std::cos(alpha)),
             "compute ke small ke", "compute erot small erotate/sphere", "timestep 1e-5",
             "thermo 50"});
  return in;
}

// kinetic + gravitational + stored + dissipated energy, and the dissipation of the dashpots
inline double incline_energy(LammpsSession &s, bool wall, double &damping)
{
  auto *modify = s.lmp->modify;
  double e = modify->get_compute_by_id("ke")->compute_scalar() +
      modify->get_compute_by_id("erot")->compute_scalar() +
      modify->get_fix_by_id("g")->compute_scalar();
  double terms[4];
  if (wall) {
    auto *w = modify->get_fix_by_id("w");
    for (int k = 0; k < 4; k++) terms[k] = w->compute_vector(3 + k);
  } else {
    const auto p = s.pair_extra();
    for (int k = 0; k < 4; k++) terms[k] = p[k];
  }
  damping = terms[3];
  return e + terms[0] + terms[1] + terms[2] + terms[3];
}

// the run of 50 ms: extra_args: LAMMPS's command-line switches (Kokkos)
inline InclineRun run_incline(const Incline &c, const std::vector<std::string> &extra_args = {})
{
  LammpsSession s(MPI_COMM_WORLD, extra_args);
  s.load_plugin();
  s.commands(incline_input(c));
  s.command("run 0 post no");
  InclineRun out{};
  double damping0;
  const double e0 = incline_energy(s, c.wall, damping0);
  const double g0 = s.lmp->modify->get_fix_by_id("g")->compute_scalar();
  double st = 0, st2 = 0, sv[2] = {0, 0}, stv[2] = {0, 0};
  int samples = 0;
  auto *atom = s.lmp->atom;
  for (int chunk = 1; chunk <= 100; chunk++) {
    s.command("run 50 pre no post no");
    const double t = chunk * 50 * 1e-5;
    if (t < 0.01 - 1e-12) continue;
    samples++;
    st += t;
    st2 += t * t;
    for (int k = 0; k < 2; k++) {
      const double v = atom->v[atom->map(1 + (c.wall ? k : 2 * k))][0];
      sv[k] += v;
      stv[k] += t * v;
    }
  }
  for (int k = 0; k < 2; k++)
    out.a[k] = (samples * stv[k] - st * sv[k]) / (samples * st2 - st * st);
  double damping1;
  const double e1 = incline_energy(s, c.wall, damping1);
  out.energy_drift = e1 - e0;
  out.gravity_work = g0 - s.lmp->modify->get_fix_by_id("g")->compute_scalar();
  out.damping = damping1 - damping0;
  return out;
}

}    // namespace demc_test

#endif
