// The reference game's object behaviours on the logic runtime alone: a door's travel and the order
// of its end-of-travel output and its rate channel, the button's latch and reset, the light's
// switch, and a touch volume's edges.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tickwire/logic/logic_runtime.h"
#include "tickwire/world/button_behaviour.h"
#include "tickwire/world/door_behaviour.h"
#include "tickwire/world/light_behaviour.h"
#include "tickwire/world/touch_behaviour.h"

namespace tickwire::world {
namespace {

constexpr Duration kTick = Duration::milliseconds(50);  // 20 Hz

// Writes each object behaviour's state into one component per node, and logs every fired output
// with the component as it stood when the output fired.
class RecordingHost final : public ILogicHost {
 public:
  struct Fired {
    std::string output;
    ObjectComponent seen;
  };
  void state_changed(LogicNodeId node, std::size_t index) override {
    const auto* visible = dynamic_cast<const ObjectBehaviour*>(runtime->behaviour(node, index));
    if (visible != nullptr) visible->write_state(components[node.value]);
  }
  void output_fired(LogicNodeId node, std::string_view output, LogicActivator) override {
    fired.push_back({std::string(output), components[node.value]});
  }
  LogicRuntime* runtime = nullptr;
  std::vector<ObjectComponent> components = std::vector<ObjectComponent>(4);
  std::vector<Fired> fired;
};

struct Rig {
  Rig() {
    host.runtime = &runtime;
    for (ObjectComponent& c : host.components) c.channel_count = 2;
  }
  void load(uint32_t id, std::string name, std::unique_ptr<LogicBehaviour> behaviour, std::vector<LogicWire> wires = {}) {
    LogicBehaviours list;
    list.push_back(std::move(behaviour));
    ASSERT_EQ(runtime.load(LogicNodeSpec{LogicNodeId{id}, std::move(name), std::move(wires)}, std::move(list)),
              LogicLoad::loaded);
  }
  void tick() { runtime.advance(Tick::from_value(++now)); }
  bool deliver(uint32_t id, std::string_view input) { return runtime.deliver(LogicNodeId{id}, input, {}); }
  const DoorBehaviour& door(uint32_t id) { return *dynamic_cast<const DoorBehaviour*>(runtime.behaviour(LogicNodeId{id}, 0)); }

