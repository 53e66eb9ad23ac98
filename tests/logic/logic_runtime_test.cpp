// The runtime's run rules: action lists in order and depth-first, the exact trace line, the call
// depth cap on a wiring cycle, delays under time scales in exact ticks, and the activator carried
// through a whole run across delays.
#include "tickwire/logic/logic_runtime.h"

#include <gtest/gtest.h>

#include "logic_rig.h"
#include "tickwire/logic/relay.h"

namespace tickwire::test {
namespace {

std::vector<std::string> inputs_received(const ProbeLog& log) {
  std::vector<std::string> out;
  for (const Received& r : log.received) out.push_back(r.node + "." + r.input);
  return out;
}

TEST(LogicRuntime, ActionListsRunInOrderAndDepthFirst) {
  LogicRig rig;
  ASSERT_EQ(rig.node(1, "doorButton",
                     {wire("onPressed", {logic_call("a", "x"), logic_call("b", "y"), logic_call("a", "z")})}),
            LogicLoad::loaded);
  rig.probe(2, "a");
  rig.probe(3, "b", {wire("yDone", {logic_call("c", "w")})});  // b's input runs c before the list goes on
  rig.probe(4, "c");
  rig.runtime.fire(id(1), "onPressed", LogicActivator{});
  EXPECT_EQ(inputs_received(rig.log), (std::vector<std::string>{"a.x", "b.y", "c.w", "a.z"}));
}

TEST(LogicRuntime, WiresOfOneOutputAndNodesOfOneNameRunInAuthoredOrder) {
  LogicRig rig;
  rig.node(1, "button", {wire("onPressed", {logic_call("lamp", "on")}), wire("onOther", {logic_call("x", "no")}),
                         wire("onPressed", {logic_call("sign", "on")})});
  rig.probe(5, "lamp");
  rig.probe(2, "sign");
  rig.probe(3, "lamp");  // a second node of the name: reached after the first loaded
  rig.runtime.fire(id(1), "onPressed", LogicActivator{});
  EXPECT_EQ(inputs_received(rig.log), (std::vector<std::string>{"lamp.on", "lamp.on", "sign.on"}));
  EXPECT_EQ(rig.runtime.calls_delivered(), 3u);
}

// A host callback may start a run of its own in the middle of a call's fan-out (an entityEvent
// handler pressing another button): the outer fan-out still reaches every node of its name.
TEST(LogicRuntime, AHostMayStartARunFromInsideOne) {
  LogicRig rig;
  rig.node(1, "button", {wire("onPressed", {logic_call("lamp", "on")})});
  rig.node(2, "other", {wire("onPressed", {logic_call("sign", "on"), logic_call("lamp", "off")})});
  rig.probe(3, "lamp");
  rig.probe(4, "lamp");
  rig.probe(5, "sign");
  bool reentered = false;
  rig.host.on_output_fired = [&](LogicNodeId, std::string_view output) {
    if (output != "onDone" || reentered) return;
    reentered = true;
    rig.runtime.fire(id(2), "onPressed", LogicActivator{});
  };
  rig.runtime.fire(id(1), "onPressed", LogicActivator{});
  EXPECT_EQ(inputs_received(rig.log),
            (std::vector<std::string>{"lamp.on", "sign.on", "lamp.off", "lamp.off", "lamp.on"}));
}

TEST(LogicRuntime, TracesEachFiringInTheSeedsForm) {
  LogicRig rig;
  rig.node(1, "doorButton", {wire("onPressed", {logic_call("slidingDoor", "toggle"), logic_call("tally", "add", 3),
                                                logic_call("nobody", "open")})});
  rig.probe(2, "slidingDoor");
  rig.probe(3, "tally");
  rig.runtime.fire(id(1), "onPressed", LogicActivator{7});
  EXPECT_EQ(rig.host.traces, (std::vector<std::string>{"doorButton fired onPressed -> slidingDoor.toggle",
                                                       "doorButton fired onPressed -> tally.add(3)",
                                                       "doorButton fired onPressed -> nobody.open (dropped: absent_target)"}));
}

TEST(LogicRuntime, NoTraceIsFormattedWhenTheHostIsNotTracing) {
  struct QuietHost : RecordingHost {
    bool tracing() const override { return false; }
  } host;
  LogicRuntime runtime(rig_settings(), host);
  ASSERT_EQ(runtime.load({id(1), "button", {wire("onPressed", {logic_call("door", "toggle")})}}, {}), LogicLoad::loaded);
  runtime.fire(id(1), "onPressed", LogicActivator{});
  EXPECT_TRUE(host.traces.empty());
}

// A -> B -> A through two relays: the cycle is cut after 8 nested calls, once per fire, counted.
TEST(LogicRuntime, TheDepthCapBreaksAWiringCycle) {
  LogicRig rig;
  rig.node(1, "A", {wire("onTrigger", {logic_call("B", "trigger")})}, behaviours_of(std::make_unique<LogicRelay>()));
  rig.node(2, "B", {wire("onTrigger", {logic_call("A", "trigger")})}, behaviours_of(std::make_unique<LogicRelay>()));
  EXPECT_TRUE(rig.runtime.deliver(id(1), "trigger", {}));
  EXPECT_EQ(rig.runtime.calls_delivered(), 8u);
  EXPECT_EQ(rig.runtime.firings(), 9u);  // A from outside, then one per delivered call
  EXPECT_EQ(rig.runtime.drops()[LogicDrop::call_depth_cap], 1u);
  ASSERT_EQ(rig.host.traces.size(), 9u);
  EXPECT_EQ(rig.host.traces[0], "A fired onTrigger -> B.trigger");
  EXPECT_EQ(rig.host.traces[7], "B fired onTrigger -> A.trigger");
  EXPECT_EQ(rig.host.traces[8], "A fired onTrigger -> B.trigger (dropped: call_depth_cap)");

  EXPECT_TRUE(rig.runtime.deliver(id(2), "trigger", {}));  // every fire gets its own depth
  EXPECT_EQ(rig.runtime.calls_delivered(), 16u);
  EXPECT_EQ(rig.runtime.drops()[LogicDrop::call_depth_cap], 2u);
  EXPECT_EQ(rig.runtime.sizes().scheduled, 0u);  // nothing parked: the cycle is gone, not deferred
}

// The cap bounds a doubling cycle too: 2 + 4 + ... + 256 calls delivered, 512 cut at depth 9.
TEST(LogicRuntime, TheDepthCapBoundsAFanningCycle) {
  LogicRig rig;
  rig.node(1, "A", {wire("onTrigger", {logic_call("B", "trigger"), logic_call("B", "trigger")})},
           behaviours_of(std::make_unique<LogicRelay>()));
  rig.node(2, "B", {wire("onTrigger", {logic_call("A", "trigger"), logic_call("A", "trigger")})},
           behaviours_of(std::make_unique<LogicRelay>()));
  rig.runtime.deliver(id(1), "trigger", {});
  EXPECT_EQ(rig.runtime.calls_delivered(), 510u);
  EXPECT_EQ(rig.runtime.drops()[LogicDrop::call_depth_cap], 512u);
}

// d = 1 s at 20 Hz: 40 ticks at scale 0.5, 20 at 1, 10 at 2; at 60 Hz 120, 60, 30.
TEST(LogicRuntime, DelaysTakeExactTicksUnderEachTimeScale) {
  struct Case {
    Duration tick;
    double scale;
    int64_t ticks;
  };
  for (const Case c : {Case{Duration::milliseconds(50), 0.5, 40}, Case{Duration::milliseconds(50), 1.0, 20},
                       Case{Duration::milliseconds(50), 2.0, 10}, Case{Duration::nanoseconds(16'666'667), 0.5, 120},
                       Case{Duration::nanoseconds(16'666'667), 1.0, 60},
                       Case{Duration::nanoseconds(16'666'667), 2.0, 30}}) {
    LogicRig rig(rig_settings(c.tick, c.scale));
    rig.node(1, "button", {wire("onPressed", {logic_delay(Duration::seconds(1)), logic_call("door", "toggle")})});
    rig.probe(2, "door");
    rig.step(3);  // from a running game time
    rig.runtime.fire(id(1), "onPressed", LogicActivator{});
    EXPECT_EQ(rig.ticks_until_received(), c.ticks) << "scale " << c.scale << " tick " << c.tick.ns() << " ns";
  }
}

TEST(LogicRuntime, DelaysInOneListAddUpAndAZeroDelayDoesNotWait) {
  LogicRig rig;
  rig.node(1, "button", {wire("onPressed", {logic_call("p", "a"), logic_delay(Duration::milliseconds(500)),
                                            logic_call("p", "b"), logic_delay(Duration{}), logic_call("p", "c"),
                                            logic_delay(Duration::milliseconds(250)), logic_call("p", "d")})});
  rig.probe(2, "p");
  rig.runtime.fire(id(1), "onPressed", LogicActivator{});
  rig.step(40);
  ASSERT_EQ(rig.log.received.size(), 4u);
  EXPECT_EQ(rig.log.received[0].tick, 0);
  EXPECT_EQ(rig.log.received[1].tick, 10);
  EXPECT_EQ(rig.log.received[2].tick, 10);
  EXPECT_EQ(rig.log.received[3].tick, 15);
}

TEST(LogicRuntime, AScaleChangeWhileADelayIsPendingIsHonoured) {
  LogicRig rig;
  rig.node(1, "button", {wire("onPressed", {logic_delay(Duration::seconds(1)), logic_call("door", "toggle")})});
  rig.probe(2, "door");
  rig.runtime.fire(id(1), "onPressed", LogicActivator{});
  rig.step(10);  // 0.5 s of game time
  rig.runtime.set_time_scale(0.5);
  EXPECT_EQ(rig.ticks_until_received(), 20);  // the other 0.5 s at half speed
}

// The activator of a press reaches the end of a chain that crosses two delays and a relay.
TEST(LogicRuntime, TheActivatorThreadsThroughAWholeRunAcrossDelays) {
  LogicRig rig;
  rig.node(1, "button", {wire("onPressed", {logic_call("p", "pressed"), logic_delay(Duration::seconds(1)),
                                            logic_call("relay", "trigger")})});
  rig.node(2, "relay", {wire("onTrigger", {logic_delay(Duration::milliseconds(500)), logic_call("p", "open")})},
           behaviours_of(std::make_unique<LogicRelay>()));
  rig.probe(3, "p");
  rig.runtime.fire(id(1), "onPressed", LogicActivator{42});
  rig.runtime.fire(id(1), "onPressed", LogicActivator{43});  // a second player, interleaved
  rig.step(40);
  ASSERT_EQ(rig.log.received.size(), 4u);
  EXPECT_EQ(rig.log.received[0].activator, LogicActivator{42});
  EXPECT_EQ(rig.log.received[1].activator, LogicActivator{43});
  EXPECT_EQ(rig.log.received[2].input, "open");
  EXPECT_EQ(rig.log.received[2].activator, LogicActivator{42});
  EXPECT_EQ(rig.log.received[2].tick, 30);
  EXPECT_EQ(rig.log.received[3].activator, LogicActivator{43});
  std::vector<LogicActivator> relay_fired_for;  // what the host was told, for its entityEvent
  for (const RecordingHost::Fired& f : rig.host.fired) {
    if (f.output == "onTrigger") relay_fired_for.push_back(f.activator);
  }
  EXPECT_EQ(relay_fired_for, (std::vector<LogicActivator>{LogicActivator{42}, LogicActivator{43}}));
}

TEST(LogicRuntime, ADeliveryToAnUnknownInputIsCounted) {
  LogicRig rig;
  rig.node(1, "relay", {}, behaviours_of(std::make_unique<LogicRelay>()));
  EXPECT_FALSE(rig.runtime.deliver(id(1), "explode", {}));
  EXPECT_EQ(rig.runtime.drops()[LogicDrop::unknown_input], 1u);
  EXPECT_FALSE(rig.runtime.deliver(id(9), "trigger", {}));
  EXPECT_EQ(rig.runtime.drops()[LogicDrop::absent_target], 1u);
}

TEST(LogicRuntime, TheHostTakesNamesThatAreNotNodes) {
  LogicRig rig;
  rig.host.take_host_call = [](const LogicHostCall& call) { return call.target == "!activator"; };
  rig.node(1, "hurt", {wire("onTrigger", {logic_call("!activator", "damage", 10), logic_call("ghost", "boo")})});
  rig.runtime.fire(id(1), "onTrigger", LogicActivator{5});
  EXPECT_EQ(rig.host.host_calls, (std::vector<std::string>{"!activator.damage", "ghost.boo"}));
  EXPECT_EQ(rig.runtime.calls_delivered(), 1u);
  EXPECT_EQ(rig.runtime.drops()[LogicDrop::absent_target], 1u);
}

}  // namespace
}  // namespace tickwire::test
