/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: the room a fix with per-atom records of growing size asks
   Comm::exchange() for (Fix::maxexchange, with maxexchange_dynamic).

   The room only grows, by factors of 4 from kExchangeFloor values. LAMMPS's
   CommKokkos, in its legacy exchange (a fix that cannot exchange on the
   device), regrows its send buffer to 1.5 times (buffer + room) whenever the
   room grows: a room that followed the largest record down and up again
   multiplied the buffer at every rise, until the memory ran out (under -sf kk
   with Jäger walls; bench/HISTORY.md). The plain Comm only reallocates the
   extra room.
------------------------------------------------------------------------- */

#ifndef DEMC_EXCHANGE_ROOM_H
#define DEMC_EXCHANGE_ROOM_H

#include <climits>

namespace demc_exchange {

constexpr int kExchangeFloor = 4096;    // values (32 KB): records of up to ~1,000 points

// the room for a record of `needed` values, given the room asked for so far
inline int exchange_room(int needed, int current)
{
  if (needed <= current) return current;
  long room = kExchangeFloor;
  while (room < needed) room *= 4;
  return room > INT_MAX ? INT_MAX : static_cast<int>(room);
}

}    // namespace demc_exchange

#endif
