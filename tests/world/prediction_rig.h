// The reference game's pawn predicted by a client and simulated by a server, joined by a link with
// fixed delays on one virtual clock. The client ticks at its own rate (a slow client starves the
// server); the server takes one queued input per tick, repeats then zeroes on starved ticks (the
// room's rule, starved_command), steps the shared CharacterMover and lets the ForgivenessGate judge
// each claim; every render frame records the drawn pose. The lead repeats these stories over the
// real room; this rig keeps them exact and readable.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <vector>

#include "mover_rig.h"
#include "tickwire/client/predictor.h"
#include "tickwire/protocol/vec3_math.h"
#include "tickwire/server/forgiveness_gate.h"
#include "tickwire/server/tick_input.h"
#include "tickwire/wire/codec.h"
#include "tickwire/world/mover_prediction_model.h"
#include "tickwire/world/reference_vocabulary.h"

namespace tickwire::world::test {

inline constexpr double kServerTickS = 1.0 / 60.0;

struct PredictionRigConfig {
  MoverSettings settings;
  double forgiveness = 1.0;
  Duration client_tick = Duration::nanoseconds(16666667);  // how often the client makes an input
  Duration up_delay = Duration::milliseconds(50);
  Duration down_delay = Duration::milliseconds(50);
  Duration frame = Duration::nanoseconds(4166667);  // 240 Hz render
  uint32_t repeat_limit_ticks = 3;
};

struct RigFrame {
  MonoTime at;
  protocol::Vec3 drawn;  // predicted (frame-lerped) + offset
  protocol::Vec3 raw;    // predicted (frame-lerped) alone: what the camera would show unsmoothed
  float drawn_eye_m = 0;
};

class PredictionRig {
 public:
  explicit PredictionRig(const PredictionRigConfig& rig_config, const PredictorConfig& predictor_config = {})
      : config(rig_config), mover(rig_config.settings), client_model(mover, client_boxes),
        predictor(client_model, kServerTickS, reference_vocabulary().claimable_flag_mask(), predictor_config),
        gate({rig_config.forgiveness, ForgivenessConfig{}.radius_at_zero_m, reference_vocabulary().claimable_flag_mask()}) {
    server_boxes.push_back(kFloor);
    client_boxes.push_back(kFloor);
    client_model.set_static_boxes(client_boxes);
    predictor.set_forgiveness(rig_config.forgiveness);
  }

  void set_client_boxes(std::vector<Aabb> boxes) {
    client_boxes = std::move(boxes);
    client_model.set_static_boxes(client_boxes);
  }

  // The client's clock stalls: its next input comes `by` later (the server starves meanwhile).
  void delay_client(Duration by) { next_client_tick += by; }

  // Places the server's pawn (bumping its epoch) before or during a run.
  void place(Vec3 feet, float yaw_deg = 0.0f) { placer.place(server_pawn, {feet, {}, yaw_deg, 0.0f, false}, config.settings); }

  void run_for(Duration duration) {
    const MonoTime end = now + duration;
    while (now < end) {
      now += config.frame;
      deliver_up();
      while (next_server_tick <= now) {
        server_tick();
        next_server_tick += Duration::nanoseconds(16666667);
      }
      deliver_down();
      while (next_client_tick <= now) {
        client_tick(next_client_tick);
        next_client_tick += config.client_tick;
      }
      predictor.decay(config.frame);
      record_frame();
    }
  }

  PredictionRigConfig config;
  std::vector<Aabb> server_boxes;
  std::vector<Aabb> client_boxes;
  CharacterMover mover;
  MoverPredictionModel client_model;
  Predictor predictor;
  ForgivenessGate gate;
  ClaimLedger ledger;
  PawnPlacer placer;
  PawnState server_pawn;
  MonoTime now;

  // The client's input for each sequence.
  std::function<protocol::InputCmd(uint32_t sequence)> script = [](uint32_t) { return move_cmd(0.0f); };
  // The claim sent with each input (the honest predictor's by default; a cheat replaces it).
  std::function<std::optional<protocol::Claim>()> make_claim = [this] { return predictor.claim(); };
  // Runs on the server after each tick's step: the test authors changes here.
  std::function<void(int64_t tick, PawnState& pawn)> on_server_tick;
  // Runs on the client before it reconciles a detail the server sent at `sent_tick`.
  std::function<void(int64_t sent_tick)> on_client_learns;

  std::vector<RigFrame> frames;
  std::vector<protocol::Vec3> server_positions;  // the server's pawn after each tick
  int64_t server_ticks = 0;
  uint64_t starved_ticks = 0;
  uint64_t claims_judged = 0;
  float max_absorbed_jump_m = 0;  // how far the drawn pose moved at an eased reconcile (must be ~0)

 private:
  struct UpPacket {
    MonoTime arrive;
    std::vector<uint8_t> frame;  // an encoded InputFrame: one input, maybe a claim
  };
  struct DownPacket {
    MonoTime arrive;
    int64_t sent_tick;
    protocol::OwnerDetail owner;
  };

