// The interaction handler driven by a script of bytes: one interpreter behind both the
// fuzz_interaction_handler target and its seed test, so the seeds CI runs without libFuzzer are read
// exactly as the fuzzer reads them. A script is a run of operations on a Room around a ReferenceGame
// on the reference map: interactRequest bodies decoded (malformed ones refused) and handed to the
// room, pawns placed anywhere looking anywhere, Use held through the input path, time passing,
// objects despawned and respawned, sessions leaving and rejoining, events drained. After every
// operation the handler's accounting is checked: each request is refused by the room or judged by
// the game exactly once, a use is taken only of a live object within reach of the pawn's eye, the
// events raised are the ones taken plus the ones dropped at the cap, and no event names an object
// the map does not have. The first broken rule is reported (the fuzz target traps on it).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numbers>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "game_rig.h"
#include "tickwire/core/bytes.h"
#include "tickwire/protocol/input_frame.h"
#include "tickwire/protocol/interact_request.h"
#include "tickwire/server/room.h"
#include "tickwire/wire/codec.h"
#include "tickwire/world/look_frame.h"
#include "tickwire/world/map_object_table.h"
#include "tickwire/world/reference_game.h"

namespace tickwire::world::scripts {

// Each operation is one byte (taken modulo the count), then its operands; a script cut short reads
// zeros for the operands it lacks.
enum class ScriptOp : uint8_t {
  request,         // owner u8, body length u8, body: an interactRequest body as a client sent it
  request_object,  // owner u8, object u16, twist u8, action u8: a well-formed request naming a map
                   // object (twist: bit 0 a stale generation, bit 1 known flags, bit 2 an unknown
                   // flag, bit 3 the owner's pawn instead), encoded and read back as a body
  place,           // owner u8, feet 3 x f32, velocity 3 x f32, yaw f32, pitch f32, crouched u8
  place_facing,    // owner u8, object u16, distance u8 (decimetres), bearing u8, aim error i8 (degrees)
  hold_use,        // owner u8, held u8 (bit 0), yaw u16 (1/65536 of a turn), pitch i8 (degrees)
  advance,         // ticks u8 (1 + n % 16): the room runs them, the logic with them
  wait,            // milliseconds u16: time passes with no tick run (buckets refill)
  despawn,         // object u16
  spawn,           // object u16
  drain,           // the game's events taken and checked
  leave_or_join,   // owner u8: a session leaves, or an absent one is admitted
  flood,           // owner u8, object u16, count u8: that many requests naming the object, each a
                   // bucket's token later than the last (all pass it): the way to the event cap
  count_,
};

inline constexpr uint8_t kScriptOwners = 4;          // owners 1..4; 1..3 admitted at the start
inline constexpr uint8_t kScriptAdmittedAtStart = 3;
inline constexpr uint32_t kScriptEntityCapacity = 64;  // sessions' pawns only: a cheap room
inline constexpr std::size_t kScriptMaxBody = 32;      // a body longer than this is cut (bounded)
inline constexpr uint8_t kScriptFloodMax = 255;
inline constexpr double kScriptReachSlackM = 1e-3;     // float eye and object against a double check

// What one run did (the seed test holds each seed to its own numbers).
struct ScriptOutcome {
  std::optional<std::string_view> violation;  // the first rule broken, if any
  uint64_t operations = 0;
  uint64_t requests = 0;   // bodies that decoded and reached the room
  uint64_t malformed = 0;  // bodies refused before the room
  uint64_t events_taken = 0;
  uint64_t events_dropped = 0;  // at the game's cap (kMaxPendingEvents)
  ReasonCounters<InteractRefusal> room_refusals;
  ReasonCounters<UseRefusal> use_refusals;
  uint64_t uses = 0;
};

// Writes scripts as the interpreter reads them (the seeds are built with it).
class ScriptWriter {
 public:
  ScriptWriter& request_body(uint8_t owner, std::span<const uint8_t> body) {
    op(ScriptOp::request).owner_operand(owner).u8(static_cast<uint8_t>(body.size()));
    bytes_.insert(bytes_.end(), body.begin(), body.end());
    return *this;
  }
  ScriptWriter& request(uint8_t owner, const protocol::InteractRequest& request) {
    std::array<uint8_t, kScriptMaxBody> body{};
    const auto size = wire::encode(request, body);
    TW_ASSERT(size.ok(), "an interactRequest body fits");
    return request_body(owner, std::span<const uint8_t>(body.data(), *size));
  }
  ScriptWriter& request_object(uint8_t owner, uint16_t object, uint8_t twist = 0, uint8_t action = 0) {
    return op(ScriptOp::request_object).owner_operand(owner).u16(object).u8(twist).u8(action);
  }
  ScriptWriter& place(uint8_t owner, Vec3 feet, Vec3 velocity, float yaw_deg, float pitch_deg, bool crouched = false) {
    op(ScriptOp::place).owner_operand(owner).f32(feet.x).f32(feet.y).f32(feet.z);
    return f32(velocity.x).f32(velocity.y).f32(velocity.z).f32(yaw_deg).f32(pitch_deg).u8(crouched ? 1 : 0);
  }
  ScriptWriter& place_facing(uint8_t owner, uint16_t object, uint8_t distance_dm, uint8_t bearing, int8_t aim_error_deg) {
    return op(ScriptOp::place_facing).owner_operand(owner).u16(object).u8(distance_dm).u8(bearing).u8(static_cast<uint8_t>(aim_error_deg));
  }
  ScriptWriter& hold_use(uint8_t owner, bool held, uint16_t yaw, int8_t pitch_deg) {
    return op(ScriptOp::hold_use).owner_operand(owner).u8(held ? 1 : 0).u16(yaw).u8(static_cast<uint8_t>(pitch_deg));
  }
  ScriptWriter& advance(uint8_t ticks_less_one) { return op(ScriptOp::advance).u8(ticks_less_one); }
  ScriptWriter& wait(uint16_t ms) { return op(ScriptOp::wait).u16(ms); }
  ScriptWriter& despawn(uint16_t object) { return op(ScriptOp::despawn).u16(object); }
  ScriptWriter& spawn(uint16_t object) { return op(ScriptOp::spawn).u16(object); }
  ScriptWriter& drain() { return op(ScriptOp::drain); }
  ScriptWriter& leave_or_join(uint8_t owner) { return op(ScriptOp::leave_or_join).owner_operand(owner); }
  ScriptWriter& flood(uint8_t owner, uint16_t object, uint8_t count) {
    return op(ScriptOp::flood).owner_operand(owner).u16(object).u8(count);
  }

