/* Layer (b): LAMMPS in-process. The plugin loads and registers its styles, and
   forces read back through the session match closed forms. */
#include "lammps_session.h"

#include "force.h"
#include "input.h"
#include "lammps.h"
#include "pair.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <utility>

using namespace demc_test;

namespace {
const char *const PACKAGE_PAIR_STYLES[] = {"gran/kuhn", "gran/jaeger", "gran/coulomb"};
}

TEST(Plugin, RegistersItsStylesOnlyWhenLoaded)
{
  LammpsSession s;
  for (const char *style : PACKAGE_PAIR_STYLES) EXPECT_FALSE(s.has_style("pair", style)) << style;
  s.load_plugin();
  for (const char *style : PACKAGE_PAIR_STYLES) EXPECT_TRUE(s.has_style("pair", style)) << style;
}

// two touching spheres at rest under LAMMPS's own gran/hooke/history:
// the normal force is kn * overlap, equal and opposite, along the line of centres
TEST(LammpsSession, ReadsHookeForcesOfTwoSpheres)
{
  LammpsSession s;
  const double kn = 2.0e5, overlap = 1.0e-3, radius = 0.5;
  s.commands({"units si", "atom_style sphere", "atom_modify map array", "boundary f f f",
              "comm_modify vel yes", "region box block -2 2 -2 2 -2 2", "create_box 1 box",
              "create_atoms 1 single 0 0 0", "create_atoms 1 single 0.6 0.8 0",
              "set group all diameter 1.0", "set group all density 1000",
              "pair_style gran/hooke/history 2.0e5 NULL 0 NULL 0.5 0", "pair_coeff * *",
              "fix integrate all nve/sphere", "timestep 1e-6", "run 0"});
  // move atom 2 so that the overlap is exactly `overlap`
  const double d = 2 * radius - overlap;
  s.commands(
      {"set atom 2 x " + std::to_string(0.6 * d) + " y " + std::to_string(0.8 * d), "run 0"});
  auto f = s.forces();
  const double fmag = kn * overlap;
  EXPECT_NEAR(f[1][0], -0.6 * fmag, 1e-9 * fmag);
  EXPECT_NEAR(f[1][1], -0.8 * fmag, 1e-9 * fmag);
  EXPECT_NEAR(f[2][0], 0.6 * fmag, 1e-9 * fmag);
  EXPECT_NEAR(f[2][1], 0.8 * fmag, 1e-9 * fmag);
  EXPECT_EQ(f[1][2], 0.0);
}

// the keywords both pair styles share come back from a restart file as they were written
// (the pair style is then not given again: read_restart makes it from the file)
TEST(Plugin, SharedPairKeywordsSurviveRestart)
{
  const std::vector<std::pair<std::string, std::string>> styles = {
      {"gran/kuhn", "pair_coeff * * 2.0e3 2.0e3 0.5"},
      {"gran/jaeger", "pair_coeff * * 1e7 0.3 0.5"}};
  for (const auto &style : styles)
    for (bool per_atom : {false, true})
      for (bool static_shares : {false, true}) {
        const std::string keywords = std::string(" energy/atom ") + (per_atom ? "yes" : "no") +
            " schedule " + (static_shares ? "static" : "dynamic");
        const std::string file = "shared_keywords.bin";
        {
          LammpsSession s;
          s.load_plugin();
          s.commands(
              dense_packing_input({"pair_style " + style.first + keywords, style.second}, true));
          s.commands({"run 0", "write_restart " + file});
        }
        LammpsSession r;
        r.load_plugin();
        r.command("read_restart " + file);
        std::remove(file.c_str());
        int dim = -1;
        const auto *energy = static_cast<bool *>(r.lmp->force->pair->extract("energy/atom", dim));
        ASSERT_NE(energy, nullptr);
        EXPECT_EQ(dim, 0);
        const auto *shares =
            static_cast<bool *>(r.lmp->force->pair->extract("schedule/static", dim));
        ASSERT_NE(shares, nullptr);
        EXPECT_EQ(*energy, per_atom) << style.first << keywords;
        EXPECT_EQ(*shares, static_shares) << style.first << keywords;
      }
}

// the text of the BibTeX file that LAMMPS's -cite option writes for an input of lines, with the
// plugin loaded (CiteMe writes each paper to it when a style registers it)
static std::string citations_of(const std::vector<std::string> &lines)
{
  const std::string file = "citations.bib";
  std::vector<std::string> args = {"lmp", "-log", "none", "-screen", "none", "-cite", file};
  std::vector<char *> argv;
  for (auto &a : args) argv.push_back(a.data());
  auto *lmp = new LAMMPS_NS::LAMMPS((int) argv.size(), argv.data(), MPI_COMM_WORLD);
  lmp->input->one(std::string("plugin load ") + DEMC_PLUGIN_FILE);
  for (const auto &l : lines) lmp->input->one(l);
  delete lmp;
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(file.c_str());
  return text.str();
}

// each contact law asks users to cite its papers, from the pair style and from the wall fix,
// and only the law that is used
TEST(Plugin, StylesRegisterTheirPapersWithCiteMe)
{
  const std::vector<std::string> box = {"atom_style sphere", "boundary p p f",
                                        "region box block 0 1 0 1 0 1", "create_box 1 box"};
  const std::string kuhn_key = "@Misc{Kuhn2020linear", jaeger_key = "@Article{Kuhn2018jaeger",
                    book_key = "@Book{Jaeger2005";
  struct Case {
    std::string line, cited, not_cited;
  };
  const std::vector<Case> cases = {
      {"pair_style gran/kuhn", kuhn_key, jaeger_key},
      {"pair_style gran/jaeger", jaeger_key, kuhn_key},
      {"fix w all wall/gran/kuhn 2e3 2e3 0.5 zplane 0 NULL", kuhn_key, jaeger_key},
      {"fix w all wall/gran/jaeger 1e7 0.3 0.5 zplane 0 NULL", jaeger_key, kuhn_key}};
  for (const auto &c : cases) {
    auto lines = box;
    lines.push_back(c.line);
    const std::string text = citations_of(lines);
    EXPECT_NE(text.find(c.cited), std::string::npos) << c.line << ":\n" << text;
    EXPECT_EQ(text.find(c.not_cited), std::string::npos) << c.line << ":\n" << text;
    if (c.cited == jaeger_key) EXPECT_NE(text.find(book_key), std::string::npos) << c.line;
  }
  // LAMMPS's own granular style cites neither
  auto lines = box;
  lines.push_back("pair_style gran/hooke/history 2e3 NULL 0 NULL 0.5 0");
  const std::string text = citations_of(lines);
  EXPECT_EQ(text.find(kuhn_key), std::string::npos);
  EXPECT_EQ(text.find(jaeger_key), std::string::npos);
}
