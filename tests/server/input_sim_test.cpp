// Deterministic simulations of the input path (seeded; the seed is printed): honest acks under
// multi-packet drains, catch-up ticks, duplicated and reordered packets, a dead link, and clients
// running 1.02x to 10x the tick rate. An independent oracle checks every tick: the ack is the last
// sequence whose tick ran, inputs run once and in order, a starved tick guesses the next sequence
// once the client has led (a fresh tick left an input waiting) and a late input's presses come on
// the next fresh tick, gaps are only inputs never had in time.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "input_sim_harness.h"
#include "support.h"

namespace tickwire {
namespace {

using test::InputSimOutcome;
using test::InputSimScenario;

constexpr std::size_t kCapacity = protocol::InputQueueTicks;
constexpr uint32_t kRepeatTicks = static_cast<uint32_t>(protocol::StarvationRepeatTicks);

// Watches one session from outside and asserts the contract every tick.
class InputOracle {
 public:
  explicit InputOracle(InputSimOutcome& out) : out_(out) {}

  void on_frame(const protocol::InputFrame& frame, std::size_t waiting_after) {
    for (std::size_t i = 0; i < frame.inputs.size(); ++i) {
      const uint32_t seq = frame.first_sequence + static_cast<uint32_t>(i);
      grow(seq);
      delivered_[seq] = 1;
      if (waiting_after >= kCapacity) overflowed_[seq] = 1;
      // The first copy of a guessed input within the queue's window: what it pressed that the
      // guess did not is owed to the next fresh tick.
      if (guessed_[seq] && !late_seen_[seq] && *last_run_ - seq < InputQueue::kAppliedWindowInputs) {
        late_seen_[seq] = 1;
        late_buttons_ |= test::predicted_cmd(seq).buttons & ~guess_buttons_[seq];
      }
    }
  }

  void on_tick(Tick tick, const TickInput& input, const SessionInputs& session) {
    if (last_tick_) {
      ASSERT_EQ(tick, *last_tick_ + 1) << "ticks run contiguously";
    }
    last_tick_ = tick;
    ASSERT_LE(session.queue().waiting_ticks(), kCapacity);
    if (input.fresh()) {
      check_fresh(input);
      if (session.queue().waiting_ticks() > 0) led_ = true;
    } else {
      check_starved(input);
    }
    ASSERT_EQ(session.queue().led(), led_);
    const OwnerInputReport& report = session.report();
    ASSERT_EQ(report.tick, tick);
    ASSERT_EQ(report.ack_sequence, last_run_) << "the ack is exactly the last sequence whose tick ran";
    const std::size_t waiting = session.queue().waiting_ticks();
    const int expected_depth = waiting > 0 ? static_cast<int>(waiting) : -static_cast<int>(std::min<uint32_t>(run_, 128));
    ASSERT_EQ(report.queue_depth, expected_depth);
  }

  void on_ack(uint32_t ack) const {
    ASSERT_LT(ack, ran_.size());
    ASSERT_TRUE(ran_[ack] || guessed_[ack]) << "acked input " << ack << "'s tick never ran";
  }

  // Every sequence up to the last one run ran exactly once, on its input or on a guess, or is a
  // justified gap.
  void check_final() const {
    if (!last_run_) return;
    uint64_t ran = 0;
    for (uint32_t s = 0; s <= *last_run_; ++s) ran += ran_[s] + guessed_[s];
    ASSERT_EQ(ran + out_.gaps, uint64_t{*last_run_} + 1);
  }

 private:
  void grow(uint32_t seq) {
    if (seq >= delivered_.size()) {
      for (auto* v : {&delivered_, &overflowed_, &ran_, &guessed_, &late_seen_}) v->resize(seq + 1, 0);
      guess_buttons_.resize(seq + 1, 0);
    }
  }