  const std::vector<uint8_t>& bytes() const { return bytes_; }

 private:
  ScriptWriter& op(ScriptOp o) { return u8(static_cast<uint8_t>(o)); }
  ScriptWriter& owner_operand(uint8_t owner) {  // as owner_operand reads it back: 1 + byte % kScriptOwners
    TW_ASSERT(owner >= 1 && owner <= kScriptOwners, "a script's owners are 1..kScriptOwners");
    return u8(static_cast<uint8_t>(owner - 1));
  }
  ScriptWriter& u8(uint8_t v) {
    bytes_.push_back(v);
    return *this;
  }
  ScriptWriter& u16(uint16_t v) {
    uint8_t le[2];
    store_le<uint16_t>(le, v);
    bytes_.insert(bytes_.end(), le, le + 2);
    return *this;
  }
  ScriptWriter& f32(float v) {
    uint32_t raw;
    std::memcpy(&raw, &v, sizeof raw);
    uint8_t le[4];
    store_le<uint32_t>(le, raw);
    bytes_.insert(bytes_.end(), le, le + 4);
    return *this;
  }
  std::vector<uint8_t> bytes_;
};

// The map and contract every run shares (loaded once: a run builds only its game and room).
struct ScriptWorld {
  ScriptWorld() : map(rigs::load_rig_map(reference_map_text())), contract(rigs::rig_contract()) {
    const MapObjectTable table = MapObjectTable::build(map);
    for (uint32_t index = 0; index < table.size(); ++index)
      positions.push_back(map.objects()[*map.object_index(table.key_of(index))].position);
  }
  uint32_t object_count() const { return static_cast<uint32_t>(positions.size()); }

