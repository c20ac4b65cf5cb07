/* Test helper: a small jammed packing that relaxes under fix viscous, whose damped vibrations
   push history points that nothing erases (gran/jaeger's histories grow long or reach
   history/max within a few thousand steps), and the measures the restart and pruning tests read
   off it: gran/jaeger's history statistics and the sum of x_i (x) F_i (the net-force moment, a
   sensitive measure of a relaxed packing's forces).

   216 polydisperse spheres on a simple cubic lattice, pressed between two wall/gran/jaeger
   zplanes; the pair and the wall get `pair_args` and `wall_args`, both `coeff_tail` after their
   material (e.g. contact dashpots). Also vibrating_lattice(): a packing whose contacts follow a
   prescribed decaying vibration. */

#ifndef DEMC_TEST_RELAXING_PACKING_H
#define DEMC_TEST_RELAXING_PACKING_H

#include "lammps_session.h"

#include "fix.h"
#include "lammps.h"
#include "modify.h"

#include <array>
#include <cmath>
#include <string>
#include <vector>

namespace demc_test {

inline std::vector<std::string> relaxing_packing(const std::string &pair_args,
                                                 const std::string &wall_args,
                                                 const std::string &coeff_tail = "")
{
  return {"units si",
          "atom_style sphere",
          "atom_modify map array",
          "boundary p p m",
          "comm_modify vel yes",
          "lattice sc 0.0019",
          "region box block 0 6 0 6 0 6",
          "create_box 1 box",
          "create_atoms 1 box",
          "reset_atoms id sort yes",
          "variable d atom 0.00185+0.0002*((id*7919)%101)/101",
          "set group all diameter v_d",
          "set group all density 2650",
          "velocity all create 1e16 87287 loop geom",
          "neighbor 0.0003 bin",
          "neigh_modify delay 0",
          "pair_style gran/jaeger" + pair_args,
          "pair_coeff * * 1e7 0.3 0.5" + coeff_tail,
          "fix integrate all nve/sphere",
          "fix visc all viscous 2e-5",
          "fix wall all wall/gran/jaeger 1e7 0.3 0.5" + wall_args + coeff_tail + " zplane 0 0.0114",
          "timestep 1e-5"};
}

/* A lattice packing (125 spheres, each pressed on its 6 neighbours) whose spheres vibrate along
   x with an amplitude that decays by e every 10 periods (400 steps), the phase varying through
   the packing: a damped vibration prescribed (fix move), so that runs with different settings
   see the same motion (a free relaxation is chaotic: two runs 1e-12 apart differ at O(1) within
   20,000 steps). The contacts reverse twice a period with ever smaller amplitudes, and the
   exact history keeps a point for every reversal. */
inline std::vector<std::string> vibrating_lattice(const std::string &pair_args)
{
  return {"units si",
          "atom_style sphere",
          "atom_modify map array",
          "boundary p p p",
          "comm_modify vel yes",
          "lattice sc 0.00199",
          "region box block 0 5 0 5 0 5",
          "create_box 1 box",
          "create_atoms 1 box",
          "variable d atom 0.00200+0.00002*((id*7919)%101)/101",
          "set group all diameter v_d",
          "set group all density 2650",
          "displace_atoms all random 2e-6 2e-6 2e-6 4711 units box",
          "neighbor 0.0003 bin",
          "neigh_modify delay 0",
          "pair_style gran/jaeger" + pair_args,
          "pair_coeff * * 1e10 0.3 0.5",
          "timestep 2e-7",
          "variable w equal 2*PI/(40*dt)",
          "variable amp equal 2e-7*exp(-step/400)",
          "variable phase atom v_w*step*dt+(x+2*y+3*z)/0.0011",
          "variable dx atom v_amp*sin(v_phase)",
          "variable vx atom v_amp*(v_w*cos(v_phase)-sin(v_phase)/(400*dt))",
          "variable zero atom 0.0",
          "fix vib all move variable v_dx v_zero v_zero v_vx v_zero v_zero",
          "compute pl all pair/local p5",
          "compute pmax all reduce max c_pl inputs local",
          "run 0"};
}

// the lines of relaxing_packing() that a restart file does not hold (fixes, neighbor settings,
// the time step), fix viscous left out where `viscous` is false
inline std::vector<std::string> relaxing_packing_redefinitions(const std::vector<std::string> &in,
                                                               bool viscous)
{
  std::vector<std::string> lines;
  for (const auto &line : in)
    if ((line.rfind("fix ", 0) == 0 || line.rfind("neigh", 0) == 0 ||
         line.rfind("timestep", 0) == 0) &&
        (viscous || line.rfind("fix visc", 0) != 0))
      lines.push_back(line);
  return lines;
}

// gran/jaeger's history statistics (FixJaegerHistory::Stats): 1 mean length, 2 longest,
// 3 bytes per contact, 4 merges, 5 points pruned; -1 without the fix
inline double history_stat(LammpsSession &s, int index)
{
  auto *fix = s.lmp->modify->get_fix_by_id("DEMC_GRAN_JAEGER_HISTORY0");
  return fix ? fix->compute_vector(index) : -1.0;
}

// sum over the atoms of x_i (x) F_i (the virial's sum), on every rank
inline std::array<double, 9> position_force_sum(LammpsSession &s)
{
  const PerAtom x = s.positions(), f = s.forces();
  std::array<double, 9> sum{};
  for (size_t id = 1; id < x.size(); id++)
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++) sum[3 * a + b] += x[id][a] * f[id][b];
  return sum;
}

