// The reference game's simulation: mover-driven pawns, a map of objects at rest, a few flickering.
#include "tickwire/world/reference_game.h"

#include <cmath>

#include "tickwire/client/prediction_model.h"
#include "tickwire/core/assert.h"
#include "tickwire/world/mover_prediction_model.h"

namespace tickwire::world {
namespace {

ComponentWireId component_wire_id(const std::string& name) {
  if (name == "light") return ComponentWireId::light;
  if (name == "mover") return ComponentWireId::mover;
  if (name == "button") return ComponentWireId::button;
  if (name == "physics_prop") return ComponentWireId::physics_prop;
  return ComponentWireId::other;
}

}  // namespace

ReferenceGame::ReferenceGame(const Map& map, const MoverSettings& settings) : map_(map), mover_(settings) {
  install_objects();
}

void ReferenceGame::begin(const NetcodeContract& contract) {
  TW_ASSERT(contract.vocabulary == reference_vocabulary(), "the reference game runs in a room of its own vocabulary");
  gate_.set_config(ForgivenessConfig{contract.input.forgiveness, ForgivenessConfig{}.radius_at_zero_m,
                                     contract.vocabulary.claimable_flag_mask()});
  interaction_range_m_ = contract.limits.interaction_range_m;
}

// Every map object at its authored state, held by its object index (the MapObjectTable's).
void ReferenceGame::install_objects() {
  const MapObjectTable& table = object_tables_.of(map_);
  const auto objects = map_.objects();
  objects_.clear();
  map_positions_.clear();
  flickering_.clear();
  objects_.reserve(table.size());
  map_positions_.reserve(table.size());
  uint32_t lights = 0;
  for (uint32_t index = 0; index < table.size(); ++index) {
    const std::optional<uint32_t> at = map_.object_index(table.key_of(index));
    TW_ASSERT(at.has_value(), "the object table names a key the map does not hold");
    map_positions_.push_back(*at);
    objects_.push_back(ObjectState{objects[*at].components, true});
    if (objects[*at].component("light") != nullptr && lights++ % kFlickerEveryNthLight == 0) flickering_.push_back(index);
  }
  ++map_generation_;
}

void ReferenceGame::reinstall_objects() { install_objects(); }

void ReferenceGame::spawn_pawn(EntityRef pawn, OwnerId, Tick) {
  const auto spawns = map_.spawn_points();
  TW_ASSERT(!spawns.empty(), "a valid map has a spawn point");
  const SpawnPoint& at = spawns[next_spawn_++ % spawns.size()];
  PawnState state;
  placer_.place(state, Placement{at.position, {}, at.yaw_deg, 0, false}, mover_.settings());
  pawns_[pawn.raw()] = state;
}

void ReferenceGame::despawn_pawn(EntityRef pawn) {
  pawns_.erase(pawn.raw());
  ledgers_.erase(pawn.raw());
  claim_outcomes_.erase(pawn.raw());
}

void ReferenceGame::place_pawn(EntityRef pawn, const Placement& where) {
  auto it = pawns_.find(pawn.raw());
  if (it != pawns_.end()) placer_.place(it->second, where, mover_.settings());
}

void ReferenceGame::set_noclip(EntityRef pawn, bool noclip) {
  auto it = pawns_.find(pawn.raw());
  if (it != pawns_.end()) it->second.noclip = noclip;
}

void ReferenceGame::set_frozen(EntityRef pawn, bool frozen) {
  auto it = pawns_.find(pawn.raw());
  if (it != pawns_.end()) it->second.frozen = frozen;
}

void ReferenceGame::step_pawn(EntityRef pawn, const TickInput& input, Tick, double dt_s) {
  auto it = pawns_.find(pawn.raw());
  if (it == pawns_.end()) return;
  const PawnState before = it->second;
  it->second = mover_.step(before, input.cmd, static_cast<float>(dt_s), map_.boxes());
  protocol::ClaimOutcome& outcome = claim_outcomes_[pawn.raw()];
  outcome = protocol::ClaimOutcome::none;
  if (input.fresh() && input.claim) {
    outcome = judge_claim(pawn, before, *input.claim, dt_s) ? protocol::ClaimOutcome::accepted
                                                             : protocol::ClaimOutcome::corrected;
  }
}

protocol::ClaimOutcome ReferenceGame::claim_outcome(EntityRef pawn) const {
  auto it = claim_outcomes_.find(pawn.raw());
  return it == claim_outcomes_.end() ? protocol::ClaimOutcome::none : it->second;
}

// The gate adopts the claim whole (within the forgiveness radius and the mover's speed) or keeps
// the mover's answer; look angles, server-owned flags and the placement epoch stay the server's.
bool ReferenceGame::judge_claim(EntityRef pawn, const PawnState& before, const protocol::Claim& claim, double dt_s) {
  PawnState& state = pawns_.at(pawn.raw());
  const MoverSpeedLimit limit = max_speed_mps(mover_.settings(), state);
  const ClaimVerdict verdict = gate_.judge({before.feet.to_wire(), pawn_detail_of(state, pawn.raw()),
                                            {limit.horizontal_mps, limit.vertical_mps}, dt_s, state.frozen},
                                           claim, ledgers_[pawn.raw()]);
  if (!verdict.adopted) return false;
  PawnState adopted = pawn_from_predicted(predicted_from_detail(verdict.pawn));
  adopted.yaw_deg = state.yaw_deg;
  adopted.pitch_deg = state.pitch_deg;
  adopted.noclip = state.noclip;
  adopted.frozen = state.frozen;
  adopted.placement_epoch = state.placement_epoch;
  state = adopted;
  return true;
}

void ReferenceGame::step_world(Tick tick, double dt_s) {
  // Flickering lights: intensity follows a slow wave, each light at its own phase.
  const double t = static_cast<double>(tick.value()) * dt_s;
  for (uint32_t index : flickering_) {
    ObjectState& state = objects_[index];
    for (ObjectComponent& c : state.components) {
      if (c.name != "light" || c.channel_count < 4) continue;
      const double phase = static_cast<double>(index) * 0.37;
      c.channels[3] = static_cast<float>(0.6 + 0.4 * std::sin(t * 3.0 + phase));
    }
  }
}

protocol::PawnDetail ReferenceGame::pawn_detail(EntityRef pawn) const {
  protocol::PawnDetail detail;
  detail.pawn_ref = pawn.raw();
  const PawnState* state = this->pawn(pawn);
  if (state == nullptr) return detail;
  detail.position = state->feet.to_wire();
  detail.velocity = state->velocity_mps.to_wire();
  return pawn_detail_of(*state, pawn.raw());
}

const PawnState* ReferenceGame::pawn(EntityRef pawn) const {
  auto it = pawns_.find(pawn.raw());
  return it == pawns_.end() ? nullptr : &it->second;
}

bool ReferenceGame::differs_from_map(uint32_t index) const {
  return !objects_[index].enabled || objects_[index].components != map_.objects()[map_positions_[index]].components;
}

std::size_t ReferenceGame::changed_objects() const {
  std::size_t n = 0;
  for (uint32_t i = 0; i < objects_.size(); ++i) n += differs_from_map(i) ? 1 : 0;
  return n;
}

protocol::Record ReferenceGame::object_record(uint32_t index) const {
  const ObjectState& state = objects_[index];
  protocol::ObjectRecord record;
  record.object_index = index;
  record.flags = state.enabled ? kObjectEnabled : 0;
  const auto& authored = map_.objects()[map_positions_[index]].components;
  for (std::size_t c = 0; c < state.components.size() && c < protocol::MaxComponentSections; ++c) {
    const ObjectComponent& now = state.components[c];
    protocol::ComponentSection section;
    section.wire_id = static_cast<uint8_t>(component_wire_id(now.name));
    // Only the fields that differ from the authored map: the sparse set's whole point.
    for (uint8_t ch = 0; ch < now.channel_count && ch < 4; ++ch) {
      if (now.channels[ch] != authored[c].channels[ch]) {
        section.dirty = static_cast<uint8_t>(section.dirty | (1u << ch));
        section.channel[ch] = now.channels[ch];
      }
    }
    if (now.bits != authored[c].bits) {
      section.dirty = static_cast<uint8_t>(section.dirty | (1u << 5));
      section.bits = now.bits;
    }
    if (section.dirty != 0) record.sections.push_back(section);
  }
  return protocol::Record{map_object_entity_id(index), record};
}

// The object as it stands, every section with every field: what a rest table holds.
protocol::Record ReferenceGame::whole_object_record(uint32_t index) const {
  const ObjectState& state = objects_[index];
  protocol::ObjectRecord record;
  record.object_index = index;
  record.flags = state.enabled ? kObjectEnabled : 0;
  for (std::size_t c = 0; c < state.components.size() && c < protocol::MaxComponentSections; ++c) {
    const ObjectComponent& now = state.components[c];
    protocol::ComponentSection section;
    section.wire_id = static_cast<uint8_t>(component_wire_id(now.name));
    for (uint8_t ch = 0; ch < now.channel_count && ch < 4; ++ch) {
      section.dirty = static_cast<uint8_t>(section.dirty | (1u << ch));
      section.channel[ch] = now.channels[ch];
    }
    section.channel_count = now.channel_count;
    section.bits = now.bits;
    section.dirty = static_cast<uint8_t>(section.dirty | (1u << 4) | (1u << 5));
    record.sections.push_back(section);
  }
  return protocol::Record{map_object_entity_id(index), record};
}

void ReferenceGame::write_rest_records(std::vector<protocol::Record>& out) const {
  for (uint32_t i = 0; i < objects_.size(); ++i) out.push_back(whole_object_record(i));
}

void ReferenceGame::write_records(Tick, TickRecords& out) const {
  for (const auto& [ref, state] : pawns_) {
    protocol::EntityRecord record;
    record.kind = kKindPlayerPawn;
    record.position = state.feet.to_wire();
    record.yaw_deg = std::fmod(state.yaw_deg + 360.0f, 360.0f);
    record.pitch_deg = std::fmod(state.pitch_deg + 360.0f, 360.0f);
    record.flags = pawn_entity_flags(state);  // a remote pawn's eye height follows its crouched bit
    out.add(protocol::Record{EntityRef::from_raw(ref).handle().raw(), std::move(record)});
  }
  for (uint32_t i = 0; i < objects_.size(); ++i) {
    if (object_records_ == ObjectRecords::whole) {
      out.add(whole_object_record(i));
    } else if (differs_from_map(i)) {
      out.add(object_record(i));
    }
  }
}

void ReferenceGame::interact(EntityRef actor, EntityRef target, uint8_t, Tick) {
  // Pawns are the only entities the room's slots hold in the reference game; a use aimed at a pawn
  // does nothing (within the contract's range or not: those past it are counted). Map objects are
  // toggled through toggle_object (by object index).
  const PawnState* from = pawn(actor);
  const PawnState* to = pawn(target);
  if (from == nullptr || to == nullptr) return;
  if (static_cast<double>((to->feet - from->feet).length()) > interaction_range_m_) ++interactions_out_of_range_;
}

void ReferenceGame::toggle_object(uint32_t object_index) {
  if (object_index >= objects_.size()) return;
  ObjectState& state = objects_[object_index];
  for (ObjectComponent& c : state.components) c.bits = static_cast<uint8_t>(c.bits ^ 1u);
  if (state.components.empty()) state.enabled = !state.enabled;
}

}  // namespace tickwire::world
