// The fire handler driven by a script of bytes: one interpreter behind both the fuzz_fire_handler
// target and its seed test (issue 19: a fuzz target for each new message's handler), so the seeds CI
// runs without libFuzzer are read exactly as the fuzzer reads them. A script is a run of operations
// on a Room around a ReferenceGame on the reference map: fireRequest bodies decoded (malformed ones
// never reach the room) and handed to Room::receive_fire, well-formed shots aimed from near a pawn's
// eye, pawns placed anywhere or at the pool's rim, ticks, waits, sessions leaving and joining, hits
// drained. After every operation the handler's accounting is checked: each request refused by the
// room or accepted exactly once, each accepted shot traced or dropped by the game exactly once (the
// eye verdict against an independent one), the render time the game got within the rewind bound,
// and every hit drained true to its shot. The first broken rule is reported (the fuzz target traps).
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

#include "interaction_script.h"  // script_world(): the map and contract loaded once, shared by both scripts
#include "tickwire/core/bytes.h"
#include "tickwire/protocol/fire_request.h"
#include "tickwire/protocol/hit_event.h"
#include "tickwire/server/room.h"
#include "tickwire/wire/codec.h"
#include "tickwire/world/look_frame.h"
#include "tickwire/world/reference_game.h"
#include "tickwire/world/shot_trace.h"
#include "watched_game.h"

namespace tickwire::world::scripts {

// Each operation is one byte (taken modulo the count), then its operands; a script cut short reads
// zeros for the operands it lacks.
enum class FireOp : uint8_t {
  request,        // owner u8, body length u8, body: a fireRequest body as a client sent it
  shot,           // owner u8, then a FireAim: a well-formed request, encoded and read back as a body
  place,          // owner u8, feet 3 x f32, velocity 3 x f32, yaw f32, pitch f32, crouched u8
  place_at_rim,   // owner u8, side u8 (of the basin's four), along u8 (1/255ths of that side)
  advance,        // ticks u8 (1 + n % 16): the room runs them
  wait,           // milliseconds u16: time passes with no tick run (the fire buckets refill)
  leave_or_join,  // owner u8: a session leaves, or an absent one is admitted
  drain,          // the game's hits taken and checked against the shots that raised them
  flood,          // owner u8, count u8, then a FireAim: that many shots, each a fire token later
                  // than the last (all pass the bucket): the way to the pending hits' cap
  count_,
};

// A well-formed shot's operands, as the script carries them.
struct FireAim {
  std::array<int8_t, 3> eye_offset_cm{};  // the claimed eye, from the pawn's own eye
  uint16_t yaw = 0;                       // 1/65536 of a turn: 0 faces +z, 16384 faces +x
  int8_t pitch_deg = 0;                   // positive looks up
  int16_t tick_offset = 0;                // the render tick, from the room's last tick
  uint16_t fraction = 0;                  // toward the next tick, in 1/65536ths
};

inline constexpr uint8_t kFireScriptOwners = 4;  // owners 1..4; 1..3 admitted at the start
inline constexpr uint8_t kFireScriptAdmittedAtStart = 3;
inline constexpr uint32_t kFireScriptEntityCapacity = 64;  // sessions' pawns only: a cheap room
inline constexpr std::size_t kFireScriptMaxBody = 48;      // a body longer than this is cut (a whole one is <= 35)
inline constexpr uint32_t kFireScriptMaxTicks = 16;        // an advance runs 1..16 ticks
inline constexpr float kRimStandOffM = 0.6f;               // how far outside the basin a rim stand is
inline constexpr double kRenderTickSlack = 1e-9;           // the bound's own division, in ticks
inline constexpr double kEyeVerdictSlackM = 1e-3;          // float eyes against a double verdict
inline constexpr double kUnitSlack = 1e-3;                 // a unit vector's length, give or take
inline constexpr double kRangeSlackM = 1e-2;               // a hit's distance beyond the shot's range
// Float rounding at the eye's magnitude, per unit of it (a few ulps): far from the origin a float
// point cannot sit closer to the exact one than that.
inline constexpr double kFloatSlackPerM = 8.0 * std::numeric_limits<float>::epsilon();

// What one run did (the seed test holds each seed to its own numbers).
struct FireScriptOutcome {
  std::optional<std::string_view> violation;  // the first rule broken, if any
  uint64_t operations = 0;
  uint64_t requests = 0;   // bodies that decoded and reached the room
  uint64_t malformed = 0;  // bodies refused before the room
  uint64_t accepted = 0;   // handed to the game
  ReasonCounters<FireRefusal> room_refusals;
  ReasonCounters<FireRewind> rewinds;
  ReasonCounters<ShotDrop> drops;
  uint64_t traced = 0;
  uint64_t hits_taken = 0;
  std::array<uint64_t, 3> hits_by_kind{};  // of those taken, by protocol::HitKind
  std::array<uint64_t, 4> hits_by_body{};  // and by protocol::HitBody
};

// The room's seam to the reference game (WatchedGame: every call forwarded), each shot kept as the
// room handed it over: the render time's bound is the room's to keep, so it is read at this seam.
struct FireSeam {
  struct Handed {
    EntityRef shooter;
    FireShot shot;
    Tick tick;
  };

