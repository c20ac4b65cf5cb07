/* Layer (b): LAMMPS's analysis commands on the package's styles, each against a calculation
   from the same state that does not go through the command or single():
   - compute pair/local (dist, force, fx fy fz, eng, p1..p9) on a sliding packing: one row per
     contact found from the positions and radii; the normal force and energy from the law's
     closed form and the overlap; the tangential forces p1..p3 of each atom's contacts, with
     the normal ones, add up to the force compute() put on the atom, and give its torque;
     |Ft| (p4, LAMMPS's layout), the mobilised friction within Coulomb's limit; single() asked
     either way round gives those forces too; gran/jaeger's |Ft|, stored tangential energy and
     work (p4, p7, p8) on Cattaneo's path against its closed forms;
   - compute fabric (contact, branch, force/normal, force/tangential; cutoff radius and type;
     type/include): the tensors formed here from the contact normals, branch lengths, closed-form
     normal forces and the checked tangential forces;
   - compute contact/atom (with and without group2) and compute rattlers/atom (radius and type):
     the counts and rattler flags of the contact network found here from the geometry;
   - compute group/group and the stress/mop, stress/cartesian, stress/cylinder, stress/spherical
     computes (stand-ins where LAMMPS lacks them), which take every pair force as central, and
     compute rattlers/atom with newton off stop with a clear error;
   - fix wall/gran/kuhn and wall/gran/jaeger with contacts: the per-atom array (flag, force,
     contact point on the wall, radius) against the closed forms of spheres pressed onto
     planes and a cylinder, and a sphere resting on a floor (its weight); its rows add up to
     the fix's force on the wall and contact count, and are the same on 1 and 2 ranks while
     atoms migrate (mpi.test_analysis.np2).
   gran/kuhn and gran/jaeger, newton on and off, and their /kk variants (tests *Kokkos*). */
#include "lammps_session.h"
#include "prescribed_motion.h"

#include "atom.h"
#include "compute.h"
#include "domain.h"
#include "exceptions.h"
#include "fix.h"
#include "force.h"
#include "lammps.h"
#include "library.h"
#include "modify.h"
#include "pair.h"

#include "kernel_common.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#ifdef DEMC_TEST_RATTLERS_SOURCE
#include "compute_rattlers_atom.h"
#endif

using namespace demc_test;
using demc::Vec3;