  Map map;
  NetcodeContract contract;
  std::vector<Vec3> positions;  // by object index
};

inline const ScriptWorld& script_world() {
  static const ScriptWorld world;
  return world;
}

class InteractionScript {
 public:
  explicit InteractionScript(std::span<const uint8_t> script)
      : world_(script_world()),
        in_(script),
        game_(world_.map),
        room_(RoomConfig{world_.contract, MonoTime{}, kScriptEntityCapacity}, game_) {
    for (uint8_t owner = 1; owner <= kScriptAdmittedAtStart; ++owner) (void)room_.admit(owner);
  }

  ScriptOutcome run() {
    while (!outcome_.violation && at_ < in_.size()) {
      step(static_cast<ScriptOp>(u8() % static_cast<uint8_t>(ScriptOp::count_)));
      ++outcome_.operations;
    }
    if (!outcome_.violation) drain();
    outcome_.room_refusals = room_.interact_refusals();
    outcome_.use_refusals = game_.use_refusals();
    outcome_.uses = game_.uses();
    return outcome_;
  }

 private:
  // What the game has counted of the uses it judged (each one answered by an event unless its actor
  // has no pawn), and what the room refused.
  struct Counts {
    uint64_t room_refusals, use_refusals, no_pawn, uses;
    uint64_t judged() const { return use_refusals + uses; }
    uint64_t answered() const { return judged() - no_pawn; }
  };
  Counts counts() const {
    return {room_.interact_refusals().total(), game_.use_refusals().total(), game_.use_refusals()[UseRefusal::no_pawn],
            game_.uses()};
  }

  void step(ScriptOp op) {
    switch (op) {
      case ScriptOp::request: {
        const uint8_t owner = owner_operand();
        const std::size_t length = std::min<std::size_t>(u8(), kScriptMaxBody);
        const std::size_t available = std::min(length, in_.size() - at_);
        submit(owner, in_.subspan(at_, available));
        at_ += available;
        return;
      }
      case ScriptOp::request_object: return request_object();
      case ScriptOp::place: return place();
      case ScriptOp::place_facing: return place_facing();
      case ScriptOp::hold_use: return hold_use();
      case ScriptOp::advance: return advance(1 + u8() % 16);
      case ScriptOp::wait: now_ = now_ + Duration::milliseconds(u16()); return;
      case ScriptOp::despawn: return change_spawn(false);
      case ScriptOp::spawn: return change_spawn(true);
      case ScriptOp::drain: return drain();
      case ScriptOp::leave_or_join: return leave_or_join();
      case ScriptOp::flood: return flood();
      case ScriptOp::count_: break;
    }
  }

