// The interpolator's surface: seeding from the netcode contract, the per-profile delays, the
// overlay line, the report log (only when something held or snapped), live tuning, the time
// scale, lifecycle by presence, refused snapshots, and reset on leaving a session.
#include "tickwire/client/remote_interpolator.h"

#include <gtest/gtest.h>
#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/spdlog.h>

#include <limits>
#include <memory>
#include <vector>

#include "tickwire/protocol/netcode_contract.h"

namespace tickwire {
namespace {

const EntityNetHandle kA = EntityNetHandle::make(0, 1);
const EntityNetHandle kB = EntityNetHandle::make(0, 2);
constexpr Duration kFrame = Duration::nanoseconds(1'000'000'000 / 60);  // one tick of frame time

EntitySample at_x(EntityNetHandle entity, double x) {
  EntitySample s;
  s.entity = entity;
  s.position_m.x = static_cast<float>(x);
  s.bits = static_cast<uint8_t>(x);
  return s;
}

// Feeds ticks [from, to) of entity kA moving 1 m per tick.
void feed(RemoteInterpolator& interp, int64_t from, int64_t to) {
  for (int64_t tick = from; tick < to; ++tick) {
    ASSERT_TRUE(interp.on_snapshot(Tick::from_value(tick), std::vector{at_x(kA, double(tick))}));
  }
}

// An even stream: one tick per frame, `frames` frames starting at tick `first`.
MonoTime run_even(RemoteInterpolator& interp, MonoTime now, int64_t first, int64_t frames) {
  for (int64_t i = 0; i < frames; ++i) {
    feed(interp, first + i, first + i + 1);
    interp.frame(now);
    now += kFrame;
  }
  return now;
}

std::shared_ptr<spdlog::logger> capture(std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt>& sink) {
  sink = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(64);
  return std::make_shared<spdlog::logger>("interp-test", sink);
}

RoomPolicy room_policy() {
  RoomPolicy policy;
  policy.identity.room_id = "room-1";
  policy.identity.game = "arena";
  policy.identity.deployment = "local";
  policy.identity.content_version = "1";
  policy.identity.environment = "test";
  return policy;
}

TEST(RemoteInterpolator, SettingsFromTheContractGiveTheContractsDelay) {
  for (const uint32_t snapshot_rate : {60u, 30u, 20u}) {
    RoomPolicy policy = room_policy();
    policy.cadence.snapshot_rate_hz = snapshot_rate;
    policy.interpolation.max_margin_ticks = 4.0;
    policy.interpolation.max_extrapolation_ms = 250;
    const ContractResolution resolved = resolve_netcode_contract(policy);
    ASSERT_TRUE(resolved.ok()) << resolved.issue.field;
    const InterpSettings settings = InterpSettings::from_contract(*resolved.contract);
    EXPECT_TRUE(interp_settings_valid(settings));
    EXPECT_EQ(settings.max_extrapolation, Duration::milliseconds(250));
    EXPECT_DOUBLE_EQ(settings.max_margin_ticks, 4.0);
    const RemoteInterpolator interp(settings, MonoTime{});
    EXPECT_EQ(interp.delay_ticks(), static_cast<int64_t>(resolved.contract->interp_delay_ticks)) << snapshot_rate;
  }
}

TEST(RemoteInterpolator, ProfilesOrderTheirDelaysHugStandardDoubled) {
  const InterpSettings settings;
  EXPECT_EQ(profile_base_delay_ticks(InterpProfile::hug_newest, settings.interp_ticks()), 1);
  EXPECT_EQ(profile_base_delay_ticks(InterpProfile::standard, settings.interp_ticks()), 3);
  EXPECT_EQ(profile_base_delay_ticks(InterpProfile::doubled, settings.interp_ticks()), 5);
  EXPECT_EQ(profile_base_delay_ticks(InterpProfile::standard, 2.5), 4);
  EXPECT_EQ(profile_base_delay_ticks(InterpProfile::doubled, 2.5), 7);
  EXPECT_EQ(delay_ceiling_ticks(16, settings), 12) << "three quarters of a 16-tick ring";
  EXPECT_EQ(delay_ceiling_ticks(32, settings), 12) << "3 + 8 + 1: a bigger ring buys room for a stall, not delay";
  EXPECT_EQ(interp_profile_name(InterpProfile::hug_newest), "hug_newest");

  RemoteInterpolator interp(settings, MonoTime{});
  EXPECT_LT(interp.delay_ticks(InterpProfile::hug_newest), interp.delay_ticks(InterpProfile::standard));
  EXPECT_LT(interp.delay_ticks(InterpProfile::standard), interp.delay_ticks(InterpProfile::doubled));
  // Held frames earn margin: every profile moves back together, the order kept.
  MonoTime now = run_even(interp, MonoTime{}, 0, 10);
  for (int i = 0; i < 40; ++i) {  // a stall: frames without snapshots hold
    interp.frame(now);
    now += kFrame;
  }
  EXPECT_GT(interp.counters().held_frames, 0u);
  const int64_t margin = static_cast<int64_t>(settings.max_margin_ticks);
  EXPECT_EQ(interp.delay_ticks(InterpProfile::hug_newest), 1 + margin);
  EXPECT_EQ(interp.delay_ticks(InterpProfile::standard), 3 + margin);
  EXPECT_EQ(interp.delay_ticks(InterpProfile::doubled), 5 + margin);
}

TEST(RemoteInterpolator, TheDelayStaysUnderTheCeilingDerivedFromTheRing) {
  InterpSettings settings;
  settings.max_margin_ticks = 30.0;
  settings.margin_growth_ticks = 5.0;
  RemoteInterpolator interp(settings, MonoTime{});
  MonoTime now = run_even(interp, MonoTime{}, 0, 10);
  for (int i = 0; i < 40; ++i) {
    interp.frame(now);
    now += kFrame;
  }
  EXPECT_EQ(interp.delay_ticks(), delay_ceiling_ticks(settings.buffer_ticks, settings));
  EXPECT_EQ(interp.delay_ticks(), 24) << "a 30-tick margin: three quarters of the 32-tick ring";
}

TEST(RemoteInterpolator, TheOverlayLineShowsDelayMarginHeldSnapsAndBurst) {
  RemoteInterpolator interp(InterpSettings{}, MonoTime{});
  EXPECT_EQ(interp.overlay_line(), "interp 3 t (+0.0) held 0 snaps 0 burst 0");
  feed(interp, 0, 5);  // five snapshots before one frame
  interp.frame(MonoTime{});
  EXPECT_EQ(interp.overlay_line(), "interp 3 t (+0.0) held 0 snaps 0 burst 5");
  MonoTime now = MonoTime{} + kFrame;
  for (int i = 0; i < 30; ++i) {  // nothing more arrives: the clock catches up and holds
    interp.frame(now);
    now += kFrame;
  }
  const InterpCounters& c = interp.counters();
  EXPECT_GT(c.held_frames, 0u);
  EXPECT_EQ(interp.overlay_line(), format_interp_overlay(interp.delay_ticks(), interp.margin_ticks(), c));
  EXPECT_NE(interp.overlay_line().find("held " + std::to_string(c.held_frames)), std::string::npos);
}

TEST(RemoteInterpolator, LogsEveryIntervalOnlyWhenSomethingHeldOrSnapped) {
  std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> sink;
  InterpSettings settings;
  settings.report_interval = Duration::seconds(1);
  RemoteInterpolator interp(settings, MonoTime{}, capture(sink));
  MonoTime now = run_even(interp, MonoTime{}, 0, 60 * 5);  // 5 clean seconds
  EXPECT_EQ(interp.counters().report_lines, 0u);
  EXPECT_TRUE(sink->last_formatted().empty());
  for (int i = 0; i < 30; ++i) {  // half a second of nothing: held frames
    interp.frame(now);
    now += kFrame;
  }
  now = run_even(interp, now, 60 * 5 + 30, 60 * 4);  // the stream resumes (the stall's ticks lost)
  const uint64_t lines = interp.counters().report_lines;
  EXPECT_GE(lines, 1u);
  EXPECT_LE(lines, 2u) << "one line per interval that saw trouble";
  EXPECT_EQ(sink->last_formatted().size(), lines);
  EXPECT_NE(sink->last_formatted().front().find("held frames"), std::string::npos);
  now = run_even(interp, now, 60 * 9 + 30, 60 * 3);  // calm again: silence
  EXPECT_EQ(interp.counters().report_lines, lines);
}

TEST(RemoteInterpolator, SettingsAreLiveTunable) {
  const MonoTime start;
  RemoteInterpolator interp(InterpSettings{}, start);
  MonoTime now = run_even(interp, start, 0, 60 * 10);  // settled at the 3-tick delay
  InterpSettings wider = interp.settings();
  wider.interp_seconds = 4.0 / 60.0;
  ASSERT_TRUE(interp.set_settings(wider, now));
  EXPECT_EQ(interp.delay_ticks(), 5) << "applies at once";
  const double before = interp.render_tick();
  now = run_even(interp, now, 60 * 10, 10);
  EXPECT_LT(interp.render_tick() - before, 10.0) << "the clock slows toward the wider delay, no jump";
  EXPECT_GT(interp.render_tick() - before, 10.0 * 0.95 - 1e-9);

  InterpSettings invalid = interp.settings();
  invalid.clock.max_rate = 2.0;
  EXPECT_FALSE(interp.set_settings(invalid, now));
  EXPECT_DOUBLE_EQ(interp.settings().clock.max_rate, 0.05);

  InterpSettings bigger_ring = interp.settings();
  bigger_ring.buffer_ticks = 48;
  ASSERT_TRUE(interp.set_settings(bigger_ring, now));
  EXPECT_EQ(interp.timeline().config().buffer_ticks, 32u) << "the ring is read when a session's store is built";
  interp.reset(now);
  EXPECT_EQ(interp.timeline().config().buffer_ticks, 48u);

  InterpSettings manual = interp.settings();
  manual.auto_margin = false;
  ASSERT_TRUE(interp.set_settings(manual, now));
  now = run_even(interp, now, 0, 10);
  for (int i = 0; i < 30; ++i) {
    interp.frame(now);
    now += kFrame;
  }
  EXPECT_GT(interp.counters().held_frames, 0u);
  EXPECT_EQ(interp.margin_ticks(), 0.0) << "autoMargin off: nothing earned";
  EXPECT_EQ(interp.delay_ticks(), 5);
}

TEST(RemoteInterpolator, TheClockRunsOnFrameTimeTimesTimescale) {
  RemoteInterpolator interp(InterpSettings{}, MonoTime{});
  feed(interp, 0, 40);
  interp.frame(MonoTime{});
  const double placed = interp.render_tick();
  EXPECT_DOUBLE_EQ(placed, 39.0 - 12.0) << "placed at the delay ceiling behind the newest tick";
  const InterpFrame f = interp.frame(MonoTime{} + kFrame * 4, 0.5);
  EXPECT_NEAR(f.step.advanced_ticks, 2.0 * f.step.rate, 1e-6);
  EXPECT_DOUBLE_EQ(f.step.rate, 1.05) << "far behind its goal: the +5% clamp";
  const InterpFrame paused = interp.frame(MonoTime{} + kFrame * 8, 0.0);
  EXPECT_DOUBLE_EQ(paused.step.advanced_ticks, 0.0);
}

TEST(RemoteInterpolator, PresenceInTheSnapshotIsTheLifecycle) {
  RemoteInterpolator interp(InterpSettings{}, MonoTime{});
  for (int64_t tick = 0; tick < 40; ++tick) {
    std::vector<EntitySample> samples{at_x(kA, double(tick))};
    if (tick >= 20 && tick < 30) samples.push_back(at_x(kB, double(tick)));
    ASSERT_TRUE(interp.on_snapshot(Tick::from_value(tick), samples));
  }
  interp.frame(MonoTime{});  // placed at 27
  EXPECT_EQ(interp.sample(kB).state, SampleState::interpolated);
  EXPECT_EQ(interp.sample(kB, InterpProfile::hug_newest).state, SampleState::held) << "hug is at 29 already";
  const InterpSample doubled = interp.sample(kB, InterpProfile::doubled);
  EXPECT_EQ(doubled.state, SampleState::interpolated);
  EXPECT_FLOAT_EQ(doubled.sample.position_m.x, 25.0f) << "doubled draws two ticks further back";
  MonoTime now = MonoTime{};
  const Duration small = kFrame / 10;
  while (interp.render_tick() < 29.5) {
    now += small;
    interp.frame(now);
  }
  const InterpSample leaving = interp.sample(kB);
  EXPECT_EQ(leaving.state, SampleState::held) << "its last snapshot: drawn there until it passes";
  EXPECT_FLOAT_EQ(leaving.sample.position_m.x, 29.0f);
  while (interp.render_tick() < 30.0) {
    now += small;
    interp.frame(now);
  }
  EXPECT_EQ(interp.sample(kB).state, SampleState::absent) << "gone from the snapshot: gone";
  ASSERT_NE(interp.snapshot_at_render_time(), nullptr);
  EXPECT_EQ(interp.snapshot_at_render_time()->size(), 1u);
  EXPECT_EQ(interp.sample(EntityNetHandle::make(0, 99)).state, SampleState::absent);
}

TEST(RemoteInterpolator, RefusedSnapshotsAreCountedNotStored) {
  RemoteInterpolator interp(InterpSettings{}, MonoTime{});
  EntitySample bad = at_x(kA, 1.0);
  bad.position_m.z = std::numeric_limits<float>::infinity();
  EXPECT_FALSE(interp.on_snapshot(Tick::from_value(1), std::vector{bad}));
  const std::vector<EntitySample> too_many(kDefaultMaxEntitiesPerSnapshot + 1, at_x(kA, 1.0));
  EXPECT_FALSE(interp.on_snapshot(Tick::from_value(2), too_many));
  EXPECT_EQ(interp.timeline().drops().total(), 2u);
  EXPECT_EQ(interp.counters().snapshots, 0u);
  const InterpFrame f = interp.frame(MonoTime{});
  EXPECT_FALSE(f.clock_running);
  EXPECT_EQ(interp.sample(kA).state, SampleState::absent);
}

TEST(RemoteInterpolator, ResetStartsTheNextSessionClean) {
  RemoteInterpolator interp(InterpSettings{}, MonoTime{});
  MonoTime now = run_even(interp, MonoTime{}, 1000, 30);
  for (int i = 0; i < 30; ++i) {
    interp.frame(now);
    now += kFrame;
  }
  ASSERT_GT(interp.counters().held_frames, 0u);
  ASSERT_GT(interp.margin_ticks(), 0.0);
  interp.reset(now);
  EXPECT_TRUE(interp.timeline().empty());
  EXPECT_FALSE(interp.clock().placed());
  EXPECT_EQ(interp.margin_ticks(), 0.0);
  EXPECT_EQ(interp.overlay_line(), "interp 3 t (+0.0) held 0 snaps 0 burst 0");
  EXPECT_EQ(interp.sample(kA).state, SampleState::absent);
  // A new server's tick numbers start low again: nothing of the old ring refuses them.
  now = run_even(interp, now, 0, 60);
  EXPECT_EQ(interp.counters().snapshots, 60u);
  EXPECT_EQ(interp.sample(kA).state, SampleState::interpolated);
  EXPECT_EQ(interp.counters().held_frames, 0u);
}

}  // namespace
}  // namespace tickwire
