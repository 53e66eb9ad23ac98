// The reference game's records: what write_records and the rest table say about its pawns and its
// map objects (each object sparse against the authored map, or whole), a moved prop's pose with it,
// and never a client's own prop (sim: client).
#include <cmath>

#include "tickwire/world/logic_components.h"
#include "tickwire/world/mover_prediction_model.h"
#include "tickwire/world/reference_game.h"

namespace tickwire::world {
namespace {

// Each component a record carries (a collider is map data, never on the wire), the first
// MaxComponentSections of them, with its index among the object's components.
template <class Visit>
void for_each_replicated(const std::vector<ObjectComponent>& components, Visit visit) {
  std::size_t sections = 0;
  for (std::size_t c = 0; c < components.size() && sections < protocol::MaxComponentSections; ++c) {
    if (!replicated_component(components[c].name)) continue;
    visit(c, components[c]);
    ++sections;
  }
}

}  // namespace

bool ReferenceGame::differs_from_map(uint32_t index) const {
  const int32_t slot = solids_.prop_slot(index);
  return !objects_[index].enabled || objects_[index].components != map_->objects()[map_positions_[index]].components ||
         (slot >= 0 && props_.moved(static_cast<uint32_t>(slot))) || scene_edits_.object(index) != nullptr;
}

// A prop the solver moved carries where it stands (a client's catalog puts it where the map does
// otherwise).
void ReferenceGame::write_prop_pose(uint32_t index, protocol::ObjectRecord& record) const {
  const int32_t slot = solids_.prop_slot(index);
  if (slot < 0 || !props_.moved(static_cast<uint32_t>(slot))) return;
  const PropPose& pose = props_.pose(static_cast<uint32_t>(slot));
  protocol::ObjectTransform& transform = record.transform.emplace();
  transform.position = pose.position.to_wire();
  transform.rotation = protocol::Rotation{wire::Quat{pose.rotation.x, pose.rotation.y, pose.rotation.z, pose.rotation.w}};
}

std::size_t ReferenceGame::changed_objects() const {
  std::size_t n = 0;
  for (uint32_t i = 0; i < objects_.size(); ++i) n += objects_[i].spawned && differs_from_map(i) ? 1 : 0;
  return n;
}

protocol::Record ReferenceGame::object_record(uint32_t index) const {
  const ObjectState& state = objects_[index];
  protocol::ObjectRecord record;
  record.object_index = index;
  record.flags = state.enabled ? kObjectEnabled : 0;
  const auto& authored = map_->objects()[map_positions_[index]].components;
  for_each_replicated(state.components, [&](std::size_t c, const ObjectComponent& now) {
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
  });
  write_prop_pose(index, record);
  write_edits(index, record);
  return protocol::Record{map_object_entity_id(index), record};
}

// The object as it stands, every section with every field: what a rest table holds.
protocol::Record ReferenceGame::whole_object_record(uint32_t index) const {
  const ObjectState& state = objects_[index];
  protocol::ObjectRecord record;
  record.object_index = index;
  record.flags = state.enabled ? kObjectEnabled : 0;
  for_each_replicated(state.components, [&](std::size_t, const ObjectComponent& now) {
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
  });
  write_prop_pose(index, record);
  write_edits(index, record);
  return protocol::Record{map_object_entity_id(index), record};
}

void ReferenceGame::write_rest_records(std::vector<protocol::Record>& out) const {
  for (uint32_t i = 0; i < objects_.size(); ++i)
    if (objects_[i].spawned && !client_only_[i] && !left_rest_table(i)) out.push_back(whole_object_record(i));
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
    if (!objects_[i].spawned) continue;  // its networked entity is gone: it leaves every snapshot
    if (client_only_[i]) continue;       // a client's own prop: each client simulates its own
    if (object_records_ == ObjectRecords::whole) {
      out.add(whole_object_record(i));
    } else if (left_rest_table(i)) {
      out.add(whole_object_record(i));  // edited since the table was taken: stated whole
    } else if (differs_from_map(i)) {
      out.add(object_record(i));
    }
  }
}

}  // namespace tickwire::world
