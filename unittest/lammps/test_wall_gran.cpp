/* Layer (b): fix wall/gran/kuhn and fix wall/gran/jaeger inside LAMMPS.
   - a sphere pressed on a wall, sheared, rolled and lifted off under prescribed motion
     reproduces the kernels called directly with geometry and wall motion computed here
     (static plane, wiggling cylinder, plane translated by variables, turntable rotating
     by a variable, rotating and wiggling drum): forces, torques, the force and torque on
     the wall, the wall's work and every energy term of the fix's vector;
   - a drum turning past a particle held in place: the closed forms of sticking and
     sliding (force, torque on the drum, friction dissipation = the drum's work);
   - the Hertz modulus mixes the wall's and the particle type's E, nu;
   - a wall translating under a resting layer = the layer moving the other way;
   - kinetic + stored + dissipated energy is constant with static walls; fix_modify energy;
   - restart continuity (history records and the wall's clock and displacement);
   - bad input gives clear errors. */
#include "lammps_session.h"
#include "contact_paths.h"
#include "prescribed_motion.h"

#include "contact_frame.h"
#include "jaeger_contact.h"
#include "kuhn_contact.h"

#include "atom.h"
#include "compute.h"
#include "exceptions.h"
#include "fix.h"
#include "lammps.h"
#include "modify.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace demc_test;
using demc::Vec3;
namespace jaeger = demc::jaeger;
namespace kuhn = demc::kuhn;