/* The run of the capped restart tests: `input` run `relax` steps (the histories reach their
   cap and merge), fix viscous taken off, then one run of 2 `after` steps that writes its restart
   file `stem`.<relax + after>.bin at its middle (restart output, no setup in between); the
   merge counter read at step relax and at the step of the file (fix ave/time of the history
   fix's vector there), the longest history at step relax, the forces and sum x (x) F at the
   end. */
struct FileAfterMerges {
  PerAtom forces;
  std::array<double, 9> position_force;
  double merges_before, merges_at_file, longest;
};

inline FileAfterMerges write_file_after_merges(const std::vector<std::string> &input, int relax,
                                               int after, const std::string &stem)
{
  FileAfterMerges out{};
  LammpsSession s;
  s.load_plugin();
  s.commands(input);
  s.command("run " + std::to_string(relax));
  out.merges_before = history_stat(s, 4);
  out.longest = history_stat(s, 2);
  const int file_step = relax + after;
  s.commands({"unfix visc", "variable merges equal f_DEMC_GRAN_JAEGER_HISTORY0[5]",
              "fix at_file all ave/time 1 1 " + std::to_string(file_step) + " v_merges",
              "restart " + std::to_string(file_step) + " " + stem + ".*.bin",
              "run " + std::to_string(2 * after)});
  out.merges_at_file = s.lmp->modify->get_fix_by_id("at_file")->compute_scalar();
  out.forces = s.forces();
  out.position_force = position_force_sum(s);
  return out;
}

// the file of write_file_after_merges() read back in r, the fixes defined again (fix viscous
// left out, as after the file), `after` steps on
inline void resume_after_merges(LammpsSession &r, const std::string &file,
                                const std::vector<std::string> &input, int after)
{
  r.load_plugin();
  r.command("read_restart " + file);
  r.commands(relaxing_packing_redefinitions(input, false));
  r.command("run " + std::to_string(after));
}

inline double relative_frobenius(const std::array<double, 9> &a, const std::array<double, 9> &b)
{
  double diff = 0.0, norm = 0.0;
  for (int k = 0; k < 9; k++) {
    diff += (a[k] - b[k]) * (a[k] - b[k]);
    norm += a[k] * a[k];
  }
  return std::sqrt(diff / norm);
}

}    // namespace demc_test

#endif
