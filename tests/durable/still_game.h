// A game with nothing of its own to step or state: the seam's required calls, each doing nothing.
// A test or a fuzz target that exercises the durable side alone (the room's own pawns, a keeper's
// facts) builds on it and overrides only what it watches.
#pragma once

#include "tickwire/server/simulation.h"

namespace tickwire::test {

class StillGame : public Simulation {
 public:
  void spawn_pawn(EntityRef, OwnerId, Tick) override {}
  void despawn_pawn(EntityRef) override {}
  void step_pawn(EntityRef, const TickInput&, Tick, double) override {}
  void step_world(Tick, double) override {}
  protocol::PawnDetail pawn_detail(EntityRef) const override { return {}; }
  void write_records(Tick, TickRecords&) const override {}
};

}  // namespace tickwire::test