namespace {

void expect_error(LammpsSession &s, const std::vector<std::string> &lines,
                  const std::string &expected)
{
  try {
    s.commands(lines);
    ADD_FAILURE() << "no error, expected: " << expected;
  } catch (LAMMPS_NS::LAMMPSException &e) {
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
  }
}

/* ---------------------------------------------------------------------- */
// the contact laws' closed forms

const double MU = 0.3;

struct Law {
  std::string style;                // "gran/kuhn"
  std::vector<std::string> pair;    // pair_style and pair_coeff lines
  std::function<double(double overlap, double ra, double rb)> normal_force, normal_energy;
  double kt;    // gran/kuhn: stored tangential energy |Ft|^2 / 2 kt; 0: not checked
};

const double KN = 2.0e3, KT = 1.6e3;
const double YOUNG = 1.0e7, POISSON = 0.3;

Law kuhn_law()
{
  return {"gran/kuhn",
          {"pair_style gran/kuhn", "pair_coeff * * 2.0e3 1.6e3 0.3"},
          [](double d, double, double) {
            return KN * d;
          },
          [](double d, double, double) {
            return 0.5 * KN * d * d;
          },
          KT};
}

// Hertz: P = 4/3 E* sqrt(R*) d^3/2, energy 2/5 P d; like materials: E* = E / (2 (1 - nu^2))
double hertz_force(double d, double ra, double rb)
{
  const double estar = YOUNG / (2.0 * (1.0 - POISSON * POISSON));
  return 4.0 / 3.0 * estar * std::sqrt(ra * rb / (ra + rb)) * d * std::sqrt(d);
}

Law jaeger_law()
{
  return {"gran/jaeger",
          {"pair_style gran/jaeger", "pair_coeff * * 1.0e7 0.3 0.3"},
          hertz_force,
          [](double d, double ra, double rb) {
            return 0.4 * hertz_force(d, ra, rb) * d;
          },
          0.0};
}

std::vector<std::string> kokkos_args()
{
  return {"-k", "on", "t", "1", "-sf", "kk", "-pk", "kokkos", "neigh", "half", "newton", "off"};
}

/* ---------------------------------------------------------------------- */
// the state, read on one rank, indexed by atom ID

struct Sphere {
  Vec3 x, f, torque;
  double radius = 0.0;
  int type = 0;
};

struct Snapshot {
  std::vector<Sphere> atoms;    // [0] unused
  double prd[3] = {0, 0, 0};
  bool periodic[3] = {false, false, false};
};

Vec3 vec(const double *a)
{
  return {a[0], a[1], a[2]};
}

Snapshot snapshot(LammpsSession &s)
{
  auto *atom = s.lmp->atom;
  Snapshot snap;
  snap.atoms.resize((size_t) atom->natoms + 1);
  for (int i = 0; i < atom->nlocal; i++) {
    Sphere &a = snap.atoms[atom->tag[i]];
    a.x = vec(atom->x[i]);
    a.f = vec(atom->f[i]);
    a.torque = vec(atom->torque[i]);
    a.radius = atom->radius[i];
    a.type = atom->type[i];
  }
  for (int k = 0; k < 3; k++) {
    snap.prd[k] = s.lmp->domain->prd[k];
    snap.periodic[k] = s.lmp->domain->periodicity[k] != 0;
  }
  return snap;
}

// b's centre minus a's, nearest image
Vec3 separation(const Snapshot &snap, int a, int b)
{
  Vec3 d = snap.atoms[b].x - snap.atoms[a].x;
  double *c[3] = {&d.x, &d.y, &d.z};
  for (int k = 0; k < 3; k++)
    if (snap.periodic[k]) *c[k] -= snap.prd[k] * std::round(*c[k] / snap.prd[k]);
  return d;
}

struct PairGeometry {
  int a, b;    // IDs, a < b
  double r;    // centre distance
  Vec3 n;      // unit vector from a to b
  double overlap;
};

// every pair whose centre distance is below cutoff(a, b) (or equal to it: inclusive)
std::vector<PairGeometry> pairs_within(const Snapshot &snap,
                                       const std::function<double(int, int)> &cutoff,
                                       bool inclusive = false)
{
  std::vector<PairGeometry> out;
  const int n = (int) snap.atoms.size() - 1;
  for (int a = 1; a <= n; a++)
    for (int b = a + 1; b <= n; b++) {
      const Vec3 d = separation(snap, a, b);
      const double r = demc::norm(d), cut = cutoff(a, b);
      if (r < cut || (inclusive && r == cut))
        out.push_back({a, b, r, (1.0 / r) * d, snap.atoms[a].radius + snap.atoms[b].radius - r});
    }
  return out;
}

std::vector<PairGeometry> contacts(const Snapshot &snap, bool inclusive = false)
{
  return pairs_within(
      snap,
      [&](int a, int b) {
        return snap.atoms[a].radius + snap.atoms[b].radius;
      },
      inclusive);
}

/* ---------------------------------------------------------------------- */
// compute pair/local with every value, its rows keyed by the pair's atom IDs

const int EXTRA = 9;    // p1..p9

struct LocalRow {
  int i, j;    // IDs as the command gives them (force on i)
  double dist, force;
  Vec3 fxyz;
  double p[EXTRA];
  double eng;
  Vec3 ft() const { return {p[0], p[1], p[2]}; }
};

std::string pair_local_command(const std::string &id, const std::string &cutoff)
{
  std::string cmd = "compute " + id + " all pair/local dist force fx fy fz";
  for (int k = 1; k <= EXTRA; k++) cmd += " p" + std::to_string(k);
  return cmd + " eng cutoff " + cutoff;
}

std::map<std::pair<int, int>, LocalRow> read_pair_local(LammpsSession &s, const std::string &pl_id,
                                                        const std::string &ids_id, int &rows)
{
  auto *pl = s.lmp->modify->get_compute_by_id(pl_id);
  auto *ids = s.lmp->modify->get_compute_by_id(ids_id);
  pl->compute_local();
  ids->compute_local();
  rows = pl->size_local_rows;
  EXPECT_EQ(ids->size_local_rows, rows);
  std::map<std::pair<int, int>, LocalRow> out;
  for (int k = 0; k < rows; k++) {
    const double *v = pl->array_local[k];
    LocalRow row;
    row.i = (int) ids->array_local[k][0];
    row.j = (int) ids->array_local[k][1];
    row.dist = v[0];
    row.force = v[1];
    row.fxyz = {v[2], v[3], v[4]};
    for (int m = 0; m < EXTRA; m++) row.p[m] = v[5 + m];
    row.eng = v[5 + EXTRA];
    out[{std::min(row.i, row.j), std::max(row.i, row.j)}] = row;
  }
  return out;
}

/* ---------------------------------------------------------------------- */
// the sliding packing

/* the dense packing of lammps_session (512 polydisperse spheres, types 1 and 2, colliding
   with spins) under the law without damping, 200 steps: contacts press, slide and part */
void run_packing(LammpsSession &s, const Law &law, bool newton)
{
  s.load_plugin();
  s.commands(dense_packing_input(law.pair, newton));
  s.commands({"compute ids all property/local patom1 patom2 cutoff radius",
              pair_local_command("pl", "radius"), "thermo 0", "run 200"});
}

double largest_abs(const std::vector<double> &v)
{
  double m = 0.0;
  for (double x : v) m = std::max(m, std::fabs(x));
  return m;
}

/* single() asked about each contact either way round, (I, J) and (J, I) (one of them finds the
   history in the other atom's neighbor list), against the forces and torques compute() put on
   the atoms: with each atom asked first, single()'s normal force (fpair (x_I - x_J)) and
   tangential force (svector[0..2], on the first atom) of its contacts add up to the atom's force,
   and the tangential ones give its torque, for every atom whose contacts are all direct (not
   through a periodic image, which single() cannot be asked about from either side). Either way
   round the energy is the same. Summing a handful of contact forces rounds to 1e-15 of the
   largest: 1e-12 of it is the bound. */
void check_single_both_ways(LammpsSession &s, const std::vector<PairGeometry> &touching)
{
  auto *atom = s.lmp->atom;
  auto *pair = s.lmp->force->pair;
  const size_t n = (size_t) atom->natoms + 1;
  const Vec3 zero = {0.0, 0.0, 0.0};
  std::vector<Vec3> force(n, zero), torque(n, zero);
  std::vector<bool> through_image(n, false);
  double largest = 0.0, worst_energy = 0.0;
  for (const auto &c : touching) {
    const int p = atom->map(c.a), q = atom->map(c.b);
    const Vec3 d = vec(atom->x[q]) - vec(atom->x[p]);
    if (p < 0 || q < 0 || p >= atom->nlocal || q >= atom->nlocal ||
        std::fabs(demc::norm(d) - c.r) > 1e-9 * c.r) {
      through_image[c.a] = through_image[c.b] = true;
      continue;
    }
    double eng[2];
    for (const bool a_first : {true, false}) {
      const int i = a_first ? p : q, j = a_first ? q : p, id = a_first ? c.a : c.b;
      double fpair = 0.0;
      eng[a_first ? 0 : 1] =
          pair->single(i, j, atom->type[i], atom->type[j], demc::norm2(d), 1.0, 1.0, fpair);
      const Vec3 out = (a_first ? 1.0 : -1.0) * c.n;    // from the first atom to the other
      const Vec3 ft = {pair->svector[0], pair->svector[1], pair->svector[2]};
      force[id] = force[id] + (-fpair * c.r) * out + ft;
      torque[id] = torque[id] + (atom->radius[i] - 0.5 * c.overlap) * demc::cross(out, ft);
      largest = std::max(largest, std::fabs(fpair * c.r));
    }
    worst_energy = std::max(worst_energy, std::fabs(eng[0] - eng[1]) / std::max(eng[0], 1e-300));
  }
  int checked = 0;
  double worst_force = 0.0, worst_torque = 0.0, arm = 0.0;
  for (size_t a = 1; a < n; a++) {
    const int i = atom->map((int) a);
    if (through_image[a] || i < 0 || i >= atom->nlocal) continue;
    worst_force = std::max(worst_force, demc::norm(force[a] - vec(atom->f[i])));
    worst_torque = std::max(worst_torque, demc::norm(torque[a] - vec(atom->torque[i])));
    arm = std::max(arm, atom->radius[i]);
    checked++;
  }
  printf("[ measured ] single() with each atom first against compute()'s forces on %d atoms: "
         "force %.2g, torque %.2g (of the largest contact force)\n",
         checked, worst_force / largest, worst_torque / (largest * arm));
  EXPECT_GT(checked, 100);
  EXPECT_LT(worst_force, 1e-12 * largest) << "single()'s forces either way round: the atoms' force";
  EXPECT_LT(worst_torque, 1e-12 * largest * arm) << "single()'s forces either way round: torque";
  EXPECT_LT(worst_energy, 1e-12) << "single()'s energy either way round";
}

/* compute pair/local's rows against the geometry and against the forces and torques compute()
   put on the atoms (no damping, no other forces: each atom's force is the sum of its contact
   forces). Returns the tangential force on the smaller ID of each contact, for the fabric. */
std::map<std::pair<int, int>, Vec3> check_pair_local(LammpsSession &s, const Law &law)
{
  const Snapshot snap = snapshot(s);
  const auto touching = contacts(snap);
  int rows = 0;
  const auto local = read_pair_local(s, "pl", "ids", rows);
  EXPECT_EQ(rows, (int) touching.size()) << "one row per contact";
  EXPECT_GT(touching.size(), 100u) << "the packing should be dense";
  const size_t n = snap.atoms.size();
  std::vector<Vec3> force(n, {0, 0, 0}), torque(n, {0, 0, 0});
  std::map<std::pair<int, int>, Vec3> ft_of;
  double fn_scale = 0.0, worst_fn = 0.0, worst_vec = 0.0, worst_perp = 0.0, worst_energy = 0.0;
  int sliding = 0, sticking = 0;
  for (const auto &c : touching) {
    auto it = local.find({c.a, c.b});
    if (it == local.end()) {
      ADD_FAILURE() << "no row for contact " << c.a << " " << c.b;
      continue;
    }
    const LocalRow &row = it->second;
    const Sphere &A = snap.atoms[c.a], &B = snap.atoms[c.b];
    const double fn = law.normal_force(c.overlap, A.radius, B.radius);
    fn_scale = std::max(fn_scale, fn);
    EXPECT_NEAR(row.dist, c.r, 1e-12 * c.r);
    worst_fn = std::max({worst_fn, std::fabs(row.force - fn), std::fabs(row.p[4] - fn)});
    // the rows' force on i: normal part along x_i - x_j, tangential part p1..p3
    const double to_i = (row.i == c.a) ? 1.0 : -1.0;
    const Vec3 n_to_i = -to_i * c.n;    // unit vector from j to i
    worst_vec = std::max(worst_vec, demc::norm(row.fxyz - fn * n_to_i));
    const Vec3 ft_i = row.ft();
    const double ft = demc::norm(ft_i);
    EXPECT_NEAR(row.p[3], ft, 1e-12 * fn + 1e-15) << "p4 = |Ft|";
    worst_perp = std::max(worst_perp, std::fabs(demc::dot(ft_i, c.n)));
    EXPECT_LE(ft, MU * fn * (1.0 + 1e-9)) << "Coulomb's limit, contact " << c.a << " " << c.b;
    EXPECT_NEAR(row.p[5], fn > 0.0 ? ft / (MU * fn) : 0.0, 1e-9) << "mobilised friction";
    if (row.p[5] > 1.0 - 1e-6) sliding++;
    if (row.p[5] > 0.01 && row.p[5] < 0.99) sticking++;
    /* gran/kuhn's stored tangential energy is |Ft|^2 / 2 kt; gran/jaeger's depends on the
       contact's whole path and is checked against Cattaneo's closed form on a prescribed one
       (Analysis.GranJaegerStoredEnergyOnAPrescribedPath): here only its sign, and eng must be
       the normal energy's closed form plus it */
    double stored_t = row.p[6];
    if (law.kt > 0.0) {
      stored_t = ft * ft / (2.0 * law.kt);
      EXPECT_NEAR(row.p[6], stored_t, 1e-9 * stored_t + 1e-18);
    } else {
      EXPECT_GE(row.p[6], 0.0);
    }
    const double energy = law.normal_energy(c.overlap, A.radius, B.radius) + stored_t;
    worst_energy = std::max(worst_energy, std::fabs(row.eng - energy) / energy);
    // the contact's force on a and b, and their torques (arm to the middle of the overlap)
    const Vec3 ft_a = to_i * ft_i;
    const Vec3 on_a = -fn * c.n + ft_a;
    force[c.a] = force[c.a] + on_a;
    force[c.b] = force[c.b] - on_a;
    torque[c.a] = torque[c.a] + (A.radius - 0.5 * c.overlap) * demc::cross(c.n, ft_a);
    torque[c.b] = torque[c.b] + (B.radius - 0.5 * c.overlap) * demc::cross(c.n, ft_a);
    ft_of[{c.a, c.b}] = ft_a;
  }
  check_single_both_ways(s, touching);
  EXPECT_LT(worst_fn, 1e-10 * fn_scale) << "normal force: the closed form of the overlap";
  EXPECT_LT(worst_vec, 1e-10 * fn_scale) << "fx fy fz: the normal force along x_i - x_j";
  EXPECT_LT(worst_perp, 1e-9 * fn_scale) << "Ft lies in the tangent plane";
  EXPECT_LT(worst_energy, 1e-9) << "eng: stored normal and tangential energy";
  EXPECT_GT(sliding, 5) << "some contacts should slide";
  EXPECT_GT(sticking, 5) << "some contacts should stick below the limit";
  double f_scale = 0.0, t_scale = 0.0, df = 0.0, dt = 0.0;
  for (size_t a = 1; a < n; a++) {
    f_scale = std::max(f_scale, demc::norm(snap.atoms[a].f));
    t_scale = std::max(t_scale, demc::norm(snap.atoms[a].torque));
    df = std::max(df, demc::norm(force[a] - snap.atoms[a].f));
    dt = std::max(dt, demc::norm(torque[a] - snap.atoms[a].torque));
  }
  printf("[ measured ] %s pair/local: %d contacts, %d sliding; force sum %.3g, torque sum %.3g "
         "(relative)\n",
         law.style.c_str(), rows, sliding, df / f_scale, dt / t_scale);
  EXPECT_LT(df, 1e-9 * f_scale) << "the contacts' forces add up to each atom's force";
  EXPECT_LT(dt, 1e-9 * t_scale) << "the contacts' tangential forces give each atom's torque";
  return ft_of;
}

/* ---------------------------------------------------------------------- */
// compute fabric, formed here from the contacts (LAMMPS's compute fabric page: the contact
// fabric from the normals, the branch, normal and tangential force fabrics weighted by
// 1 / (N_c (1 + A_c : n n)); components xx yy zz xy xz yz)

using Sym = std::array<double, 6>;

struct FabricContact {
  Vec3 n;
  double r, fn, ft;
};

Sym dyad(const Vec3 &n)
{
  return {n.x * n.x, n.y * n.y, n.z * n.z, n.x * n.y, n.x * n.z, n.y * n.z};
}

Sym deviator(const Sym &t, double factor)
{
  const double third = (t[0] + t[1] + t[2]) / 3.0;
  Sym out;
  for (int k = 0; k < 6; k++) out[k] = factor * (t[k] - (k < 3 ? third : 0.0));
  return out;
}

double trace_third(const Sym &t)
{
  return (t[0] + t[1] + t[2]) / 3.0;
}

// contact, branch, normal force, tangential force fabric
std::array<Sym, 4> expected_fabric(const std::vector<FabricContact> &cs)
{
  const double nc = (double) cs.size();
  Sym phi = {0, 0, 0, 0, 0, 0};
  for (const auto &c : cs) {
    const Sym d = dyad(c.n);
    for (int k = 0; k < 6; k++) phi[k] += d[k] / nc;
  }
  const Sym ac = deviator(phi, 7.5);
  Sym D = {0, 0, 0, 0, 0, 0}, Xn = D, Xt = D;
  for (const auto &c : cs) {
    const Sym d = dyad(c.n);
    const double ac_nn = ac[0] * d[0] + ac[1] * d[1] + ac[2] * d[2] +
        2.0 * (ac[3] * d[3] + ac[4] * d[4] + ac[5] * d[5]);
    const double w = 1.0 / (nc * (1.0 + ac_nn));
    for (int k = 0; k < 6; k++) {
      D[k] += w * c.r * d[k];
      Xn[k] += w * c.fn * d[k];
      Xt[k] += w * c.ft * d[k];
    }
  }
  const double tn = trace_third(Xn);
  Sym ft_fabric = deviator(Xt, 15.0 / (9.0 * tn));
  return {ac, deviator(D, 15.0 / (6.0 * trace_third(D))), deviator(Xn, 15.0 / (6.0 * tn)),
          ft_fabric};
}

/* compute fabric ID all fabric CUTSTYLE contact branch force/normal force/tangential [MORE]
   against the tensors of the pairs given (non-touching pairs of cutoff type: no force) */
void check_fabric(LammpsSession &s, const Law &law, const std::string &cutstyle,
                  const std::string &more, const std::vector<PairGeometry> &pairs,
                  const std::map<std::pair<int, int>, Vec3> &ft_of)
{
  const Snapshot snap = snapshot(s);
  std::vector<FabricContact> cs;
  for (const auto &c : pairs) {
    const double ra = snap.atoms[c.a].radius, rb = snap.atoms[c.b].radius;
    const bool touching = c.overlap > 0.0;
    auto it = ft_of.find({c.a, c.b});
    const double ft = (touching && it != ft_of.end()) ? demc::norm(it->second) : 0.0;
    cs.push_back({c.n, c.r, touching ? law.normal_force(c.overlap, ra, rb) : 0.0, ft});
  }
  const auto expected = expected_fabric(cs);
  const std::string id = "fab_" + cutstyle + (more.empty() ? "" : "_more");
  s.command("compute " + id + " all fabric " + cutstyle +
            " contact branch force/normal force/tangential " + more);
  auto *fab = s.lmp->modify->get_compute_by_id(id);
  s.command("run 0 post no");    // (init: its neighbor list)
  EXPECT_DOUBLE_EQ(fab->compute_scalar(), (double) cs.size()) << cutstyle << " " << more;
  fab->compute_vector();
  const char *names[4] = {"contact", "branch", "force/normal", "force/tangential"};
  for (int t = 0; t < 4; t++) {
    std::vector<double> e(expected[t].begin(), expected[t].end());
    const double scale = largest_abs(e);
    EXPECT_GT(scale, 0.0);
    double diff = 0.0;
    for (int k = 0; k < 6; k++) diff = std::max(diff, std::fabs(fab->vector[6 * t + k] - e[k]));
    printf("[ measured ] %s fabric %s %s %s: %.3g (relative)\n", law.style.c_str(),
           cutstyle.c_str(), more.c_str(), names[t], diff / scale);
    EXPECT_LT(diff, 1e-9 * scale) << names[t] << " fabric, cutoff " << cutstyle << " " << more;
  }
  s.command("uncompute " + id);
}

// largest radius of each type (the pair styles' cutoff per type pair is the sum)
std::vector<double> largest_radius_per_type(const Snapshot &snap, int ntypes)
{
  std::vector<double> out(ntypes + 1, 0.0);
  for (size_t a = 1; a < snap.atoms.size(); a++)
    out[snap.atoms[a].type] = std::max(out[snap.atoms[a].type], snap.atoms[a].radius);
  return out;
}

void check_fabrics(LammpsSession &s, const Law &law,
                   const std::map<std::pair<int, int>, Vec3> &ft_of)
{
  const Snapshot snap = snapshot(s);
  const auto touching = contacts(snap);
  check_fabric(s, law, "radius", "", touching, ft_of);
  std::vector<PairGeometry> mixed;
  for (const auto &c : touching)
    if (snap.atoms[c.a].type != snap.atoms[c.b].type) mixed.push_back(c);
  ASSERT_GT(mixed.size(), 10u);
  check_fabric(s, law, "radius", "type/include 1 2", mixed, ft_of);
  const auto rmax = largest_radius_per_type(snap, 2);
  const auto near = pairs_within(snap, [&](int a, int b) {
    return rmax[snap.atoms[a].type] + rmax[snap.atoms[b].type];
  });
  ASSERT_GT(near.size(), touching.size()) << "cutoff type should take in pairs not touching";
  check_fabric(s, law, "type", "", near, ft_of);
}

/* ---------------------------------------------------------------------- */
// compute contact/atom and compute rattlers/atom from the contact network

void check_contact_atom(LammpsSession &s)
{
  const Snapshot snap = snapshot(s);
  const size_t n = snap.atoms.size();
  std::vector<double> all(n, 0.0), with_odd(n, 0.0);
  auto odd = [](int id) {
    return id % 2 == 1;
  };    // group odd: IDs 1, 3, ...
  for (const auto &c : contacts(snap, true)) {
    all[c.a] += 1.0;
    all[c.b] += 1.0;
    if (odd(c.b)) with_odd[c.a] += 1.0;
    if (odd(c.a)) with_odd[c.b] += 1.0;
  }
  s.commands(
      {"compute ca all contact/atom", "compute ca_odd all contact/atom odd", "run 0 post no"});
  const auto *atom = s.lmp->atom;
  int differ = 0, differ_odd = 0, most = 0;
  for (const auto &[id, expected] : {std::make_pair(std::string("ca"), &all),
                                     std::make_pair(std::string("ca_odd"), &with_odd)}) {
    auto *c = s.lmp->modify->get_compute_by_id(id);
    c->compute_peratom();
    for (int i = 0; i < atom->nlocal; i++) {
      const double value = c->vector_atom[i];
      if (value != (*expected)[atom->tag[i]]) (id == "ca" ? differ : differ_odd)++;
      most = std::max(most, (int) value);
    }
  }
  EXPECT_EQ(differ, 0) << "compute contact/atom";
  EXPECT_EQ(differ_odd, 0) << "compute contact/atom odd";
  EXPECT_GE(most, 3);
  s.commands({"uncompute ca", "uncompute ca_odd"});
}

/* rattlers: atoms with fewer than z contacts, removed with their contacts until none is left
   (compute rattlers/atom's definition) */
std::vector<bool> expected_rattlers(const Snapshot &snap, const std::vector<PairGeometry> &pairs,
                                    int z)
{
  const size_t n = snap.atoms.size();
  std::vector<bool> rattler(n, false);
  rattler[0] = true;    // (no atom 0)
  for (bool changed = true; changed;) {
    std::vector<int> count(n, 0);
    for (const auto &c : pairs)
      if (!rattler[c.a] && !rattler[c.b]) {
        count[c.a]++;
        count[c.b]++;
      }
    changed = false;
    for (size_t a = 1; a < n; a++)
      if (!rattler[a] && count[a] < z) rattler[a] = changed = true;
  }
  return rattler;
}

#ifdef DEMC_TEST_RATTLERS_SOURCE
LAMMPS_NS::Compute *make_rattlers(LAMMPS_NS::LAMMPS *lmp, int narg, char **arg)
{
  return new LAMMPS_NS::ComputeRattlersAtom(lmp, narg, arg);
}
#endif

/* LAMMPS's compute rattlers/atom (package EXTRA-COMPUTE); where the LAMMPS library lacks the
   package the test build compiles it from the LAMMPS source tree. False if neither. */
bool have_rattlers(LammpsSession &s)
{
  if (s.has_style("compute", "rattlers/atom")) return true;
#ifdef DEMC_TEST_RATTLERS_SOURCE
  (*s.lmp->modify->compute_map)["rattlers/atom"] = &make_rattlers;
  return true;
#else
  return false;
#endif
}

/* rattlers/atom over all atoms with the contacts (radius; fewer than 2 makes a rattler), and
   over group odd with the pairs within the cutoff (type; fewer than 3: in the simple cubic
   packing nearly every atom has its 6 lattice neighbours within it). The compute counts pairs
   of group atoms only, and flags the atoms outside the group too (0 contacts). With newton off
   LAMMPS's compute counts a contact with a ghost atom for the owned atom only: the pair style
   stops with an error then. */
void check_rattlers(LammpsSession &s, bool rattlers_available, bool newton)
{
  if (!rattlers_available) {
    printf("[ skipped  ] compute rattlers/atom: not in this LAMMPS, and no LAMMPS source\n");
    return;
  }
  if (!newton) {
    expect_error(s, {"compute rat all rattlers/atom radius 2 50", "run 0 post no"},
                 "compute rat (rattlers/atom) miscounts contacts with newton off");
    s.command("uncompute rat");
    return;
  }
  const Snapshot snap = snapshot(s);
  const auto rmax = largest_radius_per_type(snap, 2);
  struct Case {
    std::string cutstyle, group;
    int z;
  };
  for (const Case &k : {Case{"radius", "all", 2}, Case{"type", "odd", 3}}) {
    const std::string &cutstyle = k.cutstyle;
    const int z = k.z;
    std::vector<PairGeometry> pairs;
    for (const auto &c :
         (cutstyle == "radius") ? contacts(snap) : pairs_within(snap, [&](int a, int b) {
           return rmax[snap.atoms[a].type] + rmax[snap.atoms[b].type];
         }))
      if (k.group == "all" || (c.a % 2 == 1 && c.b % 2 == 1)) pairs.push_back(c);
    const auto expected = expected_rattlers(snap, pairs, z);
    const std::string id = "rat_" + cutstyle;
    s.commands({"compute " + id + " " + k.group + " rattlers/atom " + cutstyle + " " +
                    std::to_string(z) + " 50",
                "run 0 post no"});
    auto *c = s.lmp->modify->get_compute_by_id(id);
    c->compute_peratom();
    const auto *atom = s.lmp->atom;
    int differ = 0, rattlers = 0, in_group = 0, group_rattlers = 0;
    for (int i = 0; i < atom->nlocal; i++) {
      const bool flagged = c->vector_atom[i] == 1.0;
      if (flagged != expected[atom->tag[i]]) differ++;
      rattlers += flagged ? 1 : 0;
      if (k.group == "all" || atom->tag[i] % 2 == 1) {
        in_group++;
        group_rattlers += flagged ? 1 : 0;
      }
    }
    EXPECT_EQ(differ, 0) << "rattlers/atom " << cutstyle;
    EXPECT_DOUBLE_EQ(c->compute_scalar(), (double) rattlers);
    EXPECT_GT(group_rattlers, 0) << cutstyle;
    EXPECT_LT(group_rattlers, in_group) << cutstyle;
    printf("[ measured ] rattlers/atom %s %d, group %s: %d of %d\n", cutstyle.c_str(), z,
           k.group.c_str(), group_rattlers, in_group);
    s.command("uncompute " + id);
  }
}

/* ---------------------------------------------------------------------- */

/* The stress/mop, stress/cartesian, stress/cylinder and stress/spherical computes (package
   EXTRA-COMPUTE) take single()'s force along the line of centres as the whole pair force, as
   compute group/group does. The pair styles refuse them by style name; a compute that does
   nothing stands in for them where the LAMMPS library lacks them. */
class CentralForceComputeStandIn : public LAMMPS_NS::Compute {
 public:
  CentralForceComputeStandIn(LAMMPS_NS::LAMMPS *lmp, int narg, char **arg) : Compute(lmp, narg, arg)
  {
  }
  void init() override {}
};

LAMMPS_NS::Compute *make_central_force_stand_in(LAMMPS_NS::LAMMPS *lmp, int narg, char **arg)
{
  return new CentralForceComputeStandIn(lmp, narg, arg);
}

void expect_central_force_computes_refused(LammpsSession &s)
{
  for (const std::string style :
       {"stress/mop", "stress/cartesian", "stress/cylinder", "stress/spherical"}) {
    if (!s.has_style("compute", style))
      (*s.lmp->modify->compute_map)[style] = &make_central_force_stand_in;
    const std::string id = "c_" + std::to_string(style.size());
    // (the stand-in takes any arguments; the real computes fail later with theirs)
    expect_error(s, {"compute " + id + " all " + style + " z center kin conf", "run 0 post no"},
                 "compute " + id + " (" + style + ") takes each pair force to act along the line");
    s.command("uncompute " + id);
  }
}

// every check on one law and newton setting (Kokkos: extra_args)
void check_analysis(const Law &law, bool newton, const std::vector<std::string> &extra_args = {})
{
  LammpsSession s(MPI_COMM_WORLD, extra_args);
  ASSERT_EQ(s.nprocs(), 1) << "the checks read the whole state on one rank";
  const bool rattlers = have_rattlers(s);
  run_packing(s, law, newton);
  const auto ft_of = check_pair_local(s, law);
  check_fabrics(s, law, ft_of);
  check_contact_atom(s);
  check_rattlers(s, rattlers, newton);
  expect_error(s, {"compute gg odd group/group all", "run 0 post no"},
               "compute gg (group/group) takes each pair force to act along the line of centres");
  s.command("uncompute gg");
  expect_central_force_computes_refused(s);
}

/* ---------------------------------------------------------------------- */
// the wall fixes' per-atom contacts array

struct WallLaw {
  std::string fix;    // "wall/gran/kuhn 1e5 8e4 0.4"
  std::function<double(double overlap, double radius)> normal_force;
};

const double WALL_MU = 0.4;

WallLaw kuhn_wall()
{
  return {"wall/gran/kuhn 1e5 8e4 0.4", [](double d, double) {
            return 1.0e5 * d;
          }};
}

// against a wall: R* = R, E* = E / (2 (1 - nu^2)) (the wall's material on both sides)
WallLaw jaeger_wall()
{
  return {"wall/gran/jaeger 1e7 0.3 0.4", [](double d, double radius) {
            const double estar = 1.0e7 / (2.0 * (1.0 - 0.09));
            return 4.0 / 3.0 * estar * std::sqrt(radius) * d * std::sqrt(d);
          }};
}

// the row of atom ID `id` in fix `fix_id`'s per-atom array
std::vector<double> contact_row(LammpsSession &s, const std::string &fix_id, int id)
{
  auto *fix = s.lmp->modify->get_fix_by_id(fix_id);
  EXPECT_TRUE(fix && fix->peratom_flag && fix->size_peratom_cols == 8);
  const int i = s.lmp->atom->map(id);
  if (!fix || i < 0 || i >= s.lmp->atom->nlocal) return std::vector<double>(8, NAN);
  return {fix->array_atom[i], fix->array_atom[i] + 8};
}

void expect_row(const std::vector<double> &row, const std::vector<double> &expected,
                const std::string &what)
{
  double scale = 0.0;
  for (int k = 1; k < 4; k++) scale = std::max(scale, std::fabs(expected[k]));
  for (int k = 0; k < 8; k++) {
    const double tol = (k >= 1 && k <= 3) ? 1e-9 * scale : 1e-12;
    EXPECT_NEAR(row[k], expected[k], tol) << what << ", column " << k + 1;
  }
}

/* Four spheres (radius 0.5) against a plane pair (z = -1 and 1) and a z cylinder (radius 3),
   no integrator: 1 pressed 1 mm into the lower plane and moved along x by fix move until it
   slides (force on it: mu Fn against the motion, Fn up); 2 pressed 2 mm into the upper plane, 4
   3 mm into the cylinder at 30 degrees, both at rest (the normal force only); 3 free (zeros). The
   contact points lie on the surfaces, under the centres. */
void check_wall_contacts(const WallLaw &law)
{
  LammpsSession s;
  s.load_plugin();
  const double R = 0.5, d1 = 1e-3, d2 = 2e-3, d4 = 3e-3, angle = 3.14159265358979323846 / 6.0;
  const double rho4 = 3.0 - R + d4, x4 = rho4 * std::cos(angle), y4 = rho4 * std::sin(angle);
  s.commands({"units si", "atom_style sphere", "atom_modify map array", "boundary f f f",
              "region box block -4 4 -4 4 -2 2 units box", "create_box 1 box",
              fmt::format("create_atoms 1 single 0.3 0.2 {} units box", -1.0 + R - d1),
              fmt::format("create_atoms 1 single -0.4 0.1 {} units box", 1.0 - R + d2),
              "create_atoms 1 single 0 -1 0 units box",
              fmt::format("create_atoms 1 single {} {} 0 units box", x4, y4),
              "set group all diameter 1.0", "set group all density 1000", "timestep 1e-4",
              "group mover id 1", "fix m mover move linear 0.2 0 0",
              "fix planes all " + law.fix + " zplane -1 1 contacts",
              "fix drum all " + law.fix + " zcylinder 3 contacts", "run 200"});
  const double x1 = 0.3 + 200 * 1e-4 * 0.2;
  const double fn1 = law.normal_force(d1, R), fn2 = law.normal_force(d2, R),
               fn4 = law.normal_force(d4, R);
  const auto &x = s.lmp->atom->x;
  EXPECT_NEAR(x[s.lmp->atom->map(1)][0], x1, 1e-12);
  expect_row(contact_row(s, "planes", 1), {1, -WALL_MU * fn1, 0, fn1, x1, 0.2, -1, R},
             "sliding on the lower plane");
  expect_row(contact_row(s, "planes", 2), {1, 0, 0, -fn2, -0.4, 0.1, 1, R}, "upper plane");
  expect_row(contact_row(s, "planes", 3), {0, 0, 0, 0, 0, 0, 0, 0}, "free");
  expect_row(contact_row(s, "planes", 4), {0, 0, 0, 0, 0, 0, 0, 0}, "cylinder's, on planes");
  expect_row(contact_row(s, "drum", 4),
             {1, -fn4 * std::cos(angle), -fn4 * std::sin(angle), 0, 3 * std::cos(angle),
              3 * std::sin(angle), 0, R},
             "cylinder");
  for (int id : {1, 2, 3})
    expect_row(contact_row(s, "drum", id), {0, 0, 0, 0, 0, 0, 0, 0}, "planes', on cylinder");
}

/* a sphere (radius 1 cm, 2500 kg/m3) dropped from just above a floor, damped, at rest after
   1000 steps: the floor carries its weight m g at the point under its centre */
void check_resting_sphere(const WallLaw &law)
{
  LammpsSession s;
  s.load_plugin();
  const double R = 0.01, g = 9.81;
  const double m = 2500.0 * 4.0 / 3.0 * 3.14159265358979323846 * R * R * R;
  s.commands({"units si", "atom_style sphere", "atom_modify map array", "boundary f f f",
              "region box block -1 1 -1 1 -1 1 units box", "create_box 1 box",
              fmt::format("create_atoms 1 single 0.1 -0.2 {} units box", R + 1e-4),
              "set group all diameter 0.02", "set group all density 2500", "timestep 1e-5",
              "fix integrate all nve/sphere", "fix g all gravity 9.81 vector 0 0 -1",
              "fix floor all " + law.fix + " restitution 0.3 0.3 zplane 0 NULL contacts",
              "run 20000"});
  const auto row = contact_row(s, "floor", 1);
  const double mg = m * g;
  EXPECT_NEAR(row[0], 1.0, 0.0);
  EXPECT_NEAR(row[3], mg, 1e-9 * mg) << "the weight";
  EXPECT_NEAR(row[1], 0.0, 1e-9 * mg);
  EXPECT_NEAR(row[2], 0.0, 1e-9 * mg);
  EXPECT_NEAR(row[4], 0.1, 1e-12);
  EXPECT_NEAR(row[5], -0.2, 1e-12);
  EXPECT_NEAR(row[6], 0.0, 1e-15);
  EXPECT_NEAR(row[7], R, 0.0);
}

/* A layer of 36 spheres squeezed between two walls (wall/gran/kuhn below, translating, drags it
   3 mm along x, past the subdomain boundaries and the periodic one; wall/gran/jaeger above),
   both with contacts, 300 steps on the ranks of comm. Returns both fixes' rows by atom ID (16 columns, [0] unused), after checking that the
   rows add up to the force on each wall and count its contacts (the fix's global vector). */
std::vector<std::vector<double>> squeezed_layer_contacts(LammpsSession &s)
{
  s.commands(
      {"units si",
       "atom_style sphere",
       "atom_modify map array",
       "boundary p p f",
       "processors * * 1",
       "comm_modify vel yes",
       "region box block 0 0.0126 0 0.0126 -0.001 0.003 units box",
       "create_box 1 box",
       "lattice sc 0.0021 origin 0.5 0.5 0.0",
       "region slab block 0 0.0126 0 0.0126 -0.0005 0.0005 units box",
       "create_atoms 1 region slab",
       "reset_atoms id sort yes",
       "variable d atom 0.00196+0.00012*((id*7919)%101)/101",
       "set group all diameter v_d",
       "set group all density 2650",
       "pair_style gran/kuhn",
       "pair_coeff * * 2e3 1.5e3 0.4 damping 0.002 0.001",
       "neighbor 0.0003 bin",
       "neigh_modify delay 0",
       "fix integrate all nve/sphere",
       "fix lo all wall/gran/kuhn 2e3 1.5e3 0.4 zplane -0.0008 NULL translate 2 0 0 contacts",
       "fix hi all wall/gran/jaeger 1e7 0.3 0.4 zplane NULL 0.0008 contacts",
       "timestep 1e-5",
       "run 300"});
  const auto *atom = s.lmp->atom;
  const int natoms = (int) atom->natoms;
  std::vector<double> mine((size_t) 16 * (natoms + 1), 0.0), all(mine.size(), 0.0);
  int f = 0;
  for (const char *id : {"lo", "hi"}) {
    auto *fix = s.lmp->modify->get_fix_by_id(id);
    double local[4] = {0, 0, 0, 0}, total[4];
    for (int i = 0; i < atom->nlocal; i++) {
      const double *row = fix->array_atom[i];
      for (int k = 0; k < 8; k++) mine[16 * atom->tag[i] + 8 * f + k] = row[k];
      for (int k = 0; k < 4; k++) local[k] += row[k];
    }
    MPI_Allreduce(local, total, 4, MPI_DOUBLE, MPI_SUM, s.lmp->world);
    const double scale = std::fabs(fix->compute_vector(2));
    EXPECT_GT(total[0], 10.0) << id << ": the layer should touch the wall";
    EXPECT_DOUBLE_EQ(total[0], fix->compute_vector(7)) << id << ": contacts";
    for (int k = 0; k < 3; k++)
      EXPECT_NEAR(total[1 + k], -fix->compute_vector(k), 1e-12 * scale) << id << " force " << k;
    f++;
  }
  MPI_Allreduce(mine.data(), all.data(), (int) mine.size(), MPI_DOUBLE, MPI_SUM, s.lmp->world);
  std::vector<std::vector<double>> rows(natoms + 1);
  for (int a = 1; a <= natoms; a++) rows[a].assign(&all[16 * a], &all[16 * a] + 16);
  return rows;
}

bool have_kokkos_styles()
{
  if (!lammps_config_has_package("KOKKOS")) return false;
  LammpsSession s(MPI_COMM_WORLD, kokkos_args());
  s.load_plugin();
  return s.has_style("pair", "gran/kuhn/kk") && s.has_style("pair", "gran/jaeger/kk");
}

}    // namespace