  explicit FireSeam(ReferenceGame& game) : watched(game) {
    watched.on_fire = [this](EntityRef shooter, const FireShot& shot, Tick tick) {
      ++fires;
      handed = Handed{shooter, shot, tick};
    };
  }
  FireSeam(const FireSeam&) = delete;  // its hook points at itself
  FireSeam& operator=(const FireSeam&) = delete;

  test::WatchedGame watched;
  uint64_t fires = 0;             // every shot handed over
  std::optional<Handed> handed;   // the last one
};

class FireScript {
 public:
  explicit FireScript(std::span<const uint8_t> script)
      : world_(script_world()),
        in_(script),
        game_(world_.map),
        seam_(game_),
        room_(RoomConfig{world_.contract, MonoTime{}, kFireScriptEntityCapacity}, seam_.watched) {
    for (uint8_t owner = 1; owner <= kFireScriptAdmittedAtStart; ++owner) (void)room_.admit(owner);
    pending_.reserve(kMaxPendingHits);
    drained_.reserve(kMaxPendingHits);
  }

  FireScriptOutcome run() {
    while (!outcome_.violation && at_ < in_.size()) {  // each operation takes a byte: bounded by the script
      step(static_cast<FireOp>(take<uint8_t>() % static_cast<uint8_t>(FireOp::count_)));
      ++outcome_.operations;
      check_accounting();
    }
    if (!outcome_.violation) drain();
    outcome_.accepted = room_.fires_accepted();
    outcome_.room_refusals = room_.fire_refusals();
    outcome_.rewinds = room_.fire_rewinds();
    outcome_.drops = game_.shot_drops();
    outcome_.traced = game_.shots_traced();
    return outcome_;
  }

 private:
  // The handler's numbers, room and game: what an operation may or may not move.
  struct Counts {
    uint64_t refused, accepted, traced, no_pawn, strayed, overflow, clamped, ahead, waited, waiting;
    // The shots the game decided on, each once: shots_traced() + shot_drops().total() less the
    // events_overflow drops, which count hits at the queue's cap, not shots (a traced shot may drop
    // some of its hits there and is still traced once).
    uint64_t judged() const { return traced + no_pawn + strayed; }
    friend bool operator==(const Counts&, const Counts&) = default;
  };
  Counts counts() const {
    const ReasonCounters<ShotDrop>& drops = game_.shot_drops();
    const ReasonCounters<FireRewind>& rewinds = room_.fire_rewinds();
    return {room_.fire_refusals().total(), room_.fires_accepted(),         game_.shots_traced(),
            drops[ShotDrop::no_pawn],      drops[ShotDrop::eye_strayed],  drops[ShotDrop::events_overflow],
            rewinds[FireRewind::clamped_to_bound], rewinds[FireRewind::ahead_of_server], rewinds[FireRewind::waited_for_input],
            waiting_shots()};
  }
  // Shots the room holds for an input it has not simulated yet, over every session.
  uint64_t waiting_shots() const {
    uint64_t n = 0;
    room_.for_each_session([&](const RoomSession& s) { n += s.waiting_shots.size(); });
    return n;
  }

