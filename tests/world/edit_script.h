// The scene edit handler under hostile gestures, shared by fuzz_scene_edit and its seed test: a
// script of entries, each a sender byte (even: the session admitted with world authority, odd: one
// without) and a length-prefixed sceneEdit body, decoded as the server decodes it and handed to a
// Room around the reference game on the reference map, 10 ms apart. After every gesture the rules
// of the edit set are checked: the revision moves by at most one, every refusal goes to its sender
// and echoes its gesture, the state is ordered, unique, within one message and round-trips the wire,
// every field it states passes the rules, every rewired output's list passes the wiring rule and is
// the list the object's logic runs, and the server's static boxes are what a client builds from the
// map and the state.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "interaction_script.h"  // script_world(): the map and contract loaded once
#include "tickwire/core/bytes.h"
#include "tickwire/protocol/scene_edit.h"
#include "tickwire/server/room.h"
#include "tickwire/wire/codec.h"
#include "tickwire/world/reference_game.h"
#include "tickwire/world/scene_overlay.h"
#include "tickwire/world/scene_wiring.h"

namespace tickwire::world::scripts {

inline constexpr OwnerId kEditAuthority = 1;
inline constexpr OwnerId kEditNobody = 2;

struct EditScriptOutcome {
  uint64_t gestures = 0;       // decoded and handed to the room
  uint64_t undecodable = 0;    // bodies the server would count and drop
  uint64_t refused_whole = 0;  // by the room (authority, rate)
  uint64_t refusals = 0;       // writes the game refused
  uint32_t revision = 0;
  std::optional<std::string> violation;
};

namespace detail {

inline std::optional<std::string> check_state(const ReferenceGame& game, const Map& map) {
  const protocol::SceneNodeState& state = *game.scene_state();
  if (wire::measure(state) > protocol::kMaxSceneNodeStateBytes) return "the state outgrew one message";
  std::vector<uint8_t> bytes(wire::measure(state));
  protocol::SceneNodeState back;
  if (!wire::encode(state, bytes).ok() || !wire::decode(bytes, back).ok() || !(back == state)) return "the state does not round-trip";
  for (std::size_t i = 0; i < state.objects.size(); ++i) {
    const protocol::ObjectNodeState& o = state.objects[i];
    if (i > 0 && state.objects[i - 1].object >= o.object) return "objects not ascending and unique";
    if (o.object >= map.objects().size()) return "an object the map does not hold";
    if (!o.hidden && !o.transform && o.name.empty() && o.components.empty() && o.field_states.empty() && o.outputs.empty())
      return "an empty entry";
    for (std::size_t k = 1; k < o.components.size(); ++k)
      if (o.components[k - 1].component >= o.components[k].component) return "component edits not ascending";
    for (std::size_t k = 0; k < o.field_states.size(); ++k) {
      const protocol::FieldState& f = o.field_states[k];
      if (k > 0 && std::make_pair(o.field_states[k - 1].component, o.field_states[k - 1].key) >= std::make_pair(f.component, f.key))
        return "field states not ascending";
      if (!edited_setting(map.objects()[o.object], o, f)) return "a field state the rules refuse: " + f.key;
    }
    const ObjectNamed named = [&](std::string_view key) { return map.object_index(key).has_value(); };
    for (std::size_t k = 0; k < o.outputs.size(); ++k) {
      const protocol::OutputState& wired = o.outputs[k];
      if (k > 0 && o.outputs[k - 1].output >= wired.output) return "rewired outputs not ascending";
      const protocol::WiringEdit again{o.object, wired.output, protocol::WiringOp::set, wired.actions};
      if (check_wiring(map.objects()[o.object], o.outputs, again, named)) return "a rewired output the rules refuse: " + wired.output;
    }
    if (game.logic() != nullptr && game.logic()->spawned(o.object)) {
      const std::vector<LogicWire>* running = game.logic()->runtime().wires(LogicNodeId{o.object});
      if (running == nullptr || *running != logic_wires(wired_outputs(map.objects()[o.object].outputs, o.outputs)))
        return "the logic does not run the wiring the state states";
    }
  }
  std::vector<Aabb> client;
  scene_solid_boxes(map, game.solids(), &state, client);
  const auto server = game.static_boxes();
  if (client.size() != server.size()) return "the client's statics are not the server's";
  for (std::size_t i = 0; i < client.size(); ++i)
    if (!(client[i].min == server[i].min) || !(client[i].max == server[i].max)) return "a static box differs";
  return std::nullopt;
}

}  // namespace detail

inline EditScriptOutcome run_edit_script(std::span<const uint8_t> script) {
  const ScriptWorld& world = script_world();
  ReferenceGame game(world.map);
  Room room(RoomConfig{world.contract, MonoTime{}, 64}, game);
  (void)room.admit(kEditAuthority, world_authority_grant());
  (void)room.admit(kEditNobody);
  EditScriptOutcome out;
  MonoTime now;
  std::vector<EditRefusalOut> refusals;
  for (std::size_t at = 0; at + 3 <= script.size() && !out.violation;) {
    const OwnerId sender = (script[at] & 1u) == 0 ? kEditAuthority : kEditNobody;
    const std::size_t length = load_le<uint16_t>(script.data() + at + 1);
    at += 3;
    const std::span<const uint8_t> body = script.subspan(at, std::min(length, script.size() - at));
    at += body.size();
    now = now + Duration::milliseconds(10);
    protocol::SceneEdit gesture;
    if (!wire::decode(body, gesture).ok()) {
      ++out.undecodable;
      continue;
    }
    ++out.gestures;
    const uint32_t before = game.scene_edits().revision();
    if (room.receive_edit(sender, gesture, now)) ++out.refused_whole;
    refusals.clear();
    game.take_edit_refusals(refusals);
    const std::size_t writes = gesture.field_edits.size() + gesture.component_edits.size() + gesture.object_edits.size() +
                               gesture.wiring_edits.size();
    if (refusals.size() > std::max<std::size_t>(writes, 1)) out.violation = "more refusals than writes";
    for (const EditRefusalOut& r : refusals) {
      if (r.to != sender || r.refused.gesture != gesture.gesture) out.violation = "a refusal for someone else";
      if (r.refused.reason >= protocol::EditRefusal::count_) out.violation = "a refusal without a name";
    }
    out.refusals += refusals.size();
    const uint32_t after = game.scene_edits().revision();
    if (after != before && after != before + 1) out.violation = "the revision jumped";
    if (sender == kEditNobody && after != before) out.violation = "a session without authority changed the scene";
    if (!out.violation) out.violation = detail::check_state(game, world.map);
  }
  out.revision = game.scene_edits().revision();
  return out;
}

}  // namespace tickwire::world::scripts
