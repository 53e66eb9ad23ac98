// The bots' scripted behaviours.
#include "tickwire/world/bot_brain.h"

#include <cmath>
#include <utility>

#include "tickwire/world/pawn_buttons.h"

namespace tickwire::world {

std::optional<BotBehaviour> parse_bot_behaviour(std::string_view name) {
  if (name == "walk") return BotBehaviour::walk;
  if (name == "wander") return BotBehaviour::wander;
  if (name == "idle") return BotBehaviour::idle;
  if (name == "jumpy") return BotBehaviour::jumpy;
  if (name == "use") return BotBehaviour::use;
  if (name == "fire") return BotBehaviour::fire;
  return std::nullopt;
}

std::string_view bot_behaviour_name(BotBehaviour behaviour) {
  switch (behaviour) {
    case BotBehaviour::walk: return "walk";
    case BotBehaviour::wander: return "wander";
    case BotBehaviour::idle: return "idle";
    case BotBehaviour::jumpy: return "jumpy";
    case BotBehaviour::use: return "use";
    case BotBehaviour::fire: return "fire";
  }
  return "unknown";
}

BotBrain::BotBrain(BotBehaviour behaviour, uint64_t seed)
    : behaviour_(behaviour), rng_(seed), yaw_deg_(static_cast<float>(rng_.below(360))), rounds_(yaw_deg_) {}

protocol::InputCmd BotBrain::next(uint32_t sequence, const BotView& view) {
  if (behaviour_ == BotBehaviour::use) return rounds_.next(rng_, view);
  if (behaviour_ != BotBehaviour::fire) return next(sequence);
  // Strafe side to side, a second and a half each way, facing the nearest other pawn; shoot at it.
  protocol::InputCmd cmd;
  if (const std::optional<float> yaw = gunner_.facing(view)) yaw_deg_ = *yaw;
  cmd.yaw_deg = yaw_deg_;
  cmd.move_x = (sequence / 90) % 2 == 0 ? 1.0f : -1.0f;
  shot_ = gunner_.next(sequence, view);
  return cmd;
}

std::optional<BotGunner::Aim> BotBrain::take_shot() { return std::exchange(shot_, std::nullopt); }

std::optional<uint32_t> BotBrain::take_interaction() { return rounds_.take_interaction(); }

void BotBrain::heard(const protocol::EntityEvent& event) {
  uses_.count(event);
  rounds_.heard(event);
}

protocol::InputCmd BotBrain::next(uint32_t sequence) {
  protocol::InputCmd cmd;
  switch (behaviour_) {
    case BotBehaviour::use:
      return rounds_.next(rng_, BotView{});
    case BotBehaviour::fire:
      return next(sequence, BotView{});
    case BotBehaviour::idle:
      yaw_deg_ = std::fmod(yaw_deg_ + 0.5f, 360.0f);
      break;
    case BotBehaviour::walk:
      cmd.move_y = 1.0f;
      yaw_deg_ = std::fmod(yaw_deg_ + 0.25f, 360.0f);
      break;
    case BotBehaviour::wander:
      if (sequence % 90 == 0) {
        yaw_deg_ = static_cast<float>(rng_.below(360));
        running_ = rng_.chance(0.4);
      }
      cmd.move_y = 1.0f;
      cmd.move_x = static_cast<float>(std::sin(static_cast<double>(sequence) * 0.05)) * 0.3f;
      if (running_) cmd.buttons |= kButtonRun;
      break;
    case BotBehaviour::jumpy:
      cmd.move_y = 1.0f;
      if (rng_.chance(0.05)) cmd.buttons |= kButtonJump;
      if (sequence % 300 > 270) cmd.buttons |= kButtonCrouch;
      yaw_deg_ = std::fmod(yaw_deg_ + 0.4f, 360.0f);
      break;
  }
  cmd.yaw_deg = yaw_deg_;
  return cmd;
}

}  // namespace tickwire::world
