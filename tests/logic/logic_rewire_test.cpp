// A loaded node takes new wiring in place (a scene edit rewired one of its outputs): its behaviours
// keep their state and their wakes, the next firing runs the new list, what the old wiring still had
// waiting on a delay is dropped by name, the same wiring changes nothing, and wiring past a limit is
// refused with the node untouched.
#include "tickwire/logic/logic_runtime.h"

#include <gtest/gtest.h>

#include <limits>

#include "logic_rig.h"
#include "tickwire/logic/timer.h"

namespace tickwire::test {
namespace {

TEST(LogicRewire, TheNextFiringRunsTheNewListAndTheBehavioursKeepTheirWakes) {
  LogicRig rig;
  rig.node(1, "clock", {wire("onTimer", {logic_call("a", "beat")})},
           behaviours_of(std::make_unique<LogicTimer>(LogicTimerSettings{Duration::milliseconds(500), true, true})));
  rig.probe(2, "a");
  rig.probe(3, "b");
  EXPECT_GT(rig.ticks_until_received(), 0);
  const int64_t period = rig.ticks_until_received();
  EXPECT_GT(period, 1);
  EXPECT_EQ(rig.log.received.back().node, "a");
  EXPECT_EQ(rig.runtime.rewire(id(1), {wire("onTimer", {logic_call("b", "beat")})}), LogicLoad::loaded);
  EXPECT_EQ(rig.ticks_until_received(), period) << "the timer's wake was kept: its next beat is on time";
  EXPECT_EQ(rig.log.received.back().node, "b");
  ASSERT_NE(rig.runtime.wires(id(1)), nullptr);
  EXPECT_EQ(rig.runtime.wires(id(1))->at(0).actions.size(), 1u);
}

TEST(LogicRewire, WhatTheOldListHadWaitingIsDroppedByNameAndTheSameWiringChangesNothing) {
  LogicRig rig;
  const std::vector<LogicWire> delayed = {wire("onPressed", {logic_delay(Duration::seconds(1)), logic_call("door", "toggle")})};
  rig.node(1, "button", delayed);
  rig.probe(2, "door");
  rig.runtime.fire(id(1), "onPressed", LogicActivator{});
  EXPECT_EQ(rig.runtime.rewire(id(1), delayed), LogicLoad::loaded);
  EXPECT_EQ(rig.runtime.sizes().scheduled, 1u) << "the same wiring: nothing dropped";
  EXPECT_EQ(rig.runtime.rewire(id(1), {wire("onPressed", {logic_call("door", "toggle")})}), LogicLoad::loaded);
  EXPECT_EQ(rig.runtime.drops()[LogicDrop::rewired_in_flight], 1u);
  EXPECT_EQ(rig.runtime.sizes().scheduled, 0u);
  rig.step(100);
  EXPECT_TRUE(rig.log.received.empty()) << "the old list's call never ran";
  rig.runtime.fire(id(1), "onPressed", LogicActivator{});
  ASSERT_EQ(rig.log.received.size(), 1u) << "the new list runs at once";
}

TEST(LogicRewire, WiringPastALimitIsRefusedWithTheNodeUntouched) {
  LogicRig rig;
  rig.node(1, "button", {wire("onPressed", {logic_call("door", "toggle")})});
  const std::vector<LogicWire> before = *rig.runtime.wires(id(1));
  EXPECT_EQ(rig.runtime.rewire(id(1), {wire("onPressed", {logic_delay(Duration::seconds(-1)), logic_call("door", "x")})}),
            LogicLoad::bad_delay);
  EXPECT_EQ(rig.runtime.rewire(id(1), {wire("onPressed", {logic_call("door", "x", std::numeric_limits<double>::infinity())})}),
            LogicLoad::bad_parameter);
  EXPECT_EQ(rig.runtime.rewire(id(1), {wire(std::string(65, 'o'), {})}), LogicLoad::name_too_long);
  EXPECT_EQ(rig.runtime.rewire(id(9), {}), LogicLoad::absent);
  EXPECT_EQ(*rig.runtime.wires(id(1)), before);
  EXPECT_EQ(rig.runtime.wires(id(9)), nullptr);
}

}  // namespace
}  // namespace tickwire::test