namespace {

const double RADIUS = 0.5, DT = 1.0e-4, PI = 3.14159265358979323846;
enum {
  V_FX,
  V_FY,
  V_FZ,
  V_NORMAL,
  V_TANGENTIAL,
  V_FRICTION,
  V_DAMPING,
  V_CONTACTS,
  V_SLIDING,
  V_TORQUE_Z,
  V_WALL_WORK,
  V_SIZE
};

double comp(const Vec3 &v, int k)
{
  return k == 0 ? v.x : (k == 1 ? v.y : v.z);
}

std::vector<double> fix_vector(LammpsSession &s, const std::string &id)
{
  auto *fix = s.lmp->modify->get_fix_by_id(id);
  std::vector<double> v;
  for (int k = 0; k < V_SIZE; k++) v.push_back(fix ? fix->compute_vector(k) : NAN);
  return v;
}

/* ---------------------------------------------------------------------- 
   walls as the test sees them: geometry and motion written from their
   definitions (planes at lo/hi + displacement, cylinder about the shifted
   z axis; wiggle A (1 - cos(2 pi t / T)); translate v(t_end) dt)
------------------------------------------------------------------------- */

struct WallCase {
  const char *name;
  std::string args;    // wallstyle args and motion keywords of the fix
  std::vector<std::string> variables;
  Vec3 touch_point;    // sphere centre just touching the wall at rest
  Vec3 e_n, t1, t2;    // towards the wall, and two tangents
  double (*gap)(const Vec3 &x, const Vec3 &d, Vec3 &n);    // centre to wall, normal towards it
  Vec3 (*move)(int k);                                     // wall movement over the k-th step
  double (*turn)(int k) = nullptr;    // rotation about the wall's z axis over the k-th step
};

double gap_zlo(const Vec3 &x, const Vec3 &d, Vec3 &n)
{
  n = {0.0, 0.0, -1.0};
  return x.z - d.z;
}

double gap_cylinder(const Vec3 &x, const Vec3 &d, Vec3 &n)
{
  const double ax = x.x - d.x, ay = x.y - d.y, rho = std::sqrt(ax * ax + ay * ay);
  n = {ax / rho, ay / rho, 0.0};
  return 3.0 - rho;
}

double gap_xhi(const Vec3 &x, const Vec3 &d, Vec3 &n)
{
  n = {1.0, 0.0, 0.0};
  return 2.0 + d.x - x.x;
}

Vec3 still(int)
{
  return {0.0, 0.0, 0.0};
}

Vec3 wiggle_x(int k)
{
  const double w = 2.0 * PI / 0.004;
  return {0.01 * (std::cos(w * k * DT) - std::cos(w * (k + 1) * DT)), 0.0, 0.0};
}

double turn_by_variable(int k)
{
  return DT * (0.5 + 2.0 * std::sin(0.13 * (k + 1)));    // step k + 1 ends the k-th step
}

double turn_backwards(int)
{
  return DT * -0.5;
}

Vec3 translate_by_variables(int k)
{
  return {0.0, DT * 1.5 * std::sin(0.1 * (k + 1)),
          DT * 0.5 * std::cos(0.07 * (k + 1))};    // step k + 1 ends the k-th step
}

// clang-format off
const WallCase WALLS[] = {
    {"static zplane", "zplane 0.0 NULL", {}, {0.1, -0.2, 0.5}, {0, 0, -1}, {1, 0, 0}, {0, 1, 0},
     gap_zlo, still},
    {"wiggling zcylinder", "zcylinder 3.0 wiggle x 0.01 0.004", {}, {2.5, 0.1, 0.0}, {1, 0, 0},
     {0, 1, 0}, {0, 0, 1}, gap_cylinder, wiggle_x},
    {"xplane translated by variables", "xplane NULL 2.0 translate 0 v_vy v_vz",
     {"variable vy equal 1.5*sin(0.1*step)", "variable vz equal 0.5*cos(0.07*step)"}, {1.5, 0.3, -0.1},
     {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, gap_xhi, translate_by_variables},
    {"turntable: zplane rotating by a variable", "zplane 0.0 NULL rotate v_w",
     {"variable w equal 0.5+2*sin(0.13*step)"}, {0.8, -0.3, 0.5}, {0, 0, -1}, {1, 0, 0}, {0, 1, 0},
     gap_zlo, still, turn_by_variable},
    {"drum: zcylinder rotating about its wiggling axis", "zcylinder 3.0 rotate -0.5 wiggle x 0.01 0.004",
     {}, {2.5, 0.1, 0.0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, gap_cylinder, wiggle_x, turn_backwards},
};
// clang-format on

// the sphere's velocity in the wall's frame (towards the wall, along t1, t2) and its spin
struct Drive {
  double vn, v1, v2;
  Vec3 w;
};

// approach (fresh contact inside a step), press, slide while rolling and twirling,
// turn the sliding direction, lift off
Drive kuhn_drive(int k)
{
  Drive d{0.0, 0.0, 0.0, {0.2 + 0.3 * std::cos(0.03 * k), -0.4 * std::sin(0.02 * k), 1.5}};
  if (k < 40) {
    d.vn = 60.0;
  } else if (k < 120) {
    d.vn = -20.0 * std::sin(0.1 * k);
    d.v1 = 30.0 * std::cos(0.04 * k);
    d.v2 = 20.0 * std::sin(0.07 * k);
  } else {
    d.vn = -60.0;
    d.v1 = 1.0;
  }
  return d;
}

// approach, load, slide back and forth (reversals: long histories), lift off
Drive jaeger_drive(int k)
{
  Drive d{0.0, 0.0, 0.0, {0.2 + 0.3 * std::cos(0.03 * k), -0.4 * std::sin(0.02 * k), 1.5}};
  if (k < 30) {
    d.vn = 30.0;
  } else if (k < 200) {
    d.vn = 3.0 * std::sin(0.13 * k);
    d.v1 = 2.0 * std::sin(0.21 * k);
    d.v2 = 1.0 * std::cos(0.09 * k);
  } else {
    d.vn = -40.0;
  }
  return d;
}

// press, then a tangential vibration of decaying amplitude at constant overlap (every reversal
// leaves a history point: far more than the pruning rule's 72), lift off
Drive vibration_drive(int k)
{
  Drive d{0.0, 0.0, 0.0, {0.0, 0.0, 0.0}};
  if (k < 30) {
    d.vn = 30.0;
  } else if (k < 630) {
    const double t = k - 30.0;
    d.v1 = 3.0 * std::exp(-t / 300.0) * std::cos(2.0 * M_PI * t / 8.0);
  } else {
    d.vn = -40.0;
  }
  return d;
}

// one step of the contact as the kernels take it (particle p, wall q)
struct Geometry {
  double overlap;
  Vec3 n, n_old, du_p, du_q, dth_p, dth_q, r_p, r_q;
  // the wall's movement at the contact point, and relative to the particle's
  Vec3 wall_move() const { return du_q + demc::cross(dth_q, r_q); }
  Vec3 du() const { return wall_move() - du_p - demc::cross(dth_p, r_p); }
};

// what the fix must report after the step
struct Outcome {
  Vec3 force;    // on the particle
  double normal, tangential, friction, damping, contacts;
};

// gran/kuhn's law by hand: kernel per step; separation releases |ft|^2 / (2 kt)
struct KuhnByHand {
  kuhn::Params p;
  Vec3 ft{0, 0, 0};
  double zeta = 0.0, friction = 0.0, damping = 0.0;
  bool touching = false;
  int sliding_steps = 0;

  Outcome step(const Geometry &g)
  {
    if (!(g.overlap > 0.0)) {
      if (touching) friction += demc::norm2(ft) / (2.0 * p.kt);
      ft = {0, 0, 0};
      touching = false;
      return {{0, 0, 0}, 0.0, 0.0, friction, damping, 0.0};
    }
    kuhn::Motion m;
    m.zeta_new = g.overlap;
    m.zeta_old = touching ? zeta : 0.0;
    m.n = g.n;
    m.n_old = g.n_old;
    m.du_p = g.du_p;
    m.du_q = g.du_q;
    m.dth_p = g.dth_p;
    m.dth_q = g.dth_q;
    m.r_p = g.r_p;
    m.r_q = g.r_q;
    m.dt = DT;
    auto res = kuhn::step(p, m, ft);
    // the dashpots limited as the fix does by default (damping_cap yes; the limit itself is
    // tested against its properties in kernels.test_contact_geometry)
    kuhn::limit_dashpots(demc::DashpotLimits{}, p.mu, kuhn::kinematics_of(m), res);
    ft = res.ft;
    zeta = g.overlap;
    touching = true;
    friction += res.dWt_irrev;
    damping += res.dW_damp;
    if (demc::norm(ft) > p.mu * res.fn * (1 - 1e-9)) sliding_steps++;
    return {res.force, res.Wn, demc::norm2(ft) / (2.0 * p.kt), friction, damping, 1.0};
  }
};

// gran/jaeger's law by hand: frame, fresh shift, kernel, dashpot; friction = work - stored
struct JaegerByHand {
  jaeger::Material mat;
  double nu_n, nu_t;
  double prune = jaeger::kDefaultPrune;    // the wall's default
  jaeger::PruneSpent spent = {0.0, 0.0};   // the contact's spent pruning budget
  std::vector<jaeger::Point> pts = std::vector<jaeger::Point>(1000);
  jaeger::Stack st{pts.data(), 0, 1000};
  demc::frame::Quat q{1, 0, 0, 0};
  bool touching = false;
  double work = 0.0, damping = 0.0;
  int longest = 0;

  Outcome step(const Geometry &g)
  {
    const Vec3 du = g.du();
    if (touching) q = demc::frame::update(q, g.n, 0.5 * demc::dot(g.dth_p + g.dth_q, g.n));
    const auto l = demc::frame::to_local(q, du);
    jaeger::Vec2 ds{l.x, l.y};
    if (!(g.overlap > 0.0)) {
      if (touching)
        work += jaeger::step(mat, st, g.overlap, ds, 0.0, true, -1.0, prune, &spent).work;
      st.n = 0;
      touching = false;
      return {{0, 0, 0}, 0.0, 0.0, work, damping, 0.0};
    }
    if (!touching) {
      q = demc::frame::init_frame(g.n);
      const auto l0 = demc::frame::to_local(q, du);
      ds = jaeger::fresh_contact_shift(g.overlap + demc::dot(du, g.n), g.overlap, {l0.x, l0.y});
      st.n = 0;
    }
    const auto res = jaeger::step(mat, st, g.overlap, ds, 0.0, true, -1.0, prune, &spent);
    work += res.work;
    touching = true;
    longest = std::max(longest, st.n);
    const double un = demc::dot(du, g.n);
    Vec3 fdamp = (1.0 / DT) * ((nu_n * un) * g.n + nu_t * (du - un * g.n));
    const Vec3 T = demc::frame::to_global(q, res.T.x, res.T.y);
    demc::limit_dashpot_force(demc::DashpotLimits{}, mat.mu, res.P, T, g.n,
                              fdamp);    // (as Kuhn's)
    damping += demc::dot(fdamp, du);
    const Vec3 force = -res.P * g.n + T + fdamp;
    const double stored = jaeger::stored_energy(mat, st);
    return {force, jaeger::normal_energy(mat, g.overlap), stored, work - stored, damping, 1.0};
  }
};

// one sphere (no pair style) driven step by step against the wall of fix `w`; the law by
// hand gives what LAMMPS must report after each step
template <class Law>
void drive_against_wall(const std::string &law_fix, const WallCase &wc, double gap0,
                        Drive (*drive)(int), int steps, Law &law,
                        std::vector<int> *exchange_room = nullptr)
{
  LammpsSession s;
  s.load_plugin();
  const Vec3 x0 = wc.touch_point - gap0 * wc.e_n;
  s.commands({"units si", "atom_style sphere", "atom_modify map array", "boundary f f f",
              "region box block -4 4 -4 4 -4 4 units box", "create_box 1 box",
              fmt::format("create_atoms 1 single {} {} {} units box", x0.x, x0.y, x0.z),
              "set group all diameter 1.0", "set group all density 1000",
              "timestep " + std::to_string(DT)});
  s.commands(wc.variables);
  s.commands({"fix w all " + law_fix + " " + wc.args, "run 0 post no"});
  auto *atom = s.lmp->atom;
  Vec3 disp{0, 0, 0};
  double wall_work = 0.0, wall_work_scale = 1e-12;    // (the sum of the increments' sizes)
  for (int k = 0; k < steps; k++) {
    const Drive dr = drive(k);
    const Vec3 v = dr.vn * wc.e_n + dr.v1 * wc.t1 + dr.v2 * wc.t2;
    const int i = atom->map(1);
    put(atom->x[i], get(atom->x[i]) + DT * v);
    put(atom->v[i], v);
    put(atom->omega[i], dr.w);
    s.command("run 1 pre no post no");
    if (exchange_room) exchange_room->push_back(s.lmp->modify->get_fix_by_id("w")->maxexchange);

    const Vec3 x = get(atom->x[atom->map(1)]), move = wc.move(k);
    disp = disp + move;
    Geometry g;
    g.overlap = RADIUS - wc.gap(x, disp, g.n);
    wc.gap(x - DT * v, disp - move, g.n_old);
    g.du_p = DT * v;
    g.du_q = move;
    g.dth_p = DT * dr.w;
    g.dth_q = {0.0, 0.0, wc.turn ? wc.turn(k) : 0.0};
    g.r_p = (RADIUS - 0.5 * g.overlap) * g.n;
    const Vec3 contact_point = x + g.r_p;
    g.r_q = {contact_point.x - disp.x, contact_point.y - disp.y, 0.0};    // from the z axis
    const Outcome e = law.step(g);
    const Vec3 torque = demc::cross(g.r_p, e.force);
    const double wall_torque = -demc::cross(g.r_q, e.force).z;
    const double wall_work_step = demc::dot(e.force, g.wall_move());
    wall_work += wall_work_step;
    wall_work_scale += std::fabs(wall_work_step);

    const auto f = s.forces(), t = s.torques();
    const auto w = fix_vector(s, "w");
    const double scale = std::max(1e-3, demc::norm(e.force));
    for (int c = 0; c < 3; c++) {
      EXPECT_NEAR(f[1][c], comp(e.force, c), 1e-9 * scale) << wc.name << " step " << k;
      EXPECT_NEAR(t[1][c], comp(torque, c), 1e-9 * scale) << wc.name << " step " << k;
      EXPECT_NEAR(w[V_FX + c], -comp(e.force, c), 1e-9 * scale) << wc.name << " step " << k;
    }
    const double energy_scale = std::max({1e-12, e.normal, e.friction, e.damping});
    EXPECT_NEAR(w[V_NORMAL], e.normal, 1e-9 * energy_scale) << wc.name << " step " << k;
    EXPECT_NEAR(w[V_TANGENTIAL], e.tangential, 1e-9 * energy_scale) << wc.name << " step " << k;
    EXPECT_NEAR(w[V_FRICTION], e.friction, 1e-9 * energy_scale) << wc.name << " step " << k;
    EXPECT_NEAR(w[V_DAMPING], e.damping, 1e-9 * energy_scale) << wc.name << " step " << k;
    EXPECT_EQ(w[V_CONTACTS], e.contacts) << wc.name << " step " << k;
    EXPECT_NEAR(w[V_TORQUE_Z], wall_torque, 1e-9 * scale * 3.0) << wc.name << " step " << k;
    EXPECT_NEAR(w[V_WALL_WORK], wall_work, 1e-9 * wall_work_scale) << wc.name << " step " << k;
  }
}

}    // namespace

TEST(WallGranKuhn, PrescribedPressAndShearReproducesKernel)
{
  for (const auto &wc : WALLS) {
    KuhnByHand law;
    law.p = {1.0e5, 8.0e4, 0.4, 5.0, 3.0, kuhn::ALL};
    drive_against_wall("wall/gran/kuhn 1e5 8e4 0.4 damping 5 3", wc, 0.2, kuhn_drive, 160, law);
    // the path must have exercised contact, sliding, separation and the dashpots
    EXPECT_GT(law.sliding_steps, 10) << wc.name;
    EXPECT_GT(law.friction, 0.0) << wc.name;
    EXPECT_GT(law.damping, 0.0) << wc.name;
    EXPECT_FALSE(law.touching) << wc.name;
  }
}

TEST(WallGranKuhn, ConventionalKeywordReachesTheKernel)
{
  KuhnByHand law;
  law.p = {1.0e5, 8.0e4, 0.4, 0.0, 0.0, 0u};
  drive_against_wall("wall/gran/kuhn 1e5 8e4 0.4 conventional", WALLS[0], 0.2, kuhn_drive, 160,
                     law);
  EXPECT_GT(law.sliding_steps, 10);
}

TEST(WallGranJaeger, PrescribedPressAndShearReproducesKernel)
{
  const double E = 1.0e7, NU = 0.3;
  for (const auto &wc : WALLS) {
    JaegerByHand law;
    law.mat = jaeger::material(jaeger::effective_young(E, NU, E, NU),
                               jaeger::effective_shear(E, NU, E, NU), RADIUS, 0.4);
    law.nu_n = 2.0;
    law.nu_t = 1.0;
    drive_against_wall("wall/gran/jaeger 1e7 0.3 0.4 damping 2 1", wc, 0.08, jaeger_drive, 230,
                       law);
    EXPECT_GT(law.longest, 5) << wc.name << ": the path should build a history of several points";
    EXPECT_GT(law.work, 0.0) << wc.name;
    EXPECT_GT(law.damping, 0.0) << wc.name;
    EXPECT_FALSE(law.touching) << wc.name;
  }
}

// the wall's prune keyword reaches the kernel: along a decaying vibration (150 reversals) the
// by-hand law with a coarse tolerance keeps far fewer points than without (a wall that ignored
// the keyword fails the step-by-step comparison), and the wall follows it step by step
TEST(WallGranJaeger, PruneKeywordReachesTheKernel)
{
  const double E = 1.0e7, NU = 0.3;
  int longest[2] = {0, 0};
  for (int k = 0; k < 2; k++) {
    const double prune = k == 0 ? 0.0 : 1e-2;
    JaegerByHand law;
    law.mat = jaeger::material(jaeger::effective_young(E, NU, E, NU),
                               jaeger::effective_shear(E, NU, E, NU), RADIUS, 0.4);
    law.nu_n = law.nu_t = 0.0;
    law.prune = prune;
    drive_against_wall(fmt::format("wall/gran/jaeger 1e7 0.3 0.4 prune {}", prune), WALLS[0], 0.08,
                       vibration_drive, 660, law);
    longest[k] = law.longest;
  }
  EXPECT_GT(longest[0], jaeger::kPruneLength + jaeger::kPruneSlack);
  EXPECT_LE(longest[1], jaeger::kPruneLength + jaeger::kPruneSlack);
}

/* The room the wall asks Comm::exchange() for (Fix::maxexchange) while its record grows past
   the rule's length (prune 0) and is cleared when the particle leaves: it only grows, in steps of
   4 from 4096 values (demc_exchange_room.h), so that LAMMPS's Kokkos exchange, which regrows its
   buffer at every rise of it, does not multiply the buffer at every push (a room that followed
   the largest record ran a -sf kk run with Jäger walls out of memory). */
TEST(WallGranJaeger, ExchangeRoomOnlyGrows)
{
  JaegerByHand law;
  law.mat = jaeger::material(jaeger::effective_young(1.0e7, 0.3, 1.0e7, 0.3),
                             jaeger::effective_shear(1.0e7, 0.3, 1.0e7, 0.3), RADIUS, 0.4);
  law.nu_n = law.nu_t = 0.0;
  law.prune = 0.0;
  std::vector<int> room;
  drive_against_wall("wall/gran/jaeger 1e7 0.3 0.4 prune 0", WALLS[0], 0.08, vibration_drive, 660,
                     law, &room);
  EXPECT_GT(law.longest, jaeger::kPruneLength + jaeger::kPruneSlack);
  EXPECT_FALSE(law.touching);    // the record was cleared
  std::set<int> values(room.begin(), room.end());
  for (std::size_t k = 1; k < room.size(); ++k) ASSERT_GE(room[k], room[k - 1]) << "step " << k;
  EXPECT_GE(room.back(), 4 * law.longest + 1);    // (4 values a point, and the record's header)
  EXPECT_LE(values.size(), 2u);
}

/* ----------------------------------------------------------------------
   a drum (zcylinder, rotate omega) turning past a particle held in place
   at (rho, 0, 0) with overlap 1e-3: the wall's surface moves by
   s1 = omega dt (R + 1e-3/2) per step along +y at the contact point (the
   middle of the overlap, beyond the drum's surface). The
   particle sticks, then slides; closed forms at constant normal force of the
   tangential force f_t(s) and of the work W(s), its integral, which the law
   must have split into stored energy and friction dissipation:
     gran/kuhn:   f_t = min(kt s, mu fn);
     gran/jaeger: f_t = mu P (1 - r^(3/2)), W = mu P (s - 2/5 s* (1 - r^(5/2))),
                  r = 1 - s/s*, s* = 3 mu P / (16 G* a) (Cattaneo-Mindlin), then
                  f_t = mu P and W grows by mu P per unit s.
   The torque on the drum about its axis is -(R + 1e-3/2) f_t. The work the
   drum did on the particle, the force after each step times the step's
   movement, is the right Riemann sum of the monotone f_t(s): within
   f_t s1 of W; while the particle slides, each step's work is that step's
   friction dissipation.
------------------------------------------------------------------------- */

namespace {

struct DrumStep {
  double ft, normal, work;    // closed forms after the step
  bool sliding;
};

void drum_drags_fixed_particle(const std::string &law_fix, double omega, int steps,
                               DrumStep (*closed_form)(double s))
{
  // the contact point, the middle of the overlap, lies DELTA/2 beyond the drum's surface
  const double R = 3.0, DELTA = 1.0e-3, arm = R + 0.5 * DELTA, s1 = omega * DT * arm;
  LammpsSession s;
  s.load_plugin();
  s.commands({"units si", "atom_style sphere", "atom_modify map array", "boundary f f f",
              "region box block -4 4 -4 4 -4 4 units box", "create_box 1 box",
              fmt::format("create_atoms 1 single {:.17g} 0 0 units box", R - RADIUS + DELTA),
              "set group all diameter 1.0", "set group all density 1000",
              "timestep " + std::to_string(DT),
              // the first step only loads the contact normally (Cattaneo-Mindlin's start)
              fmt::format("variable w equal {}*(step>1)", omega),
              fmt::format("fix w all {} zcylinder {} rotate v_w", law_fix, R), "run 0 post no"});
  double last_work = 0.0, last_friction = 0.0;
  int sliding_steps = 0;
  for (int k = 1; k <= steps; k++) {
    s.command("run 1 pre no post no");    // no integrator: the particle stays where it is
    const DrumStep e = closed_form((k - 1) * s1);
    const auto f = s.forces()[1];
    const auto w = fix_vector(s, "w");
    const double fscale = std::max(e.normal, e.ft);
    EXPECT_NEAR(f[0], -e.normal, 1e-12 * fscale) << law_fix << " step " << k;
    EXPECT_NEAR(f[1], e.ft, 1e-10 * fscale) << law_fix << " step " << k;
    EXPECT_NEAR(f[2], 0.0, 1e-12 * fscale) << law_fix << " step " << k;
    EXPECT_NEAR(w[V_TORQUE_Z], -arm * e.ft, 1e-10 * arm * fscale) << law_fix << " step " << k;
    EXPECT_NEAR(w[V_TANGENTIAL] + w[V_FRICTION], e.work, 1e-9 * e.work + 1e-300)
        << law_fix << " step " << k;
    const double wall_work = w[V_WALL_WORK];
    EXPECT_GE(wall_work, e.work * (1 - 1e-9)) << law_fix << " step " << k;
    EXPECT_LE(wall_work, e.work + e.ft * s1 * (1 + 1e-9)) << law_fix << " step " << k;
    if (e.sliding && closed_form((k - 2) * s1).sliding) {
      EXPECT_NEAR(wall_work - last_work, w[V_FRICTION] - last_friction, 1e-9 * e.ft * s1)
          << law_fix << " step " << k;
      sliding_steps++;
    }
    last_work = wall_work;
    last_friction = w[V_FRICTION];
  }
  EXPECT_GE(sliding_steps, steps / 4) << law_fix << ": the particle should have slid";
}

// gran/kuhn 1e5 8e4 0.4
DrumStep kuhn_drum(double s)
{
  const double kn = 1.0e5, kt = 8.0e4, mu = 0.4, fn = kn * 1.0e-3, limit = mu * fn;
  const double s_slip = limit / kt;
  if (s <= s_slip) return {kt * s, fn, 0.5 * kt * s * s, false};
  return {limit, fn, 0.5 * limit * s_slip + limit * (s - s_slip), true};
}

// gran/jaeger 1e7 0.3 0.4 (no pair style: the wall's moduli for both bodies)
DrumStep jaeger_drum(double s)
{
  const double E = 1.0e7, nu = 0.3, mu = 0.4, delta = 1.0e-3, G = E / (2.0 * (1.0 + nu));
  const double e_star = E / (2.0 * (1.0 - nu * nu)), g_star = G / (2.0 * (2.0 - nu));
  const double a = std::sqrt(RADIUS * delta);
  const double P = 4.0 / 3.0 * e_star * std::sqrt(RADIUS) * std::pow(delta, 1.5);
  const double s_star = 3.0 * mu * P / (16.0 * g_star * a);
  const double r = std::max(0.0, 1.0 - s / s_star);
  const double W = mu * P * (std::min(s, s_star) - 0.4 * s_star * (1.0 - std::pow(r, 2.5))) +
      mu * P * std::max(0.0, s - s_star);
  return {mu * P * (1.0 - std::pow(r, 1.5)), P, W, s >= s_star};
}

}    // namespace

TEST(WallGranKuhn, DrumDragsAParticleHeldInPlace)
{
  drum_drags_fixed_particle("wall/gran/kuhn 1e5 8e4 0.4", 0.08, 40, kuhn_drum);
}

TEST(WallGranJaeger, DrumDragsAParticleHeldInPlace)
{
  drum_drags_fixed_particle("wall/gran/jaeger 1e7 0.3 0.4", 0.05, 60, jaeger_drum);
}

/* restitution damping at the wall (restitution e x_t): LAMMPS's damping coeff_restitution with
   the particle's mass as the effective mass; a sphere thrown at a zplane takes, step by step,
   the force of fix wall/gran with pair_style granular's model (hertz/material for
   wall/gran/jaeger, hooke for wall/gran/kuhn) and that damping, and bounces back with e times
   its speed (within 1e-3, the time step's error) */
TEST(WallGran, RestitutionDampingAsLammpsWallGranular)
{
  const std::vector<std::pair<std::string, std::string>> laws = {
      {"wall/gran/jaeger 1e7 0.3 0.5 restitution {} 0",
       "wall/gran granular hertz/material 1e7 {} 0.3 tangential linear_nohistory 0 0 damping "
       "coeff_restitution"},
      {"wall/gran/kuhn 1e7 1e7 0.5 restitution {} 0",
       "wall/gran granular hooke 1e7 {} tangential linear_nohistory 0 0 damping "
       "coeff_restitution"}};
  auto bounce = [&](const std::string &wall, std::vector<double> &forces) {
    LammpsSession s;
    s.load_plugin();
    s.commands({"units si", "atom_style sphere", "atom_modify map array", "boundary f f f",
                "region box block -2 2 -2 2 -2 2 units box", "create_box 1 box",
                "create_atoms 1 single 0 0 0.5001 units box", "set group all diameter 1.0",
                "set group all density 1000", "velocity all set 0 0 -0.5",
                "fix w all " + wall + " zplane 0 NULL", "fix integrate all nve/sphere",
                "timestep 1e-5", "run 0 post no"});
    for (int k = 0; k < 600; k++) {
      s.command("run 50 pre no post no");
      forces.push_back(s.forces()[1][2]);
    }
    EXPECT_EQ(forces.back(), 0.0) << wall << ": the sphere should have left the wall";
    return s.lmp->atom->v[s.lmp->atom->map(1)][2] / 0.5;
  };
  for (const auto &law : laws)
    for (double e : {0.4, 0.8}) {
      std::vector<double> ours, lammps;
      auto with_e = [e](std::string command) {
        return command.replace(command.find("{}"), 2, fmt::format("{}", e));
      };
      const double rebound = bounce(with_e(law.first), ours);
      bounce(with_e(law.second), lammps);
      double scale = 0.0, diff = 0.0;
      for (size_t k = 0; k < ours.size(); k++) {
        scale = std::max(scale, std::fabs(lammps[k]));
        diff = std::max(diff, std::fabs(ours[k] - lammps[k]));
      }
      EXPECT_GT(scale, 1e2) << law.first << " e " << e << ": no impact";
      EXPECT_LT(diff, 1e-10 * scale) << law.first << " e " << e;
      EXPECT_NEAR(rebound, e, 1e-3) << law.first << " e " << e;
    }
}

// effective moduli: the wall's E, nu with the particle type's (pair gran/jaeger), else the
// wall's for both bodies; read off the Hertz force of a sphere resting on the wall
TEST(WallGranJaeger, ModuliMixWallAndParticleType)
{
  const double overlap = 2.0e-3, Ew = 3.0e7, nuw = 0.25, Ep = 1.0e7, nup = 0.3;
  auto normal_force = [&](const std::vector<std::string> &pair_lines) {
    LammpsSession s;
    s.load_plugin();
    s.commands({"units si", "atom_style sphere", "atom_modify map array", "boundary f f f",
                "comm_modify vel yes", "region box block -2 2 -2 2 -2 2 units box",
                "create_box 1 box",
                fmt::format("create_atoms 1 single 0 0 {} units box", RADIUS - overlap),
                "set group all diameter 1.0", "set group all density 1000"});
    s.commands(pair_lines);
    s.commands({"fix w all wall/gran/jaeger 3e7 0.25 0.5 zplane 0 NULL", "run 0"});
    return s.forces()[1][2];
  };
  auto hertz = [&](double estar) {
    return 4.0 / 3.0 * estar * std::sqrt(RADIUS) * std::pow(overlap, 1.5);
  };
  const double mixed = jaeger::effective_young(Ew, nuw, Ep, nup);
  const double wall_only = jaeger::effective_young(Ew, nuw, Ew, nuw);
  EXPECT_NEAR(normal_force({"pair_style gran/jaeger", "pair_coeff * * 1e7 0.3 0.5"}), hertz(mixed),
              1e-12 * hertz(mixed));
  EXPECT_NEAR(normal_force({}), hertz(wall_only), 1e-12 * hertz(wall_only));
  EXPECT_NEAR(normal_force({"pair_style gran/kuhn", "pair_coeff * * 1e3 1e3 0.5"}),
              hertz(wall_only), 1e-12 * hertz(wall_only));
}

/* ----------------------------------------------------------------------
   frame equivalence: a layer resting under gravity on a zplane wall that
   translates at +V equals the same layer moving at -V over the wall at rest
------------------------------------------------------------------------- */

namespace {

std::vector<std::string> resting_layer(const std::vector<std::string> &law_lines)
{
  std::vector<std::string> in = {
      "units si", "atom_style sphere", "atom_modify map array", "boundary p p f",
      "comm_modify vel yes", "region box block 0 0.0084 0 0.0084 0 0.008 units box",
      "create_box 1 box", "lattice sc 0.0021 origin 0.5 0.5 0.47",
      "region slab block 0 0.0084 0 0.0084 0 0.0021 units box", "create_atoms 1 region slab",
      "reset_atoms id sort yes",
      // radii from IDs, velocities and spins: independent of ranks
      "variable d atom 0.00196+0.00012*((id*7919)%101)/101", "set group all diameter v_d",
      // the bottom layer just touches the wall
      "variable zz atom 0.5*v_d-5e-8", "set region slab z v_zz", "set group all density 2650",
      "velocity all create 1e14 87287 loop geom",
      "velocity all set NULL NULL 0 units box",    // resting: no bounce
      "variable wx atom 20*sin(id)", "variable wy atom 20*cos(3*id)",
      "variable wz atom 20*sin(7*id)", "set group all omega v_wx v_wy v_wz", "neighbor 0.0003 bin",
      "neigh_modify delay 0", "fix grav all gravity 9.81 vector 0 0 -1"};
  in.insert(in.end(), law_lines.begin(), law_lines.end());
  return in;
}

struct Law {
  const char *name;
  std::vector<std::string> pair;
  std::string wall;    // fix arguments before the wall style
};

const Law LAWS[] = {
    {"kuhn",
     {"pair_style gran/kuhn", "pair_coeff * * 2e3 2e3 0.5 damping 0.002 0.001"},
     "wall/gran/kuhn 2e3 2e3 0.4 damping 0.002 0.001"},
    {"jaeger",
     {"pair_style gran/jaeger", "pair_coeff * * 1e7 0.3 0.5 damping 0.002 0.001"},
     "wall/gran/jaeger 1e7 0.3 0.4 damping 0.002 0.001"},
};

}    // namespace

TEST(WallGran, TranslatingWallEqualsLayerMovingTheOtherWay)
{
  const double V = 0.01;
  const int steps = 300;
  for (const auto &law : LAWS) {
    PerAtom f[2], t[2], x[2];
    std::vector<double> w[2];
    for (int frame = 0; frame < 2; frame++) {
      LammpsSession s;
      s.load_plugin();
      s.commands(resting_layer(law.pair));
      if (frame == 0) {
        s.command(fmt::format("fix w all {} zplane 0 NULL translate {} 0 0", law.wall, V));
      } else {
        s.commands({"fix w all " + law.wall + " zplane 0 NULL",
                    fmt::format("velocity all set {} 0 0 sum yes units box", -V)});
      }
      s.commands({"fix integrate all nve/sphere", "timestep 1e-5", "run " + std::to_string(steps)});
      f[frame] = s.forces();
      t[frame] = s.torques();
      x[frame] = s.positions();
      w[frame] = fix_vector(s, "w");
    }
    EXPECT_LT(max_relative_difference(f[0], f[1]), 1e-10) << law.name;
    EXPECT_LT(max_relative_difference(t[0], t[1]), 1e-10) << law.name;
    double shift_error = 0.0;
    for (size_t i = 1; i < x[0].size(); i++)
      shift_error = std::max(shift_error, std::fabs(x[0][i][0] - V * steps * 1e-5 - x[1][i][0]));
    EXPECT_LT(shift_error, 1e-12) << law.name;
    // every entry but the wall's work, which only the moving wall does
    for (int k = 0; k < V_WALL_WORK; k++)
      EXPECT_NEAR(w[0][k], w[1][k], 1e-9 * std::max(std::fabs(w[0][k]), 1e-12))
          << law.name << " " << k;
    EXPECT_EQ(w[1][V_WALL_WORK], 0.0) << law.name;
    // the wall must drag the layer: friction along x and dissipation
    EXPECT_GT(std::fabs(w[0][V_FX]), 1e-3 * std::fabs(w[0][V_FZ])) << law.name;
    EXPECT_GT(w[0][V_FRICTION], 0.0) << law.name;
    EXPECT_GE(w[0][V_CONTACTS], 10.0) << law.name;
  }
}

// atom sorting carries each atom's wall contact history with it: a layer carried by a translating
// wall, re-neighbored every step and sorted every 7 steps, as never sorted (fails with the wall
// fixes' copy_arrays() disabled)
TEST(WallGran, AtomSortingCarriesWallHistories)
{
  for (const auto &law : LAWS) {
    PerAtom f[2], t[2];
    std::vector<double> w[2];
    for (int sorted = 0; sorted < 2; sorted++) {
      LammpsSession s;
      s.load_plugin();
      s.commands(resting_layer(law.pair));
      // the layer travels with the wall, slowly relative to it: the contacts stick, so that the
      // forces depend on each atom's history, while atoms cross sorting bins and the periodic
      // boundary (sorting moves them in memory only then)
      s.commands(
          {"velocity all create 1e6 4928 loop geom", "velocity all set NULL NULL 0 units box",
           "velocity all set 1.0 NULL NULL sum yes units box", "variable sx atom 0.002*sin(id)",
           "variable sy atom 0.002*cos(3*id)", "set group all omega v_sx v_sy 0",
           "fix w all " + law.wall + " zplane 0 NULL translate 1.0 0 0",
           "fix integrate all nve/sphere", "timestep 1e-5", "neigh_modify every 1 delay 0 check no",
           sorted ? "atom_modify sort 7 0.001" : "atom_modify sort 0 0.0", "run 300"});
      f[sorted] = s.forces();
      t[sorted] = s.torques();
      w[sorted] = fix_vector(s, "w");
    }
    EXPECT_LT(max_relative_difference(f[0], f[1]), 1e-9) << law.name;
    EXPECT_LT(max_relative_difference(t[0], t[1]), 1e-9) << law.name;
    for (size_t k = 0; k < w[0].size(); k++)
      EXPECT_NEAR(w[0][k], w[1][k], 1e-9 * std::max(std::fabs(w[0][k]), 1e-12))
          << law.name << " " << k;
    EXPECT_GE(w[0][V_CONTACTS], 10.0) << law.name;
  }
}

/* ----------------------------------------------------------------------
   one contact step for the pair and the wall (demc::jaeger::contact_step()):
   a sphere driven along a random path against a wall/gran/jaeger plane, and
   the same sphere against a frozen sphere of radius 1e6 R whose top is where
   the plane is (pair gran/jaeger), give the same force, torque, energies and
   work step by step (the stored energy U_t: the same histories), to the
   partner's curvature. Random paths (seeded): a fresh contact inside a step, then
   segments of random normal, tangential and spin velocities (load and
   direction reversals: histories of many points), then lift-off (parting).
------------------------------------------------------------------------- */

namespace {

Reported read_wall(LammpsSession &s)
{
  const auto w = fix_vector(s, "w");
  return {get(s.forces()[1].data()), get(s.torques()[1].data()),
          w[V_NORMAL],
          w[V_TANGENTIAL],
          w[V_FRICTION],
          w[V_DAMPING],
          w[V_CONTACTS],
          0.0};    // (the wall reports no history length: its U_t follows the history)
}

/* The pair against the partner of radius R_q = 1e6 R and the wall: the largest differences
   over the path relative to the path's largest value of each quantity. */
void expect_pair_equals_wall(unsigned seed, const std::string &style_keywords,
                             double *largest_history, const std::string &resistance = "")
{
  const std::vector<PathStep> path = random_path(seed, 30, DT);
  const std::string coeffs = "1e7 0.3 0.4 damping 2 1" + resistance;
  const auto pair = drive_path(
      {"create_atoms 1 single 0.1 -0.2 -5e5 units box", "set atom 2 diameter 1e6",
       "neighbor 0.5 nsq", "neigh_modify every 1 delay 0 check no",
       "pair_style gran/jaeger" + style_keywords, "pair_coeff * * " + coeffs,
       "compute e all pair gran/jaeger", "thermo_style custom step c_e[*]"},
      path, DT, read_pair, "-6e5");
  const auto wall = drive_path({"fix w all wall/gran/jaeger " + coeffs + style_keywords +
                                " zplane 0.0 NULL"},
                               path, DT, read_wall, "-2");
  /* The curvature's effect, relative to the path's largest values: the effective radius
     R R_q / (R + R_q) = R (1 - eps), eps = R / R_q = 1e-6, moves P ~ R^(1/2), the tangential
     stiffness ~ a ~ R^(1/2) and the energies by eps / 2; the overlap against the sphere is
     smaller by x_t^2 / (2 R_q) at a distance x_t from its axis, which moves P ~ z^(3/2) by at
     most 3/2 and the normal energy ~ z^(5/2) by 5/2 of that over the largest overlap z_max;
     the normal tilts by x_t / R_q. Twice their sum (the tangential energies follow the forces
     along the path). */
  const double R_q = 5e5, eps = RADIUS / R_q;
  double x_t = 0.0, z_max = 0.0;
  {
    Vec3 at = {0.0, 0.0, -0.08};    // (displacement from the start; the overlap)
    for (const PathStep &p : path) {
      at = at + DT * Vec3{p.v.x, p.v.y, -p.v.z};
      x_t = std::max(x_t, std::hypot(at.x, at.y));
      z_max = std::max(z_max, at.z);
    }
  }
  /* rolling and twisting (resistance): the rolling radius R (1 - eps) carries the rolling torque
     and spring squared (2 eps); marshall's twisting through the contact radius (eps / 2) */
  const double tol = 2.0 * (0.5 * eps + 2.5 * x_t * x_t / (2.0 * R_q * z_max) + x_t / R_q +
                            (resistance.empty() ? 0.0 : 2.5 * eps));
  double fmax = 0.0, emax[4] = {0.0, 0.0, 0.0, 0.0}, fdiff = 0.0, ediff[4] = {0, 0, 0, 0};
  for (size_t k = 0; k < path.size(); k++) {
    const Reported &a = pair[k], &b = wall[k];
    fmax = std::max(fmax, demc::norm(b.f));
    fdiff = std::max({fdiff, demc::norm(a.f - b.f), demc::norm(a.t - b.t) / RADIUS});
    const double ea[4] = {a.normal, a.tangential, a.friction, a.damping},
                 eb[4] = {b.normal, b.tangential, b.friction, b.damping};
    for (int m = 0; m < 4; m++) {
      emax[m] = std::max(emax[m], std::fabs(eb[m]));
      ediff[m] = std::max(ediff[m], std::fabs(ea[m] - eb[m]));
    }
    EXPECT_EQ(a.contacts, b.contacts) << "seed " << seed << " step " << k;
    *largest_history = std::max(*largest_history, a.longest);
  }
  printf("[ measured ] seed %u%s%s: %zu steps, largest |F| %.4g, x_t %.3g, tolerance %.3g; "
         "force/torque difference %.3g, energies (normal, stored, friction, damping) %.3g %.3g "
         "%.3g %.3g (relative)\n",
         seed, style_keywords.c_str(), resistance.c_str(), path.size(), fmax, x_t, tol, fdiff / fmax,
         ediff[0] / emax[0],
         ediff[1] / emax[1], ediff[2] / emax[2], ediff[3] / emax[3]);
  EXPECT_LT(fdiff, tol * fmax) << "seed " << seed;
  for (int m = 0; m < 4; m++) EXPECT_LT(ediff[m], tol * emax[m]) << "seed " << seed << " " << m;
  EXPECT_EQ(pair.back().contacts, 0.0) << "the path ends apart (parting)";
  EXPECT_GT(emax[2], 0.0) << "the path slides";
}

}    // namespace

TEST(WallGranJaeger, SameStepAsPairWithHugePartner)
{
  double longest = 0.0;
  for (unsigned seed : {11u, 12u, 13u}) expect_pair_equals_wall(seed, "", &longest);
  EXPECT_GT(longest, 6.0) << "the paths should build long histories";
  // a bound the histories reach: both merge the same points
  double bounded = 0.0;
  expect_pair_equals_wall(14u, " history/max 6", &bounded);
  EXPECT_EQ(bounded, 6.0);
}

// with rolling and twisting resistance: the same contact step (pair_coeff and the fix line)
TEST(WallGranJaeger, SameStepAsPairWithHugePartnerWithRolling)
{
  double longest = 0.0;
  expect_pair_equals_wall(15u, "", &longest, " rolling sds 1e4 5 0.05 twisting sds 50 0.5 0.02");
  expect_pair_equals_wall(16u, "", &longest, " rolling sds 1e4 0 0.05 twisting marshall");
}

/* ----------------------------------------------------------------------
   history/max is a bound, not a size: a bound that no history reaches
   changes neither the forces nor the wall's memory. The records used to be
   allocated at the bound, which for 2e9 overflowed the record size.
------------------------------------------------------------------------- */

TEST(WallGranJaeger, UnreachedCapacityChangesNothing)
{
  auto run = [](const std::string &bound, double &bytes) {
    LammpsSession s;
    s.load_plugin();
    s.commands(resting_layer(LAWS[1].pair));
    s.commands({"fix w all " + LAWS[1].wall + bound + " zplane 0 NULL translate 0.01 0 0",
                "fix integrate all nve/sphere", "timestep 1e-5", "run 300"});
    bytes = s.lmp->modify->get_fix_by_id("w")->memory_usage();
    return std::make_pair(s.forces(), fix_vector(s, "w"));
  };
  double bytes_unbounded = 0.0;
  const auto unbounded = run("", bytes_unbounded);
  ASSERT_GE(unbounded.second[V_CONTACTS], 10.0);
  for (const char *bound : {" history/max 100000", " history/max 2000000000"}) {
    double bytes = 0.0;
    const auto bounded = run(bound, bytes);
    EXPECT_EQ(max_relative_difference(bounded.first, unbounded.first), 0.0) << bound;
    EXPECT_EQ(bounded.second, unbounded.second) << bound;
    EXPECT_EQ(bytes, bytes_unbounded) << bound;
  }
}

/* ----------------------------------------------------------------------
   pair_coeff changes the particles' E between runs, and with it the wall
   contacts' E* (wall and particle type mixed): each record holds the
   material it was made with and is moved to the new one (the same spring
   field). Oracle: a layer held in place while the wall slides under it
   has |F_x| close to mu |F_z|; after E 1e7 -> 1e6 every contact is still inside the cone, so
   |F_x| <= mu |F_z| (the old tangential forces against the new, 5 times
   smaller normal forces gave twice mu before), and the friction dissipation
   is what it was (no spring moved). Also through a restart file.
------------------------------------------------------------------------- */

TEST(WallGranJaeger, ChangedParticleModulusMovesTheHistories)
{
  const std::string file = "wall_changed_modulus.rst";
  // without dashpots: the force of a run's setup repeats each contact's last dashpot force,
  // which the oracle, a bound on the contact law's own force, does not cover
  const std::string wall =
      "fix w all wall/gran/jaeger 1e7 0.3 0.4 zplane 0 NULL translate 0.05 0 0";
  for (bool through_restart : {false, true}) {
    LammpsSession first, second;
    first.load_plugin();
    first.commands(resting_layer(LAWS[1].pair));
    // held in x and y and not turning: the wall slides under the layer
    first.commands({"set group all omega 0 0 0", "fix hold all setforce 0 0 NULL", wall,
                    "fix integrate all nve", "timestep 1e-5", "run 300", "run 0"});
    const auto before = fix_vector(first, "w");
    ASSERT_GE(before[V_CONTACTS], 10.0);
    ASSERT_GT(std::fabs(before[V_FX]), 0.3 * std::fabs(before[V_FZ])) << "the layer should slide";
    LammpsSession *s = &first;
    if (through_restart) {
      first.command("write_restart " + file);
      second.load_plugin();
      second.commands({"read_restart " + file, "neighbor 0.0003 bin", "neigh_modify delay 0",
                       "fix grav all gravity 9.81 vector 0 0 -1", "fix hold all setforce 0 0 NULL",
                       wall, "fix integrate all nve", "timestep 1e-5"});
      s = &second;
    }
    s->commands({"pair_coeff * * 1e6 0.3 0.5 damping 0.002 0.001", "run 0"});
    const auto after = fix_vector(*s, "w");
    const std::string what = through_restart ? "through a restart file" : "between runs";
    EXPECT_EQ(after[V_CONTACTS], before[V_CONTACTS]) << what;
    EXPECT_LE(std::fabs(after[V_FX]), 0.4 * std::fabs(after[V_FZ]) * (1.0 + 1e-9)) << what;
    EXPECT_LT(std::fabs(after[V_FZ]), 0.5 * std::fabs(before[V_FZ])) << what;
    // no spring moved: the energy the change took from the springs is work, not friction
    ASSERT_GT(before[V_FRICTION], 0.0);
    EXPECT_NEAR(after[V_FRICTION], before[V_FRICTION], 1e-12 * before[V_FRICTION]) << what;
  }
  std::remove(file.c_str());
}

/* ----------------------------------------------------------------------
   energy: with walls at rest, kinetic + stored + dissipated (pair and
   walls) stays constant while particles hit the walls
------------------------------------------------------------------------- */

namespace {

using WallLines = std::vector<std::pair<Law, std::vector<std::string>>>;

/* particles in a closed cylinder (fixes wz: zplanes, wc: zcylinder), 4000 steps: kinetic +
   stored + dissipated energy of the pair style and the walls, minus the work the walls did,
   is constant; with walls at rest that work is 0. Returns the walls' vectors. */
void check_energy_balance(const WallLines &cases, bool moving)
{
  for (const auto &c : cases) {
    LammpsSession s;
    s.load_plugin();
    s.commands(
        {"units si", "atom_style sphere", "atom_modify map array", "boundary f f f",
         "comm_modify vel yes", "region box block -0.006 0.006 -0.006 0.006 0 0.01 units box",
         "create_box 1 box", "lattice sc 0.0021 origin 0.5 0.5 0.5",
         "region cyl cylinder z 0 0 0.0048 0.0008 0.0092 units box", "create_atoms 1 region cyl",
         "variable d atom 0.00196+0.00018*((id*7919)%101)/101", "set group all diameter v_d",
         "set group all density 2650", "velocity all create 3e17 87287 loop geom",
         "variable wx atom 200*sin(id)", "variable wy atom 200*cos(3*id)",
         "set group all omega v_wx v_wy 0", "neighbor 0.0003 bin", "neigh_modify delay 0"});
    s.commands(c.first.pair);
    s.commands(c.second);
    // (the pair's energies as a user reads them: gran/jaeger integrates its work in runs in
    // which a compute pair can read it, work auto)
    s.commands({"fix integrate all nve/sphere", "timestep 2e-7", "compute ke all ke",
                "compute erot all erotate/sphere",
                "compute e all pair gran/" + std::string(c.first.name),
                "thermo_style custom step c_ke c_erot pe", "fix_modify wz energy yes"});
    auto total = [&]() {
      s.command("run 0 post no");
      double e = s.lmp->modify->get_compute_by_id("ke")->compute_scalar() +
          s.lmp->modify->get_compute_by_id("erot")->compute_scalar();
      const auto p = s.pair_extra();
      for (int k = 0; k < 4; k++) e += p[k];
      for (const char *id : {"wz", "wc"}) {
        const auto w = fix_vector(s, id);
        e += w[V_NORMAL] + w[V_TANGENTIAL] + w[V_FRICTION] + w[V_DAMPING] - w[V_WALL_WORK];
      }
      return e;
    };
    const double e0 = total();
    s.command("run 4000");
    const auto wz = fix_vector(s, "wz"), wc = fix_vector(s, "wc");
    const double e1 = total();
    EXPECT_NEAR(e1, e0, 1e-3 * e0) << c.first.name;
    if (moving) {    // the walls must have done work of the order of the energy
      EXPECT_GT(std::fabs(wz[V_WALL_WORK]) + std::fabs(wc[V_WALL_WORK]), 0.05 * e0) << c.first.name;
    } else {
      EXPECT_EQ(wz[V_WALL_WORK], 0.0) << c.first.name;
      EXPECT_EQ(wc[V_WALL_WORK], 0.0) << c.first.name;
    }
    // fix_modify energy yes: the stored energy of wz (its scalar) joins the potential energy
    const double pe = s.lmp->modify->get_compute_by_id("thermo_pe")->compute_scalar();
    const double stored_wz = wz[V_NORMAL] + wz[V_TANGENTIAL];
    EXPECT_GT(stored_wz, 0.0) << c.first.name;
    EXPECT_NEAR(pe, s.pair_energy() + stored_wz, 1e-12 * pe) << c.first.name;
    // the walls must have taken part: dissipated a fair share by friction and damping
    EXPECT_GT(wz[V_FRICTION] + wc[V_FRICTION], 0.01 * e0) << c.first.name;
    EXPECT_GT(wz[V_DAMPING], 0.001 * e0) << c.first.name;
    EXPECT_EQ(wc[V_DAMPING], 0.0) << c.first.name;
  }
}

}    // namespace

TEST(WallGran, EnergyBalanceWithStaticWalls)
{
  check_energy_balance(
      {{LAWS[0],
        {"fix wz all wall/gran/kuhn 2e3 1.5e3 0.4 damping 0.002 0.001 zplane 0 0.01",
         "fix wc all wall/gran/kuhn 3e3 2e3 0.3 zcylinder 0.0058"}},
       {LAWS[1],
        {"fix wz all wall/gran/jaeger 2e7 0.25 0.4 damping 0.002 0.001 zplane 0 0.01",
         "fix wc all wall/gran/jaeger 1e7 0.3 0.3 zcylinder 0.0058"}}},
      false);
}

// the planes turn by a variable and wiggle along z, the cylinder turns the other way
TEST(WallGran, EnergyBalanceWithMovingWalls)
{
  const std::string spin = "variable spin equal 300*sin(2*PI*time/4e-4)";
  const std::string planes = " zplane 0 0.01 rotate v_spin wiggle z 2e-5 4e-4";
  check_energy_balance(
      {{LAWS[0],
        {spin, "fix wz all wall/gran/kuhn 2e3 1.5e3 0.4 damping 0.002 0.001" + planes,
         "fix wc all wall/gran/kuhn 3e3 2e3 0.3 zcylinder 0.0058 rotate -200"}},
       {LAWS[1],
        {spin, "fix wz all wall/gran/jaeger 2e7 0.25 0.4 damping 0.002 0.001" + planes,
         "fix wc all wall/gran/jaeger 1e7 0.3 0.3 zcylinder 0.0058 rotate -200"}}},
      true);
}

/* ----------------------------------------------------------------------
   N + M steps straight = N steps, restart file, read_restart, M steps:
   history records and the wall's clock and displacement come back. The file
   is written during the straight run (restart N), which so has no setup at
   step N; the resumed run has two (run 0, run 50). With dashpots (the damped
   cases) each must repeat each contact's last dashpot force and resistance
   torque; without the repeat the runs differ by the dashpots' half kicks.
------------------------------------------------------------------------- */

TEST(WallGran, RestartContinuity)
{
  const std::vector<std::pair<Law, std::string>> cases = {
      {{"kuhn", {"pair_style gran/kuhn", "pair_coeff * * 2e3 2e3 0.5"}, ""},
       "wall/gran/kuhn 2e3 1.5e3 0.4 zplane 0 0.0075 wiggle z 0.0000002 0.002 rotate 20"},
      {{"jaeger", {"pair_style gran/jaeger", "pair_coeff * * 1e7 0.3 0.5"}, ""},
       "wall/gran/jaeger 2e7 0.25 0.4 zplane 0 0.0075 translate v_vx 0 v_vz"},
      // rolling and twisting: the springs in the wall's records
      {{"kuhn_rolling", {"pair_style gran/kuhn", "pair_coeff * * 2e3 2e3 0.5"}, ""},
       "wall/gran/kuhn 2e3 1.5e3 0.4 rolling sds 1e3 0 0.1 twisting sds 1e-6 0 1e-4 "
       "zplane 0 0.0075 wiggle z 0.0000002 0.002 rotate 20"},
      // dashpots in the pairs, at the wall and in the wall's rolling and twisting
      {{"kuhn_damped", {"pair_style gran/kuhn", "pair_coeff * * 2e3 2e3 0.5 damping 0.002 0.001"},
        ""},
       "wall/gran/kuhn 2e3 1.5e3 0.4 damping 0.002 0.001 rolling sds 1e3 0.01 0.1 twisting sds "
       "1e-6 1e-9 1e-4 zplane 0 0.0075 wiggle z 0.0000002 0.002 rotate 20"},
      {{"jaeger_damped",
        {"pair_style gran/jaeger", "pair_coeff * * 1e7 0.3 0.5 damping 0.002 0.001"}, ""},
       "wall/gran/jaeger 2e7 0.25 0.4 damping 0.002 0.001 zplane 0 0.0075 translate v_vx 0 "
       "v_vz"},
      // the Jaeger wall's records with the resistance's slots, dashpots everywhere
      {{"jaeger_rolling",
        {"pair_style gran/jaeger", "pair_coeff * * 1e7 0.3 0.5 damping 0.002 0.001"}, ""},
       "wall/gran/jaeger 2e7 0.25 0.4 damping 0.002 0.001 rolling sds 1e3 0.01 0.1 twisting sds "
       "1e-6 1e-9 1e-4 zplane 0 0.0075 translate v_vx 0 v_vz"},
      // twisting marshall: its stiffness follows the contact radius
      {{"jaeger_marshall",
        {"pair_style gran/jaeger", "pair_coeff * * 1e7 0.3 0.5 damping 0.002 0.001"}, ""},
       "wall/gran/jaeger 2e7 0.25 0.4 damping 0.002 0.001 rolling sds 1e3 0.01 0.1 twisting "
       "marshall zplane 0 0.0075 translate v_vx 0 v_vz"},
  };
  const std::vector<std::string> variables = {"variable vx equal 0.05*sin(0.05*step)",
                                              "variable vz equal 0.002*cos(0.03*step)"};
  for (const auto &c : cases) {
    // (restart N root appends the step to the root)
    const std::string root = std::string("wall_restart_") + c.first.name + ".bin";
    const std::string file = root + ".150";
    const std::string fix = "fix w all " + c.second;
    const std::vector<std::string> rest = {"fix integrate all nve/sphere", "timestep 1e-5"};
    PerAtom straight, resumed, straight_t, resumed_t;
    std::vector<double> w_straight, w_resumed;
    {
      LammpsSession s;
      s.load_plugin();
      auto in = resting_layer(c.first.pair);
      in.insert(in.begin() + 9, "create_atoms 1 region slab2");    // a second layer on top
      in.insert(in.begin() + 9, "region slab2 block 0 0.0084 0 0.0084 0.0021 0.0042 units box");
      s.commands(in);
      s.commands(variables);
      s.command(fix);
      s.commands(rest);
      s.commands({"restart 150 " + root, "run 200"});
      straight = s.forces();
      straight_t = s.torques();
      w_straight = fix_vector(s, "w");
    }
    {
      LammpsSession s;
      s.load_plugin();
      s.commands({"read_restart " + file, "neighbor 0.0003 bin", "neigh_modify delay 0"});
      s.commands(variables);
      s.commands({"fix grav all gravity 9.81 vector 0 0 -1", fix});
      s.commands(rest);
      s.commands({"run 0", "run 50"});
      resumed = s.forces();
      resumed_t = s.torques();
      w_resumed = fix_vector(s, "w");
    }
    std::remove(file.c_str());
    std::printf("[ restart  ] %s: forces %.2e, torques %.2e (wall friction %.3g, damping %.3g, stored %.3g)\n", c.first.name,
                max_relative_difference(straight, resumed),
                max_relative_difference(straight_t, resumed_t), w_straight[V_FRICTION], w_straight[V_DAMPING], w_straight[V_TANGENTIAL]);
    EXPECT_LT(max_relative_difference(straight, resumed), 1e-12) << c.first.name;
    EXPECT_LT(max_relative_difference(straight_t, resumed_t), 1e-12) << c.first.name;
    for (int k = 0; k < V_SIZE; k++)
      EXPECT_NEAR(w_straight[k], w_resumed[k], 1e-10 * std::max(std::fabs(w_straight[k]), 1e-12))
          << c.first.name << " " << k;
    EXPECT_GE(w_straight[V_CONTACTS], 10.0) << c.first.name;
    /* each tally of the dissipation >= 0 (the Jaeger walls with rolling: the rolling dashpot's
       force gamma_roll v exceeds the limit mu_roll F_n at these spins; a capped step's dashpot
       books at most the step's dissipation, rolling_twisting.h) */
    EXPECT_GT(w_straight[V_FRICTION], 0.0) << c.first.name;
    EXPECT_GE(w_straight[V_DAMPING], 0.0) << c.first.name;
  }
}

/* ----------------------------------------------------------------------
   every malformed command ends in a LAMMPS error naming the problem
------------------------------------------------------------------------- */

TEST(WallGran, BadInputGivesClearErrors)
{
  const std::vector<std::string> sphere = {"units si",         "atom_style sphere",
                                           "boundary p p f",   "region box block 0 1 0 1 0 1",
                                           "create_box 1 box", "create_atoms 1 single 0.5 0.5 0.5",
                                           "variable a atom x"};
  const std::string k = "fix w all wall/gran/kuhn ", j = "fix w all wall/gran/jaeger ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {k + "0 1 0.5 zplane 0 NULL", "kn must be > 0"},
      {k + "1 -1 0.5 zplane 0 NULL", "kt must be > 0"},
      {k + "1 1 -0.1 zplane 0 NULL", "mu must be >= 0"},
      {k + "1 1 0.5 damping -1 0 zplane 0 NULL", "damping coefficients must be >= 0"},
      {k + "1 1 0.5 zplane 0 NULL damping 0 -1", "damping coefficients must be >= 0"},
      {k + "1 1 0.5", "expects: kn kt mu"},
      {k + "abc 1 0.5 zplane 0 NULL", "Expected floating point"},
      {k + "1 1 0.5 damping 1 1", "expects a wall style"},
      {k + "1 1 0.5 damping 1", "missing argument"},
      {k + "1 1 0.5 zplane 0 NULL spin yes", "Unknown fix wall/gran/kuhn keyword: spin"},
      {k + "1 1 0.5 dumping 1 1 zplane 0 NULL", "Unknown fix wall/gran/kuhn keyword: dumping"},
      {k + "1 1 0.5 zplane 0 NULL shear x 1",
       "LAMMPS's shear keyword is not supported: a plane wall moves in its plane with translate"},
      {j + "1e7 0.3 0.5 zplane 0 NULL temperature 300",
       "LAMMPS's temperature keyword (heat flow) is not supported"},
      {k + "1 1 0.5 fresh maybe zplane 0 NULL", "Expected boolean"},
      {k + "1 1 0.5 zplane 0 NULL twirl", "missing argument"},
      {k + "1 1 0.5 zplane 0", "missing argument"},
      {k + "1 1 0.5 zplane NULL NULL", "lo and hi are both NULL"},
      {k + "1 1 0.5 zplane 1 0", "lo must be below hi"},
      {k + "1 1 0.5 xplane 0 1", "periodic dimension"},
      {k + "1 1 0.5 zcylinder 0", "zcylinder radius must be > 0"},
      {k + "1 1 0.5 zcylinder 2", "cannot use a zcylinder with periodic x or y"},
      {k + "1 1 0.5 zplane 0 NULL wiggle q 1 1", "wiggle dim must be x, y or z"},
      {k + "1 1 0.5 zplane 0 NULL wiggle z 1 0", "wiggle period must be > 0"},
      {k + "1 1 0.5 zplane 0 NULL wiggle z 1 1 translate 1 0 0", "use one of wiggle and translate"},
      {k + "1 1 0.5 zplane 0 NULL translate 1 0", "missing argument"},
      {k + "1 1 0.5 zplane 0 NULL rotate", "missing argument"},
      {k + "1 1 0.5 zplane 0 NULL rotate 1 rotate 2", "use rotate once"},
      {k + "1 1 0.5 zplane 0 NULL rotate abc", "Expected floating point"},
      {k + "1 1 0.5 rotate 1 zplane 0 NULL", "keyword rotate must follow the wall style"},
      {k + "1 1 0.5 translate 1 0 0 zplane 0 NULL", "keyword translate must follow the wall style"},
      {k + "1 1 0.5 yplane 0 1 rotate 1",
       "rotate turns the wall about the z axis, which only a zplane or the zcylinder"},
      {j + "0 0.3 0.5 zplane 0 NULL", "E must be > 0"},
      {j + "1e7 0.5 0.5 zplane 0 NULL", "nu must be within (-1, 0.5)"},
      {j + "1e7 -1 0.5 zplane 0 NULL", "nu must be within (-1, 0.5)"},
      {j + "1e7 0.3 -0.5 zplane 0 NULL", "mu must be >= 0"},
      {j + "1e7 0.3 0.5 damping -1 1 zplane 0 NULL", "damping coefficients must be >= 0"},
      {j + "1e7 0.3 0.5 beta 2.5 zplane 0 NULL", "beta must be within [0, 2]"},
      {j + "1e7 0.3 0.5 history/max 1 zplane 0 NULL", "history/max must be >= 2"},
      {j + "1e7 0.3 0.5 history/max 3.5 zplane 0 NULL", "Expected integer"},
      {j + "1e7 0.3", "expects: E nu mu"},
      {j + "1e7 0.3 0.5 memory 3 zplane 0 NULL", "Unknown fix wall/gran/jaeger keyword: memory"},
      {j + "1e7 0.3 0.5 restitution 0 0 zplane 0 NULL", "restitution must be within (0, 1]"},
      {j + "1e7 0.3 0.5 restitution 0.5 -1 zplane 0 NULL", "ratio x_t must be >= 0"},
      {j + "1e7 0.3 0.5 restitution 0.5 0 damping 1 1 zplane 0 NULL",
       "use one of damping and restitution, once"},
      {j + "1e7 0.3 0.5 damping 0 0 restitution 0.5 0 zplane 0 NULL",
       "use one of damping and restitution, once"},
      {j + "1e7 0.3 0.5 damping 0 0 damping 1 1 zplane 0 NULL",
       "use one of damping and restitution, once"},
      {k + "1 1 0.5 restitution 1.5 0 zplane 0 NULL", "restitution must be within (0, 1]"},
      {k + "1 1 0.5 damping 1 1 restitution 0.5 0 zplane 0 NULL",
       "use one of damping and restitution, once"},
      {j + "1e7 0.3 0.5 zplane 0 NULL turn no", "Unknown fix wall/gran/jaeger keyword: turn"},
  };
  auto expect_error = [](LammpsSession &s, const std::string &bad, const std::string &expected) {
    try {
      s.command(bad);
      ADD_FAILURE() << "no error for: " << bad;
    } catch (LAMMPS_NS::LAMMPSException &e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos)
          << "command: " << bad << "\n  error: " << e.what() << "\n  expected: " << expected;
    }
  };
  for (const auto &c : cases) {
    LammpsSession s;
    s.load_plugin();
    s.commands(sphere);
    expect_error(s, c.first, c.second);
  }
  // errors found at run time: variables, atom style
  const std::vector<std::pair<std::string, std::string>> at_run = {
      {k + "1 1 0.5 zplane 0 NULL translate v_none 0 0", "variable none does not exist"},
      {k + "1 1 0.5 zplane 0 NULL translate 0 v_a 0", "variable a must be an equal-style variable"},
      {j + "1e7 0.3 0.5 zplane 0 NULL rotate v_none", "variable none does not exist"},
      {j + "1e7 0.3 0.5 zplane 0 NULL rotate v_a", "variable a must be an equal-style variable"},
  };
  for (const auto &c : at_run) {
    LammpsSession s;
    s.load_plugin();
    s.commands(sphere);
    s.command(c.first);
    expect_error(s, "run 0", c.second);
  }
  LammpsSession s;
  s.load_plugin();
  s.commands({"units si", "atom_style atomic", "boundary p p f", "region box block 0 1 0 1 0 1",
              "create_box 1 box"});
  expect_error(s, j + "1e7 0.3 0.5 zplane 0 NULL", "requires atom attributes radius, rmass, omega");
}

