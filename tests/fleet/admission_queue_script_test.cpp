// The seeds of fuzz_admission_queue, run as a quick test: thousands of seeded call scripts against
// small queues (lapses, refusals, shrinks and regrowths mixed in), every promise the LineWatch knows
// checked after every call; and the watch itself shown to catch a broken promise.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <vector>

#include "admission_script.h"
#include "tickwire/core/rng.h"

namespace tickwire::fleet {
namespace {

std::vector<uint8_t> random_script(Rng& rng) {
  std::vector<uint8_t> script(2 + 2 * rng.below(200));
  for (uint8_t& byte : script) byte = static_cast<uint8_t>(rng.next_u32());
  return script;
}

TEST(AdmissionScripts, EveryPromiseHoldsUnderSeededCallScripts) {
  Rng rng(0xAD317);
  test::AdmissionScriptOutcome sum;
  for (int i = 0; i < 3000; ++i) {
    const std::vector<uint8_t> script = random_script(rng);
    const test::AdmissionScriptOutcome outcome = test::run_admission_script(script);
    ASSERT_FALSE(outcome.violation) << fmt::format("script {}: {}", i, *outcome.violation);
    sum.calls += outcome.calls;
    sum.promotions += outcome.promotions;
    sum.silent_lapses += outcome.silent_lapses;
    sum.refusals += outcome.refusals;
  }
  // The scripts reach every rule, not only the easy paths.
  EXPECT_GT(sum.calls, 100'000u);
  EXPECT_GT(sum.promotions, 1'000u);
  EXPECT_GT(sum.silent_lapses, 1'000u);
  EXPECT_GT(sum.refusals, 1'000u);
}

TEST(AdmissionScripts, TheWatchCatchesAPromotionOutOfOrder) {
  const AdmissionQueueConfig config = test::script_config(0, 7);
  AdmissionQueue queue(config);
  test::LineWatch watch(queue, config);
  const MonoTime now = MonoTime::from_ns(0);
  for (ActorId actor : {1, 2}) ASSERT_FALSE(watch.answered(actor, queue.request(actor, now), now));
  const test::Violation skipped = watch.promoted({Promotion{2, now + config.claim_window}}, now);
  ASSERT_TRUE(skipped);
  EXPECT_NE(skipped->find("ahead of actor 1"), std::string::npos) << *skipped;
}

TEST(AdmissionScripts, TheWatchCatchesAWaiterThatLostItsPlaceWhileRefreshing) {
  const AdmissionQueueConfig config = test::script_config(0, 7);
  AdmissionQueue queue(config);
  test::LineWatch watch(queue, config);
  const MonoTime now = MonoTime::from_ns(0);
  ASSERT_FALSE(watch.answered(1, queue.request(1, now), now));
  ASSERT_TRUE(queue.leave(1, now));  // behind the watch's back: it was never told
  const test::Violation lost = watch.check(now + Duration::seconds(1));
  ASSERT_TRUE(lost);
  EXPECT_NE(lost->find("without going silent"), std::string::npos) << *lost;
}

}  // namespace
}  // namespace tickwire::fleet
