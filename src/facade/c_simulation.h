// A C game's Simulation: the seam's calls forwarded to the struct of C callbacks it registered,
// with the engine's types turned into the C API's plain values on the way and back. Records go
// through the checked RecordSink, so nothing a C callback writes reaches an engine assertion.
#pragma once

#include <vector>

#include "c_records.h"
#include "tickwire/server/simulation.h"
#include "tickwire/tickwire_c.h"

namespace tickwire::capi {

class CSimulation final : public Simulation {
 public:
  CSimulation(const tw_simulation& callbacks, RecordSink& sink) : c_(callbacks), sink_(sink) {}

  // The callbacks a simulation cannot run without, by name, or null when all are given.
  static const char* missing_callback(const tw_simulation& callbacks);

  void spawn_pawn(EntityRef pawn, OwnerId owner, Tick tick) override;
  void despawn_pawn(EntityRef pawn) override;
  void step_pawn(EntityRef pawn, const TickInput& input, Tick tick, double dt_s) override;
  void step_world(Tick tick, double dt_s) override;
  protocol::PawnDetail pawn_detail(EntityRef pawn) const override;
  void write_records(Tick tick, TickRecords& out) const override;
  void interact(EntityRef actor_pawn, EntityRef target, uint8_t action, Tick tick) override;
  void write_rest_records(std::vector<protocol::Record>& out) const override;
  uint64_t map_generation() const override;

 private:
  tw_simulation c_;
  RecordSink& sink_;
};

}  // namespace tickwire::capi