  // A shot traced whose hits still wait in the game's queue (at most kMaxPendingHits of them).
  struct PendingShot {
    uint32_t shot;
    uint32_t shooter_id;
    protocol::Vec3 eye;
    uint8_t hits;  // queued, 1 or 2 (the rest of its hits dropped at the cap)
  };

  void step(FireOp op) {
    switch (op) {
      case FireOp::request: return raw_request();
      case FireOp::shot: {
        const uint8_t owner = owner_operand();
        return aimed_shot(owner, aim_operand());
      }
      case FireOp::place: return place();
      case FireOp::place_at_rim: return place_at_rim();
      case FireOp::advance: return advance(1 + take<uint8_t>() % kFireScriptMaxTicks);
      case FireOp::wait: return wait(Duration::milliseconds(take<uint16_t>()));
      case FireOp::leave_or_join: return leave_or_join();
      case FireOp::drain: return drain();
      case FireOp::flood: return flood();
      case FireOp::count_: break;
    }
  }

  // The rules that hold between any two operations, whatever happened.
  void check_accounting() {
    const Counts now = counts();
    expect(now.refused + now.accepted + now.waiting == outcome_.requests,
           "a decoded request neither refused, accepted nor waiting exactly once");
    expect(now.waiting <= now.waited, "a shot waits that the room did not count as waiting");
    expect(now.judged() == now.accepted, "an accepted shot neither traced nor dropped exactly once");
    expect(seam_.fires == now.accepted, "the game was handed other shots than the room accepted");
    expect(now.clamped + now.ahead <= now.accepted, "a render time moved for a shot not accepted");
    expect(pending_hits_ <= kMaxPendingHits, "more hits pending than the cap");
  }

  // --- requests -------------------------------------------------------------------------------
  void raw_request() {
    const uint8_t owner = owner_operand();
    const std::size_t length = std::min<std::size_t>(take<uint8_t>(), kFireScriptMaxBody);
    const std::size_t available = std::min(length, in_.size() - at_);
    const std::span<const uint8_t> body = in_.subspan(at_, available);
    at_ += available;
    submit(owner, body);
  }

  // From the pawn's own eye give or take the offset (the origin when the owner has no pawn), along
  // the yaw and pitch, at a render tick near the room's last one.
  void aimed_shot(uint8_t owner, const FireAim& aim) {
    protocol::FireRequest request;
    request.shot = next_shot_++;
    const protocol::Vec3 eye = pawn_eye(owner).value_or(protocol::Vec3{});
    request.eye = {eye.x + aim.eye_offset_cm[0] / 100.0f, eye.y + aim.eye_offset_cm[1] / 100.0f,
                   eye.z + aim.eye_offset_cm[2] / 100.0f};
    request.aim = look_frame(static_cast<float>(aim.yaw) * (360.0f / 65536.0f), aim.pitch_deg).forward.to_wire();
    request.render_tick = room_.last_tick().wire_u32() + static_cast<uint32_t>(int32_t{aim.tick_offset});
    request.render_fraction = aim.fraction;
    std::array<uint8_t, kFireScriptMaxBody> body{};
    const auto size = wire::encode(request, body);
    if (!expect(size.ok(), "a well-formed request does not encode")) return;
    submit(owner, std::span<const uint8_t>(body.data(), *size));
  }

  void flood() {
    const uint8_t owner = owner_operand();
    const uint8_t count = take<uint8_t>();
    const FireAim aim = aim_operand();
    const Duration token = Duration::from_seconds(1.0 / room_.contract().limits.fires_per_second);
    for (uint8_t i = 0; i < count && !outcome_.violation; ++i) {  // at most 255 shots
      now_ = now_ + token;
      aimed_shot(owner, aim);
    }
  }

