/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: a part of PairGranDemc (pair_gran_demc.h). What the CPU
   styles' contact loops keep between their passes: the LAMMPS arrays they
   read and write, copied once per compute(), the blocks of touching pairs
   that the first pass over the neighbor list collects for the second, and
   the requests to the caches for what a touching pair will need.
------------------------------------------------------------------------- */

#ifndef DEMC_PAIR_GRAN_DEMC_LOOP_H
#define DEMC_PAIR_GRAN_DEMC_LOOP_H

namespace LAMMPS_NS {

class DemcContactLoop {
 protected:
  /* LAMMPS state the inner loops read, copied once per compute() by begin_compute(): the
     compiler cannot keep atom->f etc. in registers across the force stores by itself.
     LAMMPS's per-atom 3-vectors are contiguous blocks, row k at [0] + 3 k: they are read as
     flat arrays, as reading a row through its row pointer is one more scattered load (a
     cache miss for a distant partner). */
  struct LoopState {
    const double *xs, *vs, *omegas;
    double *fs, *torques;
    const int *types;
    const tagint *tags;
    int nlocal;
    bool newton;
  } loop;
  static double *flat(double **a) { return a ? a[0] : nullptr; }

  // a touching pair found by a contact loop's first pass, for its second
  struct TouchingPair {
    int i, j, jj;    // list position (i, jj), partner j
    double rsq;
    bool touching;    // (a pair that parted may also need its last step)
  };
  template <class Entry, int N = 64> struct BufferOf {    // N touching pairs at most
    static constexpr int SIZE = N;
    Entry pairs[SIZE];
    int n = 0;
    void add(const Entry &t) { pairs[n++] = t; }
    bool full() const { return n == SIZE; }
  };
  using ContactBuffer = BufferOf<TouchingPair>;

  // ask the caches for what the contact law will read and write of partner j and the history
  void prefetch_contact(int j, const double *history, int history_size) const
  {
    __builtin_prefetch(loop.vs + 3 * j);
    __builtin_prefetch(loop.omegas + 3 * j);
    __builtin_prefetch(loop.types + j);
    __builtin_prefetch(loop.tags + j);
    __builtin_prefetch(loop.fs + 3 * j, 1);
    __builtin_prefetch(loop.torques + 3 * j, 1);
    if (history == nullptr) return;
    for (int k = 0; k < history_size; k += 8) __builtin_prefetch(history + k, 1);
    __builtin_prefetch(history + history_size - 1, 1);
  }
};

}    // namespace LAMMPS_NS

#endif
