// The tiny game both sides share: dots on a plane that slide where their input points. Its
// vocabulary (one kind, one button), its server-side Simulation and its PredictionModel are all a
// game must write to run on tickwire; both ends step a dot with the same function.
#pragma once

#include <cstdlib>
#include <cstring>
#include <map>

#include "tickwire/client.h"
#include "tickwire/server.h"

namespace tiny {

inline constexpr float kSpeedMps = 3.0f;
inline constexpr uint16_t kPort = 40100;
inline constexpr uint8_t kKindDot = 1;
inline constexpr uint32_t kButtonDash = 1u << 0;

// The number after `name` on the command line ("--seconds 5", "--port 0"), or `fallback`.
inline double arg(int argc, char** argv, const char* name, double fallback) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], name) == 0) return std::atof(argv[i + 1]);
  }
  return fallback;
}

// The example's shared secret (a real game's backend keeps its key private).
inline tickwire::netcode::Key demo_key() {
  tickwire::netcode::Key key{};
  for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<uint8_t>(i * 13 + 7);
  return key;
}

inline tickwire::GameVocabulary vocabulary() {
  tickwire::GameVocabulary v;
  v.kind(kKindDot, "dot").button(0, "dash");
  return v;
}

inline tickwire::protocol::Vec3 step(tickwire::protocol::Vec3 at, const tickwire::protocol::InputCmd& cmd, double dt_s) {
  const float speed = (cmd.buttons & kButtonDash) != 0 ? 2 * kSpeedMps : kSpeedMps;
  at.x += cmd.move_x * speed * static_cast<float>(dt_s);
  at.z += cmd.move_y * speed * static_cast<float>(dt_s);
  return at;
}

class Dots final : public tickwire::Simulation {
 public:
  void spawn_pawn(tickwire::EntityRef pawn, tickwire::OwnerId owner, tickwire::Tick) override {
    dots_[pawn.raw()] = {static_cast<float>(owner), 0, 0};
  }
  void despawn_pawn(tickwire::EntityRef pawn) override { dots_.erase(pawn.raw()); }
  void step_pawn(tickwire::EntityRef pawn, const tickwire::TickInput& input, tickwire::Tick, double dt_s) override {
    dots_[pawn.raw()] = step(dots_[pawn.raw()], input.cmd, dt_s);
  }
  void step_world(tickwire::Tick, double) override {}
  tickwire::protocol::PawnDetail pawn_detail(tickwire::EntityRef pawn) const override {
    tickwire::protocol::PawnDetail detail;
    detail.pawn_ref = pawn.raw();
    detail.position = dots_.at(pawn.raw());
    return detail;
  }
  void write_records(tickwire::Tick, tickwire::TickRecords& out) const override {
    for (const auto& [ref, at] : dots_) {
      tickwire::protocol::EntityRecord record;
      record.kind = kKindDot;
      record.position = at;
      out.add({tickwire::EntityRef::from_raw(ref).handle().raw(), record});
    }
  }

 private:
  std::map<uint64_t, tickwire::protocol::Vec3> dots_;
};

class DotModel final : public tickwire::PredictionModel {
 public:
  tickwire::PredictedState step(const tickwire::PredictedState& state, const tickwire::protocol::InputCmd& cmd,
                                double dt_s) const override {
    tickwire::PredictedState next = state;
    next.position = tiny::step(state.position, cmd, dt_s);
    return next;
  }
};

}  // namespace tiny