  // A body as the server's dispatch reads it: decoded through the message's field table (refused
  // cleanly when malformed), then judged by the room and, past it, the game.
  void submit(uint8_t owner, std::span<const uint8_t> body) {
    protocol::FireRequest request;
    const Counts before = counts();
    if (!wire::decode(body, request).ok()) {
      ++outcome_.malformed;
      expect(counts() == before && seam_.fires == before.accepted, "a malformed body reached the room");
      return;
    }
    ++outcome_.requests;
    const RoomSession* session = room_.session(owner);
    const std::optional<EntityRef> shooter = session ? std::optional(session->pawn) : std::nullopt;
    const uint64_t no_session_before = room_.fire_refusals()[FireRefusal::no_session];
    seam_.handed.reset();
    const bool taken = room_.receive_fire(owner, request, now_);
    const Counts after = counts();
    const uint64_t refused = after.refused - before.refused;
    const uint64_t accepted = after.accepted - before.accepted;
    const uint64_t waits = after.waiting - before.waiting;  // it waits for the input it was fired after
    expect(refused + accepted + waits == 1, "a request not refused, accepted or waiting exactly once");
    expect(taken == (accepted + waits == 1), "the room's answer disagrees with its counts");
    expect(after.judged() - before.judged() == accepted, "an accepted shot not traced or dropped exactly once");
    expect(seam_.handed.has_value() == (accepted == 1), "the game handed a shot the room did not accept");
    if (!shooter) {
      expect(room_.fire_refusals()[FireRefusal::no_session] == no_session_before + 1,
             "a shot from no session not refused as such");
      return;
    }
    if (accepted == 1 && seam_.handed) check_handed(request, *shooter, before, after);
    if (!taken)
      expect(after.clamped == before.clamped && after.ahead == before.ahead, "a refused shot's render time moved");
  }

  // The shot the game got is the request's, for the shooter's pawn, at a render time within the
  // bound; the game's verdict on the claimed eye is the one an independent check gives.
  void check_handed(const protocol::FireRequest& request, EntityRef shooter, const Counts& before, const Counts& after) {
    const FireSeam::Handed& handed = *seam_.handed;
    expect(handed.shooter == shooter, "a shot handed for another pawn");
    expect(handed.shot.shot == request.shot && handed.shot.eye == request.eye,
           "a shot handed with another number or eye");
    expect(handed.tick == room_.last_tick(), "a shot handed at another tick than the room's last");
    expect(std::fabs(length_of(handed.shot.aim) - 1.0) <= kUnitSlack, "a shot handed with an aim not of unit length");
    const double last = static_cast<double>(room_.last_tick().value());
    const double rewind_ticks = room_.contract().limits.max_rewind_ms / 1000.0 / room_.seconds_per_tick();
    const double render = handed.shot.render_tick;
    expect(std::isfinite(render) && render >= last - rewind_ticks - kRenderTickSlack && render <= last,
           "a render tick outside [last tick - maxRewindMs, last tick]");
    const uint64_t clamped = after.clamped - before.clamped;
    expect(clamped + (after.ahead - before.ahead) <= 1, "a render time moved twice");
    expect(handed.shot.rewind_clamped == (clamped == 1), "a clamped render time not marked as such");
    check_eye_verdict(request.eye, shooter, before, after);
    if (after.traced > before.traced) note_traced(request, shooter, after.overflow - before.overflow);
    else expect(after.overflow == before.overflow, "a dropped shot's hits counted as overflow");
  }

  // Judged apart from the game's float math: the claimed eye against the pawn's, in doubles, with a
  // slack for float rounding at their magnitude.
  void check_eye_verdict(const protocol::Vec3& claimed, EntityRef shooter, const Counts& before, const Counts& after) {
    const PawnState* pawn = game_.pawn(shooter);
    if (pawn == nullptr) {
      expect(after.no_pawn == before.no_pawn + 1, "a shot from no pawn not dropped as such");
      return;
    }
    const std::array<double, 3> eye{pawn->feet.x, double{pawn->feet.y} + pawn->eye_height_m, pawn->feet.z};
    const double strayed = distance(claimed, eye);
    const double magnitude = std::max({std::fabs(eye[0]), std::fabs(eye[1]), std::fabs(eye[2]), max_abs(claimed)});
    const double slack = kEyeVerdictSlackM + magnitude * kFloatSlackPerM;
    const double tolerance = room_.contract().limits.fire_eye_tolerance_m;
    if (strayed > tolerance + slack)
      expect(after.strayed == before.strayed + 1, "a claimed eye past the tolerance traced");
    if (strayed < tolerance - slack)
      expect(after.traced == before.traced + 1, "a claimed eye within the tolerance dropped");
  }