  // A body as the server's dispatch reads it: decoded through the message's field table (refused
  // cleanly when malformed), then judged by the room and, past it, the game.
  void submit(uint8_t owner, std::span<const uint8_t> body) {
    protocol::InteractRequest request;
    const Counts before = counts();
    if (!wire::decode(body, request).ok()) {
      ++outcome_.malformed;
      const Counts after = counts();
      expect(after.room_refusals == before.room_refusals && after.judged() == before.judged(),
             "a malformed body reached the room");
      return;
    }
    ++outcome_.requests;
    const RoomSession* session = room_.session(owner);
    const std::optional<EntityRef> actor = session ? std::optional(session->pawn) : std::nullopt;
    const ReasonCounters<InteractRefusal> refusals_before = room_.interact_refusals();
    const bool taken = room_.receive_interact(owner, request, now_);
    const Counts after = counts();
    const uint64_t room_refused = after.room_refusals - before.room_refusals;
    expect(room_refused + (after.judged() - before.judged()) == 1, "a request not judged or refused exactly once");
    expect(taken == (room_refused == 0), "the room's answer disagrees with its refusals");
    if (!session) {
      expect(room_.interact_refusals()[InteractRefusal::no_session] == refusals_before[InteractRefusal::no_session] + 1,
             "a request from no session not refused as such");
      return;
    }
    if (after.uses == before.uses) return;
    const EntityRef target = EntityRef::from_raw(request.target_ref);
    const std::optional<uint32_t> index = map_object_index(target.handle().raw());
    expect(index && *index < world_.object_count() && game_.object_spawned(*index), "a use taken of no live object");
    if (index && *index < world_.object_count()) expect_within_reach(*actor, world_.positions[*index]);
  }

  // Judged independently of the game's own float math: the eye as the pawn stands, in doubles.
  void expect_within_reach(EntityRef actor, Vec3 at) {
    const PawnState* pawn = game_.pawn(actor);
    if (!expect(pawn != nullptr, "a use taken for a pawn the game does not hold")) return;
    const double dx = double{at.x} - pawn->feet.x;
    const double dy = double{at.y} - (double{pawn->feet.y} + pawn->eye_height_m);
    const double dz = double{at.z} - pawn->feet.z;
    const double distance = std::sqrt(dx * dx + dy * dy + dz * dz);
    expect(distance <= room_.contract().limits.interaction_range_m + kScriptReachSlackM, "a use taken out of reach");
    const Vec3 forward = look_frame(pawn->yaw_deg, pawn->pitch_deg).forward;
    const double alignment =
        distance > 0 ? (forward.x * dx + forward.y * dy + forward.z * dz) / distance : 1.0;
    expect(alignment >= double{kUseConeMinDot} - kScriptReachSlackM, "a use taken outside the look cone");
  }

  void request_object() {
    const uint8_t owner = owner_operand();
    const uint32_t object = u16() % (world_.object_count() + 4);  // a few past the end
    const uint8_t twist = u8();
    const uint8_t action = u8();
    EntityRef target = map_object_ref(object);
    if (twist & 8) {
      const RoomSession* session = room_.session(owner);
      target = session ? session->pawn : EntityRef{};
    }
    if (twist & 1) target = EntityRef::make(target.handle(), static_cast<uint16_t>(target.generation() + 1 + (twist >> 4)), target.flags());
    if (twist & 2) target = target.with_flags(target.flags() | kEntityRefOwned);
    if (twist & 4) target = target.with_flags(static_cast<uint16_t>(target.flags() | 1u << 8));
    std::array<uint8_t, kScriptMaxBody> body{};
    const auto size = wire::encode(protocol::InteractRequest{target.raw(), action}, body);
    if (!expect(size.ok(), "a request does not encode")) return;
    submit(owner, std::span<const uint8_t>(body.data(), *size));
  }

  void flood() {
    const uint8_t owner = owner_operand();
    const uint32_t object = u16() % world_.object_count();
    const uint8_t count = u8();
    const Duration token_interval =
        Duration::from_seconds(1.0 / room_.contract().limits.interactions_per_second);
    std::array<uint8_t, kScriptMaxBody> body{};
    const auto size = wire::encode(protocol::InteractRequest{map_object_ref(object).raw(), 0}, body);
    for (uint8_t i = 0; i < count && !outcome_.violation; ++i) {
      now_ = now_ + token_interval;
      submit(owner, std::span<const uint8_t>(body.data(), *size));
    }
  }

