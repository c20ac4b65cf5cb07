/* Replays one contact path traced by a plugin built with bench/prune_shadow.patch (DEMC_TRACE;
   trace.dat: the material, then per step the overlap, the shift in the contact frame, whether
   the contact is fresh, the run's force and the shadow's) through demc::jaeger::step() with
   prune 0 and prune tol, and counts the steps where the pruned force lies further from the
   unpruned one than the spent bound (+ 1e-6 mu P). mode 0: the path as traced (the replay must
   reproduce the run's and the shadow's forces: "mismatch"); 1, 2: the same path made collinear
   (only the shift's x, or y, component), where the bound is proven.
     g++ -O2 -std=c++17 -I src/kernels bench/prune_replay.cpp -o prune_replay
     ./prune_replay trace.dat 1e-3 [mode]
   Issue 54, bench/HISTORY.md (2026-11-28, "run-to-run noise"). */
#include "jaeger_contact.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
using namespace demc;
using namespace demc::jaeger;

int main(int argc, char **argv)
{
  if (argc < 3) return std::fprintf(stderr, "usage: %s trace.dat tol [mode]\n", argv[0]), 2;
  FILE *f = std::fopen(argv[1], "r");
  if (!f) return std::fprintf(stderr, "cannot read %s\n", argv[1]), 2;
  const double tol = std::atof(argv[2]);
  const int mode = argc > 3 ? std::atoi(argv[3]) : 0;
  Material m;
  if (std::fscanf(f, "%lf %lf %lf %lf %lf %lf %lf", &m.Estar, &m.Gstar, &m.R, &m.mu, &m.kappa,
                  &m.cone, &m.hertz) != 7)
    return std::fprintf(stderr, "no material line\n"), 2;
  const int cap = 100000;
  std::vector<Point> pe(cap), pp(cap);
  Stack se{pe.data(), 0, cap}, sp{pp.data(), 0, cap};
  PruneSpent spent{0, 0}, unused{0, 0};
  long step, last = -1, nviol = 0, worst_step = -1;
  double z, dx, dy, tx, ty, P, sx, sy, spf, worst = 0, worst_ratio = 0, mismatch = 0, maxdT = 0;
  int fresh;
  while (std::fscanf(f, "%ld %lf %lf %lf %d %lf %lf %lf %lf %lf %lf", &step, &z, &dx, &dy, &fresh,
                     &tx, &ty, &P, &sx, &sy, &spf) == 11) {
    if (step == last) continue;    // the periodic image's copy of the pair
    last = step;
    if (fresh && se.n > 0) se.n = sp.n = 0, spent = unused = PruneSpent{0, 0};    // reopened
    const Vec2 ds = mode == 1 ? Vec2{dx, 0.0} : mode == 2 ? Vec2{0.0, dy} : Vec2{dx, dy};
    const StepResult re = jaeger::step(m, se, z, ds, 0.0, true, -1.0, 0.0, &unused);
    const StepResult rp = jaeger::step(m, sp, z, ds, 0.0, true, -1.0, tol, &spent);
    if (mode == 0)
      mismatch = std::fmax(mismatch, std::fabs(re.T.x - tx) + std::fabs(re.T.y - ty) +
                                         std::fabs(rp.T.x - sx) + std::fabs(rp.T.y - sy));
    const double d = std::hypot(rp.T.x - re.T.x, rp.T.y - re.T.y), muP = m.mu * re.P;
    maxdT = std::fmax(maxdT, d / muP);
    if (d > spent.force + 1e-6 * muP) {
      nviol++;
      if ((d - spent.force) / muP > worst) worst = (d - spent.force) / muP, worst_step = step;
      worst_ratio = std::fmax(worst_ratio, d / spent.force);
    }
  }
  std::printf("mode %d tol %g: mismatch %.3g; steps beyond spent + 1e-6 mu P: %ld, largest excess "
              "%.3e mu P (step %ld), largest |dT| / spent %.3g; largest |dT| %.3e mu P; lengths "
              "%d / %d\n",
              mode, tol, mismatch, nviol, worst, worst_step, worst_ratio, maxdT, se.n, sp.n);
  return 0;
}