TEST(Analysis, GranKuhnNewtonOn)
{
  check_analysis(kuhn_law(), true);
}

TEST(Analysis, GranKuhnNewtonOff)
{
  check_analysis(kuhn_law(), false);
}

TEST(Analysis, GranJaegerNewtonOn)
{
  check_analysis(jaeger_law(), true);
}

TEST(Analysis, GranJaegerNewtonOff)
{
  check_analysis(jaeger_law(), false);
}

/* Cattaneo's loading: two spheres (radius R) pressed by z, then sphere 2 spun about an axis
   normal to the line of centres, so that its contact point slides by s tangentially while the
   centres, hence the normal and z, stay put (no integrator). Mindlin's annuli give, with the
   apex z* = z - s / K (K = mu E* / G*, E* = E / (2 (1 - nu^2)), G* = E / ((1 + nu) (2 - nu)),
   P(z) = 4/3 E* sqrt(R / 2) z^3/2): the force |T| = mu (P(z) - P(z*)), the work of T along s
   W = mu K int_{z*}^{z} (P(z) - P(zeta)) dzeta, the energy stored in the annuli
   U = mu K (int_{z*}^{z} P(zeta) dzeta - (z - z*) P(z*)). compute pair/local's |Ft| (p4), stored
   tangential energy (p7) and work (p8) after 200 steps of this path, the same at every step of a
   movement in one direction: exact to rounding (measured 1.1e-14 relative); 1e-12 leaves room
   for the 200 steps' rounding. */