  void client_tick(MonoTime due) {
    const uint32_t sequence = next_sequence_++;
    const protocol::InputCmd cmd = script(sequence);
    predictor.predict(sequence, cmd);
    protocol::InputFrame frame;
    frame.first_sequence = sequence;
    frame.inputs.push_back(cmd);
    frame.claim = make_claim();
    std::vector<uint8_t> bytes(wire::measure(frame));
    TW_ASSERT(wire::encode(frame, bytes).ok(), "an input frame encodes");
    up_.push_back({now + config.up_delay, std::move(bytes)});
    client_tick_start_ = due;
  }

  void deliver_up() {
    while (!up_.empty() && up_.front().arrive <= now) {
      protocol::InputFrame frame;
      TW_ASSERT(wire::decode(up_.front().frame, frame).ok(), "the link never corrupts");
      queue_.push_back(std::move(frame));
      up_.pop_front();
    }
  }

  void server_tick() {
    const int64_t tick = server_ticks++;
    std::optional<protocol::InputFrame> fresh;
    if (!queue_.empty()) {
      fresh = std::move(queue_.front());
      queue_.pop_front();
      last_cmd_ = fresh->inputs.front();
      ack_ = fresh->first_sequence;
      starved_run_ = 0;
    } else if (ack_) {
      ++starved_ticks;
      ++starved_run_;
    }
    const protocol::InputCmd cmd = fresh ? last_cmd_
                                         : starved_command(last_cmd_, starved_run_, config.repeat_limit_ticks,
                                                           reference_vocabulary().posture_button_mask());
    const PawnState before = server_pawn;
    server_pawn = mover.step(before, cmd, static_cast<float>(kServerTickS), server_boxes);
    if (fresh && fresh->claim) judge(before, *fresh->claim);
    if (on_server_tick) on_server_tick(tick, server_pawn);
    server_positions.push_back(server_pawn.feet.to_wire());
    protocol::OwnerDetail owner;
    if (ack_) owner.ack = protocol::InputAck{*ack_};
    // As the room reports it: inputs still waiting, or minus the starved run.
    owner.queue_depth = fresh ? static_cast<int8_t>(std::min<std::size_t>(queue_.size(), 64))
                              : static_cast<int8_t>(-static_cast<int>(std::min<uint32_t>(starved_run_, 64)));
    owner.pawn = pawn_detail_of(server_pawn, 1);
    down_.push_back({now + config.down_delay, tick, owner});
  }

  void judge(const PawnState& before, const protocol::Claim& claim) {
    ++claims_judged;
    const MoverSpeedLimit limit = max_speed_mps(config.settings, server_pawn);
    const ClaimVerdict v = gate.judge(
        {before.feet.to_wire(), pawn_detail_of(server_pawn, 1), {limit.horizontal_mps, limit.vertical_mps}, kServerTickS,
         server_pawn.frozen},
        claim, ledger);
    if (!v.adopted) return;
    const PawnState adopted = pawn_from_predicted(predicted_from_detail(v.pawn));
    server_pawn.feet = adopted.feet;
    server_pawn.velocity_mps = adopted.velocity_mps;
    server_pawn.stance_height_m = adopted.stance_height_m;
    server_pawn.eye_height_m = adopted.eye_height_m;
    server_pawn.grounded = adopted.grounded;
    server_pawn.crouched = adopted.crouched;
  }

  void deliver_down() {
    while (!down_.empty() && down_.front().arrive <= now) {
      if (on_client_learns) on_client_learns(down_.front().sent_tick);
      const double a = alpha();
      const protocol::Vec3 before = predictor.drawn_position(a);
      const ReconcileOutcome outcome = predictor.reconcile(down_.front().owner);
      if (outcome.applied && !outcome.snapped && predictor.stats().reconciles > 1) {
        max_absorbed_jump_m = std::max(max_absorbed_jump_m, protocol::length(predictor.drawn_position(a) - before));
      }
      down_.pop_front();
    }
  }

  double alpha() const {
    return std::min(1.0, static_cast<double>((now - client_tick_start_).ns()) / static_cast<double>(config.client_tick.ns()));
  }

  void record_frame() {
    if (!predictor.started()) return;
    const double a = alpha();
    const protocol::Vec3 drawn = predictor.drawn_position(a);
    frames.push_back({now, drawn, drawn - predictor.offset_m(), predictor.drawn_value(kValueEyeHeight, a)});
  }

  uint32_t next_sequence_ = 0;
  MonoTime next_server_tick;
  MonoTime next_client_tick;
  MonoTime client_tick_start_;
  std::deque<UpPacket> up_;
  std::deque<protocol::InputFrame> queue_;
  std::deque<DownPacket> down_;
  protocol::InputCmd last_cmd_;
  std::optional<uint32_t> ack_;
  uint32_t starved_run_ = 0;
};

}  // namespace tickwire::world::test
