// Forwarding the Simulation seam to a C game's callbacks (see c_simulation.h).
#include "c_simulation.h"

#include "c_values.h"

namespace tickwire::capi {
namespace {

tw_input_source to_c(TickInputSource source) {
  switch (source) {
    case TickInputSource::fresh: return TW_INPUT_FRESH;
    case TickInputSource::repeated: return TW_INPUT_REPEATED;
    case TickInputSource::zeroed: break;
  }
  return TW_INPUT_ZEROED;
}

tw_tick_input to_c(const TickInput& input) {
  tw_tick_input in{};
  in.cmd = capi::to_c(input.cmd);
  in.sequence = input.sequence;
  in.has_sequence = input.has_sequence;
  in.source = to_c(input.source);
  in.starved_run_ticks = input.starved_run_ticks;
  in.has_claim = input.claim.has_value();
  if (input.claim) in.claim = capi::to_c(*input.claim);
  return in;
}

}  // namespace

const char* CSimulation::missing_callback(const tw_simulation& c) {
  if (c.spawn_pawn == nullptr) return "simulation: spawn_pawn is required";
  if (c.despawn_pawn == nullptr) return "simulation: despawn_pawn is required";
  if (c.step_pawn == nullptr) return "simulation: step_pawn is required";
  if (c.pawn_detail == nullptr) return "simulation: pawn_detail is required";
  if (c.write_records == nullptr) return "simulation: write_records is required";
  return nullptr;
}

void CSimulation::spawn_pawn(EntityRef pawn, OwnerId owner, Tick tick) { c_.spawn_pawn(c_.user, pawn.raw(), owner, tick.value()); }

void CSimulation::despawn_pawn(EntityRef pawn) { c_.despawn_pawn(c_.user, pawn.raw()); }

void CSimulation::step_pawn(EntityRef pawn, const TickInput& input, Tick tick, double dt_s) {
  const tw_tick_input in = to_c(input);
  c_.step_pawn(c_.user, pawn.raw(), &in, tick.value(), dt_s);
}

void CSimulation::step_world(Tick tick, double dt_s) {
  if (c_.step_world != nullptr) c_.step_world(c_.user, tick.value(), dt_s);
}

protocol::PawnDetail CSimulation::pawn_detail(EntityRef pawn) const {
  tw_pawn_state state{};
  c_.pawn_detail(c_.user, pawn.raw(), &state);
  return detail_from_predicted(to_engine(state), pawn.raw());
}

void CSimulation::write_records(Tick tick, TickRecords& out) const {
  sink_.begin_tick(out);
  tw_records records{&sink_};
  c_.write_records(c_.user, tick.value(), &records);
}

void CSimulation::interact(EntityRef actor_pawn, EntityRef target, uint8_t action, Tick tick) {
  if (c_.interact != nullptr) c_.interact(c_.user, actor_pawn.raw(), target.raw(), action, tick.value());
}

void CSimulation::write_rest_records(std::vector<protocol::Record>& out) const {
  if (c_.write_rest_records == nullptr) return;
  sink_.begin_rest(out);
  tw_records records{&sink_};
  c_.write_rest_records(c_.user, &records);
}

uint64_t CSimulation::map_generation() const { return c_.map_generation != nullptr ? c_.map_generation(c_.user) : 0; }

}  // namespace tickwire::capi

extern "C" uint32_t tw_pawn_record_id(uint64_t pawn) { return tickwire::EntityRef::from_raw(pawn).handle().raw(); }
