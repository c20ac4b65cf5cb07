/* Replays one contact path traced by a plugin built with bench/shear_hist_diag.patch (DEMC_TRACE;
   the trace format of bench/prune_replay.cpp) through demc::jaeger::step() with prune 0 and
   prune tol, and prints every `every` steps how the pruned history grows: its length (and the
   exact one's), the normal force against its largest so far, what the removals have spent
   against the current limit tol mu P, the steps by kind since the last line, the removals and
   the largest |T - T_exact| / mu P so far. mode 0: the path as traced; 1, 2: made collinear
   (the shift's x, or y, component only), where the whole-run bound is proven.
     g++ -O2 -std=c++17 -I src/kernels bench/prune_growth.cpp -o prune_growth
     ./prune_growth trace.dat 1e-3 [every [mode]]
   Issue 54, bench/HISTORY.md (2026-11-29, fifth session). */
#include "trace_file.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
using namespace demc;
using namespace demc::jaeger;

int main(int argc, char **argv)
{
  if (argc < 3) return std::fprintf(stderr, "usage: %s trace.dat tol [every [mode]]\n", argv[0]), 2;
  const double tol = std::atof(argv[2]);
  const long every = argc > 3 ? std::atol(argv[3]) : 1000;
  const int mode = argc > 4 ? std::atoi(argv[4]) : 0;
  Replay r(tol, mode, 200000);
  if (!r.open(argv[1])) return 2;
  const Material &m = r.m;
  long kinds[6] = {0, 0, 0, 0, 0, 0}, removed = 0, lines = 0, nviol = 0;
  double Pmax = 0, maxdT = 0, mismatch = 0;
  int nmax = 0;
  std::printf("# step n n_exact P/Pmax spent/(tol mu P) shift/(K z) elastic unload slip slide "
              "removed max|dT|/muP beyond_bound\n");
  while (r.next()) {
    const StepResult &re = r.exact, &rp = r.pruned;
    const PruneSpent &spent = r.spent;
    const Stack &se = r.se, &sp = r.sp;
    if (r.reopened()) Pmax = 0;
    if (mode == 0)
      mismatch = std::fmax(mismatch, std::fabs(rp.T.x - r.t.tx) + std::fabs(rp.T.y - r.t.ty));
    kinds[rp.kind]++;
    removed += rp.pruned;
    Pmax = std::fmax(Pmax, rp.P);
    nmax = sp.n > nmax ? sp.n : nmax;
    const double muP = m.mu * re.P, d = std::hypot(rp.T.x - re.T.x, rp.T.y - re.T.y);
    if (muP > 0) maxdT = std::fmax(maxdT, d / muP);
    if (d > spent.force + 1e-6 * muP) nviol++;
    if (++lines % every == 0) {
      std::printf("%ld %d %d %.3f %.4f %.3e %ld %ld %ld %ld %ld %.3e %ld\n", r.t.step, sp.n, se.n,
                  rp.P / Pmax, spent.force / (tol * muP), spent.shift / (cone_slope(m) * r.t.z),
                  kinds[2], kinds[3], kinds[4], kinds[5], removed, maxdT, nviol);
      for (long &k : kinds) k = 0;
    }
  }
  std::printf("# end: length %d (exact %d), longest %d; max |dT| %.3e mu P; steps beyond the spent "
              "bound + 1e-6 mu P: %ld; mismatch with the run (mode 0, same rule): %.3g\n",
              r.sp.n, r.se.n, nmax, maxdT, nviol, mismatch);
  return 0;
}
