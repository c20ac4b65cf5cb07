/* A contact path traced by a diagnostic plugin build (DEMC_TRACE of bench/prune_shadow.patch or
   bench/shear_hist_diag.patch) replayed through demc::jaeger::step() with prune 0 (exact) and
   prune tol (pruned), for the replay tools (bench/prune_replay.cpp, bench/prune_growth.cpp).
   trace.dat: the material, then per step the overlap, the shift in the contact frame, whether
   the contact is fresh, the run's force, its normal force and the shadow's force and spent sum.
   mode 0: the path as traced; 1, 2: made collinear (the shift's x, or y, component only). */
#ifndef DEMC_BENCH_TRACE_FILE_H
#define DEMC_BENCH_TRACE_FILE_H
#include "jaeger_contact.h"
#include <cstdio>
#include <vector>

class Replay {
  // (the histories' storage first: the stacks below are made on it)
  std::vector<demc::jaeger::Point> pe_, pp_;

 public:
  // one step of the trace
  struct Traced {
    long step = -1;
    double z = 0.0, dx = 0.0, dy = 0.0;
    int fresh = 0;
    double tx = 0.0, ty = 0.0, P = 0.0, sx = 0.0, sy = 0.0, spent = 0.0;
  };
  Traced t;                                  // the step just replayed
  demc::jaeger::StepResult exact, pruned;    // its results
  demc::jaeger::Stack se, sp;                // the two histories
  demc::jaeger::PruneSpent spent{0, 0}, unused{0, 0};
  demc::jaeger::Material m;

  Replay(double tol, int mode, int capacity) :
      pe_(capacity), pp_(capacity), se{pe_.data(), 0, capacity}, sp{pp_.data(), 0, capacity},
      tol_(tol), mode_(mode)
  {
  }
  ~Replay()
  {
    if (f_) std::fclose(f_);
  }
  // opens the trace and reads its material; false, with a message, where it cannot
  bool open(const char *path)
  {
    f_ = std::fopen(path, "r");
    if (!f_) return std::fprintf(stderr, "cannot read %s\n", path), false;
    if (std::fscanf(f_, "%lf %lf %lf %lf %lf %lf %lf", &m.Estar, &m.Gstar, &m.R, &m.mu, &m.kappa,
                    &m.cone, &m.hertz) == 7)
      return true;
    return std::fprintf(stderr, "no material line in %s\n", path), false;
  }
  // the next step of the trace (a periodic image's copy of the pair skipped) through both
  // histories (a reopened contact starts both afresh: reopened() is then true); false at the end
  bool next()
  {
    const long last = t.step;
    do {
      if (std::fscanf(f_, "%ld %lf %lf %lf %d %lf %lf %lf %lf %lf %lf", &t.step, &t.z, &t.dx, &t.dy,
                      &t.fresh, &t.tx, &t.ty, &t.P, &t.sx, &t.sy, &t.spent) != 11)
        return false;
    } while (t.step == last);
    reopened_ = t.fresh && se.n > 0;
    if (reopened_) se.n = sp.n = 0, spent = unused = demc::jaeger::PruneSpent{0, 0};
    const demc::Vec2 ds = mode_ == 1 ? demc::Vec2{t.dx, 0.0}
        : mode_ == 2                 ? demc::Vec2{0.0, t.dy}
                                     : demc::Vec2{t.dx, t.dy};
    exact = demc::jaeger::step(m, se, t.z, ds, 0.0, true, -1.0, 0.0, &unused);
    pruned = demc::jaeger::step(m, sp, t.z, ds, 0.0, true, -1.0, tol_, &spent);
    return true;
  }
  bool reopened() const { return reopened_; }

 private:
  double tol_;
  int mode_;
  FILE *f_ = nullptr;
  bool reopened_ = false;
};
#endif