  // A traced shot raised 1 or 2 events (a water crossing first), each queued or counted dropped at
  // the cap, and only once the queue is full.
  void note_traced(const protocol::FireRequest& request, EntityRef shooter, uint64_t overflowed) {
    const ShotOutcome& last = game_.last_shot();
    if (!expect(last.count >= 1 && last.count <= 2, "a traced shot raised no event or more than two")) return;
    if (last.count == 2)
      expect(last.events[0].kind == protocol::HitKind::water && last.events[1].kind != protocol::HitKind::water,
             "two events of a shot not a water crossing then another");
    if (!expect(overflowed <= last.count, "more hits dropped than the shot raised")) return;
    const auto queued = static_cast<uint8_t>(last.count - overflowed);
    expect(overflowed == 0 || released_hits_ || pending_hits_ + queued == kMaxPendingHits, "a hit dropped before the queue was full");
    if (queued == 0) return;
    pending_.push_back(PendingShot{request.shot, shooter.handle().raw(), request.eye, queued});
    pending_hits_ += queued;
  }

  // --- placements, time, sessions ---------------------------------------------------------------
  // Anywhere at all, huge values included; the placer's own precondition (finite, pitch within
  // [-90, 90]) is honoured by clamping: what is fuzzed here is the handler, not the placer.
  void place() {
    const uint8_t owner = owner_operand();
    Placement where;
    where.feet = vec3_operand();
    where.velocity_mps = vec3_operand();
    where.yaw_deg = finite(take<float>());
    where.pitch_deg = std::clamp(finite(take<float>()), -90.0f, 90.0f);
    where.crouched = (take<uint8_t>() & 1) != 0;
    place_pawn(owner, where);
  }

  // Just outside one side of the pool's basin, on its floor, facing the basin's middle: where a
  // shot over the rim crosses the water before it strikes.
  void place_at_rim() {
    const uint8_t owner = owner_operand();
    const uint8_t side = take<uint8_t>() % 4;
    const float along = static_cast<float>(take<uint8_t>()) / 255.0f;
    if (game_.pools().empty()) return;
    const Aabb& basin = game_.pools()[0].basin;
    const float x = basin.min.x + (basin.max.x - basin.min.x) * along;
    const float z = basin.min.z + (basin.max.z - basin.min.z) * along;
    const Vec3 feet = side == 0   ? Vec3{x, basin.min.y, basin.max.z + kRimStandOffM}
                      : side == 1 ? Vec3{x, basin.min.y, basin.min.z - kRimStandOffM}
                      : side == 2 ? Vec3{basin.max.x + kRimStandOffM, basin.min.y, z}
                                  : Vec3{basin.min.x - kRimStandOffM, basin.min.y, z};
    const Vec3 middle = (basin.min + basin.max) * 0.5f;
    const float yaw = std::atan2(middle.x - feet.x, middle.z - feet.z) * (180.0f / std::numbers::pi_v<float>);
    place_pawn(owner, Placement{feet, {}, yaw, 0, false});
  }

  void place_pawn(uint8_t owner, const Placement& where) {
    unchanged_while([&] {
      if (const RoomSession* session = room_.session(owner)) game_.place_pawn(session->pawn, where);
    }, "placing a pawn judged a shot");
  }

  // The room runs the ticks due (each one told, the last the room's last); a tick judges no shot.
  // A tick judges no shot but those waiting for their input (FireRequest::after_input): each is
  // traced once its input is simulated or refused once it has waited the max rewind.
  void advance(uint32_t ticks) {
    only_waiting_resolved_while([&] {
      now_ = now_ + Duration::from_seconds(room_.seconds_per_tick() * ticks);
      const uint64_t heard = ticks_.completed;
      const RoomUpdate update = room_.update(now_, ticks_);
      expect(ticks_.completed - heard == update.ticks_run, "the ticks run and the ticks told disagree");
      if (update.ticks_run > 0) expect(ticks_.last == room_.last_tick(), "the last tick told is not the room's last");
    }, "a tick judged a shot that was not waiting");
  }

