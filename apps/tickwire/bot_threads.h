// `tickwire bot --threads N`: one thread's frame loop caps a bot process on a small host (about
// 100 full clients on one core), so the bots are split round N threads (bot i on thread i % N),
// each its own frame loop over its own bots. What the threads share is read-only (the BotWorld every
// bot's prediction is built from) or behind a lock here: the printed lines and each interval's counts.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include <nlohmann/json.hpp>

#include "bot.h"
#include "tickwire/clock/time.h"
#include "tickwire/world/vec3.h"

namespace tickwire::cli {

inline constexpr uint32_t kMaxBotThreads = 64;

// Every line the bots print, one whole line at a time from any thread.
class BotOutput {
 public:
  void line(const nlohmann::json& j, bool flush = false);

 private:
  std::mutex mutex_;
};

// One thread's part of an interval's progress line: its bots' counts and (with --series) rows.
struct ProgressShare {
  uint32_t welcomed = 0;
  uint64_t corrections = 0;
  std::vector<nlohmann::json> rows;  // series_row of each of its seated bots
  double at_s = 0;
};

// The interval's `bots` line (and `bots_series`) is the sum of every thread's share of that
// interval, printed by whichever thread gives the last share: no thread reads another's clients.
class ProgressBoard {
 public:
  // Intervals waiting for a slower thread's share; past it the oldest is dropped unprinted.
  static constexpr std::size_t kMaxPendingIntervals = 64;

  ProgressBoard(uint32_t threads, uint32_t count, bool series, BotOutput& out)
      : threads_(threads), count_(count), series_(series), out_(out) {}
  // Thread `thread`'s share of interval `interval` (1, 2, ... in order on every thread).
  void give(uint32_t thread, uint64_t interval, ProgressShare share);

 private:
  struct Pending {
    uint64_t interval = 0;
    uint32_t given = 0;
    ProgressShare sum;
  };
  void print(Pending& p);

  uint32_t threads_;
  uint32_t count_;
  bool series_;
  BotOutput& out_;
  std::mutex mutex_;
  std::deque<Pending> pending_;
};

struct BotLoopSettings {
  uint32_t threads = 1;
  double frame_hz = 100;
  double seconds = 30;
  double stats_interval_s = 1;
  uint32_t count = 0;  // the bots (the progress line's "count")
  uint64_t first_client_id = 0;
  bool series = false;
};

// One bot's frame, on the thread that owns it: (bot index, now, seconds since start, that thread's
// scratch for the other pawns it sees).
using BotFrame = std::function<void(uint32_t, MonoTime, double, std::vector<world::Vec3>&)>;
// Run before and after each frame's bots; given only with one thread (--match, --http drive them).
struct BotLoopHooks {
  std::function<void(MonoTime)> before_frames;
  std::function<void(MonoTime)> after_frames;
};

// Runs every thread's loop until --seconds or a stop signal (thread 0 on the caller's); returns when
// all joined, so the caller may read every bot again.
void run_bot_threads(const std::vector<std::unique_ptr<Bot>>& bots, const BotLoopSettings& settings, MonoTime start,
                     const BotFrame& frame, const BotLoopHooks& hooks, BotOutput& out);

}  // namespace tickwire::cli