  RecordingHost host;
  LogicRuntime runtime{LogicSettings{kTick, 1.0, {}}, host};
  int64_t now = 0;
};

TEST(DoorBehaviour, TravelsAStepPerTickAndFiresOnOpenedOnArrival) {
  Rig rig;
  rig.load(0, "door", std::make_unique<DoorBehaviour>(DoorSettings{0.25, 0, false}));
  ASSERT_TRUE(rig.deliver(0, DoorBehaviour::kOpen));
  EXPECT_FLOAT_EQ(rig.host.components[0].channels[1], 0.25f) << "the rate is stated the moment it starts";
  EXPECT_FLOAT_EQ(rig.host.components[0].channels[0], 0.0f) << "it moves from the next tick on";
  for (int t = 1; t <= 3; ++t) {
    rig.tick();
    EXPECT_FLOAT_EQ(rig.host.components[0].channels[0], 0.25f * static_cast<float>(t));
    EXPECT_TRUE(rig.host.fired.empty());
  }
  rig.tick();
  EXPECT_EQ(rig.host.components[0].channels[0], 1.0f);
  ASSERT_EQ(rig.host.fired.size(), 1u);
  EXPECT_EQ(rig.host.fired[0].output, DoorBehaviour::kOnOpened);
  EXPECT_EQ(rig.host.components[0].channels[1], 0.0f) << "at rest";
  rig.tick();
  EXPECT_EQ(rig.host.fired.size(), 1u) << "arrival fires once";
  EXPECT_EQ(rig.runtime.sizes().scheduled, 0u) << "a door at rest asks for no wakes";
}

// The world time scale (a world setting) scales each tick's travel: at 0.5 a quarter-per-tick door
// takes eight ticks and states half the rate, at 2 two ticks; a scale change mid-travel takes effect
// on the next step; paused (0) it stands still and stays asked for.
TEST(DoorBehaviour, EachStepTravelsTheWorldTimeTheTickAdvances) {
  for (const auto& [scale, ticks] : {std::pair{0.5, 8}, std::pair{1.0, 4}, std::pair{2.0, 2}}) {
    Rig rig;
    rig.runtime.set_time_scale(scale);
    rig.load(0, "door", std::make_unique<DoorBehaviour>(DoorSettings{0.25, 0, false}));
    ASSERT_TRUE(rig.deliver(0, DoorBehaviour::kOpen));
    EXPECT_FLOAT_EQ(rig.host.components[0].channels[1], static_cast<float>(std::min(0.25 * scale, 1.0))) << scale;
    int taken = 0;
    while (rig.host.fired.empty() && taken < 100) {
      rig.tick();
      ++taken;
    }
    EXPECT_EQ(taken, ticks) << "at time scale " << scale;
    EXPECT_EQ(rig.host.components[0].channels[0], 1.0f);
  }
  Rig rig;
  rig.load(0, "door", std::make_unique<DoorBehaviour>(DoorSettings{0.25, 0, false}));
  ASSERT_TRUE(rig.deliver(0, DoorBehaviour::kOpen));
  rig.tick();
  rig.runtime.set_time_scale(0.0);
  for (int t = 0; t < 5; ++t) rig.tick();
  EXPECT_FLOAT_EQ(rig.host.components[0].channels[0], 0.25f) << "a paused world moves nothing";
  EXPECT_EQ(rig.runtime.sizes().scheduled, 1u) << "the door still heads for open";
  rig.runtime.set_time_scale(0.5);
  rig.tick();
  EXPECT_FLOAT_EQ(rig.host.components[0].channels[0], 0.375f);
}

TEST(DoorBehaviour, TheRateChannelIsWrittenAfterTheEndOfTravelOutputRan) {
  Rig rig;
  // A bouncing platform: arriving open sends it straight back.
  rig.load(0, "lift", std::make_unique<DoorBehaviour>(DoorSettings{0.5, 0, false}),
           {LogicWire{"onOpened", {logic_call("lift", "close")}}});
  ASSERT_TRUE(rig.deliver(0, DoorBehaviour::kOpen));
  rig.tick();
  rig.tick();
  ASSERT_EQ(rig.host.fired.size(), 1u);
  const ObjectComponent& seen = rig.host.fired[0].seen;
  EXPECT_EQ(seen.channels[0], 1.0f) << "the output sees the fraction it arrived at";
  EXPECT_EQ(seen.channels[1], 0.5f) << "and the rate that brought it there";
  EXPECT_EQ(rig.host.components[0].channels[1], -0.5f) << "the tick's final rate already carries the way back";
  rig.tick();
  EXPECT_EQ(rig.host.components[0].channels[0], 0.5f);
  rig.tick();
  EXPECT_EQ(rig.host.components[0].channels[0], 0.0f);
  ASSERT_EQ(rig.host.fired.size(), 2u);
  EXPECT_EQ(rig.host.fired[1].output, DoorBehaviour::kOnClosed);
  EXPECT_EQ(rig.host.components[0].channels[1], 0.0f);
}

TEST(DoorBehaviour, ToggleReversesMidTravelAndAPartialStepLandsExactly) {
  Rig rig;
  rig.load(0, "door", std::make_unique<DoorBehaviour>(DoorSettings{0.3, 0, true}));
  EXPECT_EQ(rig.door(0).use_input(), DoorBehaviour::kToggle);
  ASSERT_TRUE(rig.deliver(0, DoorBehaviour::kToggle));
  rig.tick();
  rig.tick();
  EXPECT_NEAR(rig.door(0).fraction(), 0.6, 1e-12);
  ASSERT_TRUE(rig.deliver(0, DoorBehaviour::kToggle));  // opening -> close
  EXPECT_NEAR(rig.host.components[0].channels[1], -0.3f, 1e-6);
  rig.tick();
  rig.tick();
  EXPECT_EQ(rig.door(0).fraction(), 0.0) << "the last step is what remained";
  ASSERT_EQ(rig.host.fired.size(), 1u);
  EXPECT_EQ(rig.host.fired[0].output, DoorBehaviour::kOnClosed);
}

TEST(DoorBehaviour, StepFollowsSpeedDistanceAndTickLength) {
  EXPECT_DOUBLE_EQ(door_step_per_tick(1.0, 2.0, 0.05), 0.025);  // 2 m at 1 m/s: 40 ticks at 20 Hz
  EXPECT_DOUBLE_EQ(door_step_per_tick(100.0, 0.5, 0.05), 1.0);  // never more than the whole way
}

TEST(ButtonBehaviour, APressLatchesFiresOnceAndResetsAfterItsDelay) {
  Rig rig;
  rig.load(0, "button", std::make_unique<ButtonBehaviour>(ButtonSettings{Duration::milliseconds(500), false}));
  ASSERT_TRUE(rig.deliver(0, ButtonBehaviour::kPress));
  EXPECT_EQ(rig.host.components[0].bits & ButtonBehaviour::kPressedBit, ButtonBehaviour::kPressedBit);
  ASSERT_TRUE(rig.deliver(0, ButtonBehaviour::kPress));  // latched: nothing more
  ASSERT_EQ(rig.host.fired.size(), 1u);
  EXPECT_EQ(rig.host.fired[0].output, ButtonBehaviour::kOnPressed);
  for (int t = 1; t < 10; ++t) rig.tick();
  EXPECT_EQ(rig.host.components[0].bits, ButtonBehaviour::kPressedBit) << "still held after 9 of its 10 ticks";
  rig.tick();
  EXPECT_EQ(rig.host.components[0].bits, 0);
  ASSERT_EQ(rig.host.fired.size(), 2u);
  EXPECT_EQ(rig.host.fired[1].output, ButtonBehaviour::kOnReleased);
  ASSERT_TRUE(rig.deliver(0, ButtonBehaviour::kPress));
  EXPECT_EQ(rig.host.fired.size(), 3u) << "released, it presses again";
}

TEST(ButtonBehaviour, WithoutAResetDelayItStaysPressedUntilReset) {
  Rig rig;
  rig.load(0, "button", std::make_unique<ButtonBehaviour>(ButtonSettings{}));
  ASSERT_TRUE(rig.deliver(0, ButtonBehaviour::kPress));
  for (int t = 0; t < 100; ++t) rig.tick();
  EXPECT_EQ(rig.host.components[0].bits, ButtonBehaviour::kPressedBit);
  ASSERT_TRUE(rig.deliver(0, ButtonBehaviour::kReset));
  EXPECT_EQ(rig.host.components[0].bits, 0);
}

TEST(LightBehaviour, SwitchesItsBitAndFiresOnlyOnEdges) {
  Rig rig;
  rig.host.components[0].bits = 0x80;  // a bit the light does not own stays as it is
  rig.load(0, "lamp", std::make_unique<LightBehaviour>(false));
  ASSERT_TRUE(rig.deliver(0, LightBehaviour::kTurnOff));
  EXPECT_TRUE(rig.host.fired.empty()) << "already off: no edge";
  ASSERT_TRUE(rig.deliver(0, LightBehaviour::kToggle));
  EXPECT_EQ(rig.host.components[0].bits, 0x81);
  ASSERT_TRUE(rig.deliver(0, LightBehaviour::kTurnOn));
  ASSERT_TRUE(rig.deliver(0, LightBehaviour::kTurnOff));
  EXPECT_EQ(rig.host.components[0].bits, 0x80);
  ASSERT_EQ(rig.host.fired.size(), 2u);
  EXPECT_EQ(rig.host.fired[0].output, LightBehaviour::kOnTurnedOn);
  EXPECT_EQ(rig.host.fired[1].output, LightBehaviour::kOnTurnedOff);
  EXPECT_FALSE(rig.deliver(0, DoorBehaviour::kOpen)) << "not a light's input";
}

TEST(TouchBehaviour, CountsPawnsInAndOutAndShowsAPlateHeldDown) {
  Rig rig;
  rig.load(0, "plate", std::make_unique<TouchBehaviour>(TouchSettings{{1, 0.25f, 1}, true}));
  const auto& plate = *dynamic_cast<const TouchBehaviour*>(rig.runtime.behaviour(LogicNodeId{0}, 0));
  EXPECT_TRUE(plate.contains({0, 0, 0}, {1, 0.25f, -1})) << "faces included";
  EXPECT_FALSE(plate.contains({0, 0, 0}, {1.01f, 0, 0}));
  ASSERT_TRUE(rig.deliver(0, TouchBehaviour::kStartTouch));
  EXPECT_EQ(rig.host.components[0].bits, TouchBehaviour::kPressedBit);
  ASSERT_TRUE(rig.deliver(0, TouchBehaviour::kStartTouch));
  ASSERT_TRUE(rig.deliver(0, TouchBehaviour::kEndTouch));
  EXPECT_EQ(rig.host.components[0].bits, TouchBehaviour::kPressedBit) << "one pawn is still on it";
  ASSERT_TRUE(rig.deliver(0, TouchBehaviour::kEndTouch));
  EXPECT_EQ(rig.host.components[0].bits, 0);
  EXPECT_FALSE(rig.deliver(0, TouchBehaviour::kEndTouch)) << "nobody left to leave";
  EXPECT_EQ(rig.runtime.drops()[LogicDrop::bad_parameter], 1u);
  ASSERT_EQ(rig.host.fired.size(), 4u);
  EXPECT_EQ(rig.host.fired[0].output, TouchBehaviour::kOnStartTouch);
  EXPECT_EQ(rig.host.fired[3].output, TouchBehaviour::kOnEndTouch);
}

TEST(TouchBehaviour, ATriggerVolumeShowsNothing) {
  Rig rig;
  rig.load(0, "trigger", std::make_unique<TouchBehaviour>(TouchSettings{{1, 1, 1}, false}));
  ASSERT_TRUE(rig.deliver(0, TouchBehaviour::kStartTouch));
  EXPECT_EQ(rig.host.components[0].bits, 0);
  EXPECT_EQ(rig.host.fired.size(), 1u);
}

}  // namespace
}  // namespace tickwire::world