  void wait(Duration time) {
    unchanged_while([&] { now_ = now_ + time; }, "waiting judged a shot");
  }

  void leave_or_join() {
    const uint8_t owner = owner_operand();
    only_waiting_resolved_while([&] {
      if (room_.session(owner)) {
        room_.leave(owner);
        expect(room_.session(owner) == nullptr, "a session still there after leaving");
      } else {
        expect(room_.admit(owner).has_value(), "an absent owner not admitted");
      }
    }, "a session's coming or going judged a shot");
  }

  template <class F>
  void unchanged_while(F&& act, std::string_view what) {
    const Counts before = counts();
    act();
    expect(counts() == before, what);
  }

  // Only waiting shots may be judged meanwhile, each once: traced (accepted) or refused (its input
  // never simulated, its session gone). The hits a released shot raised are not known shot by shot
  // here, so the next drain checks them as hits only.
  template <class F>
  void only_waiting_resolved_while(F&& act, std::string_view what) {
    const Counts before = counts();
    act();
    const Counts after = counts();
    const uint64_t accepted = after.accepted - before.accepted, refused = after.refused - before.refused;
    expect(after.waiting <= before.waiting && accepted + refused == before.waiting - after.waiting, what);
    expect(after.judged() - before.judged() == accepted && after.waited == before.waited, what);
    if (after.traced > before.traced) released_hits_ = true;
  }

  // --- hits ------------------------------------------------------------------------------------
  // Every hit queued since the last drain is taken, in the order its shots were traced, and each is
  // true to its shot.
  void drain() {
    drained_.clear();
    seam_.watched.take_hits(drained_);
    expect(drained_.size() <= kMaxPendingHits, "more hits taken than the cap");
    if (released_hits_) {  // some came from shots released by a tick: held to the cap and to their kinds only
      expect(drained_.size() >= pending_hits_, "a hit queued not taken");
      pending_.clear();
      pending_hits_ = 0;
      released_hits_ = false;
      return;
    }
    if (!expect(drained_.size() == pending_hits_, "a hit queued not taken, or taken not queued")) {
      pending_.clear();
      pending_hits_ = 0;
      return;
    }
    std::size_t next = 0;
    for (const PendingShot& shot : pending_) {
      for (uint8_t i = 0; i < shot.hits; ++i) check_hit(drained_[next + i], shot, i, shot.hits);
      next += shot.hits;
    }
    outcome_.hits_taken += drained_.size();
    for (const protocol::HitEvent& e : drained_) {
      tally(outcome_.hits_by_kind, static_cast<uint8_t>(e.kind));
      tally(outcome_.hits_by_body, static_cast<uint8_t>(e.body));
    }
    pending_.clear();
    pending_hits_ = 0;
  }

  void check_hit(const protocol::HitEvent& e, const PendingShot& shot, uint8_t index, uint8_t of) {
    using protocol::HitKind;
    expect(e.shot == shot.shot, "a hit names another shot");
    expect(e.shooter_id == shot.shooter_id, "a hit names another shooter");
    expect(e.kind <= HitKind::water, "a hit of no known kind");
    expect(e.body <= protocol::HitBody::pawn, "a hit on no known body");
    expect((e.kind == HitKind::nothing) == (e.body == protocol::HitBody::none), "a hit's body disagrees with its kind");
    expect(finite(e.point) && finite(e.normal), "a hit's point or normal not finite");
    if (e.kind == HitKind::nothing) expect(e.normal == protocol::Vec3{}, "a hit on nothing with a normal");
    else expect(std::fabs(length_of(e.normal) - 1.0) <= kUnitSlack, "a hit's normal not of unit length");
    expect(e.impact.size() <= protocol::kMaxImpactNameBytes, "a hit's impact longer than the wire allows");
    expect(e.impact.empty() == (e.kind == HitKind::nothing), "a hit's impact empty but for nothing");
    if (e.kind == HitKind::water) expect(index == 0, "a water crossing not its shot's first hit");
    if (of == 2) expect(index == 1 || e.kind == HitKind::water, "a second hit after other than water");
    const double slack = kRangeSlackM + std::max(max_abs(e.point), max_abs(shot.eye)) * kFloatSlackPerM;
    expect(distance(e.point, {shot.eye.x, shot.eye.y, shot.eye.z}) <= kShotRangeM + slack,
           "a hit farther from the eye than the range");
  }

