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
#include "trace_file.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
using namespace demc;
using namespace demc::jaeger;

int main(int argc, char **argv)
{
  if (argc < 3) return std::fprintf(stderr, "usage: %s trace.dat tol [mode]\n", argv[0]), 2;
  const double tol = std::atof(argv[2]);
  const int mode = argc > 3 ? std::atoi(argv[3]) : 0;
  Replay r(tol, mode, 100000);
  if (!r.open(argv[1])) return 2;
  const Material &m = r.m;
  long nviol = 0, worst_step = -1;
  double worst = 0, worst_ratio = 0, mismatch = 0, maxdT = 0;
  while (r.next()) {
    const StepResult &re = r.exact, &rp = r.pruned;
    const PruneSpent &spent = r.spent;
    const long step = r.t.step;
    if (mode == 0)
      mismatch = std::fmax(mismatch,
                           std::fabs(re.T.x - r.t.tx) + std::fabs(re.T.y - r.t.ty) +
                               std::fabs(rp.T.x - r.t.sx) + std::fabs(rp.T.y - r.t.sy));
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
              mode, tol, mismatch, nviol, worst, worst_step, worst_ratio, maxdT, r.se.n, r.sp.n);
  return 0;
}