/* ----------------------------------------------------------------------
   one contact step for the pair and the wall: a sphere of radius R = 1 m driven along a
   random path (fuzzed, seeded) against a frozen sphere of radius R_b = 1e6 R through
   pair_style gran/kuhn, and along the same path against a flat wall through fix
   wall/gran/kuhn, gives the same force, torque, stored energies, friction and damping work
   and sliding count at every step, with and without rolling and twisting resistance. The
   path presses, shears, spins and lifts the sphere off (the overlap dips below 0 in every
   period): parting and fresh contacts are on it.
   What differs is the curvature: the rolling radius R R_b / (R + R_b) = R (1 - R/R_b) (the
   rolling torque and spring carry it squared: 2 R/R_b; marshall's twisting through the
   contact radius: R/R_b), the normal's tilt by the distance travelled over R_b (< 0.2 m:
   0.2 R/R_b) and the round-off of the partner's coordinates, 1e6 m * 2e-16 against the
   overlap of 1e-2 m (2e-8 relative, 0.02 R/R_b). Tolerance: 4 R/R_b of each quantity's
   largest value along the path.
------------------------------------------------------------------------- */

namespace {

struct PathSample {
  Vec3 force, torque;
  std::vector<double> energies;    // normal, tangential, friction, damping, contacts, sliding
};

const double PATH_RB = 1.0e6;

// style_args: the law's keywords (pair_style's); resistance: rolling and twisting (pair_coeff's)
std::vector<PathSample> kuhn_path(bool wall, const std::string &style_args,
                                  const std::string &resistance, unsigned seed)
{
  const double dt = 1e-3;
  const int steps = 360;
  LammpsSession s;
  s.load_plugin();
  const std::string coeffs = "1e5 8e4 0.5 damping 20 10";
  s.commands({"units si", "atom_style sphere", "atom_modify map array", "boundary f f f",
              "comm_modify vel yes",
              wall ? "region box block -10 10 -10 10 -1 10 units box"
                   // (neighbor bins no smaller than half the big sphere, as incline.h)
                   : fmt::format("region box block {0} {1} {0} {1} {0} 10 units box",
                                 -PATH_RB - 2.0, PATH_RB + 2.0),
              "create_box 2 box", "create_atoms 1 single 0 0 0.99 units box"});
  if (!wall) s.command(fmt::format("create_atoms 2 single 0 0 {} units box", -PATH_RB));
  s.commands({"set type 1 diameter 2.0", fmt::format("set type 2 diameter {}", 2.0 * PATH_RB),
              "set group all density 1000", "group small type 1", "neighbor 0.1 bin",
              "neigh_modify every 1 delay 0 check yes"});
  if (wall) {
    s.commands({"pair_style none",
                "fix w small wall/gran/kuhn " + coeffs + " " + style_args + " " + resistance +
                    " zplane 0 NULL"});
  } else {
    s.commands({"pair_style gran/kuhn " + style_args, "pair_coeff * * " + coeffs + " " + resistance,
                "compute e all pair gran/kuhn"});
  }
  s.commands({fmt::format("timestep {}", dt), "thermo 1", "run 0 post no"});
  // the path: overlap 0.01 + 0.013 sin(2 pi k / 120) m, tangential velocity and spin random walks
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Vec3 vt = {0.0, 0.0, 0.0}, w = {0.0, 0.0, 0.0};
  auto overlap = [](int k) { return 0.01 + 0.013 * std::sin(2.0 * PI * k / 120.0); };
  auto *atom = s.lmp->atom;
  std::vector<PathSample> out;
  for (int k = 0; k < steps; k++) {
    vt = 0.8 * vt + 0.2 * Vec3{0.6 * u(rng), 0.6 * u(rng), 0.0};
    w = 0.8 * w + 0.2 * Vec3{1.5 * u(rng), 1.5 * u(rng), 1.5 * u(rng)};
    const int i = atom->map(1);
    const double vz = -(overlap(k + 1) - overlap(k)) / dt;
    const Vec3 v = {vt.x, vt.y, vz};
    put(atom->x[i], get(atom->x[i]) + dt * v);
    put(atom->v[i], v);
    put(atom->omega[i], w);
    s.command("run 1 pre no post no");
    PathSample p;
    p.force = get(atom->f[atom->map(1)]);
    p.torque = get(atom->torque[atom->map(1)]);
    if (wall) {
      const auto f = fix_vector(s, "w");
      p.energies = {f[V_NORMAL], f[V_TANGENTIAL], f[V_FRICTION],
                    f[V_DAMPING], f[V_CONTACTS],  f[V_SLIDING]};
    } else {
      p.energies = s.pair_extra();
      p.energies.resize(6);
    }
    out.push_back(p);
  }
  return out;
}

void expect_wall_as_huge_partner(const std::string &style_args, const std::string &resistance,
                                 unsigned seed)
{
  const auto pair = kuhn_path(false, style_args, resistance, seed),
             wall = kuhn_path(true, style_args, resistance, seed);
  const std::string options = style_args + " " + resistance;
  ASSERT_EQ(pair.size(), wall.size());
  double scale[10] = {0}, worst[10] = {0};    // force, torque, four energies
  int sliding = 0, parted = 0, differing_counts = 0;
  for (size_t k = 0; k < pair.size(); k++) {
    double d[10], m[10];
    d[0] = demc::norm(pair[k].force - wall[k].force);
    m[0] = demc::norm(pair[k].force);
    d[1] = demc::norm(pair[k].torque - wall[k].torque);
    m[1] = demc::norm(pair[k].torque);
    for (int e = 0; e < 4; e++) {
      d[2 + e] = std::fabs(pair[k].energies[e] - wall[k].energies[e]);
      m[2 + e] = std::fabs(pair[k].energies[e]);
    }
    for (int q = 0; q < 6; q++) {
      worst[q] = std::max(worst[q], d[q]);
      scale[q] = std::max(scale[q], m[q]);
    }
    if (pair[k].energies[4] != wall[k].energies[4] || pair[k].energies[5] != wall[k].energies[5])
      differing_counts++;
    sliding += pair[k].energies[5] > 0.0;
    parted += pair[k].energies[4] == 0.0;
  }
  const char *names[6] = {"force", "torque", "normal energy", "tangential energy", "friction",
                          "damping"};
  std::printf("[ measured ] wall vs frozen partner of radius 1e6 R (%s, seed %u): relative "
              "deviations force %.2e torque %.2e Wn %.2e Wt %.2e friction %.2e damping %.2e "
              "(R/R_b = %.0e); %d sliding steps, %d apart\n",
              options.c_str(), seed, worst[0] / scale[0], worst[1] / scale[1],
              worst[2] / scale[2], worst[3] / scale[3], worst[4] / scale[4], worst[5] / scale[5],
              1.0 / PATH_RB, sliding, parted);
  for (int q = 0; q < 6; q++) {
    EXPECT_GT(scale[q], 0.0) << names[q];
    EXPECT_LE(worst[q], 4.0 / PATH_RB * scale[q]) << names[q] << ", " << options;
  }
  EXPECT_EQ(differing_counts, 0) << "contact and sliding counts";
  // the path exercises what it should: sliding, parting and fresh contacts
  EXPECT_GT(sliding, 10);
  EXPECT_GT(parted, 10);
}

}    // namespace

TEST(WallGranKuhn, WallEqualsHugeFrozenPartnerAlongRandomPaths)
{
  expect_wall_as_huge_partner("", "", 1);
  expect_wall_as_huge_partner("", "rolling sds 1e4 5 0.05 twisting sds 50 0.5 0.02", 2);
  expect_wall_as_huge_partner("limit_damping", "rolling sds 1e4 0 0.05 twisting marshall", 3);
  expect_wall_as_huge_partner("conventional", "rolling sds 3e3 2 0.1", 4);
}