  bool expect(bool holds, std::string_view what) {
    if (!holds && !outcome_.violation) outcome_.violation = what;
    return holds;
  }

  // --- the shooter's eye and operands (zeros past the end) --------------------------------------
  std::optional<protocol::Vec3> pawn_eye(uint8_t owner) const {
    const RoomSession* session = room_.session(owner);
    const PawnState* pawn = session ? game_.pawn(session->pawn) : nullptr;
    if (pawn == nullptr) return std::nullopt;
    return (pawn->feet + Vec3{0, pawn->eye_height_m, 0}).to_wire();
  }

  template <class T>
  T take() {
    uint8_t le[sizeof(T)] = {};
    const std::size_t n = std::min(sizeof(T), in_.size() - at_);
    std::memcpy(le, in_.data() + at_, n);
    at_ += n;
    return load_le<T>(le);
  }
  uint8_t owner_operand() { return static_cast<uint8_t>(1 + take<uint8_t>() % kFireScriptOwners); }
  FireAim aim_operand() {
    FireAim aim;
    for (int8_t& cm : aim.eye_offset_cm) cm = take<int8_t>();
    aim.yaw = take<uint16_t>();
    aim.pitch_deg = take<int8_t>();
    aim.tick_offset = take<int16_t>();
    aim.fraction = take<uint16_t>();
    return aim;
  }
  // NaN to 0, the infinities to the largest floats: finite, and as huge as the bytes asked.
  static float finite(float v) {
    if (std::isnan(v)) return 0.0f;
    return std::clamp(v, std::numeric_limits<float>::lowest(), std::numeric_limits<float>::max());
  }
  Vec3 vec3_operand() {
    const float x = finite(take<float>()), y = finite(take<float>()), z = finite(take<float>());
    return {x, y, z};
  }
  static bool finite(const protocol::Vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
  static double max_abs(const protocol::Vec3& v) {
    return std::max({std::fabs(double{v.x}), std::fabs(double{v.y}), std::fabs(double{v.z})});
  }
  static double length_of(const protocol::Vec3& v) { return distance(v, {0, 0, 0}); }
  static double distance(const protocol::Vec3& a, const std::array<double, 3>& b) {
    const double dx = a.x - b[0], dy = a.y - b[1], dz = a.z - b[2];
    return std::sqrt(dx * dx + dy * dy + dz * dz);
  }
  template <std::size_t N>
  static void tally(std::array<uint64_t, N>& counts, uint8_t value) {
    if (value < N) ++counts[value];
  }

  // The ticks the room completed, as it tells them.
  struct TickTally final : TickObserver {
    void on_tick_completed(Tick tick) override {
      ++completed;
      last = tick;
    }
    uint64_t completed = 0;
    Tick last;
  };

  const ScriptWorld& world_;
  std::span<const uint8_t> in_;
  std::size_t at_ = 0;
  ReferenceGame game_;
  FireSeam seam_;
  Room room_;
  TickTally ticks_;
  MonoTime now_;
  uint32_t next_shot_ = 1;              // the well-formed shots' numbers
  std::vector<PendingShot> pending_;    // at most kMaxPendingHits (each queued a hit)
  std::size_t pending_hits_ = 0;
  bool released_hits_ = false;          // a tick traced waiting shots since the last drain
  std::vector<protocol::HitEvent> drained_;  // at most kMaxPendingHits
  FireScriptOutcome outcome_;
};

inline FireScriptOutcome run_fire_script(std::span<const uint8_t> script) { return FireScript(script).run(); }

}  // namespace tickwire::world::scripts
