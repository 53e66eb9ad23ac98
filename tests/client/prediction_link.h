// A client and an authority joined by a fixed-latency link of whole ticks, for the predictor's
// tests: the client predicts each tick and sends the input as encoded bytes; the authority decodes
// it, steps its pawn through its own copy of a tiny game and returns an owner detail. A test can
// reach into the authority between ticks (push, teleport, freeze) to author what the client did not
// predict. Everything is in ticks: the run is exact and reproducible.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <vector>

#include "tickwire/client/predictor.h"
#include "tickwire/protocol/vec3_math.h"
#include "tickwire/wire/codec.h"

namespace tickwire::test {

inline constexpr double kLinkTickS = 1.0 / 60.0;
inline constexpr float kTinyWalkMps = 5.0f;
inline constexpr float kTinyNoclipMps = 400.0f;
inline constexpr float kTinyStandHeightM = 1.8f, kTinyStandEyeM = 1.6f;
inline constexpr float kTinyCrouchHeightM = 1.0f, kTinyCrouchEyeM = 0.8f;
// The tiny game's vocabulary: its pawn values, flag bits and crouch button.
inline constexpr std::size_t kTinyStance = 0, kTinyEye = 1;
inline constexpr uint8_t kTinyGrounded = 1u << 0, kTinyCrouched = 1u << 1;  // claimable
inline constexpr uint8_t kTinyNoclip = 1u << 2, kTinyFrozen = 1u << 3;      // the server's
inline constexpr uint8_t kTinyClaimable = kTinyGrounded | kTinyCrouched;
inline constexpr uint8_t kTinyServerOwned = kTinyNoclip | kTinyFrozen;
inline constexpr uint32_t kTinyCrouchButton = 1u << 4;

inline bool has_flag(const PredictedState& s, uint8_t flag) { return (s.flags & flag) != 0; }

inline protocol::PawnValues tiny_values(bool crouched) {
  return crouched ? protocol::PawnValues{{kTinyCrouchHeightM}, {kTinyCrouchEyeM}}
                  : protocol::PawnValues{{kTinyStandHeightM}, {kTinyStandEyeM}};
}

// The tiny game: walks the ground plane by the move axes, flies at noclip speed, stands still when
// frozen, crouches on the command unless a low ceiling (a thing only the authority may know of)
// keeps a crouched pawn down.
class TinyGame final : public PredictionModel {
 public:
  bool low_ceiling = false;

  PredictedState step(const PredictedState& s, const protocol::InputCmd& cmd, double dt_s) const override {
    PredictedState n = s;
    if (has_flag(s, kTinyFrozen)) {
      n.velocity_mps = {};
      return n;
    }
    const bool crouched = (cmd.buttons & kTinyCrouchButton) != 0 || (low_ceiling && has_flag(s, kTinyCrouched));
    n.flags = static_cast<uint8_t>(crouched ? (n.flags | kTinyCrouched) : (n.flags & ~kTinyCrouched));
    n.values = tiny_values(crouched);
    const float speed_mps = has_flag(s, kTinyNoclip) ? kTinyNoclipMps : kTinyWalkMps;
    n.velocity_mps = {cmd.move_x * speed_mps, 0.0f, cmd.move_y * speed_mps};
    n.position = s.position + n.velocity_mps * static_cast<float>(dt_s);
    return n;
  }
};

inline protocol::InputCmd walk(float move_y = 1.0f, float move_x = 0.0f, bool crouch = false) {
  protocol::InputCmd cmd;
  cmd.move_x = move_x;
  cmd.move_y = move_y;
  if (crouch) cmd.buttons |= kTinyCrouchButton;
  return cmd;
}

inline PredictedState standing_at(protocol::Vec3 position) {
  PredictedState s;
  s.position = position;
  s.values = tiny_values(false);
  s.flags = kTinyGrounded;
  return s;
}

class PredictionLink {
 public:
  PredictionLink(int64_t up_ticks, int64_t down_ticks, const PredictorConfig& config = {})
      : predictor(client_game, kLinkTickS, kTinyClaimable, config), up_ticks_(up_ticks), down_ticks_(down_ticks) {}

  // One tick: the client predicts and sends `cmd`; the authority takes what arrived, steps, lets
  // the test author a change, and sends its detail; the client reconciles what arrived.
  void tick(const protocol::InputCmd& cmd) {
    client_send(cmd);
    authority_tick();
    deliver();
    ++now_tick;
  }
  void run(const protocol::InputCmd& cmd, int ticks) {
    for (int i = 0; i < ticks; ++i) tick(cmd);
  }

  void client_send(const protocol::InputCmd& cmd) {
    predictor.predict(next_sequence_, cmd);
    protocol::InputFrame frame;
    frame.first_sequence = next_sequence_++;
    frame.inputs.push_back(cmd);
    std::array<uint8_t, 64> bytes{};
    const auto written = wire::encode(frame, bytes);
    TW_ASSERT(written.ok(), "a one-input frame fits");
    up_.push_back({now_tick + up_ticks_, std::vector<uint8_t>(bytes.begin(), bytes.begin() + static_cast<long>(*written))});
  }

  void authority_tick() {
    while (!up_.empty() && up_.front().arrive_tick <= now_tick) {
      protocol::InputFrame frame;
      TW_ASSERT(wire::decode(up_.front().bytes, frame).ok(), "the link never corrupts");
      up_.pop_front();
      authority = authority_game.step(authority, frame.inputs.front(), kLinkTickS);
      authority_ack = frame.first_sequence;
    }
    if (on_authority_tick) on_authority_tick(now_tick, authority);
    if (drop_snapshots) return;
    protocol::OwnerDetail owner;
    if (authority_ack) owner.ack = protocol::InputAck{*authority_ack};
    owner.pawn = detail_from_predicted(authority, 1);
    down_.push_back({now_tick + down_ticks_, now_tick, owner});
  }

  void deliver() {
    while (!down_.empty() && down_.front().arrive_tick <= now_tick) {
      if (on_client_learns) on_client_learns(down_.front().sent_tick);
      outcomes.push_back(predictor.reconcile(down_.front().owner));
      down_.pop_front();
    }
  }

  TinyGame client_game;
  TinyGame authority_game;
  Predictor predictor;
  std::vector<ReconcileOutcome> outcomes;
  PredictedState authority = standing_at({});
  std::optional<uint32_t> authority_ack;
  // Runs on the authority after it stepped this tick's input: the test authors changes here.
  std::function<void(int64_t tick, PredictedState& pawn)> on_authority_tick;
  // Runs on the client before it reconciles a detail the authority sent at `sent_tick`.
  std::function<void(int64_t sent_tick)> on_client_learns;
  bool drop_snapshots = false;
  int64_t now_tick = 0;

 private:
  struct UpPacket {
    int64_t arrive_tick;
    std::vector<uint8_t> bytes;
  };
  struct DownPacket {
    int64_t arrive_tick;
    int64_t sent_tick;
    protocol::OwnerDetail owner;
  };
  int64_t up_ticks_;
  int64_t down_ticks_;
  uint32_t next_sequence_ = 0;
  std::deque<UpPacket> up_;
  std::deque<DownPacket> down_;
};

}  // namespace tickwire::test
