// 300 bots against 256 seats: the first 256 are seated at once, the other 44 wait; seated bots
// leave at random times in random order and come back to the back of the line, waiters refresh at
// random times, promoted bots claim within the window. Every queued bot is seated in exactly the
// order it joined the line, none skipped and none twice, and every refresh keeps its place (the
// LineWatch checks positions after every call). Driven by a seeded Rng; a failure names its seed.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "tickwire/core/rng.h"
#include "watched_queue.h"

namespace tickwire::fleet {
namespace {

constexpr uint32_t kSeats = 256;
constexpr ActorId kBots = 300;
constexpr ActorId kFirstBot = 1000;
constexpr Duration kStep = Duration::milliseconds(100);
constexpr MonoTime kArrivalsEnd = MonoTime::from_ns(5'000'000'000);
constexpr MonoTime kRejoinsEnd = MonoTime::from_ns(480'000'000'000);  // 8 min: then bots go for good
constexpr MonoTime kRunEnd = MonoTime::from_ns(900'000'000'000);      // 15 min: every bot has gone

AdmissionQueueConfig crowd_config() {
  AdmissionQueueConfig config;
  config.capacity = kSeats;
  config.max_line = 1024;
  config.waiter_timeout = Duration::seconds(30);
  config.claim_window = Duration::seconds(20);
  return config;
}

enum class BotState { away, waiting, offered, seated, gone };

struct Bot {
  ActorId id = 0;
  BotState state = BotState::away;
  MonoTime next;  // when it acts next
};

class Crowd {
 public:
  explicit Crowd(uint64_t seed) : rng_(seed), queue_(crowd_config()) {
    for (ActorId i = 0; i < kBots; ++i) bots_.push_back(Bot{kFirstBot + i, BotState::away, after(MonoTime{}, 0, 5'000)});
  }

  void run_until(MonoTime end) {
    for (; now_ <= end && !queue_.violation(); now_ += kStep) step();
  }

  const test::WatchedQueue& queue() const { return queue_; }
  const std::vector<ActorId>& first_requests() const { return first_requests_; }
  uint64_t unexpected() const { return unexpected_; }

 private:
  void step() {
    std::vector<std::size_t> order(bots_.size());
    std::iota(order.begin(), order.end(), 0);
    for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng_.below(i)]);  // a random order each step
    for (std::size_t i : order) act(bots_[i]);
    queue_.update(now_);
    adopt_promotions();
    if (queue_.queue().seats_taken() > kSeats) ++unexpected_;
  }

  void act(Bot& bot) {
    if (bot.next > now_) return;
    switch (bot.state) {
      case BotState::away:
      case BotState::waiting: ask(bot); break;
      case BotState::offered:
        if (!queue_.claim(bot.id, now_)) ++unexpected_;
        bot.state = BotState::seated;
        bot.next = after(now_, 20'000, 120'000);
        break;
      case BotState::seated:
        if (!queue_.release(bot.id, now_)) ++unexpected_;
        adopt_promotions();
        bot.state = now_ < kRejoinsEnd ? BotState::away : BotState::gone;
        bot.next = after(now_, 1'000, 20'000);
        break;
      case BotState::gone: break;
    }
  }

  void ask(Bot& bot) {
    if (now_ <= kArrivalsEnd && bot.state == BotState::away) first_requests_.push_back(bot.id);
    const AdmissionAnswer answer = queue_.request(bot.id, now_);
    adopt_promotions();
    if (answer.standing == protocol::AdmissionStanding::waiting) {
      bot.state = BotState::waiting;
      bot.next = after(now_, 1'000, 10'000);  // well within the 30 s silence timeout
    } else if (answer.standing == protocol::AdmissionStanding::seat_offered) {
      offered(bot);
    } else {
      ++unexpected_;
    }
  }

  void adopt_promotions() {
    for (const Promotion& p : queue_.promoted()) offered(bots_[p.actor - kFirstBot]);
  }
  void offered(Bot& bot) {
    bot.state = BotState::offered;
    bot.next = after(now_, 0, 15'000);  // within the 20 s claim window
  }

  MonoTime after(MonoTime t, int64_t min_ms, int64_t max_ms) { return t + Duration::milliseconds(rng_.between(min_ms, max_ms)); }

  Rng rng_;
  test::WatchedQueue queue_;
  std::vector<Bot> bots_;
  MonoTime now_;
  std::vector<ActorId> first_requests_;  // the bots' first requests, in order
  uint64_t unexpected_ = 0;              // a refused or failed call, or seats past the capacity
};

TEST(AdmissionCrowd, ThreeHundredBotsAgainst256SeatsAreSeatedInTheOrderTheyJoined) {
  for (uint64_t seed : {1ull, 2ull, 3ull, 0xC0FFEEull, 20260902ull}) {
    SCOPED_TRACE(fmt::format("seed {}", seed));
    Crowd crowd(seed);
    crowd.run_until(kArrivalsEnd + Duration::milliseconds(500));
    ASSERT_FALSE(crowd.queue().violation()) << *crowd.queue().violation();
    const AdmissionQueue& queue = crowd.queue().queue();
    // Everyone has asked once: the first 256 hold seats, the last 44 wait in the order they asked.
    ASSERT_EQ(crowd.first_requests().size(), kBots);
    EXPECT_EQ(queue.seated_at_once(), kSeats);
    EXPECT_EQ(queue.line_length(), kBots - kSeats);
    const std::vector<ActorId> last_to_ask(crowd.first_requests().begin() + kSeats, crowd.first_requests().end());
    EXPECT_EQ(crowd.queue().watch().joins(), last_to_ask);

    crowd.run_until(kRunEnd);
    ASSERT_FALSE(crowd.queue().violation()) << *crowd.queue().violation();
    EXPECT_EQ(crowd.unexpected(), 0u);
    // Every join (the 44, then every bot back from a seat) was promoted, in the order of the joins.
    const test::LineWatch& watch = crowd.queue().watch();
    EXPECT_GT(watch.joins().size(), 2 * (kBots - kSeats)) << "bots came back to the line";
    EXPECT_EQ(watch.promotions(), watch.joins());
    EXPECT_GT(watch.refreshes_seen(), watch.joins().size() / 4) << "waiters refreshed their places";
    EXPECT_EQ(queue.line_length(), 0u);
    EXPECT_EQ(queue.seats_taken(), 0u) << "every bot went in the end";
    EXPECT_EQ(queue.promoted(), watch.joins().size());
    EXPECT_EQ(queue.claimed(), queue.seated_at_once() + queue.promoted()) << "every seat given was claimed";
    EXPECT_EQ(queue.places_lost().total(), 0u);
    EXPECT_EQ(queue.refusals().total(), 0u);
  }
}

}  // namespace
}  // namespace tickwire::fleet
