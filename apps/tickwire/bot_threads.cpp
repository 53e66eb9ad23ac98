// The bots' frame loops, one per thread (bot_threads.h): each thread sleeps to its own next frame,
// runs only its own bots, and hands its interval counts to the board; the caller's thread is thread 0.
#include "bot_threads.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <thread>

#include "bot_report.h"
#include "stop_signals.h"
#include "tickwire/client.h"
#include "tickwire/clock/system_host_timer.h"
#include "tickwire/core/assert.h"

namespace tickwire::cli {

void BotOutput::line(const nlohmann::json& j, bool flush) {
  const std::string text = j.dump();
  const std::lock_guard<std::mutex> lock(mutex_);
  std::printf("%s\n", text.c_str());
  if (flush) std::fflush(stdout);
}

void ProgressBoard::give(uint32_t thread, uint64_t interval, ProgressShare share) {
  const std::lock_guard<std::mutex> lock(mutex_);
  auto it = std::find_if(pending_.begin(), pending_.end(), [&](const Pending& p) { return p.interval == interval; });
  if (it == pending_.end()) {
    if (pending_.size() == kMaxPendingIntervals) pending_.pop_front();
    pending_.push_back(Pending{interval, 0, {}});
    it = std::prev(pending_.end());
  }
  Pending& p = *it;
  ++p.given;
  p.sum.welcomed += share.welcomed;
  p.sum.corrections += share.corrections;
  if (thread == 0 || p.given == 1) p.sum.at_s = share.at_s;  // the line's time is thread 0's
  for (nlohmann::json& row : share.rows) p.sum.rows.push_back(std::move(row));
  if (p.given < threads_) return;
  print(p);
  pending_.erase(it);
}

void ProgressBoard::print(Pending& p) {
  out_.line({{"type", "bots"}, {"t", p.sum.at_s}, {"welcomed", p.sum.welcomed}, {"corrections", p.sum.corrections}, {"count", count_}},
            !series_);
  if (!series_) return;
  std::sort(p.sum.rows.begin(), p.sum.rows.end(),
            [](const nlohmann::json& a, const nlohmann::json& b) { return a[0].get<uint64_t>() < b[0].get<uint64_t>(); });
  out_.line(series_line_of(std::move(p.sum.rows), p.sum.at_s), true);
}

namespace {

// What one thread's loop needs: every bot (it touches only its own), and what all threads share.
struct ThreadLoop {
  const std::vector<std::unique_ptr<Bot>>& bots;
  const BotLoopSettings& settings;
  MonoTime start;
  const BotFrame& frame;
  const BotLoopHooks& hooks;
  ProgressBoard& board;
  std::atomic<bool>& done;  // thread 0 ended: every thread ends
};

// What one thread's loop kept up with, written by it alone and read after the join.
struct ThreadPace {
  uint64_t frames = 0;
  uint64_t late = 0;  // frames that ended past the next one's time (its bots cost more than a frame)
};

// This thread's bots' share of the interval (read by the thread that runs them).
ProgressShare share_of(const ThreadLoop& loop, uint32_t thread, double at_s) {
  ProgressShare share;
  share.at_s = at_s;
  for (std::size_t i = thread; i < loop.bots.size(); i += loop.settings.threads) {
    const Bot& b = *loop.bots[i];
    if (!b.client) continue;
    share.welcomed += b.client->status().phase == ClientPhase::playing ? 1 : 0;
    share.corrections += b.client->stats().corrections;
    if (!loop.settings.series) continue;
    if (auto row = series_row(b, loop.settings.first_client_id + i)) share.rows.push_back(std::move(*row));
  }
  return share;
}

void run_thread(const ThreadLoop& loop, uint32_t thread, ThreadPace& pace) {
  SystemHostTimer timer;
  const BotLoopSettings& s = loop.settings;
  const Duration frame = Duration::from_seconds(1.0 / s.frame_hz);
  const Duration interval = Duration::from_seconds(s.stats_interval_s);
  // The threads' frames spread over one frame, so their bots' packets do not all go at once.
  MonoTime next_frame = loop.start + Duration::from_seconds(thread / (s.frame_hz * s.threads));
  MonoTime next_stats = loop.start + interval;
  uint64_t intervals = 0;
  std::vector<world::Vec3> scratch;  // one bot's view of the other pawns
  const auto sleep_to_next_frame = [&] {
    const MonoTime after = timer.now();
    if (next_frame > after) {
      timer.sleep(next_frame - after);
    } else {
      next_frame = after;
      ++pace.late;
    }
  };
  sleep_to_next_frame();
  pace.late = 0;  // the wait for its first frame is none
  while (!stop_requested() && !loop.done.load() && (timer.now() - loop.start).seconds_f() < s.seconds) {
    const MonoTime now = timer.now();
    const double at_s = (now - loop.start).seconds_f();
    ++pace.frames;
    if (loop.hooks.before_frames) loop.hooks.before_frames(now);
    for (std::size_t i = thread; i < loop.bots.size(); i += s.threads) loop.frame(static_cast<uint32_t>(i), now, at_s, scratch);
    if (loop.hooks.after_frames) loop.hooks.after_frames(now);
    if (now >= next_stats) {
      loop.board.give(thread, ++intervals, share_of(loop, thread, at_s));
      next_stats = next_stats + interval;
    }
    next_frame = next_frame + frame;
    sleep_to_next_frame();
  }
}

}  // namespace

void run_bot_threads(const std::vector<std::unique_ptr<Bot>>& bots, const BotLoopSettings& settings, MonoTime start,
                     const BotFrame& frame, const BotLoopHooks& hooks, BotOutput& out) {
  TW_ASSERT(settings.threads >= 1 && settings.threads <= kMaxBotThreads, "1..kMaxBotThreads bot threads");
  TW_ASSERT(settings.threads == 1 || (!hooks.before_frames && !hooks.after_frames), "hooks run on one thread only");
  ProgressBoard board(settings.threads, settings.count, settings.series, out);
  std::atomic<bool> done{false};
  const ThreadLoop loop{bots, settings, start, frame, hooks, board, done};
  std::vector<ThreadPace> paces(settings.threads);  // each written by its own thread only
  std::vector<std::thread> others;
  for (uint32_t t = 1; t < settings.threads; ++t) others.emplace_back([&loop, &paces, t] { run_thread(loop, t, paces[t]); });
  run_thread(loop, 0, paces[0]);
  done.store(true);
  for (std::thread& t : others) t.join();
  // On stderr, beside the logs (stdout's lines keep their form): whether each thread kept its rate.
  for (uint32_t t = 0; t < settings.threads; ++t)
    std::fprintf(stderr, "tickwire bot: thread %u ran %llu frames, %llu late\n", t, static_cast<unsigned long long>(paces[t].frames),
                 static_cast<unsigned long long>(paces[t].late));
}

}  // namespace tickwire::cli
