// The reference game's runtime-level logic entities: relay, timer, counter and gate, each through
// the runtime (their outputs reach a probe by wiring), and edges only where a level is held.
#include <gtest/gtest.h>

#include "logic_rig.h"
#include "tickwire/logic/counter.h"
#include "tickwire/logic/gate.h"
#include "tickwire/logic/relay.h"
#include "tickwire/logic/timer.h"

namespace tickwire::test {
namespace {

std::vector<std::string> inputs_of(const ProbeLog& log) {
  std::vector<std::string> out;
  for (const Received& r : log.received) out.push_back(r.input);
  return out;
}

std::vector<int64_t> ticks_of(const ProbeLog& log) {
  std::vector<int64_t> out;
  for (const Received& r : log.received) out.push_back(r.tick);
  return out;
}

TEST(LogicRelay, PassesTriggersOnlyWhileEnabled) {
  LogicRig rig;
  rig.node(1, "relay", {wire(std::string(LogicRelay::kOnTrigger), {logic_call("p", "pass")})},
           behaviours_of(std::make_unique<LogicRelay>()));
  rig.probe(2, "p");
  EXPECT_TRUE(rig.runtime.deliver(id(1), "trigger", {}));
  EXPECT_TRUE(rig.runtime.deliver(id(1), "disable", {}));
  EXPECT_FALSE(rig.runtime.deliver(id(1), "trigger", {}));
  EXPECT_EQ(rig.runtime.drops()[LogicDrop::target_disabled], 1u);
  EXPECT_TRUE(rig.runtime.deliver(id(1), "toggle", {}));
  EXPECT_TRUE(rig.runtime.deliver(id(1), "trigger", {}));
  EXPECT_EQ(inputs_of(rig.log), (std::vector<std::string>{"pass", "pass"}));
}

TEST(LogicRelay, ADisableDropsWhatItHadInFlight) {
  LogicRig rig;
  rig.node(1, "relay", {wire("onTrigger", {logic_call("p", "now"), logic_delay(Duration::seconds(1)),
                                           logic_call("p", "later")})},
           behaviours_of(std::make_unique<LogicRelay>(LogicRelaySettings{true})));
  rig.probe(2, "p");
  EXPECT_FALSE(rig.runtime.deliver(id(1), "trigger", {}));  // starts disabled
  rig.runtime.deliver(id(1), "enable", {});
  rig.runtime.deliver(id(1), "trigger", {});
  rig.step(5);
  rig.runtime.deliver(id(1), "disable", {});
  EXPECT_EQ(rig.runtime.drops()[LogicDrop::disabled_in_flight], 1u);
  rig.step(40);
  EXPECT_EQ(inputs_of(rig.log), (std::vector<std::string>{"now"}));
}

TEST(LogicTimer, BeatsEveryIntervalUntilStopped) {
  LogicRig rig;
  rig.node(1, "timer", {wire("onTimer", {logic_call("p", "beat")})},
           behaviours_of(std::make_unique<LogicTimer>(LogicTimerSettings{Duration::milliseconds(500), true, false})));
  rig.probe(2, "p");
  rig.step(3);
  rig.runtime.deliver(id(1), "start", {LogicActivator{11}, std::nullopt});
  rig.step(25);
  rig.runtime.deliver(id(1), "start", {LogicActivator{12}, std::nullopt});  // running: keeps its beat
  rig.step(10);
  rig.runtime.deliver(id(1), "stop", {});
  rig.step(40);
  EXPECT_EQ(ticks_of(rig.log), (std::vector<int64_t>{13, 23, 33}));
  for (const Received& r : rig.log.received) EXPECT_EQ(r.activator, LogicActivator{11});
  EXPECT_EQ(rig.runtime.sizes().scheduled, 0u);
}

TEST(LogicTimer, OneBeatWithoutRefireAndTheIntervalFollowsTheTimeScale) {
  LogicRig rig(rig_settings(Duration::milliseconds(50), 2.0));
  rig.node(1, "timer", {wire("onTimer", {logic_call("p", "beat")})},
           behaviours_of(std::make_unique<LogicTimer>(LogicTimerSettings{Duration::seconds(1), false, true})));
  rig.probe(2, "p");
  rig.step(50);
  EXPECT_EQ(ticks_of(rig.log), (std::vector<int64_t>{10}));  // 1 s of game time at 2x: 10 ticks
  const auto* timer = dynamic_cast<const LogicTimer*>(rig.runtime.behaviour(id(1), 0));
  ASSERT_NE(timer, nullptr);
  EXPECT_FALSE(timer->running());
}

TEST(LogicTimer, SetIntervalToggleAndBadParameters) {
  LogicRig rig;
  rig.node(1, "timer", {wire("onTimer", {logic_call("p", "beat")})}, behaviours_of(std::make_unique<LogicTimer>()));
  rig.probe(2, "p");
  EXPECT_TRUE(rig.runtime.deliver(id(1), "setInterval", {LogicActivator{}, 0.25}));
  EXPECT_FALSE(rig.runtime.deliver(id(1), "setInterval", {LogicActivator{}, -1.0}));
  EXPECT_FALSE(rig.runtime.deliver(id(1), "setInterval", {}));
  EXPECT_EQ(rig.runtime.drops()[LogicDrop::bad_parameter], 2u);
  rig.runtime.deliver(id(1), "toggle", {});
  rig.step(12);
  rig.runtime.deliver(id(1), "toggle", {});
  rig.step(12);
  EXPECT_EQ(ticks_of(rig.log), (std::vector<int64_t>{5, 10}));
}

TEST(LogicCounter, FiresChangesAndTheEdgesOntoItsBounds) {
  LogicRig rig;
  rig.node(1, "tally",
           {wire("onChanged", {logic_call("p", "changed")}), wire("onHitMax", {logic_call("p", "max")}),
            wire("onHitMin", {logic_call("p", "min")})},
           behaviours_of(std::make_unique<LogicCounter>(LogicCounterSettings{0, 3, 0})));
  rig.probe(2, "p");
  for (int i = 0; i < 4; ++i) rig.runtime.deliver(id(1), "add", {});  // the 4th finds it at 3
  EXPECT_EQ(inputs_of(rig.log), (std::vector<std::string>{"changed", "changed", "changed", "max"}));
  rig.log.received.clear();
  rig.runtime.deliver(id(1), "subtract", {LogicActivator{}, 10.0});  // clamped to 0
  rig.runtime.deliver(id(1), "set", {LogicActivator{}, 0.0});        // no change: nothing
  rig.runtime.deliver(id(1), "set", {LogicActivator{}, 2.0});
  EXPECT_EQ(inputs_of(rig.log), (std::vector<std::string>{"changed", "min", "changed"}));
  EXPECT_FALSE(rig.runtime.deliver(id(1), "set", {}));
  EXPECT_EQ(rig.runtime.drops()[LogicDrop::bad_parameter], 1u);
  const auto* tally = dynamic_cast<const LogicCounter*>(rig.runtime.behaviour(id(1), 0));
  ASSERT_NE(tally, nullptr);
  EXPECT_EQ(tally->value(), 2.0);
}

TEST(LogicGate, FiresOnlyOnAnEdge) {
  LogicRig rig;
  rig.node(1, "gate", {wire("onTrue", {logic_call("p", "true")}), wire("onFalse", {logic_call("p", "false")})},
           behaviours_of(std::make_unique<LogicGate>()));
  rig.probe(2, "p");
  rig.runtime.deliver(id(1), "setFalse", {});  // already false: no edge
  rig.runtime.deliver(id(1), "setTrue", {});
  rig.runtime.deliver(id(1), "setTrue", {});
  rig.runtime.deliver(id(1), "set", {LogicActivator{}, 5.0});
  rig.runtime.deliver(id(1), "toggle", {});
  rig.runtime.deliver(id(1), "set", {LogicActivator{}, 0.0});
  rig.runtime.deliver(id(1), "set", {LogicActivator{}, 1.0});
  EXPECT_EQ(inputs_of(rig.log), (std::vector<std::string>{"true", "false", "true"}));
}

// One object, two components: an input goes to each behaviour that has it, and either may fire the
// node's outputs (the seed's "a button that moves is one entity with two sections").
TEST(LogicBehaviours, OneNodeCarriesSeveralBehaviours) {
  LogicRig rig;
  rig.node(1, "both", {wire("onTrigger", {logic_call("p", "relayed")}), wire("onTrue", {logic_call("p", "opened")})},
           behaviours_of(std::make_unique<LogicRelay>(), std::make_unique<LogicGate>()));
  rig.probe(2, "p");
  EXPECT_TRUE(rig.runtime.deliver(id(1), "trigger", {}));
  EXPECT_TRUE(rig.runtime.deliver(id(1), "toggle", {}));  // the relay's toggle and the gate's
  EXPECT_EQ(inputs_of(rig.log), (std::vector<std::string>{"relayed", "opened"}));
  EXPECT_FALSE(rig.runtime.deliver(id(1), "trigger", {}));  // the relay is now off
}

}  // namespace
}  // namespace tickwire::test
