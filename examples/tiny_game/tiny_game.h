// The tiny game both sides share: dots on a plane that slide where their input points. Its
// server-side Simulation is all a game must write to run on tickwire; the client predicts with the
// same step through a PredictionModel.
#pragma once

#include <map>
#include <vector>

#include "tickwire/client/prediction_model.h"
#include "tickwire/server/simulation.h"
#include "tickwire/transport/netcode_crypto.h"

namespace tiny {

inline constexpr float kSpeedMps = 3.0f;
inline constexpr uint16_t kPort = 40100;

// The example's shared secret (a real game's backend keeps its key private).
inline tickwire::netcode::Key demo_key() {
  tickwire::netcode::Key key{};
  for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<uint8_t>(i * 13 + 7);
  return key;
}

inline tickwire::protocol::Vec3 step(tickwire::protocol::Vec3 at, const tickwire::protocol::InputCmd& cmd, double dt_s) {
  at.x += cmd.move_x * kSpeedMps * static_cast<float>(dt_s);
  at.z += cmd.move_y * kSpeedMps * static_cast<float>(dt_s);
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
  void write_records(tickwire::Tick, std::vector<tickwire::protocol::Record>& out) const override {
    for (const auto& [ref, at] : dots_) {
      tickwire::protocol::EntityRecord record;
      record.position = at;
      out.push_back({tickwire::EntityRef::from_raw(ref).handle().raw(), record});
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
