// A seeded simulation of one session's input path: a client predicting inputs at some multiple of
// the tick rate and sending each packet with every un-acked input (redundancy), over a lossy,
// jittery, duplicating link (jitter reorders), into a room loop that drains every packet due per
// poll and runs up to MaxCatchUpTicks ticks per iteration through SessionInputs::prepare, with
// snapshots carrying the honest ack back. An independent oracle checks the invariants every tick.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "tickwire/core/rng.h"
#include "tickwire/server/session_inputs.h"

namespace tickwire::test {

// The command a client predicts for a sequence: varied, and recomputable by the oracle.
inline protocol::InputCmd predicted_cmd(uint32_t sequence) {
  protocol::InputCmd cmd;
  cmd.buttons = (sequence * 37u) % 256u;
  cmd.move_x = static_cast<float>(static_cast<int32_t>(sequence % 9) - 4) / 4.0f;
  cmd.move_y = static_cast<float>(static_cast<int32_t>(sequence % 5) - 2) / 2.0f;
  cmd.yaw_deg = static_cast<float>((sequence * 13u) % 360u);
  cmd.pitch_deg = static_cast<float>(static_cast<int32_t>(sequence % 61) - 30);
  return cmd;
}

inline bool same_cmd(const protocol::InputCmd& a, const protocol::InputCmd& b) {
  return a.buttons == b.buttons && a.move_x == b.move_x && a.move_y == b.move_y && a.yaw_deg == b.yaw_deg &&
         a.pitch_deg == b.pitch_deg;
}

struct LinkProfile {
  double min_delay_ticks = 1.0;
  double max_delay_ticks = 1.0;
  double loss = 0.0;
  double duplicate = 0.0;
  // A blackout: everything sent in [start, end) ticks is lost (a dead link).
  double blackout_start_ticks = -1.0;
  double blackout_end_ticks = -1.0;
};

// A one-way link: each packet gets its own random delay, so jitter reorders them.
template <class T>
class SimLink {
 public:
  SimLink(LinkProfile profile, Rng& rng) : profile_(profile), rng_(rng) {}

  void send(double now_ticks, const T& payload) {
    if (now_ticks >= profile_.blackout_start_ticks && now_ticks < profile_.blackout_end_ticks) return;
    if (rng_.chance(profile_.loss)) return;
    const int copies = rng_.chance(profile_.duplicate) ? 2 : 1;
    for (int c = 0; c < copies; ++c) {
      const double delay = profile_.min_delay_ticks + rng_.unit() * (profile_.max_delay_ticks - profile_.min_delay_ticks);
      in_flight_.push_back(Packet{now_ticks + delay, sent_++, payload});
    }
    duplicated_ += static_cast<uint64_t>(copies - 1);
  }

  // Every packet due by `now`, in arrival order.
  std::vector<T> drain(double now_ticks) {
    std::vector<Packet> due;
    auto split = std::stable_partition(in_flight_.begin(), in_flight_.end(),
                                       [&](const Packet& p) { return p.arrive_at > now_ticks; });
    due.assign(split, in_flight_.end());
    in_flight_.erase(split, in_flight_.end());
    std::sort(due.begin(), due.end(), [](const Packet& a, const Packet& b) {
      return a.arrive_at != b.arrive_at ? a.arrive_at < b.arrive_at : a.order < b.order;
    });
    std::vector<T> out;
    for (const Packet& p : due) {
      if (p.order < newest_delivered_order_) ++reordered_;
      newest_delivered_order_ = std::max(newest_delivered_order_, p.order);
      out.push_back(p.payload);
    }
    return out;
  }

  uint64_t reordered() const { return reordered_; }
  uint64_t duplicated() const { return duplicated_; }

 private:
  struct Packet {
    double arrive_at;
    uint64_t order;
    T payload;
  };
  LinkProfile profile_;
  Rng& rng_;
  std::vector<Packet> in_flight_;
  uint64_t sent_ = 0;
  uint64_t newest_delivered_order_ = 0;
  uint64_t reordered_ = 0;
  uint64_t duplicated_ = 0;
};

// The client: one predicted input per client tick; each packet repeats every un-acked input, up
// to MaxInputsPerPacket (older ones fall out of the window and are never sent again).
class PredictingClient {
 public:
  protocol::InputFrame predict_and_frame() {
    unacked_.push_back(next_sequence_++);
    while (unacked_.size() > protocol::MaxInputsPerPacket) unacked_.pop_front();
    protocol::InputFrame frame;
    frame.first_sequence = unacked_.front();
    for (uint32_t seq : unacked_) frame.inputs.push_back(predicted_cmd(seq));
    return frame;
  }
  void on_ack(uint32_t ack) {
    while (!unacked_.empty() && unacked_.front() <= ack) unacked_.pop_front();
  }
  uint32_t predicted() const { return next_sequence_; }

 private:
  uint32_t next_sequence_ = 0;
  std::deque<uint32_t> unacked_;
};

struct InputSimScenario {
  double client_rate = 1.0;  // client inputs per server tick
  LinkProfile up, down;
  double min_loop_gap_ticks = 0.05;  // between two room loop iterations
  double max_loop_gap_ticks = 2.5;
  double stall_chance = 0.02;        // an iteration delayed by a host stall
  double stall_ticks = 9.0;
  int64_t ticks = 5000;
};

// What the oracle saw, for the scenario-specific assertions.
struct InputSimOutcome {
  int64_t ticks = 0;
  uint64_t fresh_ticks = 0, repeated_ticks = 0, zeroed_ticks = 0;
  uint64_t multi_packet_polls = 0, catch_up_iterations = 0;
  uint32_t max_steps_per_iteration = 0;
  uint64_t guessed_ticks = 0;        // starved ticks that ran the next sequence on the guess
  uint64_t late_presses = 0;         // fresh ticks that also pressed a late input's buttons
  uint64_t gaps = 0;                 // predicted inputs passed over (never queued)
  uint64_t gaps_delivered_late = 0;  // ... of which a copy had arrived before the take (overflow)
  int64_t first_full_tick = -1;      // first tick whose take left 11+ waiting
  uint64_t starved_after_full = 0;
  uint64_t predicted = 0, offered_copies = 0;
  uint64_t reordered = 0, duplicated = 0;
  InputDropCounters drops;
};

}  // namespace tickwire::test