  void check_fresh(const TickInput& input) {
    const uint32_t seq = input.sequence;
    ASSERT_LT(seq, ran_.size()) << "applied an input that never arrived";
    ASSERT_TRUE(delivered_[seq]);
    ASSERT_TRUE(!last_run_ || seq > *last_run_) << "inputs run in order";
    ASSERT_EQ(ran_[seq], 0) << "input " << seq << " ran twice";
    protocol::InputCmd expected = test::predicted_cmd(seq);
    if (late_buttons_ != 0) ++out_.late_presses;
    expected.buttons |= std::exchange(late_buttons_, 0u);
    ASSERT_TRUE(test::same_cmd(input.cmd, expected)) << "input " << seq << " altered";
    for (uint32_t s = last_run_ ? *last_run_ + 1 : 0; s < seq; ++s) {
      // A passed-over input: the server never had it before now, or every copy met a full queue.
      ASSERT_TRUE(!delivered_[s] || overflowed_[s]) << "input " << s << " was delivered in time but skipped";
      ++out_.gaps;
      if (delivered_[s]) ++out_.gaps_delivered_late;
    }
    ran_[seq] = 1;
    last_fresh_ = seq;
    last_run_ = seq;
    run_ = 0;
    ++out_.fresh_ticks;
  }

  void check_starved(const TickInput& input) {
    ++run_;
    ASSERT_EQ(input.starved_run_ticks, run_);
    const protocol::InputCmd previous = last_fresh_ ? test::predicted_cmd(*last_fresh_) : protocol::InputCmd{};
    ASSERT_EQ(input.cmd.yaw_deg, previous.yaw_deg) << "look kept";
    ASSERT_EQ(input.cmd.pitch_deg, previous.pitch_deg) << "look kept";
    if (run_ <= kRepeatTicks) {
      ASSERT_EQ(input.source, TickInputSource::repeated);
      ASSERT_TRUE(test::same_cmd(input.cmd, previous)) << "starved tick " << run_ << " repeats the last input";
      ++out_.repeated_ticks;
    } else {
      ASSERT_EQ(input.source, TickInputSource::zeroed);
      ASSERT_EQ(input.cmd.move_x, 0.0f);
      ASSERT_EQ(input.cmd.move_y, 0.0f);
      ASSERT_EQ(input.cmd.buttons, 0u);
      ++out_.zeroed_ticks;
    }
    // Once the client has led, a starved tick within the repeat limit is the next sequence's, run
    // on the guess; past it nothing is guessed, nor before the client first led (its join).
    ASSERT_EQ(input.guessed, led_ && last_run_.has_value() && run_ <= kRepeatTicks);
    if (!input.guessed) return;
    const uint32_t seq = *last_run_ + 1;
    ASSERT_EQ(input.sequence, seq) << "a starved tick guesses the next sequence";
    grow(seq);
    ASSERT_EQ(ran_[seq], 0) << "input " << seq << " already ran";
    guessed_[seq] = 1;
    guess_buttons_[seq] = input.cmd.buttons;
    last_run_ = seq;
    ++out_.guessed_ticks;
  }

