// Orbs: a second game on the engine, with a vocabulary of its own and nothing of the reference
// game's: pawns are orbs that thrust (and boost) through space, burning fuel; beacons blink and
// hug the newest snapshot; a glowing flag the client may claim, a shielded one it may not. It runs
// through the room, the codec and the client exactly as the reference game does, which is the
// point: no engine file names its kinds, flags, values or buttons.
#pragma once

#include <cmath>
#include <cstdint>
#include <map>

#include "tickwire/client/prediction_model.h"
#include "tickwire/server/simulation.h"

namespace tickwire::test::orbs {

inline constexpr uint8_t kKindOrb = 7;
inline constexpr uint8_t kKindBeacon = 9;
inline constexpr uint8_t kFlagGlowing = 1u << 5;   // claimable
inline constexpr uint8_t kFlagShielded = 1u << 6;  // the server's
inline constexpr uint32_t kButtonThrust = 1u << 0;
inline constexpr uint32_t kButtonBoost = 1u << 7;
inline constexpr std::size_t kValueFuel = 0;
inline constexpr uint32_t kBeacons = 3;
inline constexpr uint32_t kBeaconIdBase = 1u << 24;
inline constexpr float kFuelStart = 100.0f;

inline const GameVocabulary& vocabulary() {
  static const GameVocabulary v = [] {
    GameVocabulary g;
    g.kind(kKindOrb, "orb", KindPrecision{1.0f / 256.0f, 10, 0, false});
    g.kind(kKindBeacon, "beacon", KindPrecision{}, InterpProfile::hug_newest);
    g.entity_flag(5, "glowing", /*claimable=*/true).entity_flag(6, "shielded");
    g.pawn_value("fuel");
    g.button(0, "thrust").button(7, "boost");
    return g;
  }();
  return v;
}

// One tick of an orb: thrust moves it along its yaw, boost doubles that and burns fuel; it glows
// while thrusting.
inline PredictedState step_orb(const PredictedState& s, const protocol::InputCmd& cmd, double dt_s) {
  PredictedState next = s;
  const bool thrust = (cmd.buttons & kButtonThrust) != 0;
  const bool boost = (cmd.buttons & kButtonBoost) != 0;
  float fuel = s.value(kValueFuel);
  const float speed = thrust ? (boost && fuel > 0 ? 8.0f : 4.0f) : 0.0f;
  if (thrust && boost && fuel > 0) fuel = std::max(0.0f, fuel - 10.0f * static_cast<float>(dt_s));
  const float yaw = cmd.yaw_deg * 3.14159265f / 180.0f;
  next.velocity_mps = {std::sin(yaw) * speed, 0.0f, std::cos(yaw) * speed};
  next.position = {s.position.x + next.velocity_mps.x * static_cast<float>(dt_s), 0.0f,
                   s.position.z + next.velocity_mps.z * static_cast<float>(dt_s)};
  next.values = protocol::PawnValues{{fuel}};
  next.flags = static_cast<uint8_t>((s.flags & ~kFlagGlowing) | (thrust ? kFlagGlowing : 0));
  return next;
}

class OrbModel final : public PredictionModel {
 public:
  PredictedState step(const PredictedState& state, const protocol::InputCmd& cmd, double dt_s) const override {
    return step_orb(state, cmd, dt_s);
  }
};

class OrbsGame final : public Simulation {
 public:
  void spawn_pawn(EntityRef pawn, OwnerId owner, Tick) override {
    PredictedState s;
    s.position = {static_cast<float>(owner) * 3.0f, 0.0f, 0.0f};
    s.values = protocol::PawnValues{{kFuelStart}};
    s.flags = kFlagShielded;
    orbs[pawn.raw()] = s;
  }
  void despawn_pawn(EntityRef pawn) override { orbs.erase(pawn.raw()); }
  void step_pawn(EntityRef pawn, const TickInput& input, Tick, double dt_s) override {
    PredictedState& s = orbs.at(pawn.raw());
    s = step_orb(s, input.cmd, dt_s);
    buttons_seen |= input.cmd.buttons;
  }
  void step_world(Tick tick, double) override { last_tick = tick; }
  protocol::PawnDetail pawn_detail(EntityRef pawn) const override {
    return detail_from_predicted(orbs.at(pawn.raw()), pawn.raw());
  }
  void write_records(Tick tick, TickRecords& out) const override {
    for (const auto& [ref, s] : orbs) {
      protocol::EntityRecord orb;
      orb.kind = kKindOrb;
      orb.position = s.position;
      orb.flags = s.flags;
      orb.payload.channels.push_back(protocol::KindChannel{s.value(kValueFuel)});
      out.add(protocol::Record{EntityRef::from_raw(ref).handle().raw(), orb});
    }
    for (uint32_t b = 0; b < kBeacons; ++b) {  // beacons blink: bit 0 of their payload, every half second
      protocol::EntityRecord beacon;
      beacon.kind = kKindBeacon;
      beacon.position = {10.0f * static_cast<float>(b), 0.0f, 20.0f};
      beacon.payload.bits = static_cast<uint8_t>((tick.value() / 30 + b) % 2);
      out.add(protocol::Record{kBeaconIdBase + b, beacon});
    }
  }

  std::map<uint64_t, PredictedState> orbs;  // by EntityRef raw
  uint32_t buttons_seen = 0;
  Tick last_tick;
};

}  // namespace tickwire::test::orbs
