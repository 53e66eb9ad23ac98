// Two servers contend for one room's lease over 1,000 terms, on each backend's real database, with
// store stalls (one server cut off from the store for up to two terms) and restarts (a server's
// process gone, a new one under a new owner name) injected from a seed. Each step every server
// polls its supervisor, the one with authority journals a write under its fence, and a server
// that held the lease before writes with its old lease too (the zombie a stall or a missed
// renewal leaves). What must hold throughout: never two servers with authority at once; the
// fences of the writes that land never go back (the database refuses every stale one); and
// whenever the holder stalls or restarts, the other server has authority again within two terms.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "backend_stores.h"
#include "stalling_store.h"
#include "support.h"
#include "tickwire/core/rng.h"
#include "tickwire/durable/lease_supervisor.h"

namespace tickwire::durable {
namespace {

constexpr uint32_t kTerms = 1000;
constexpr uint32_t kStepsPerTerm = 4;
const WallTime kT0 = WallTime::from_ns(1'700'000'000'000'000'000);

struct Server {
  std::string name;
  uint32_t restarts = 0;
  std::unique_ptr<test_support::StallingStore> store;
  std::unique_ptr<LeaseSupervisor> supervisor;
  std::optional<Lease> held;  // the lease it last had authority under
  uint64_t stalled_until_step = 0;
};

struct Figures {
  uint64_t stalls = 0, restarts = 0, writes = 0, zombie_refused = 0, zombie_landed = 0, takeovers = 0;
  uint64_t both_with_authority = 0, fence_went_back = 0, unavailable_writes = 0;
  uint64_t longest_gap_steps = 0;  // without any server holding authority
};

class LeaseContention : public ::testing::TestWithParam<std::string> {};

TEST_P(LeaseContention, NeverTwoWritersAndFailoverWithinTwoTerms) {
  const uint64_t seed = test::test_seed(2101);
  test_support::BackendStores stores(GetParam());
  ASSERT_FALSE(stores.url().empty()) << stores.why();
  LeaseSupervisorConfig config;
  const Duration step = config.term / kStepsPerTerm;
  Rng rng(seed);
  std::array<Server, 2> servers;
  const auto start = [&](Server& s) {
    if (!s.store) s.store = std::make_unique<test_support::StallingStore>(stores.open());
    s.supervisor = std::make_unique<LeaseSupervisor>(*s.store, "room.contended", s.name + "#" + std::to_string(s.restarts), config);
  };
  servers[0].name = "A";
  servers[1].name = "B";
  for (Server& s : servers) start(s);
  ASSERT_TRUE(servers[0].store && servers[1].store);

  Figures f;
  uint64_t sequence = 0, newest_fence = 0, gap = 0;
  for (uint64_t n = 0; n < uint64_t{kTerms} * kStepsPerTerm; ++n) {
    const WallTime now = kT0 + step * static_cast<int64_t>(n);
    // Faults, one server at a time: a stall of 1..8 steps (up to two terms), or a restart.
    Server& victim = servers[rng.below(2)];
    Server& other = &victim == &servers[0] ? servers[1] : servers[0];
    if (rng.chance(0.03) && other.stalled_until_step <= n) {
      victim.stalled_until_step = n + 1 + rng.below(8);
      ++f.stalls;
    } else if (rng.chance(0.01)) {
      ++victim.restarts;  // the process is gone: its supervisor and what it held with it
      victim.held.reset();
      start(victim);
      ++f.restarts;
    }
    std::array<bool, 2> authority{};
    for (std::size_t i = 0; i < servers.size(); ++i) {
      Server& s = servers[i];
      s.store->set_stalled(s.stalled_until_step > n);
      authority[i] = s.supervisor->poll(now);
    }
    if (authority[0] && authority[1]) ++f.both_with_authority;
    gap = authority[0] || authority[1] ? 0 : gap + 1;
    f.longest_gap_steps = std::max(f.longest_gap_steps, gap);
    for (std::size_t i = 0; i < servers.size(); ++i) {
      Server& s = servers[i];
      std::optional<Lease> writing_with;
      if (authority[i]) {
        writing_with = *s.supervisor->lease();
        if (!s.held || s.held->fence != writing_with->fence) ++f.takeovers;
        s.held = writing_with;
      } else if (s.held && !s.store->stalled()) {
        writing_with = s.held;  // a zombie: it writes as if it still held the room
      }
      if (!writing_with) continue;
      const StoreStatus wrote = s.store->append(*writing_with, JournalEntry{++sequence, TickEpoch::legacy_v1, 1, {}});
      if (stored(wrote)) {
        if (writing_with->fence < newest_fence) ++f.fence_went_back;
        newest_fence = std::max(newest_fence, writing_with->fence);
        authority[i] ? ++f.writes : ++f.zombie_landed;
      } else if (store_failure(wrote)->reason == StoreRefusal::stale_fence) {
        EXPECT_FALSE(authority[i]) << "a holder with authority refused at step " << n;
        ++f.zombie_refused;
      } else {
        ++f.unavailable_writes;  // stalled while it still had its margin: nothing written
      }
      if (!authority[i] && s.held && !stored(wrote)) s.held.reset();  // the zombie learned
    }
  }
  const double longest_gap_terms = static_cast<double>(f.longest_gap_steps) / kStepsPerTerm;
  std::printf("[ lease ] %s, seed %llu, %u terms: %llu stalls, %llu restarts, %llu takeovers; %llu writes landed under "
              "authority, %llu zombie writes refused by the database (%llu landed: nobody had taken over), %llu cut off by a "
              "stall; never two with authority: %s; fences never back: %s; longest gap without a writer %.2f terms\n",
              GetParam().c_str(), static_cast<unsigned long long>(seed), kTerms, static_cast<unsigned long long>(f.stalls),
              static_cast<unsigned long long>(f.restarts), static_cast<unsigned long long>(f.takeovers),
              static_cast<unsigned long long>(f.writes), static_cast<unsigned long long>(f.zombie_refused),
              static_cast<unsigned long long>(f.zombie_landed), static_cast<unsigned long long>(f.unavailable_writes),
              f.both_with_authority == 0 ? "yes" : "NO", f.fence_went_back == 0 ? "yes" : "NO", longest_gap_terms);
  EXPECT_EQ(f.both_with_authority, 0u) << "seed=" << seed;
  EXPECT_EQ(f.fence_went_back, 0u) << "seed=" << seed;
  EXPECT_LE(longest_gap_terms, 2.0) << "failover within two terms, seed=" << seed;
  EXPECT_GT(f.stalls, 50u);
  EXPECT_GT(f.restarts, 10u);
  EXPECT_GT(f.zombie_refused, 0u) << "the database refused stale writes";
  EXPECT_GT(f.takeovers, 20u);
}

INSTANTIATE_TEST_SUITE_P(Backends, LeaseContention, ::testing::Values("sqlite", "postgresql"),
                         [](const ::testing::TestParamInfo<std::string>& backend) { return backend.param; });

}  // namespace
}  // namespace tickwire::durable
