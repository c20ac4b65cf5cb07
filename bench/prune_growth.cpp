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
#include "jaeger_contact.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
using namespace demc;
using namespace demc::jaeger;

int main(int argc, char **argv)
{
  if (argc < 3) return std::fprintf(stderr, "usage: %s trace.dat tol [every [mode]]\n", argv[0]), 2;
  FILE *f = std::fopen(argv[1], "r");
  if (!f) return std::fprintf(stderr, "cannot read %s\n", argv[1]), 2;
  const double tol = std::atof(argv[2]);
  const long every = argc > 3 ? std::atol(argv[3]) : 1000;
  const int mode = argc > 4 ? std::atoi(argv[4]) : 0;
  Material m;
  if (std::fscanf(f, "%lf %lf %lf %lf %lf %lf %lf", &m.Estar, &m.Gstar, &m.R, &m.mu, &m.kappa,
                  &m.cone, &m.hertz) != 7)
    return std::fprintf(stderr, "no material line\n"), 2;
  const int cap = 200000;
  std::vector<Point> pe(cap), pp(cap);
  Stack se{pe.data(), 0, cap}, sp{pp.data(), 0, cap};
  PruneSpent spent{0, 0}, unused{0, 0};
  long step, last = -1, kinds[6] = {0, 0, 0, 0, 0, 0}, removed = 0, lines = 0, nviol = 0;
  double z, dx, dy, tx, ty, P, sx, sy, spf, Pmax = 0, maxdT = 0, mismatch = 0;
  int fresh, nmax = 0;
  std::printf("# step n n_exact P/Pmax spent/(tol mu P) shift/(K z) elastic unload slip slide "
              "removed max|dT|/muP beyond_bound\n");
  while (std::fscanf(f, "%ld %lf %lf %lf %d %lf %lf %lf %lf %lf %lf", &step, &z, &dx, &dy, &fresh,
                     &tx, &ty, &P, &sx, &sy, &spf) == 11) {
    if (step == last) continue;    // the periodic image's copy of the pair
    last = step;
    if (fresh && se.n > 0) se.n = sp.n = 0, spent = unused = PruneSpent{0, 0}, Pmax = 0;
    const Vec2 ds = mode == 1 ? Vec2{dx, 0.0} : mode == 2 ? Vec2{0.0, dy} : Vec2{dx, dy};
    const StepResult re = jaeger::step(m, se, z, ds, 0.0, true, -1.0, 0.0, &unused);
    const StepResult rp = jaeger::step(m, sp, z, ds, 0.0, true, -1.0, tol, &spent);
    if (mode == 0) mismatch = std::fmax(mismatch, std::fabs(rp.T.x - tx) + std::fabs(rp.T.y - ty));
    kinds[rp.kind]++;
    removed += rp.pruned;
    Pmax = std::fmax(Pmax, rp.P);
    nmax = sp.n > nmax ? sp.n : nmax;
    const double muP = m.mu * re.P, d = std::hypot(rp.T.x - re.T.x, rp.T.y - re.T.y);
    if (muP > 0) maxdT = std::fmax(maxdT, d / muP);
    if (d > spent.force + 1e-6 * muP) nviol++;
    if (++lines % every == 0) {
      std::printf("%ld %d %d %.3f %.4f %.3e %ld %ld %ld %ld %ld %.3e %ld\n", step, sp.n, se.n,
                  rp.P / Pmax, spent.force / (tol * muP), spent.shift / (cone_slope(m) * z),
                  kinds[2], kinds[3], kinds[4], kinds[5], removed, maxdT, nviol);
      for (long &k : kinds) k = 0;
    }
  }
  std::printf("# end: length %d (exact %d), longest %d; max |dT| %.3e mu P; steps beyond the spent "
              "bound + 1e-6 mu P: %ld; mismatch with the run (mode 0, same rule): %.3g\n",
              sp.n, se.n, nmax, maxdT, nviol, mismatch);
  return 0;
}
