#include "lammps_session.h"

#include "atom.h"
#include "compute.h"
#include "exceptions.h"
#include "fix.h"
#include "force.h"
#include "input.h"
#include "lammps.h"
#include "library.h"
#include "modify.h"
#include "pair.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>
#include <stdexcept>

#ifndef DEMC_PLUGIN_FILE
#error "DEMC_PLUGIN_FILE must name the built plugin"
#endif

namespace demc_test {

LammpsSession::LammpsSession(MPI_Comm comm, std::vector<std::string> extra_args) : comm_(comm)
{
  std::vector<std::string> args = {"lmp", "-log", "none", "-screen", "none", "-nocite"};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  std::vector<char *> argv;
  for (auto &a : args) argv.push_back(a.data());
  lmp = new LAMMPS_NS::LAMMPS((int) argv.size(), argv.data(), comm_);
}

LammpsSession::~LammpsSession()
{
  delete lmp;
}

void LammpsSession::command(const std::string &line)
{
  lmp->input->one(line);
}

void LammpsSession::commands(const std::vector<std::string> &lines)
{
  for (const auto &l : lines) command(l);
}

void LammpsSession::load_plugin()
{
  command(std::string("plugin load ") + DEMC_PLUGIN_FILE);
}

int LammpsSession::nprocs() const
{
  int n;
  MPI_Comm_size(comm_, &n);
  return n;
}

PerAtom LammpsSession::gather(double **values) const
{
  const auto *atom = lmp->atom;
  const int nlocal = atom->nlocal;
  std::vector<double> mine;
  mine.reserve(4 * nlocal);
  for (int i = 0; i < nlocal; i++) {
    mine.push_back((double) atom->tag[i]);
    for (int k = 0; k < 3; k++) mine.push_back(values[i][k]);
  }
  const int nprocs = this->nprocs();
  int count = (int) mine.size();
  std::vector<int> counts(nprocs), displs(nprocs, 0);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm_);
  for (int p = 1; p < nprocs; p++) displs[p] = displs[p - 1] + counts[p - 1];
  std::vector<double> all(displs[nprocs - 1] + counts[nprocs - 1]);
  MPI_Allgatherv(mine.data(), count, MPI_DOUBLE, all.data(), counts.data(), displs.data(),
                 MPI_DOUBLE, comm_);
  // indexed by atom ID up to the largest (IDs deleted with delete_atoms compress no: zeros)
  size_t largest = 0;
  for (size_t k = 0; k + 3 < all.size(); k += 4) largest = std::max(largest, (size_t) all[k]);
  PerAtom out(largest + 1, {0.0, 0.0, 0.0});
  for (size_t k = 0; k + 3 < all.size(); k += 4)
    out[(size_t) all[k]] = {all[k + 1], all[k + 2], all[k + 3]};
  return out;
}

PerAtom LammpsSession::forces() const
{
  return gather(lmp->atom->f);
}

PerAtom LammpsSession::torques() const
{
  return gather(lmp->atom->torque);
}

PerAtom LammpsSession::positions() const
{
  return gather(lmp->atom->x);
}

double LammpsSession::pair_energy() const
{
  double mine = lmp->force->pair->eng_vdwl, sum = 0.0;
  MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, comm_);
  return sum;
}

std::vector<double> LammpsSession::pair_extra() const
{
  const auto *pair = lmp->force->pair;
  std::vector<double> mine(pair->pvector, pair->pvector + pair->nextra), sum(pair->nextra);
  MPI_Allreduce(mine.data(), sum.data(), pair->nextra, MPI_DOUBLE, MPI_SUM, comm_);
  return sum;
}

bool LammpsSession::has_style(const std::string &category, const std::string &name) const
{
  return lammps_has_style(lmp, category.c_str(), name.c_str()) != 0;
}

double max_relative_difference(const PerAtom &a, const PerAtom &b)
{
  if (a.size() != b.size()) return INFINITY;
  double scale = 0.0, diff = 0.0;
  for (size_t i = 0; i < a.size(); i++)
    for (int k = 0; k < 3; k++) {
      scale = std::max(scale, std::fabs(a[i][k]));
      diff = std::max(diff, std::fabs(a[i][k] - b[i][k]));
    }
  return scale > 0.0 ? diff / scale : diff;
}

