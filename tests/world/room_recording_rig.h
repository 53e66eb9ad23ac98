// A recorded game of the reference world (room_recording.h), shared by the recording tests, the
// fuzz target's seeds and the fuzz target: a room with three players set up before the recording
// starts (ann by button.s, bob behind crate.1, cy at a spawn point with 3 inputs queued ahead), then
// a seeded script through the room's own receive paths: a two-second idle in which ann presses
// button.s (its door and lights on their way, nobody walking), then everyone moving (bob shoving
// the crates, cy wandering, ann pressing buttons), inputs arriving late, early, out of order or
// never, claims, shots (some waiting for their input, released inside a tick), a scene edit hiding
// and showing a crate, a construct call, a departure and a resume, a leave and a join, a slowed
// world with forgiveness, and one stall the room's clock declares.
#pragma once

#include <chrono>
#include <cmath>
#include <cstdint>
#include <vector>

#include "save_room.h"
#include "tickwire/core/rng.h"
#include "tickwire/protocol/vec3_math.h"
#include "tickwire/server/room_recording_writer.h"
#include "tickwire/world/pawn_buttons.h"

namespace tickwire::world::rigs {

inline constexpr int64_t kRecordIdleTicks = 120;  // nobody walks before this recorded tick
inline constexpr uint32_t kRecordMinuteTicks = 60 * kRigHz;

struct RecordedGame {
  std::vector<uint8_t> bytes;
  uint64_t ticks = 0;
  uint64_t events = 0;
  std::size_t header_bytes = 0;
  Tick first_tick;        // the save state's
  double record_s = 0;    // wall time to play and record
  uint32_t door_moving_ticks = 0;  // door.s's slide changed
  uint32_t prop_moving_ticks = 0;  // some crate moved
  uint32_t fires = 0, edits = 0, interactions = 0;
};

// One player's client: an input per tick, each delivered now, a few ticks late, or never.
struct RecordClient {
  OwnerId owner = 0;
  float yaw_deg = 0;
  bool walk = false;
  uint32_t buttons = 0;
  struct Pending {
    int64_t due = 0;
    uint32_t sequence = 0;
    protocol::InputCmd cmd;
  };
  std::vector<Pending> pending;  // at most a few ticks' worth
};

inline void deliver(SaveRoom& r, RecordClient& c, int64_t now_tick, bool claim) {
  for (std::size_t i = 0; i < c.pending.size();) {
    if (c.pending[i].due > now_tick) {
      ++i;
      continue;
    }
    protocol::InputFrame frame;
    frame.first_sequence = c.pending[i].sequence;
    frame.inputs.push_back(c.pending[i].cmd);
    const RoomSession* session = r.room.session(c.owner);
    if (claim && session != nullptr) {
      const protocol::PawnDetail d = r.game.pawn_detail(session->pawn);
      frame.claim = protocol::Claim{d.position + protocol::Vec3{0.01f, 0, 0}, d.velocity, d.values, 0, d.placement_epoch};
    }
    (void)r.room.receive_input(c.owner, frame);
    c.pending.erase(c.pending.begin() + static_cast<std::ptrdiff_t>(i));
  }
}

// The client's input for this tick: made now, sent now (80%), 1 to 3 ticks late (15%) or lost (5%).
inline void make_input(SaveRoom& r, RecordClient& c, Rng& rng, int64_t now_tick) {
  protocol::InputCmd cmd;
  cmd.yaw_deg = c.yaw_deg;
  cmd.move_y = c.walk ? 1.0f : 0.0f;
  cmd.buttons = c.buttons;
  const uint32_t sequence = r.next_sequence[c.owner]++;
  const double roll = rng.unit();
  if (roll < 0.05) return;
  const int64_t late = roll < 0.20 ? rng.between(1, 3) : 0;
  c.pending.push_back(RecordClient::Pending{now_tick + late, sequence, cmd});
}

inline protocol::FireRequest aimed_shot(const SaveRoom& r, OwnerId owner, uint32_t shot, float yaw_deg) {
  const RoomSession* session = r.room.session(owner);
  const PawnState& pawn = *r.game.pawn(session->pawn);
  protocol::FireRequest request;
  request.shot = shot;
  request.eye = pawn.feet.to_wire() + protocol::Vec3{0, pawn.eye_height_m, 0};
  const float yaw = yaw_deg * 3.14159265f / 180.0f;
  request.aim = protocol::Vec3{std::sin(yaw), -0.05f, std::cos(yaw)};
  request.render_tick = r.room.last_tick().wire_u32() - 6;
  request.after_input = true;
  request.input_sequence = r.next_sequence[owner] - 1;  // the newest input made: often not yet simulated
  return request;
}

inline protocol::SceneEdit crate_edit(const SaveRoom& r, uint32_t gesture, protocol::ObjectVerb verb) {
  protocol::SceneEdit edit;
  edit.gesture = gesture;
  protocol::ObjectEdit object;
  object.object = r.index("prop.crate.5");
  object.verb = verb;
  edit.object_edits.push_back(object);
  return edit;
}

// The room before the recording: three players placed, settled on their feet.
inline void set_up_recorded_room(SaveRoom& r, std::vector<RecordClient>& clients) {
  require(r.room.admit(1, world_authority_grant(), "ann").has_value(), "ann joins");
  require(r.room.admit(2, {}, "bob").has_value(), "bob joins");
  require(r.room.admit(3, {}, "cy").has_value(), "cy joins");
  r.game.place_pawn(r.room.session(1)->pawn, Placement{Vec3{1.75f, 0, -30.9f}, {}, 180.0f, 0, false});
  r.game.place_pawn(r.room.session(2)->pawn, Placement{Vec3{-3, 0, 1.2f}, {}, 0.0f, 0, false});
  clients.assign(3, RecordClient{});
  for (OwnerId owner = 1; owner <= 3; ++owner) clients[owner - 1].owner = owner;
  clients[0].yaw_deg = 180.0f;
  clients[2].yaw_deg = 90.0f;
  for (int t = 0; t < 90; ++t) {
    for (RecordClient& c : clients) r.send(c.owner, c.yaw_deg, false);
    r.tick();
  }
  for (int ahead = 0; ahead < 3; ++ahead) r.send(3, clients[2].yaw_deg, false);  // in cy's window when the save is taken
}

// The changes the script makes between ticks at recorded tick `t` (1-based).
inline void script_changes(SaveRoom& r, std::vector<RecordClient>& clients, Rng& rng, int64_t t, RecordedGame& out) {
  const MonoTime now = r.room.clock().due_time(r.room.last_tick());
  const uint32_t button_s = r.index("button.s");
  if (t == 30 || (t > kRecordIdleTicks && t % 600 == 30)) {
    protocol::InteractRequest press{map_object_ref(button_s).raw(), 0};
    out.interactions += r.room.receive_interact(1, press, now) ? 1 : 0;
  }
  if (t > kRecordIdleTicks && t % 240 == 7) {
    const OwnerId shooter = r.room.session(3) != nullptr ? 3 : 5;
    if (r.room.session(shooter) != nullptr)
      out.fires += r.room.receive_fire(shooter, aimed_shot(r, shooter, static_cast<uint32_t>(t), static_cast<float>(rng.unit() * 360.0)), now) ? 1 : 0;
  }
  if (t == 3000 || t == 6000) {
    const auto verb = t == 3000 ? protocol::ObjectVerb::hide : protocol::ObjectVerb::show;
    out.edits += r.room.receive_edit(1, crate_edit(r, static_cast<uint32_t>(t), verb), now) ? 0 : 1;
  }
  if (t == 3500) (void)r.room.receive_construct_call(1, protocol::ConstructCall{7, 1, {}}, now);
  if (t == 4000) r.room.depart(2);
  if (t == 4300) {
    const EntityRef held = r.room.held_pawns().front().pawn;
    require(!r.room.resume(4, held, "bob"), "bob comes back");
    clients[1].owner = 4;  // a new connection: its inputs numbered afresh
    clients[1].pending.clear();
  }
  if (t == 8000) r.room.leave(3);
  if (t == 8100) {
    require(r.room.admit(5, {}, "dee").has_value(), "dee joins");
    clients[2].owner = 5;
    clients[2].pending.clear();
  }
  if (t == 9000) r.room.set_world_settings(protocol::WorldSettings{0.5f, 0.5f});
  if (t == 12000) r.room.set_world_settings(protocol::WorldSettings{1.0f, 1.0f});
}

// Each player's intent for the tick: idle first, then bob shoves, cy (dee) wanders, ann presses.
inline void script_intents(std::vector<RecordClient>& clients, Rng& rng, int64_t t) {
  if (t <= kRecordIdleTicks) return;
  RecordClient& ann = clients[0];
  ann.buttons = t % 600 == 300 ? uint32_t{kButtonUse} : 0u;
  ann.walk = t % 1200 > 900;
  ann.yaw_deg = t % 1200 > 900 ? 0.0f : 180.0f;
  RecordClient& bob = clients[1];
  bob.walk = t % 400 < 300;
  bob.yaw_deg = t % 800 < 400 ? 0.0f : 180.0f;
  RecordClient& cy = clients[2];
  if (t % 90 == 1) {
    cy.walk = rng.chance(0.7);
    cy.yaw_deg = static_cast<float>(rng.below(360));
    cy.buttons = rng.chance(0.2) ? uint32_t{kButtonJump} : 0u;
  }
}

// Plays the script for `ticks` recorded ticks and returns the recording (and what it covered).
inline RecordedGame record_reference_game(uint64_t seed, int64_t ticks) {
  RecordedGame out;
  SaveRoom r;
  std::vector<RecordClient> clients;
  set_up_recorded_room(r, clients);
  Rng rng(seed);
  const auto began = std::chrono::steady_clock::now();
  RoomRecordingWriter writer(r.room);
  require(!writer.refused(), "the reference room saves");
  out.first_tick = r.room.last_tick();
  const uint32_t door = r.index("door.s");
  float door_at = r.game.object_component(door, 0).channels[0];
  for (int64_t t = 1; t <= ticks; ++t) {
    script_changes(r, clients, rng, t, out);
    script_intents(clients, rng, t);
    for (RecordClient& c : clients) {
      make_input(r, c, rng, t);
      deliver(r, c, t, t >= 9000 && t < 12000);
    }
    if (t == 10000) {  // a stall: the clock runs the newest tick and declares the rest
      NoTickObserver observer;
      (void)r.room.update(r.room.clock().due_time(r.room.last_tick() + 40), observer);
    } else {
      r.tick();
    }
    const float at = r.game.object_component(door, 0).channels[0];
    out.door_moving_ticks += at != door_at ? 1 : 0;
    door_at = at;
    out.prop_moving_ticks += r.game.props().awake() > 0 ? 1 : 0;
  }
  out.record_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  out.bytes = writer.bytes();
  out.ticks = writer.ticks();
  out.events = writer.events();
  out.header_bytes = writer.header_bytes();
  return out;
}

// The first tick whose applied input walks (a fresh input with a move axis: before it every pawn
// stood, so every starved tick repeated a standing input), or Tick 0 when none does.
inline Tick first_walking_tick(const RoomRecording& recording) {
  RoomEventCursor cursor(recording);
  RoomEvent event;
  while (cursor.next(event)) {
    if (event.kind != RoomEventKind::tick) continue;
    for (const RecordedInput& in : event.inputs)
      if (in.source == TickInputSource::fresh && (in.cmd.move_x != 0 || in.cmd.move_y != 0)) return event.tick;
  }
  return Tick{};
}

}  // namespace tickwire::world::rigs
