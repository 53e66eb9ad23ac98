// The swarm for as long as it is given (TigerBeetle's simulator's way: many seeds, each its own
// configuration): seeds from TICKWIRE_SWARM_BASE (default 1) upward until TICKWIRE_SWARM_SECONDS of
// wall time (default 600) or TICKWIRE_SWARM_SEEDS seeds have run (TICKWIRE_SWARM_SEED=N: that seed
// alone). Every failing seed is printed with the command that replays it alone; the count of seeds
// passed closes the run; one failure fails it, and so does a heap between seeds that climbs.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

#include "../swarm_run.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

// What the heap between two seeds may exceed the level after the first by (allocator noise: a few
// hundred KB measured): a run leaking even a few hundred bytes shows within a few thousand seeds.
constexpr std::size_t kSwarmHeapBetweenSeedsSlackBytes = 1u << 20;

uint64_t env_or(const char* name, uint64_t fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::strtoull(value, nullptr, 10) : fallback;
}

TEST(SwarmSoak, SeedsUntilTheBudgetKeepEveryInvariant) {
  const uint64_t one = env_or("TICKWIRE_SWARM_SEED", 0);  // set: that seed alone
  const uint64_t base = one != 0 ? one : env_or("TICKWIRE_SWARM_BASE", 1);
  const uint64_t budget_s = env_or("TICKWIRE_SWARM_SECONDS", 600);
  const uint64_t max_seeds = one != 0 ? 1 : env_or("TICKWIRE_SWARM_SEEDS", std::numeric_limits<uint64_t>::max());
  const auto began = std::chrono::steady_clock::now();
  const auto elapsed_s = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count(); };
  // The heap between seeds (each run destroyed): what outlives a run. From the level after the first
  // (which also holds what the process sets up once), it may vary by what allocators keep, never climb.
  std::size_t heap_after_first = 0, heap_between_most = 0;
  uint64_t passed = 0;
  double simulated_s = 0, wall_s = 0;
  std::vector<uint64_t> failed;
  for (uint64_t seed = base; seed - base < max_seeds && elapsed_s() < static_cast<double>(budget_s); ++seed) {
    const SwarmResult r = run_and_print_swarm(seed);
    const std::size_t heap = heap_in_use();
    if (seed == base) heap_after_first = heap;
    heap_between_most = std::max(heap_between_most, heap);
    simulated_s += r.simulated_s;
    wall_s += r.wall_s;
    if (r.passed()) ++passed;
    else failed.push_back(seed);
  }
  std::printf("[ swarm ] %llu of %llu seeds passed (seeds %llu..%llu, %.0f s simulated in %.0f s)\n",
              static_cast<unsigned long long>(passed), static_cast<unsigned long long>(passed + failed.size()),
              static_cast<unsigned long long>(base), static_cast<unsigned long long>(base + passed + failed.size() - 1),
              simulated_s, wall_s);
  std::printf("[ swarm ] heap between seeds: %zu bytes after the first, at most %zu after any\n", heap_after_first, heap_between_most);
  EXPECT_LE(heap_between_most, heap_after_first + kSwarmHeapBetweenSeedsSlackBytes) << "memory outlives the runs";
  for (const uint64_t seed : failed)
    std::printf("[ swarm ] failed: seed %llu: %s\n", static_cast<unsigned long long>(seed), swarm_reproduce_command(seed).c_str());
  EXPECT_TRUE(failed.empty()) << failed.size() << " seeds failed";
  EXPECT_GT(passed + failed.size(), 0u);
}

}  // namespace
}  // namespace tickwire