std::vector<std::string> dense_packing_input(const std::vector<std::string> &pair_style_lines,
                                             bool newton_pair)
{
  std::vector<std::string> lines = {
      "units si",
      "atom_style sphere",
      "atom_modify map array",
      std::string("newton ") + (newton_pair ? "on" : "off"),
      "boundary p p p",
      "comm_modify vel yes",
      "lattice sc 0.0019",
      "region box block 0 8 0 8 0 8",
      "create_box 2 box",
      "create_atoms 1 box",
      // create_atoms numbers atoms rank by rank; a spatial sort makes IDs independent of ranks
      "reset_atoms id sort yes",
      "group odd id 1:512:2",
      "set group odd type 2",
      // polydisperse radii 0.875-1.025 mm from the atom ID: the same on any rank count
      "variable d atom 0.00175+0.0003*((id*7919)%101)/101",
      "set group all diameter v_d",
      "set group all density 2650",
      "velocity all create 1e16 87287 loop geom",    // about 0.1 m/s
      "variable wx atom 20*sin(id)",
      "variable wy atom 20*cos(3*id)",
      "variable wz atom 20*sin(7*id)",
      "set group all omega v_wx v_wy v_wz",
      "neighbor 0.0003 bin",
      "neigh_modify delay 0",
  };
  lines.insert(lines.end(), pair_style_lines.begin(), pair_style_lines.end());
  for (const auto &l : {"fix integrate all nve/sphere", "timestep 1e-5"}) lines.emplace_back(l);
  return lines;
}

std::vector<std::string> replace_last_atom_input(const std::vector<std::string> &between)
{
  std::vector<std::string> lines = {
      "variable x0 equal x[512]", "variable y0 equal y[512]",
      "variable z0 equal z[512]", "variable d0 equal 2*radius[512]",
      "variable x1 equal ${x0}",  "variable y1 equal ${y0}",
      "variable z1 equal ${z0}",  "variable d1 equal ${d0}",
      "group last id 512",        "delete_atoms group last compress no"};
  lines.insert(lines.end(), between.begin(), between.end());
  for (const auto &l : {"create_atoms 1 single ${x1} ${y1} ${z1} units box",
                        "set atom 512 diameter ${d1}", "set atom 512 density 2650"})
    lines.emplace_back(l);
  return lines;
}

std::vector<std::string> energy_computes(const std::string &pair_style)
{
  return {"compute ke all ke", "compute erot all erotate/sphere",
          "compute e all pair " + pair_style, "thermo_style custom step c_ke c_erot c_e[*]"};
}

double atom_energy_mismatch(LammpsSession &s, const std::string &history_id)
{
  s.commands({"compute demc_ae_sum all reduce sum f_" + history_id + "_ATOM_ENERGY[*]",
              "thermo_style custom step c_demc_ae_sum[*] c_e[*]", "run 0 post no"});
  auto *sum = s.lmp->modify->get_compute_by_id("demc_ae_sum");
  sum->compute_vector();
  const auto e = s.pair_extra();
  // columns: stored normal, stored tangential, tangential work, damping; friction = work - stored
  const double per_atom[4] = {sum->vector[0], sum->vector[1], sum->vector[2] - sum->vector[1],
                              sum->vector[3]};
  double scale = 0.0, diff = 0.0;
  for (int k = 0; k < 4; k++) {
    scale = std::max(scale, std::fabs(e[k]));
    diff = std::max(diff, std::fabs(per_atom[k] - e[k]));
  }
  s.command("uncompute demc_ae_sum");
  return diff / scale;
}

void expect_atom_energies_sum_to_global(
    const std::function<std::vector<std::string>(bool newton)> &input,
    const std::string &pair_style, const std::string &history_id)
{
  for (bool newton : {true, false}) {
    LammpsSession s;
    s.load_plugin();
    s.commands(input(newton));
    s.commands(energy_computes(pair_style));
    s.command("run 300");
    ASSERT_GT(s.pair_extra()[2], 0.0) << "friction, newton " << newton;
    EXPECT_LT(atom_energy_mismatch(s, history_id), 1e-10) << "newton " << newton;
  }
}