TEST(Analysis, GranJaegerStoredEnergyOnAPrescribedPath)
{
  const double R = 1.0e-3, z = 1.0e-5, E = 1.0e7, nu = 0.3, mu = 0.3, dt = 1.0e-6;
  const double estar = E / (2.0 * (1.0 - nu * nu)), gstar = E / ((1.0 + nu) * (2.0 - nu));
  const double K = mu * estar / gstar, c = 4.0 / 3.0 * estar * std::sqrt(0.5 * R);
  auto P = [&](double zeta) {
    return c * zeta * std::sqrt(zeta);
  };
  auto int_P = [&](double lo, double hi) {    // int_lo^hi P
    return 0.4 * c * (hi * hi * std::sqrt(hi) - lo * lo * std::sqrt(lo));
  };
  for (const double fraction : {0.3, 0.9}) {    // s / (K z): of the way to full sliding
    LammpsSession s;
    s.load_plugin();
    s.commands({"units si", "atom_style sphere", "atom_modify map array", "boundary f f f",
                "comm_modify vel yes", "region box block -0.01 0.01 -0.01 0.01 -0.01 0.01",
                "create_box 1 box",
                "create_atoms 1 single 0 0 0",
                fmt::format("create_atoms 1 single {:.17g} 0 0", 2.0 * R - z),
                fmt::format("set group all diameter {:.17g}", 2.0 * R),
                "set group all density 2500", "neighbor 1e-4 bin",
                "neigh_modify every 1 delay 0 check no", "pair_style gran/jaeger",
                fmt::format("pair_coeff * * {:.17g} {:.17g} {:.17g}", E, nu, mu),
                fmt::format("timestep {:.17g}", dt), pair_local_command("pl", "radius"),
                "compute ids all property/local patom1 patom2 cutoff radius", "run 0 post no"});
    const int steps = 200;
    const double arm = R - 0.5 * z, s_total = fraction * K * z;
    // sphere 2's contact point, at -arm x from its centre, moves by w x (-arm x) = -w arm y
    PairDrive d{};
    d.w2 = {0.0, 0.0, s_total / (arm * steps * dt)};
    // the contact's first step is its fresh one (pressed from 0 to z within it): at rest
    drive_one_step(s, PairDrive{}, dt);
    for (int k = 0; k < steps; k++) drive_one_step(s, d, dt);
    int rows = 0;
    const auto local = read_pair_local(s, "pl", "ids", rows);
    ASSERT_EQ(rows, 1);
    const LocalRow &row = local.begin()->second;
    const double z_apex = z - s_total / K;
    const double T = mu * (P(z) - P(z_apex));
    const double W = mu * K * ((z - z_apex) * P(z) - int_P(z_apex, z));
    const double U = mu * K * (int_P(z_apex, z) - (z - z_apex) * P(z_apex));
    printf("[ measured ] gran/jaeger on Cattaneo's path to %.1f s_max: |Ft| %.1e, stored %.1e, "
           "work %.1e (relative)\n",
           fraction, row.p[3] / T - 1.0, row.p[6] / U - 1.0, row.p[7] / W - 1.0);
    EXPECT_NEAR(row.p[3], T, 1e-12 * T) << "|Ft| " << fraction;
    EXPECT_NEAR(row.p[6], U, 1e-12 * U) << "stored tangential energy " << fraction;
    EXPECT_NEAR(row.p[7], W, 1e-12 * W) << "work " << fraction;
    EXPECT_GT(W - U, 0.0) << "microslip dissipates " << fraction;
  }
}