  // Anywhere at all, huge values included; the placer's own precondition (finite, pitch within
  // [-90, 90]) is honoured by clamping: what is fuzzed here is the handler, not the placer.
  void place() {
    const uint8_t owner = owner_operand();
    Placement where;
    where.feet = vec3_operand();
    where.velocity_mps = vec3_operand();
    where.yaw_deg = finite(f32());
    where.pitch_deg = std::clamp(finite(f32()), -90.0f, 90.0f);
    where.crouched = (u8() & 1) != 0;
    place_pawn(owner, where);
  }

  // Near an object, its eye at the object's height, looking at it give or take an aim error: where
  // the reach and the cone are decided.
  void place_facing() {
    const uint8_t owner = owner_operand();
    const Vec3 at = world_.positions[u16() % world_.object_count()];
    const float distance = static_cast<float>(u8()) / 10.0f;
    const float bearing = static_cast<float>(u8()) * (2.0f * std::numbers::pi_v<float> / 256.0f);
    const float aim_error = static_cast<float>(static_cast<int8_t>(u8()));
    const Vec3 feet{at.x + distance * std::sin(bearing), at.y - game_.mover().settings().standing_eye_m,
                    at.z + distance * std::cos(bearing)};
    const float yaw = std::atan2(at.x - feet.x, at.z - feet.z) * (180.0f / std::numbers::pi_v<float>) + aim_error;
    place_pawn(owner, Placement{feet, {}, yaw, 0, false});
  }

  void place_pawn(uint8_t owner, const Placement& where) {
    const Counts before = counts();
    if (const RoomSession* session = room_.session(owner)) game_.place_pawn(session->pawn, where);
    expect_unchanged(before, "placing a pawn judged something");
  }

  // One input for the owner's next tick: Use held or not, looking somewhere.
  void hold_use() {
    const uint8_t owner = owner_operand();
    protocol::InputCmd cmd;
    cmd.buttons = (u8() & 1) != 0 ? uint32_t{kButtonUse} : 0u;
    cmd.yaw_deg = static_cast<float>(u16()) * (360.0f / 65536.0f);
    cmd.pitch_deg = std::clamp(static_cast<float>(static_cast<int8_t>(u8())), -90.0f, 90.0f);
    protocol::InputFrame frame;
    frame.first_sequence = ++sequences_[owner];
    frame.inputs.push_back(cmd);
    const Counts before = counts();
    (void)room_.receive_input(owner, frame);
    expect_unchanged(before, "queueing an input judged something");
  }

  // The room runs the ticks due: the logic steps, and each pawn's Use press (an edge) is judged at
  // most once a tick; the room refuses nothing here.
  void advance(uint32_t ticks) {
    now_ = now_ + Duration::from_seconds(room_.seconds_per_tick() * ticks);
    const Counts before = counts();
    const uint64_t pawns = room_.session_count();
    const RoomUpdate update = room_.update(now_, observer_);
    const Counts after = counts();
    expect(after.room_refusals == before.room_refusals, "a tick refused a request");
    expect(after.judged() - before.judged() <= uint64_t{update.ticks_run} * pawns, "more presses judged than pawns' ticks");
  }

  void change_spawn(bool spawn) {
    const uint32_t object = u16() % (world_.object_count() + 2);
    const bool was = game_.object_spawned(object);
    const Counts before = counts();
    const bool changed = spawn ? game_.spawn_object(object) : game_.despawn_object(object);
    expect(changed == (object < world_.object_count() && was != spawn), "a spawn or despawn answered wrongly");
    const bool expected_spawned = object < world_.object_count() && (changed ? spawn : was);
    expect(game_.object_spawned(object) == expected_spawned, "an object's spawned state disagrees with the change");
    expect_unchanged(before, "a spawn or despawn judged something");
  }

  void leave_or_join() {
    const uint8_t owner = owner_operand();
    const Counts before = counts();
    if (room_.session(owner)) {
      room_.leave(owner);
      expect(room_.session(owner) == nullptr, "a session still there after leaving");
    } else {
      expect(room_.admit(owner).has_value(), "an absent owner not admitted");
    }
    sequences_[owner] = 0;
    expect_unchanged(before, "a session's coming or going judged something");
  }

