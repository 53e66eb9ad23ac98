// The logic runtime's checkpoint (seed 003): a runtime saved mid-flight (a relay chain inside its
// delays, a timer between beats, a counter partway, a gate open) and restored into a fresh runtime
// over the same nodes runs on exactly as the original does; anything else is refused whole.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "logic_rig.h"
#include "tickwire/core/byte_record.h"
#include "tickwire/logic/counter.h"
#include "tickwire/logic/gate.h"
#include "tickwire/logic/relay.h"
#include "tickwire/logic/timer.h"

namespace tickwire::test {
namespace {

enum class Variant { same, without_counter, counter_as_gate };

// The scene: a relay chain with delays into a second relay, a refiring timer adding to a counter, a
// gate whose opening waits on a delay, a relay that can be muted; everything ends at the probe "sink".
void load_scene(LogicRig& rig, Variant variant = Variant::same) {
  const Duration ms = Duration::milliseconds(1);
  rig.node(1, "chain", {wire("onTrigger", {logic_call("sink", "a"), logic_delay(ms * 300), logic_call("sink", "b"),
                                           logic_delay(ms * 200), logic_call("relay2", "trigger")})},
           behaviours_of(std::make_unique<LogicRelay>()));
  rig.node(2, "relay2", {wire("onTrigger", {logic_delay(ms * 100), logic_call("sink", "c", 2.5)})},
           behaviours_of(std::make_unique<LogicRelay>()));
  rig.node(3, "beat", {wire("onTimer", {logic_call("count", "add")})},
           behaviours_of(std::make_unique<LogicTimer>(LogicTimerSettings{ms * 250, true, true})));
  if (variant == Variant::same) {
    rig.node(4, "count", {wire("onChanged", {logic_call("sink", "changed")}), wire("onHitMax", {logic_call("sink", "max")})},
             behaviours_of(std::make_unique<LogicCounter>(LogicCounterSettings{0, 10, 0})));
  } else if (variant == Variant::counter_as_gate) {
    rig.node(4, "count", {}, behaviours_of(std::make_unique<LogicGate>()));
  }
  rig.node(5, "door", {wire("onTrue", {logic_delay(ms * 400), logic_call("sink", "open")}), wire("onFalse", {logic_call("sink", "shut")})},
           behaviours_of(std::make_unique<LogicGate>()));
  rig.node(6, "mute", {wire("onTrigger", {logic_call("sink", "unmuted")})}, behaviours_of(std::make_unique<LogicRelay>()));
  rig.probe(7, "sink");
}

// The original, run into the middle of everything.
void run_into_flight(LogicRig& rig) {
  rig.runtime.deliver(id(1), "trigger", LogicSignal{LogicActivator{7}, std::nullopt});
  rig.step(5);
  rig.runtime.deliver(id(5), "setTrue", LogicSignal{LogicActivator{9}, std::nullopt});
  rig.runtime.deliver(id(4), "add", LogicSignal{LogicActivator{}, 3.0});
  rig.runtime.deliver(id(6), "disable", {});
  rig.runtime.deliver(id(3), "setInterval", LogicSignal{LogicActivator{}, 0.35});
  rig.step(3);
}

std::vector<uint8_t> saved(const LogicRuntime& runtime) {
  std::vector<uint8_t> bytes;
  ByteRecordWriter write(bytes);
  runtime.save_state(write);
  return bytes;
}

bool restore(LogicRuntime& runtime, std::span<const uint8_t> bytes) {
  ByteRecordReader read(bytes);
  return runtime.restore_state(read) && read.done();
}

// Everything both rigs say from here on, one line each: outputs fired and inputs the sink took.
std::vector<std::string> advance_recording(LogicRig& rig, int ticks) {
  rig.host.fired.clear();
  rig.log.received.clear();
  std::vector<std::string> lines;
  for (int t = 1; t <= ticks; ++t) {
    if (t == 10) rig.runtime.deliver(id(6), "trigger", {});  // muted on both: nothing
    if (t == 20) rig.runtime.deliver(id(5), "toggle", LogicSignal{LogicActivator{4}, std::nullopt});
    if (t == 30) rig.runtime.deliver(id(4), "add", LogicSignal{LogicActivator{}, 4.0});
    rig.step();
    for (const RecordingHost::Fired& f : rig.host.fired)
      lines.push_back(fmt::format("t{} fired {}.{} by {}", t, f.node.value, f.output, f.activator.value));
    for (const Received& r : rig.log.received)
      lines.push_back(fmt::format("t{} sink {} by {} ({})", r.tick, r.input, r.activator.value, r.parameter.value_or(-1)));
    rig.host.fired.clear();
    rig.log.received.clear();
  }
  return lines;
}

TEST(LogicState, ARestoredRuntimeRunsOnExactlyAsTheOriginal) {
  LogicRig original;
  load_scene(original);
  run_into_flight(original);
  ASSERT_GT(original.runtime.sizes().scheduled, 2u);  // the chain, the gate's delay, the beat
  const std::vector<uint8_t> bytes = saved(original.runtime);

  LogicRig fresh;
  load_scene(fresh);
  ASSERT_TRUE(restore(fresh.runtime, bytes));
  fresh.log.tick = original.log.tick;
  EXPECT_EQ(fresh.runtime.clock().now(), original.runtime.clock().now());
  EXPECT_EQ(fresh.runtime.sizes(), original.runtime.sizes());
  EXPECT_EQ(saved(fresh.runtime), bytes);  // the same state, byte for byte

  const std::vector<std::string> want = advance_recording(original, 120);
  const std::vector<std::string> got = advance_recording(fresh, 120);
  EXPECT_GT(want.size(), 20u);
  EXPECT_EQ(got, want);
  EXPECT_EQ(saved(fresh.runtime), saved(original.runtime));
  const auto* counter = dynamic_cast<const LogicCounter*>(fresh.runtime.behaviour(id(4), 0));
  ASSERT_NE(counter, nullptr);
  EXPECT_EQ(counter->value(), 10.0);
}

TEST(LogicState, ARuntimeWhoseNodesDifferIsRefused) {
  LogicRig original;
  load_scene(original);
  run_into_flight(original);
  const std::vector<uint8_t> bytes = saved(original.runtime);
  for (Variant variant : {Variant::without_counter, Variant::counter_as_gate}) {
    LogicRig other;
    load_scene(other, variant);
    const std::vector<uint8_t> before = saved(other.runtime);
    EXPECT_FALSE(restore(other.runtime, bytes));
    EXPECT_EQ(saved(other.runtime), before) << "a refused restore changes nothing";
  }
  LogicRig extra;  // one node more than the checkpoint holds
  load_scene(extra);
  extra.probe(8, "extra");
  EXPECT_FALSE(restore(extra.runtime, bytes));
}

TEST(LogicState, EveryTruncationIsRefusedAndChangesNothing) {
  LogicRig original;
  load_scene(original);
  run_into_flight(original);
  const std::vector<uint8_t> bytes = saved(original.runtime);
  LogicRig fresh;
  load_scene(fresh);
  const std::vector<uint8_t> before = saved(fresh.runtime);
  for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
    ByteRecordReader read(std::span<const uint8_t>(bytes).first(cut));
    ASSERT_FALSE(fresh.runtime.restore_state(read)) << "cut at " << cut;
  }
  EXPECT_EQ(saved(fresh.runtime), before);
  ASSERT_TRUE(restore(fresh.runtime, bytes));
  EXPECT_EQ(saved(fresh.runtime), bytes);
}

TEST(LogicState, GarbledBytesNeverBreakTheRuntime) {
  LogicRig original;
  load_scene(original);
  run_into_flight(original);
  const std::vector<uint8_t> bytes = saved(original.runtime);
  std::size_t refused = 0;
  for (std::size_t at = 0; at < bytes.size(); ++at) {
    for (uint8_t flip : {uint8_t{0x01}, uint8_t{0x80}, uint8_t{0xff}}) {
      std::vector<uint8_t> garbled = bytes;
      garbled[at] = static_cast<uint8_t>(garbled[at] ^ flip);
      LogicRig fresh;
      load_scene(fresh);
      refused += restore(fresh.runtime, garbled) ? 0 : 1;
    }
  }
  EXPECT_GT(refused, bytes.size());  // most of it is checked (a flipped activator or time may still read)
  std::vector<uint8_t> versioned = bytes;
  versioned[0] = 99;
  LogicRig fresh;
  load_scene(fresh);
  EXPECT_FALSE(restore(fresh.runtime, versioned));
}

}  // namespace
}  // namespace tickwire::test