TEST(AnalysisKokkos, GranKuhn)
{
  if (!have_kokkos_styles()) GTEST_SKIP() << "no Kokkos styles in this build";
  check_analysis(kuhn_law(), false, kokkos_args());
}

TEST(AnalysisKokkos, GranJaeger)
{
  if (!have_kokkos_styles()) GTEST_SKIP() << "no Kokkos styles in this build";
  check_analysis(jaeger_law(), false, kokkos_args());
}

TEST(WallContacts, GranKuhnClosedForms)
{
  check_wall_contacts(kuhn_wall());
  check_resting_sphere(kuhn_wall());
}

TEST(WallContacts, GranJaegerClosedForms)
{
  check_wall_contacts(jaeger_wall());
  check_resting_sphere(jaeger_wall());
}

// contacts is a keyword of the wall, once
TEST(WallContacts, BadInput)
{
  LammpsSession s;
  s.load_plugin();
  s.commands({"units si", "atom_style sphere", "boundary f f f", "region box block -1 1 -1 1 -1 1",
              "create_box 1 box"});
  expect_error(s, {"fix w all wall/gran/kuhn 1 1 0.5 zplane -1 1 contacts contacts"},
               "Fix wall/gran/kuhn: use contacts once");
  expect_error(s, {"fix w all wall/gran/jaeger 1e7 0.3 0.5 zplane -1 1 contacts 1"},
               "Unknown fix wall/gran/jaeger keyword: 1");
}