double largest_friction_ratio(LammpsSession &s, const std::string &pair_local)
{
  auto *pl = s.lmp->modify->get_compute_by_id(pair_local);
  pl->compute_local();
  double most = 0.0;
  for (int k = 0; k < pl->size_local_rows; k++) {
    const double *row = pl->array_local[k];
    if (row[0] > 0.0)
      most =
          std::max(most, std::sqrt(row[1] * row[1] + row[2] * row[2] + row[3] * row[3]) / row[0]);
  }
  return most;
}

double total_energy(LammpsSession &s)
{
  s.command("run 0 post no");
  auto *ke = s.lmp->modify->get_compute_by_id("ke");
  auto *erot = s.lmp->modify->get_compute_by_id("erot");
  const double kinetic = ke->compute_scalar() + erot->compute_scalar();
  const auto e = s.pair_extra();
  return kinetic + e[0] + e[1] + e[2] + e[3];
}

EnergyBalance packing_energy_balance(const std::vector<std::string> &pair_lines,
                                     const std::string &pair_style, double dt, int steps)
{
  LammpsSession s;
  s.load_plugin();
  s.commands(dense_packing_input(pair_lines, true));
  s.commands(energy_computes(pair_style));
  s.command(fmt::format("timestep {}", dt));
  EnergyBalance b;
  b.e0 = total_energy(s);
  s.command(fmt::format("run {}", steps));
  b.e1 = total_energy(s);
  b.pair = s.pair_extra();
  return b;
}

namespace {

  class RigidBodyStandIn : public LAMMPS_NS::Fix {
   public:
    RigidBodyStandIn(LAMMPS_NS::LAMMPS *lmp, int narg, char **arg) : Fix(lmp, narg, arg)
    {
      rigid_flag = 1;
    }
    int setmask() override { return 0; }
  };

  LAMMPS_NS::Fix *make_rigid_body_stand_in(LAMMPS_NS::LAMMPS *lmp, int narg, char **arg)
  {
    return new RigidBodyStandIn(lmp, narg, arg);
  }

  // two spheres apart, the laws with their damping words, and the stand-in rigid body
  void set_up_rigid_body_case(LammpsSession &s, const std::vector<std::string> &laws,
                              const std::string &damping)
  {
    (*s.lmp->modify->fix_map)["demc_test/rigid"] = &make_rigid_body_stand_in;
    s.load_plugin();
    s.commands({"units si", "atom_style sphere", "boundary p p f", "comm_modify vel yes",
                "region box block 0 2 0 2 0 2", "create_box 1 box",
                "create_atoms 1 single 0.5 0.5 0.5", "create_atoms 1 single 1.5 1.5 1.5",
                "fix integrate all nve/sphere"});
    for (std::string line : laws) {
      const auto at = line.find("{}");
      if (at != std::string::npos) line.replace(at, 2, damping);
      s.command(line);
    }
    s.command("fix clump all demc_test/rigid");
  }

}    // namespace

void expect_restitution_refuses_rigid_bodies(const std::vector<std::string> &extra_args,
                                             const std::string &who,
                                             const std::vector<std::string> &laws)
{
  {
    LammpsSession s(MPI_COMM_WORLD, extra_args);
    set_up_rigid_body_case(s, laws, "restitution 0.5 0");
    try {
      s.command("run 0");
      ADD_FAILURE() << "no error for " << who << " with restitution and a rigid body";
    } catch (LAMMPS_NS::LAMMPSException &e) {
      const std::string what = e.what();
      for (const std::string &part :
           {who + ": restitution damping does not support fix clump (demc_test/rigid)",
            std::string("not its rigid body's")})
        EXPECT_NE(what.find(part), std::string::npos)
            << who << "\n  error: " << what << "\n  expected: " << part;
    }
  }
  LammpsSession s(MPI_COMM_WORLD, extra_args);
  try {
    set_up_rigid_body_case(s, laws, "damping 1 1");
    s.command("run 0");
  } catch (LAMMPS_NS::LAMMPSException &e) {
    ADD_FAILURE() << who << " with constant dashpots and a rigid body: " << e.what();
  }
}

