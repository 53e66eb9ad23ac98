// The `use` bot's rounds between buttons and doors.
#include "tickwire/world/button_rounds.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

#include "tickwire/world/pawn_buttons.h"
#include "tickwire/world/reference_game.h"

namespace tickwire::world {
namespace {

constexpr float kDegPerRad = 180.0f / std::numbers::pi_v<float>;
constexpr float kAlignedDeg = 2.0f;           // presses only when facing the button this closely
constexpr float kWalkWithinDeg = 45.0f;       // turns in place when the target is further round
constexpr uint32_t kProgressCheckTicks = 60;  // how often the walk checks it got closer
constexpr float kProgressM = 0.3f;            // ... by at least this much
constexpr uint32_t kSidestepTicks = 40;
constexpr float kRunBeyondM = 6.0f;           // runs while the target is further than this

float horizontal_distance(const Vec3& a, const Vec3& b) { return std::hypot(b.x - a.x, b.z - a.z); }

// Yaw 0 faces +z, 90 faces +x (look_frame.h).
float bearing_deg(const Vec3& from, const Vec3& to) {
  const float yaw = std::atan2(to.x - from.x, to.z - from.z) * kDegPerRad;
  return yaw < 0 ? yaw + 360.0f : yaw;
}

// The signed turn from `from` to `to`, in (-180, 180].
float turn_deg(float from, float to) {
  float d = std::fmod(to - from, 360.0f);
  if (d > 180.0f) d -= 360.0f;
  if (d <= -180.0f) d += 360.0f;
  return d;
}

float turned_toward(float yaw, float target) {
  const float step = std::clamp(turn_deg(yaw, target), -kBotTurnDegPerTick, kBotTurnDegPerTick);
  const float turned = std::fmod(yaw + step, 360.0f);
  return turned < 0 ? turned + 360.0f : turned;
}

}  // namespace

void ButtonRounds::begin(Leg leg) {
  leg_ = leg;
  ticks_in_leg_ = 0;
  distance_at_check_ = 0;
  sidestep_ticks_ = 0;
  if (leg == Leg::at_button) {
    presses_ = 0;
    ticks_since_press_ = 0;
    press_taken_ = false;
  }
}

void ButtonRounds::pick_button(Rng& rng, std::size_t count) {
  // Another button than the last one whenever there is another.
  if (!button_ || count < 2) {
    button_ = static_cast<std::size_t>(rng.below(count));
  } else {
    button_ = (*button_ + 1 + static_cast<std::size_t>(rng.below(count - 1))) % count;
  }
  begin(Leg::to_button);
}

bool ButtonRounds::walk_to(protocol::InputCmd& cmd, Rng& rng, const BotView& view, const Vec3& at) {
  const float distance = horizontal_distance(view.feet, at);
  pitch_deg_ = 0;
  if (distance <= kBotStandOffM) return true;
  const float bearing = bearing_deg(view.feet, at);
  yaw_deg_ = turned_toward(yaw_deg_, bearing);
  if (ticks_in_leg_ % kProgressCheckTicks == 0) {
    if (ticks_in_leg_ > 0 && distance_at_check_ - distance < kProgressM) {
      sidestep_ticks_ = kSidestepTicks;
      sidestep_side_ = rng.chance(0.5) ? 1.0f : -1.0f;
    }
    distance_at_check_ = distance;
  }
  if (sidestep_ticks_ > 0) {
    --sidestep_ticks_;
    cmd.move_x = sidestep_side_;
  }
  if (std::fabs(turn_deg(yaw_deg_, bearing)) < kWalkWithinDeg) cmd.move_y = 1.0f;
  if (distance > kRunBeyondM) cmd.buttons |= kButtonRun;
  return false;
}

void ButtonRounds::stand_and_press(protocol::InputCmd& cmd, Rng& rng, const BotView& view, const BotButton& button) {
  const Vec3 eye = view.feet + Vec3{0, view.eye_height_m, 0};
  const float bearing = bearing_deg(eye, button.button_at);
  yaw_deg_ = turned_toward(yaw_deg_, bearing);
  pitch_deg_ = std::atan2(button.button_at.y - eye.y, horizontal_distance(eye, button.button_at)) * kDegPerRad;
  ++ticks_since_press_;
  if (press_taken_) {
    if (ticks_since_press_ >= kBotSettleTicks) begin(Leg::to_door);
    return;
  }
  const bool due = presses_ == 0 ? ticks_in_leg_ >= kBotSettleTicks : ticks_since_press_ >= kBotRepressTicks;
  if (!due || std::fabs(turn_deg(yaw_deg_, bearing)) > kAlignedDeg) return;
  if (presses_ == kBotPressesPerStay) {
    begin(Leg::to_door);  // never taken (another bot keeps it latched, or out of reach): move on
    return;
  }
  ++presses_;
  ticks_since_press_ = 0;
  if (rng.chance(0.5)) {
    interaction_ = button.button_index;
  } else {
    cmd.buttons |= kButtonUse;
  }
}

protocol::InputCmd ButtonRounds::next(Rng& rng, const BotView& view) {
  protocol::InputCmd cmd;
  if (!view.buttons.empty()) {
    if (!button_ || *button_ >= view.buttons.size()) pick_button(rng, view.buttons.size());
    const BotButton& button = view.buttons[*button_];
    switch (leg_) {
      case Leg::to_button:
        if (walk_to(cmd, rng, view, button.button_at)) begin(Leg::at_button);
        break;
      case Leg::at_button:
        if (horizontal_distance(view.feet, button.button_at) > kBotStandOffM + 0.5f) begin(Leg::to_button);  // pushed away
        else stand_and_press(cmd, rng, view, button);
        break;
      case Leg::to_door:
        if (walk_to(cmd, rng, view, button.door_at)) pick_button(rng, view.buttons.size());
        break;
    }
    ++ticks_in_leg_;
  }
  cmd.yaw_deg = yaw_deg_;
  cmd.pitch_deg = pitch_deg_;
  return cmd;
}

std::optional<uint32_t> ButtonRounds::take_interaction() { return std::exchange(interaction_, std::nullopt); }

void ButtonRounds::heard(const protocol::EntityEvent& event) {
  if (leg_ == Leg::at_button && presses_ > 0 && (event.event_kind == kEventUseTaken || event.event_kind == kEventUseUnhandled))
    press_taken_ = true;
}

}  // namespace tickwire::world