/* The contacts arrays, filled anew every step for the atoms owned, on 1 rank and on all ranks
   of the job (mpi.test_analysis.np2), while atoms migrate: the same rows to 1e-9 */
TEST(WallContactsRanks, SameRowsOnAnyRankCount)
{
  int nprocs;
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  if (nprocs == 1) GTEST_SKIP() << "compares 1 rank with the job's ranks: run it on 2 or more";
  std::vector<std::vector<double>> one, many;
  on_first_ranks(1, [&](LammpsSession &s) {
    one = squeezed_layer_contacts(s);
  });
  on_first_ranks(nprocs, [&](LammpsSession &s) {
    many = squeezed_layer_contacts(s);
  });
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me != 0) return;
  ASSERT_EQ(one.size(), many.size());
  double scale = 0.0, diff = 0.0;
  for (size_t a = 1; a < one.size(); a++)
    for (int k = 0; k < 16; k++) {
      if (k % 8 >= 1 && k % 8 <= 3) scale = std::max(scale, std::fabs(one[a][k]));
      diff = std::max(diff, std::fabs(one[a][k] - many[a][k]));
    }
  printf("[ measured ] contacts rows, 1 rank against %d: %.3g (force scale %.3g)\n", nprocs, diff,
         scale);
  EXPECT_LT(diff, 1e-9 * scale);
}
