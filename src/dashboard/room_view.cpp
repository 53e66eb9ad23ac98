// RoomView (dashboard/room_view.h): written with fmt into one buffer (no JSON tree), since a page
// open costs the loop this line ten times a second; numbers at the precision a top-down view and a
// net graph need (centimetres, tenths of a byte per second).
#include "tickwire/dashboard/room_view.h"

#include <cmath>
#include <iterator>
#include <variant>

#include <fmt/format.h>

#include "json_number.h"
#include "tickwire/protocol/canonical_json.h"
#include "tickwire/replication/handles/entity_handle.h"

namespace tickwire::dashboard {
namespace {

void server_part(Out& out, const ServerStats& s, const LoopFigures& loop) {
  auto it = std::back_inserter(out);
  fmt::format_to(it, "\"server\":{{\"clients\":{},\"last_tick\":{},\"tick_hz\":", s.clients, s.last_tick);
  num(out, s.tick_rate_hz, 2);
  field(out, "target_hz", loop.tick_hz, 1);
  field(out, "tick_ms_p50", loop.tick_cost_ms_p50, 3);
  field(out, "tick_ms_p99", loop.tick_cost_ms_p99, 3);
  fmt::format_to(it, ",\"ticks_declared\":{},\"bytes_sent\":{},\"bytes_received\":{}}}", s.ticks_declared, s.bytes_sent,
                 s.bytes_received);
}

void client_part(Out& out, const NetSample& c) {
  auto it = std::back_inserter(out);
  fmt::format_to(it, "{{\"owner\":{},\"admitted\":{},\"rtt_ms\":", c.owner, c.admitted);
  num(out, c.rtt_ms, 1);
  field(out, "loss", c.loss, 4);
  field(out, "up_Bps", c.up_bytes_per_s, 1);
  field(out, "down_Bps", c.down_bytes_per_s, 1);
  field(out, "snapshot_Bps", c.snapshot_bytes_per_s, 1);
  field(out, "snapshots_per_s", c.snapshots_per_s, 1);
  field(out, "starved_per_s", c.starved_per_s, 2);
  fmt::format_to(it, ",\"depth\":{},\"starved\":{},\"fresh\":{},\"snapshot_bytes\":{}}}", c.queue_depth, c.starved_ticks,
                 c.fresh_ticks, c.snapshot_bytes_mean);
}

void sections_part(Out& out, const protocol::ObjectRecord& o, const GameVocabulary& vocabulary) {
  auto it = std::back_inserter(out);
  fmt::format_to(it, "\"sections\":{{");
  bool first = true;
  for (const protocol::ComponentSection& s : o.sections) {
    const ComponentDef* def = vocabulary.find_component(s.wire_id);
    const std::string name = def != nullptr ? def->name : fmt::format("component{}", s.wire_id);
    fmt::format_to(it, "{}{}:{{\"bits\":{},\"ch\":[", first ? "" : ",", canonical_json_string(name), s.bits);
    for (uint8_t k = 0; k < s.channel_count && k < std::size(s.channel); ++k) {
      if (k != 0) fmt::format_to(it, ",");
      num(out, s.channel[k], 3);
    }
    fmt::format_to(it, "]}}");
    first = false;
  }
  fmt::format_to(it, "}}");
}

void entity_part(Out& e, uint32_t id, OwnerId owner, const std::string& kind, const protocol::EntityRecord& entity, double vx,
                 double vz) {
  auto ei = std::back_inserter(e);
  fmt::format_to(ei, "{{\"id\":{},\"owner\":{},\"kind\":{},\"x\":", id, owner, canonical_json_string(kind));
  num(e, entity.position.x, 2);
  field(e, "y", entity.position.y, 2);
  field(e, "z", entity.position.z, 2);
  field(e, "yaw", entity.yaw_deg, 1);
  field(e, "vx", vx, 2);
  field(e, "vz", vz, 2);
  fmt::format_to(ei, ",\"flags\":{}}}", entity.flags);
}

// What a line draws of an object is unchanged (floats by value: a NaN redraws, harmlessly).
bool same_drawn(const protocol::ObjectRecord& a, const protocol::ObjectRecord& b) {
  if (a.flags != b.flags || a.transform.has_value() != b.transform.has_value() || a.sections.size() != b.sections.size()) {
    return false;
  }
  if (a.transform && !(a.transform->position == b.transform->position)) return false;
  for (std::size_t k = 0; k < a.sections.size(); ++k) {
    const protocol::ComponentSection &x = a.sections[k], &y = b.sections[k];
    if (x.wire_id != y.wire_id || x.bits != y.bits || x.channel_count != y.channel_count) return false;
    for (uint8_t c = 0; c < x.channel_count && c < std::size(x.channel); ++c) {
      if (!(x.channel[c] == y.channel[c])) return false;
    }
  }
  return true;
}

void object_part(Out& o, const protocol::ObjectRecord& object, const GameVocabulary& vocabulary) {
  auto oi = std::back_inserter(o);
  fmt::format_to(oi, "{{\"index\":{},\"flags\":{}", object.object_index, object.flags);
  if (object.transform) {
    field(o, "x", object.transform->position.x, 2);
    field(o, "y", object.transform->position.y, 2);
    field(o, "z", object.transform->position.z, 2);
  }
  fmt::format_to(oi, ",");
  sections_part(o, object, vocabulary);
  fmt::format_to(oi, "}}");
}

}  // namespace

const std::string& RoomView::object_json(const protocol::ObjectRecord& object) {
  Out text;
  if (object.object_index >= kMaxCachedObjects) {
    object_part(text, object, vocabulary_);
    scratch_ = fmt::to_string(text);
    return scratch_;
  }
  if (objects_.size() <= object.object_index) objects_.resize(object.object_index + 1);
  DrawnObject& drawn = objects_[object.object_index];
  if (!drawn.valid || !same_drawn(drawn.record, object)) {
    object_part(text, object, vocabulary_);
    drawn = DrawnObject{true, object, fmt::to_string(text)};
  }
  return drawn.json;
}

std::string RoomView::render(int64_t tick, double now_s, const TickRecords& records, const ServerStats& stats,
                             const std::vector<NetSample>& clients, const LoopFigures& loop) {
  Out out;
  auto it = std::back_inserter(out);
  fmt::format_to(it, "{{\"type\":\"room\",\"tick\":{},\"time_s\":", tick);
  num(out, now_s, 3);
  fmt::format_to(it, ",");
  server_part(out, stats, loop);
  Out e, o;
  bool first_entity = true, first_object = true;
  std::unordered_map<uint32_t, Last> seen;
  seen.reserve(last_.size());
  // A pawn's record belongs to the authority; its player is the client whose pawn it is.
  std::unordered_map<uint32_t, OwnerId> pawn_owners;
  pawn_owners.reserve(clients.size());
  for (const NetSample& c : clients) {
    if (c.pawn_record_id != 0) pawn_owners[c.pawn_record_id] = c.owner;
  }
  const auto owner_of = [&](uint32_t id) {
    const auto pawn = pawn_owners.find(id);
    return pawn != pawn_owners.end() ? pawn->second : EntityNetHandle::from_raw(id).owner();
  };
  for (const protocol::Record& r : records.records) {
    if (const auto* entity = std::get_if<protocol::EntityRecord>(&r.body)) {
      const KindDef* kind = vocabulary_.find_kind(entity->kind);
      double vx = 0, vz = 0;
      if (auto before = last_.find(r.entity_id); before != last_.end() && now_s > before->second.at_s) {
        vx = (entity->position.x - before->second.x) / (now_s - before->second.at_s);
        vz = (entity->position.z - before->second.z) / (now_s - before->second.at_s);
      }
      if (seen.size() < kMaxTrackedEntities) seen[r.entity_id] = Last{entity->position.x, entity->position.z, now_s};
      if (!first_entity) e.push_back(',');
      entity_part(e, r.entity_id, owner_of(r.entity_id), kind != nullptr ? kind->name : fmt::format("kind{}", entity->kind),
                  *entity, vx, vz);
      first_entity = false;
    } else if (const auto* object = std::get_if<protocol::ObjectRecord>(&r.body)) {
      if (!first_object) o.push_back(',');
      const std::string& json = object_json(*object);
      o.append(json.data(), json.data() + json.size());
      first_object = false;
    }
  }
  last_ = std::move(seen);
  fmt::format_to(it, ",\"entities\":[{}],\"objects\":[{}],\"clients\":[", std::string_view(e.data(), e.size()),
                 std::string_view(o.data(), o.size()));
  for (std::size_t k = 0; k < clients.size(); ++k) {
    if (k != 0) fmt::format_to(it, ",");
    client_part(out, clients[k]);
  }
  fmt::format_to(it, "]}}");
  return fmt::to_string(out);
}

}  // namespace tickwire::dashboard
