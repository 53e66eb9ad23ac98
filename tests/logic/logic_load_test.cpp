// Nodes join and leave one at a time: an unload drops what the node had in flight, a reused id never
// receives what its previous holder scheduled, a call to an absent node is silent (and reaches the
// node again when it is back), the queue is capped, and load/unload cycles leave nothing behind.
#include "tickwire/logic/logic_runtime.h"

#include <gtest/gtest.h>

#include <limits>

#include "logic_rig.h"
#include "tickwire/logic/counter.h"
#include "tickwire/logic/relay.h"
#include "tickwire/logic/timer.h"

namespace tickwire::test {
namespace {

LogicWire delayed_toggle(std::string output, std::string target) {
  return wire(std::move(output), {logic_delay(Duration::seconds(1)), logic_call(std::move(target), "toggle")});
}

TEST(LogicLoad, UnloadDropsEveryContinuationTheNodeHadInFlight) {
  LogicRig rig;
  rig.node(1, "button", {delayed_toggle("onPressed", "door")});
  rig.probe(2, "door");
  rig.runtime.fire(id(1), "onPressed", LogicActivator{});
  rig.runtime.fire(id(1), "onPressed", LogicActivator{});
  EXPECT_EQ(rig.runtime.sizes().scheduled, 2u);
  rig.step(5);
  EXPECT_TRUE(rig.runtime.unload(id(1)));
  EXPECT_EQ(rig.runtime.drops()[LogicDrop::unloaded_in_flight], 2u);
  EXPECT_EQ(rig.runtime.sizes().scheduled, 0u);
  rig.step(40);
  EXPECT_TRUE(rig.log.received.empty());
  EXPECT_TRUE(rig.runtime.loaded(id(2)));  // nothing else touched
  EXPECT_FALSE(rig.runtime.unload(id(1)));
}

// Id 5 is a button with a continuation and a running timer; it is unloaded and id 5 is loaded again
// as another node, whose behaviour and wiring would show anything the old node scheduled.
TEST(LogicLoad, AReusedIdNeverReceivesWhatTheOldNodeScheduled) {
  LogicRig rig;
  rig.node(5, "old", {delayed_toggle("onPressed", "door"), wire("onTimer", {logic_call("door", "beat")})},
           behaviours_of(std::make_unique<LogicTimer>(LogicTimerSettings{Duration::milliseconds(500), true, true})));
  rig.probe(2, "door");
  rig.runtime.fire(id(5), "onPressed", LogicActivator{9});
  rig.step(5);
  rig.runtime.unload(id(5));
  // The newcomer: a probe (which would record a wake) wired so that a resumed list would call it.
  rig.node(5, "new", {delayed_toggle("onPressed", "new"), wire("onTimer", {logic_call("new", "beat")})},
           behaviours_of(std::make_unique<Probe>("new", rig.log)));
  rig.step(100);
  EXPECT_TRUE(rig.log.received.empty());
  EXPECT_EQ(rig.runtime.drops()[LogicDrop::unloaded_in_flight], 2u);  // the continuation and the beat
  EXPECT_EQ(rig.runtime.drops()[LogicDrop::stale_generation], 0u);
  // The newcomer's own delays work.
  rig.runtime.fire(id(5), "onPressed", LogicActivator{});
  EXPECT_EQ(rig.ticks_until_received(), 20);
  EXPECT_EQ(rig.log.received.back().node, "new");
}

TEST(LogicLoad, ACallToAnAbsentNodeIsSilentAndReachesItOnceItIsBack) {
  LogicRig rig;
  rig.node(1, "button", {wire("onPressed", {logic_call("door", "toggle")}), delayed_toggle("onLater", "door")});
  rig.runtime.fire(id(1), "onPressed", LogicActivator{});
  EXPECT_TRUE(rig.log.received.empty());
  EXPECT_EQ(rig.runtime.drops()[LogicDrop::absent_target], 1u);
  EXPECT_EQ(rig.runtime.drops().total(), 1u);

  rig.runtime.fire(id(1), "onLater", LogicActivator{3});  // in flight while the door is away...
  rig.step(5);
  rig.probe(2, "door");  // ...and spawned back (a fresh node) before it lands
  EXPECT_EQ(rig.ticks_until_received(), 15);
  EXPECT_EQ(rig.log.received.back().activator, LogicActivator{3});

  rig.runtime.unload(id(2));
  rig.runtime.fire(id(1), "onPressed", LogicActivator{});
  EXPECT_EQ(rig.runtime.drops()[LogicDrop::absent_target], 2u);
  EXPECT_EQ(rig.runtime.sizes().names, 1u);  // "door" left the index with its node
}

TEST(LogicLoad, TheQueueCapRefusesAndCounts) {
  LogicSettings settings = rig_settings();
  settings.limits.max_scheduled = 4;
  LogicRig rig(settings);
  rig.node(1, "button", {delayed_toggle("onPressed", "door")});
  rig.probe(2, "door");
  for (int i = 0; i < 6; ++i) rig.runtime.fire(id(1), "onPressed", LogicActivator{});
  EXPECT_EQ(rig.runtime.sizes().scheduled, 4u);
  EXPECT_EQ(rig.runtime.drops()[LogicDrop::queue_full], 2u);
  rig.step(20);
  EXPECT_EQ(rig.log.received.size(), 4u);
  EXPECT_EQ(rig.runtime.sizes().scheduled, 0u);
}

TEST(LogicLoad, ANodeOverALimitIsRefusedWhole) {
  LogicSettings settings = rig_settings();
  settings.limits.max_nodes = 2;
  settings.limits.max_behaviours_per_node = 1;
  settings.limits.max_actions_per_wire = 2;
  LogicRig rig(settings);
  EXPECT_EQ(rig.node(1, "two", {}, behaviours_of(std::make_unique<LogicRelay>(), std::make_unique<LogicRelay>())),
            LogicLoad::too_many_behaviours);
  EXPECT_EQ(rig.node(1, "long", {wire("o", {logic_call("a", "b"), logic_call("a", "b"), logic_call("a", "b")})}),
            LogicLoad::too_many_actions);
  EXPECT_EQ(rig.node(1, "late", {wire("o", {logic_delay(Duration::seconds(-1))})}), LogicLoad::bad_delay);
  EXPECT_EQ(rig.node(1, std::string(65, 'n'), {}), LogicLoad::name_too_long);
  EXPECT_EQ(rig.node(1, "nan", {wire("o", {logic_call("a", "b", std::numeric_limits<double>::quiet_NaN())})}),
            LogicLoad::bad_parameter);
  EXPECT_EQ(rig.runtime.sizes(), LogicRuntimeSizes{});
  EXPECT_EQ(rig.node(1, "a", {}), LogicLoad::loaded);
  EXPECT_EQ(rig.node(2, "b", {}), LogicLoad::loaded);
  EXPECT_EQ(rig.node(3, "c", {}), LogicLoad::over_node_cap);
  EXPECT_EQ(rig.runtime.loads()[LogicLoad::loaded], 2u);
  EXPECT_EQ(rig.runtime.loads().total(), 8u);
}

// A node that unloads its own source mid-list (through the host, as a despawn could): the rest of
// the list does not run, the node is freed once the run returns.
TEST(LogicLoad, AnUnloadFromInsideARunStopsTheRestOfTheList) {
  LogicRig rig;
  rig.host.take_host_call = [&rig](const LogicHostCall& call) {
    if (call.target != "!world") return false;
    rig.runtime.unload(call.source);
    return true;
  };
  rig.node(1, "crate", {wire("onBreak", {logic_call("p", "first"), logic_call("!world", "despawn"),
                                         logic_call("p", "never")})});
  rig.probe(2, "p");
  rig.runtime.fire(id(1), "onBreak", LogicActivator{});
  ASSERT_EQ(rig.log.received.size(), 1u);
  EXPECT_EQ(rig.log.received[0].input, "first");
  EXPECT_EQ(rig.runtime.drops()[LogicDrop::source_unloaded], 1u);
  EXPECT_FALSE(rig.runtime.loaded(id(1)));
  EXPECT_EQ(rig.runtime.sizes().retired, 0u);
}

// 1,000 spawn/despawn cycles of nodes with work in flight: counted sizes are back to zero each time.
TEST(LogicLoad, AThousandLoadUnloadCyclesLeakNothing) {
  LogicRig rig;
  uint64_t dropped_before = 0;
  for (int cycle = 0; cycle < 1000; ++cycle) {
    rig.node(1, "button", {delayed_toggle("onPressed", "relay")});
    rig.node(2, "relay", {delayed_toggle("onTrigger", "tally")}, behaviours_of(std::make_unique<LogicRelay>()));
    rig.node(3, "beat", {wire("onTimer", {logic_call("tally", "add")})},
             behaviours_of(std::make_unique<LogicTimer>(LogicTimerSettings{Duration::milliseconds(100), true, true})));
    rig.node(4, "tally", {}, behaviours_of(std::make_unique<LogicCounter>(LogicCounterSettings{0, 1000, 0})));
    rig.runtime.fire(id(1), "onPressed", LogicActivator{static_cast<uint64_t>(cycle + 1)});
    rig.runtime.deliver(id(2), "trigger", {});
    rig.step(1 + cycle % 25);
    for (uint32_t n = 1; n <= 4; ++n) ASSERT_TRUE(rig.runtime.unload(id(n)));
    ASSERT_EQ(rig.runtime.sizes(), LogicRuntimeSizes{}) << "cycle " << cycle;
    ASSERT_GT(rig.runtime.drops()[LogicDrop::unloaded_in_flight], dropped_before) << "cycle " << cycle;
    dropped_before = rig.runtime.drops()[LogicDrop::unloaded_in_flight];
  }
  EXPECT_EQ(rig.runtime.loads()[LogicLoad::loaded], 4000u);
  EXPECT_EQ(rig.runtime.drops()[LogicDrop::stale_generation], 0u);
}

}  // namespace
}  // namespace tickwire::test