void expect_pair_write_refused(const std::vector<std::string> &extra_args, const std::string &who,
                               const std::vector<std::string> &pair)
{
  const std::string table = "demc_pair_write_table.txt";
  const std::vector<std::string> second_atom = {"create_atoms 1 single 0.5 0.5 0.59",
                                                "set group all diameter 0.1", "run 0"};
  for (const bool two_atoms : {false, true}) {
    LammpsSession s(MPI_COMM_WORLD, extra_args);
    s.load_plugin();
    s.commands({"units si", "atom_style sphere", "comm_modify vel yes",
                "region box block 0 1 0 1 0 1", "create_box 1 box",
                "create_atoms 1 single 0.5 0.5 0.5"});
    s.commands(pair);
    if (two_atoms) s.commands(second_atom);
    try {
      s.command("pair_write 1 1 10 r 0.01 0.1 " + table + " TABLE");
      ADD_FAILURE() << "no error for pair_write with " << who << (two_atoms ? " (two atoms)" : "");
    } catch (LAMMPS_NS::LAMMPSException &e) {
      const std::string what = e.what();
      const std::string expected = "Pair " + who + " cannot be tabulated (pair_write)";
      EXPECT_NE(what.find(expected), std::string::npos)
          << "error: " << what << "\n  expected: " << expected;
    }
    std::remove(table.c_str());
  }
}

void expect_sorting_changes_nothing(const std::vector<std::string> &pair,
                                    const std::string &atom_energy_fix)
{
  struct Outcome {
    PerAtom forces, torques;
    std::vector<double> pvector;
    std::vector<std::vector<double>> atom_energy;    // by atom ID (serial run)
  };
  auto run = [&](int sort_every) {
    LammpsSession s;
    s.load_plugin();
    s.commands(dense_packing_input(pair, true));
    s.commands({"neigh_modify every 1 delay 0 check no",
                "atom_modify sort " + std::to_string(sort_every) + " 0.005", "run 200"});
    Outcome out{s.forces(), s.torques(), s.pair_extra(), {}};
    if (!atom_energy_fix.empty()) {
      const auto *fix = s.lmp->modify->get_fix_by_id(atom_energy_fix);
      const auto *atom = s.lmp->atom;
      out.atom_energy.assign(atom->natoms + 1, std::vector<double>(fix->size_peratom_cols));
      for (int i = 0; i < atom->nlocal; i++)
        for (int k = 0; k < fix->size_peratom_cols; k++)
          out.atom_energy[atom->tag[i]][k] = fix->array_atom[i][k];
    }
    return out;
  };
  const Outcome sorted = run(7), unsorted = run(0);
  EXPECT_LT(max_relative_difference(sorted.forces, unsorted.forces), 1e-9);
  EXPECT_LT(max_relative_difference(sorted.torques, unsorted.torques), 1e-9);
  ASSERT_EQ(sorted.pvector.size(), unsorted.pvector.size());
  for (size_t k = 0; k < sorted.pvector.size(); k++)
    EXPECT_NEAR(sorted.pvector[k], unsorted.pvector[k], 1e-9 * std::fabs(unsorted.pvector[k]))
        << "pair vector value " << k + 1;
  EXPECT_GT(unsorted.pvector[4], 100.0) << "contacts: the comparison needs some";
  if (atom_energy_fix.empty()) return;
  ASSERT_FALSE(unsorted.atom_energy.empty());
  for (size_t k = 0; k < unsorted.atom_energy[1].size(); k++) {
    double scale = 0.0, diff = 0.0;
    for (size_t id = 1; id < unsorted.atom_energy.size(); id++) {
      scale = std::max(scale, std::fabs(unsorted.atom_energy[id][k]));
      diff = std::max(diff, std::fabs(sorted.atom_energy[id][k] - unsorted.atom_energy[id][k]));
    }
    EXPECT_GT(scale, 0.0) << "per-atom energy column " << k + 1;
    EXPECT_LE(diff, 1e-9 * scale) << "per-atom energy column " << k + 1;
  }
}

}    // namespace demc_test
