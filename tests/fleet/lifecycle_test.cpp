// The lifecycle's table: every legal move and every illegal one, each move counted and stamped,
// refused moves counted and leaving the state where it was; the probes' answers built on it
// (/readyz by state and admission, /healthz by the loop's heartbeat, /metrics before and after
// the first copy) with time passed in.
#include <gtest/gtest.h>

#include <set>
#include <utility>

#include "tickwire/fleet/lifecycle.h"
#include "tickwire/fleet/loop_heartbeat.h"
#include "tickwire/fleet/ops_board.h"
#include "tickwire/fleet/prometheus_text.h"

namespace tickwire::fleet {
namespace {

using S = LifecycleState;

MonoTime at_ms(int64_t ms) { return MonoTime::from_ns(ms * 1'000'000); }

// Walks `path` from a fresh lifecycle; whether every move was taken.
bool walk(std::initializer_list<S> path) {
  Lifecycle life(at_ms(0));
  int64_t t = 0;
  for (const S s : path) {
    if (!life.move_to(s, at_ms(++t))) return false;
  }
  return true;
}

TEST(Lifecycle, OnlyTheTablesMovesAreLegal) {
  const std::set<std::pair<S, S>> legal = {
      {S::starting, S::ready},  {S::starting, S::draining},  {S::starting, S::stopped},
      {S::ready, S::allocated}, {S::ready, S::draining},     {S::ready, S::stopped},
      {S::allocated, S::ready}, {S::allocated, S::draining}, {S::allocated, S::stopped},
      {S::draining, S::stopped},
  };
  for (std::size_t f = 0; f < kLifecycleStates; ++f) {
    for (std::size_t t = 0; t < kLifecycleStates; ++t) {
      const auto from = static_cast<S>(f), to = static_cast<S>(t);
      EXPECT_EQ(lifecycle_move_legal(from, to), legal.count({from, to}) == 1)
          << reason_name(from) << " -> " << reason_name(to);
    }
  }
}

TEST(Lifecycle, AServersLifeAndItsCountsAndStamps) {
  Lifecycle life(at_ms(5));
  EXPECT_EQ(life.state(), S::starting);
  EXPECT_EQ(life.entries(S::starting), 1u);
  EXPECT_EQ(life.entered_at(S::starting), at_ms(5));
  EXPECT_FALSE(life.entered_at(S::ready).has_value());
  ASSERT_TRUE(life.move_to(S::ready, at_ms(10)));
  ASSERT_TRUE(life.move_to(S::allocated, at_ms(20)));
  ASSERT_TRUE(life.move_to(S::ready, at_ms(30)));  // the room emptied
  ASSERT_TRUE(life.move_to(S::allocated, at_ms(40)));
  ASSERT_TRUE(life.move_to(S::allocated, at_ms(45)));  // already there: no move, nothing counted
  ASSERT_TRUE(life.move_to(S::draining, at_ms(50)));
  ASSERT_TRUE(life.move_to(S::stopped, at_ms(60)));
  EXPECT_EQ(life.state(), S::stopped);
  EXPECT_EQ(life.entries(S::ready), 2u);
  EXPECT_EQ(life.entries(S::allocated), 2u);
  EXPECT_EQ(life.entries(S::draining), 1u);
  EXPECT_EQ(life.entered_at(S::ready), at_ms(30));
  EXPECT_EQ(life.entered_at(S::allocated), at_ms(40));
  EXPECT_EQ(life.entered_at(S::stopped), at_ms(60));
  EXPECT_EQ(life.refused_moves(), 0u);
}

TEST(Lifecycle, IllegalMovesAreRefusedCountedAndLeaveTheStateAlone) {
  Lifecycle life(at_ms(0));
  EXPECT_FALSE(life.move_to(S::allocated, at_ms(1)));  // not before it is ready
  EXPECT_EQ(life.state(), S::starting);
  ASSERT_TRUE(life.move_to(S::ready, at_ms(2)));
  EXPECT_FALSE(life.move_to(S::starting, at_ms(3)));  // never back to starting
  ASSERT_TRUE(life.move_to(S::draining, at_ms(4)));
  EXPECT_FALSE(life.move_to(S::ready, at_ms(5)));      // a drain is one way
  EXPECT_FALSE(life.move_to(S::allocated, at_ms(6)));
  EXPECT_EQ(life.state(), S::draining);
  ASSERT_TRUE(life.move_to(S::stopped, at_ms(7)));
  EXPECT_FALSE(life.move_to(S::draining, at_ms(8)));  // stopped is the end
  EXPECT_EQ(life.state(), S::stopped);
  EXPECT_EQ(life.refused_moves(), 5u);
  EXPECT_EQ(life.entries(S::ready), 1u);
  EXPECT_FALSE(life.entered_at(S::allocated).has_value());
  EXPECT_TRUE(walk({S::stopped}));  // a start that failed
  EXPECT_TRUE(walk({S::draining, S::stopped}));  // SIGTERM while waiting for the lease
  EXPECT_FALSE(walk({S::ready, S::allocated, S::draining, S::ready}));
}

TEST(Lifecycle, AdmitsOnlyReadyOrAllocatedAndWhenTheProcessSaysSo) {
  for (std::size_t i = 0; i < kLifecycleStates; ++i) {
    const auto s = static_cast<S>(i);
    const bool serving = s == S::ready || s == S::allocated;
    EXPECT_EQ(lifecycle_admits(s, true), serving) << reason_name(s);
    EXPECT_FALSE(lifecycle_admits(s, false)) << reason_name(s);
  }
}

TEST(LoopHeartbeat, AliveWhileTheLoopBeatsWithinTheWindow) {
  LoopHeartbeat beat;
  const Duration window = Duration::milliseconds(100);
  EXPECT_FALSE(beat.alive(at_ms(0), window));  // never beaten
  beat.beat(at_ms(1000));
  EXPECT_TRUE(beat.alive(at_ms(1000), window));
  EXPECT_TRUE(beat.alive(at_ms(1100), window));
  EXPECT_FALSE(beat.alive(at_ms(1101), window));
  beat.beat(at_ms(1150));
  EXPECT_TRUE(beat.alive(at_ms(1200), window));
  EXPECT_EQ(beat.beats(), 2u);
}

TEST(OpsBoard, ProbesAnswerFromTheLifecycleTheHeartbeatAndThePublishedCopy) {
  Lifecycle life(at_ms(0));
  LoopHeartbeat beat;
  OpsBoard board(life, beat, OpsBoardConfig{Duration::milliseconds(250), Duration::seconds(2)});
  EXPECT_EQ(board.health(at_ms(0)).status, 503u);
  EXPECT_EQ(board.metrics().status, 503u);  // no copy yet
  HttpResponse ready = board.readiness();
  EXPECT_EQ(ready.status, 503u);
  EXPECT_EQ(ready.body, "starting\n");

  beat.beat(at_ms(10));
  EXPECT_EQ(board.health(at_ms(2010)).status, 200u);
  EXPECT_EQ(board.health(at_ms(2011)).status, 503u);
  EXPECT_EQ(board.health(at_ms(2011)).body, "loop stalled\n");

  EXPECT_TRUE(board.publish_due(at_ms(10)));
  board.publish(at_ms(10), "# HELP a b\n# TYPE a gauge\na 1\n", true);
  EXPECT_FALSE(board.publish_due(at_ms(259)));
  EXPECT_TRUE(board.publish_due(at_ms(260)));
  EXPECT_EQ(board.metrics().status, 200u);
  EXPECT_EQ(board.metrics().content_type, kPrometheusContentType);
  EXPECT_EQ(board.metrics().body, "# HELP a b\n# TYPE a gauge\na 1\n");
  EXPECT_EQ(board.readiness().status, 503u);  // admits, but still starting

  ASSERT_TRUE(life.move_to(S::ready, at_ms(20)));
  EXPECT_EQ(board.readiness().status, 200u);
  EXPECT_EQ(board.readiness().body, "ready\n");
  ASSERT_TRUE(life.move_to(S::allocated, at_ms(30)));
  EXPECT_EQ(board.readiness().body, "allocated\n");
  board.publish(at_ms(300), "", false);  // every seat taken
  EXPECT_EQ(board.readiness().status, 503u);
  EXPECT_EQ(board.readiness().body, "allocated full\n");
  board.publish(at_ms(600), "", true);
  ASSERT_TRUE(life.move_to(S::draining, at_ms(40)));  // at once, whatever the copy says
  EXPECT_EQ(board.readiness().status, 503u);
  EXPECT_EQ(board.readiness().body, "draining\n");

  int64_t now_ms = 50;
  const auto routes = board.routes([&] { return at_ms(now_ms); });
  ASSERT_EQ(routes.size(), 3u);
  EXPECT_EQ(routes[0].path, "/healthz");
  EXPECT_EQ(routes[0].handler({}).status, 200u);
  now_ms = 5000;
  EXPECT_EQ(routes[0].handler({}).status, 503u);  // the clock is read per probe
  EXPECT_EQ(routes[1].path, "/readyz");
  EXPECT_EQ(routes[2].path, "/metrics");
}

}  // namespace
}  // namespace tickwire::fleet