  // Every answer raised since the last drain is taken or was dropped at the cap, and each names
  // only what exists.
  void drain() {
    std::vector<GameEvent> events;
    game_.take_events(events);
    const Counts now = counts();
    const uint64_t dropped = dropped_events();
    const uint64_t raised = now.answered() - answered_at_drain_;
    expect(events.size() <= kMaxPendingEvents, "more events pending than the cap");
    expect(events.size() + (dropped - dropped_at_drain_) == raised, "an answer neither taken nor dropped");
    answered_at_drain_ = now.answered();
    dropped_at_drain_ = dropped;
    outcome_.events_taken += events.size();
    outcome_.events_dropped = dropped;
    for (const GameEvent& e : events) {
      expect(e.to != kAuthorityOwner && e.to <= kScriptOwners, "an event for no owner");
      expect(e.event.event_kind >= kEventUseTaken && e.event.event_kind <= kEventUseUnhandled, "an unknown event kind");
      if (const std::optional<uint32_t> index = map_object_index(e.event.source_id))
        expect(*index < world_.object_count(), "an event names an object index out of range");
      if (e.event.event_kind == kEventUseRefused)
        expect(e.event.payload.bits < static_cast<uint8_t>(UseRefusal::count_), "a refusal with no reason");
      else
        expect(map_object_index(e.event.source_id).has_value(), "a use answered for no object");
    }
  }

  uint64_t dropped_events() const {
    uint64_t dropped = 0;
    game_.visit_game_reasons([&](std::string_view name, uint64_t count) {
      if (name == "event.drop.overflow") dropped = count;
    });
    return dropped;
  }

  void expect_unchanged(const Counts& before, std::string_view what) {
    const Counts after = counts();
    expect(after.room_refusals == before.room_refusals && after.judged() == before.judged(), what);
  }

  bool expect(bool holds, std::string_view what) {
    if (!holds && !outcome_.violation) outcome_.violation = what;
    return holds;
  }

  // --- operands (zeros past the end) ------------------------------------------------------------
  uint8_t u8() { return at_ < in_.size() ? in_[at_++] : uint8_t{0}; }
  uint16_t u16() {
    const uint8_t low = u8();
    return static_cast<uint16_t>(low | u8() << 8);
  }
  float f32() {
    uint32_t raw = 0;
    for (int shift = 0; shift < 32; shift += 8) raw |= uint32_t{u8()} << shift;
    float v;
    std::memcpy(&v, &raw, sizeof v);
    return v;
  }
  uint8_t owner_operand() { return static_cast<uint8_t>(1 + u8() % kScriptOwners); }
  // NaN to 0, the infinities to the largest floats: finite, and as huge as the bytes asked.
  static float finite(float v) {
    if (std::isnan(v)) return 0.0f;
    return std::clamp(v, std::numeric_limits<float>::lowest(), std::numeric_limits<float>::max());
  }
  Vec3 vec3_operand() {
    const float x = finite(f32()), y = finite(f32()), z = finite(f32());
    return {x, y, z};
  }

  struct NoObserver final : TickObserver {
    void on_tick_completed(Tick) override {}
  };

  const ScriptWorld& world_;
  std::span<const uint8_t> in_;
  std::size_t at_ = 0;
  ReferenceGame game_;
  Room room_;
  NoObserver observer_;
  MonoTime now_;
  std::array<uint32_t, kScriptOwners + 1> sequences_{};  // each owner's last input sequence
  uint64_t answered_at_drain_ = 0;
  uint64_t dropped_at_drain_ = 0;
  ScriptOutcome outcome_;
};

inline ScriptOutcome run_interaction_script(std::span<const uint8_t> script) { return InteractionScript(script).run(); }

}  // namespace tickwire::world::scripts
