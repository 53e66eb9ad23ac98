// DurableState (seed 003, "Durability and rejoin"): what the durable/ module asks of whatever keeps
// a room's state: its facts since the last take (journaled), its whole state (a checkpoint), and
// both put back after a crash. A game implements it as part of its Simulation; the Room implements
// it over the game, adding its own (the pawns it holds for their players), so a keeper and a
// recovery see one stream of facts and one state.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tickwire/server/durable_fact.h"

namespace tickwire {

class DurableState {
 public:
  virtual ~DurableState() = default;

  // A store keeps this room: from now on facts are recorded for take_facts (off, the default, none
  // are, so a room run without a store holds nothing for nobody).
  virtual void keep_facts(bool on) { (void)on; }
  // The durable facts made since the last take (an accepted edit, a voxel write, a pawn joining),
  // in the order made: journaled before anything that acknowledges them leaves the server.
  virtual void take_facts(std::vector<DurableFact>& out) { (void)out; }
  // The durable state as it stands now, appended to `out` (which may hold a record's head already):
  // a checkpoint's payload. Nothing appended: nothing is kept.
  virtual void save_state(std::vector<uint8_t>& out) const { (void)out; }
  // Puts back what save_state wrote, into a room no session has joined yet; false (the state as it
  // was) when the bytes do not read.
  virtual bool restore_state(std::span<const uint8_t> state) { return state.empty(); }
  // Makes a journaled fact again over the restored state, in journal order; false when it does not
  // read (the recovery counts it).
  virtual bool replay_fact(const DurableFact& fact) {
    (void)fact;
    return false;
  }
};

}  // namespace tickwire