  InputSimOutcome& out_;
  bool led_ = false;
  std::vector<uint8_t> delivered_, overflowed_, ran_, guessed_, late_seen_;
  std::vector<uint32_t> guess_buttons_;
  std::optional<uint32_t> last_fresh_, last_run_;
  std::optional<Tick> last_tick_;
  uint32_t run_ = 0;
  uint32_t late_buttons_ = 0;
};

struct AckPacket {
  std::optional<uint32_t> ack;
};

// Runs one scenario to completion, asserting every tick; returns what happened.
InputSimOutcome run_scenario(const InputSimScenario& sc, uint64_t seed) {
  Rng rng(seed);
  Rng up_rng = rng.fork(), down_rng = rng.fork();
  test::SimLink<protocol::InputFrame> up(sc.up, up_rng);
  test::SimLink<AckPacket> down(sc.down, down_rng);
  test::PredictingClient client;
  SessionInputs session;
  InputSimOutcome out;
  InputOracle oracle(out);
  double client_at = 0.0, loop_at = 0.0;
  int64_t executed = 0;
  while (executed < sc.ticks && !::testing::Test::HasFatalFailure()) {
    if (client_at <= loop_at) {  // a client tick: read acks, predict, send
      for (const AckPacket& p : down.drain(client_at)) {
        if (!p.ack) continue;
        oracle.on_ack(*p.ack);
        client.on_ack(*p.ack);
      }
      const protocol::InputFrame frame = client.predict_and_frame();
      out.offered_copies += frame.inputs.size();
      up.send(client_at, frame);
      client_at += 1.0 / sc.client_rate;
      continue;
    }
    // A room loop iteration: drain every packet due, then run the due ticks, at most 4.
    const std::vector<protocol::InputFrame> arrived = up.drain(loop_at);
    if (arrived.size() >= 2) ++out.multi_packet_polls;
    for (const protocol::InputFrame& frame : arrived) {
      session.receive(frame);
      oracle.on_frame(frame, session.queue().waiting_ticks());
    }
    const int64_t due = static_cast<int64_t>(std::floor(loop_at)) - executed;
    const int64_t steps = std::min<int64_t>(due, protocol::MaxCatchUpTicks);
    if (steps >= 2) ++out.catch_up_iterations;
    out.max_steps_per_iteration = std::max(out.max_steps_per_iteration, static_cast<uint32_t>(std::max<int64_t>(steps, 0)));
    for (int64_t i = 0; i < steps && executed < sc.ticks; ++i) {
      const Tick tick = Tick::from_value(++executed);
      const TickInput& input = session.prepare(tick);
      oracle.on_tick(tick, input, session);
      if (::testing::Test::HasFatalFailure()) return out;
      if (out.first_full_tick < 0 && session.queue().waiting_ticks() + 1 >= kCapacity) out.first_full_tick = executed;
      if (out.first_full_tick >= 0 && !input.fresh()) ++out.starved_after_full;
      down.send(loop_at, AckPacket{session.report().ack_sequence});
    }
    const bool stall = rng.chance(sc.stall_chance);
    loop_at += stall ? sc.stall_ticks : sc.min_loop_gap_ticks + rng.unit() * (sc.max_loop_gap_ticks - sc.min_loop_gap_ticks);
  }
  oracle.check_final();
  out.ticks = executed;
  out.predicted = client.predicted();
  out.reordered = up.reordered();
  out.duplicated = up.duplicated();
  out.drops = session.queue().drops();
  const InputQueueStats& stats = session.queue().stats();
  EXPECT_EQ(stats.received, stats.queued + out.drops.total()) << "every copy queued or counted once";
  EXPECT_EQ(stats.fresh_ticks + stats.repeated_ticks + stats.zeroed_ticks + stats.awaiting_ticks, static_cast<uint64_t>(executed));
  return out;
}

void print(const char* name, const InputSimOutcome& o) {
  std::printf("[ %s ] ticks=%lld predicted=%llu fresh=%llu repeated=%llu zeroed=%llu guessed=%llu gaps=%llu "
              "drops: duplicate=%llu stale=%llu late=%llu overflow=%llu | late presses=%llu multi-packet polls=%llu "
              "catch-up iterations=%llu "
              "reordered=%llu duplicated=%llu\n",
              name, static_cast<long long>(o.ticks), static_cast<unsigned long long>(o.predicted),
              static_cast<unsigned long long>(o.fresh_ticks), static_cast<unsigned long long>(o.repeated_ticks),
              static_cast<unsigned long long>(o.zeroed_ticks), static_cast<unsigned long long>(o.guessed_ticks),
              static_cast<unsigned long long>(o.gaps), static_cast<unsigned long long>(o.drops[InputDropReason::duplicate]),
              static_cast<unsigned long long>(o.drops[InputDropReason::stale]),
              static_cast<unsigned long long>(o.drops[InputDropReason::late]),
              static_cast<unsigned long long>(o.drops[InputDropReason::overflow]),
              static_cast<unsigned long long>(o.late_presses),
              static_cast<unsigned long long>(o.multi_packet_polls), static_cast<unsigned long long>(o.catch_up_iterations),
              static_cast<unsigned long long>(o.reordered), static_cast<unsigned long long>(o.duplicated));
}

TEST(InputSim, HonestAcksUnderMultiPacketDrainsCatchUpDuplicationAndReordering) {
  const uint64_t seed = test::test_seed(0x1a2b3c4d);
  InputSimScenario sc;
  sc.up = {.min_delay_ticks = 0.5, .max_delay_ticks = 3.0, .duplicate = 0.25};
  sc.down = {.min_delay_ticks = 0.5, .max_delay_ticks = 3.0, .duplicate = 0.1};
  sc.stall_chance = 0.03;
  sc.stall_ticks = 4.0;
  sc.ticks = 20000;
  const InputSimOutcome o = run_scenario(sc, seed);
  ASSERT_FALSE(HasFatalFailure());
  print("jitter+dup", o);
  // Nothing was lost, so every predicted sequence up to the last one run ran once, in order: on its
  // input, or (its input late for a stalled loop's tick) on the guess.
  EXPECT_EQ(o.gaps, 0u);
  EXPECT_GT(o.guessed_ticks, 0u);
  EXPECT_GT(o.drops[InputDropReason::late], 0u);
  EXPECT_EQ(o.drops[InputDropReason::overflow], 0u);
  EXPECT_GT(o.drops[InputDropReason::duplicate], 0u);
  // The scenario exercised what it claims to.
  EXPECT_GT(o.multi_packet_polls, 100u);
  EXPECT_GT(o.catch_up_iterations, 100u);
  EXPECT_EQ(o.max_steps_per_iteration, protocol::MaxCatchUpTicks);
  EXPECT_GT(o.reordered, 100u);
  EXPECT_GT(o.duplicated, 100u);
}

TEST(InputSim, LossAndADeadLinkStarveExactlyAsSpecifiedAndGapsAreOnlyUndeliveredInputs) {
  const uint64_t seed = test::test_seed(0x5eed0002);
  InputSimScenario sc;
  sc.up = {.min_delay_ticks = 1.0, .max_delay_ticks = 4.0, .loss = 0.2, .duplicate = 0.1,
           .blackout_start_ticks = 3000.0, .blackout_end_ticks = 3120.0};
  sc.down = {.min_delay_ticks = 1.0, .max_delay_ticks = 4.0, .loss = 0.2};
  sc.ticks = 12000;
  const InputSimOutcome o = run_scenario(sc, seed);
  ASSERT_FALSE(HasFatalFailure());
  print("loss+blackout", o);
  // The 120-tick blackout outlasts the 16-input redundancy window: those inputs never arrive. Its
  // first ticks run on the guess, the rest (the link taken for dead) guess nothing.
  EXPECT_GT(o.gaps, 100u);
  EXPECT_GT(o.guessed_ticks, 0u);
  // (The oracle already failed any tick that passed over an input that had arrived in time and
  // met room in the queue; a stall can still overfill it, and those refusals are counted.)
  if (o.drops[InputDropReason::overflow] == 0) {
    EXPECT_EQ(o.gaps_delivered_late, 0u);
  }
  EXPECT_GT(o.repeated_ticks, 0u);
  EXPECT_GT(o.zeroed_ticks, 100u) << "the dead link zeroes movement after 3 repeats";
}

// A client running fast fills the queue to its cap and from then on gets exactly one input per
// tick: everything beyond the cap is dropped as overflow and counted.
void expect_fast_client_gains_nothing(double rate, uint64_t fallback_seed) {
  const uint64_t seed = test::test_seed(fallback_seed);
  InputSimScenario sc;
  sc.client_rate = rate;
  sc.up = {.min_delay_ticks = 2.0, .max_delay_ticks = 2.0};
  sc.down = {.min_delay_ticks = 2.0, .max_delay_ticks = 2.0};
  sc.max_loop_gap_ticks = 1.0;
  sc.stall_chance = 0.0;
  sc.ticks = 6000;
  const InputSimOutcome o = run_scenario(sc, seed);
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  print(rate < 1.5 ? "rate 1.02x" : rate < 5 ? "rate 2x" : "rate 10x", o);
  ASSERT_GE(o.first_full_tick, 0) << "the queue filled";
  EXPECT_EQ(o.starved_after_full, 0u) << "once full, every tick has a fresh input";
  EXPECT_LE(o.fresh_ticks, static_cast<uint64_t>(o.ticks)) << "never more than one input per tick";
  EXPECT_GE(o.predicted, static_cast<uint64_t>(std::floor(static_cast<double>(o.ticks) * rate)) - 1);
  EXPECT_GT(o.drops[InputDropReason::overflow], 0u) << "the extras are dropped and counted";
  // Extra inputs only ever become gaps (never extra ticks): the applied ones plus the passed-over
  // ones account for the sequence space up to the last applied input, nothing more.
  EXPECT_GT(o.gaps, 0u);
}

TEST(InputSim, AClientAt102PercentOfTheTickRateGainsNothing) { expect_fast_client_gains_nothing(1.02, 0xfa570102); }
TEST(InputSim, AClientAtTwiceTheTickRateGainsNothing) { expect_fast_client_gains_nothing(2.0, 0xfa570200); }
TEST(InputSim, AClientAtTenTimesTheTickRateGainsNothing) { expect_fast_client_gains_nothing(10.0, 0xfa571000); }

}  // namespace
}  // namespace tickwire
