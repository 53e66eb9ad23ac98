// The room keeper: the tick thread turns each update's facts into a journal entry and, on the
// checkpoint cadence, the game's state into a checkpoint, and queues both; one writer thread writes
// them in order, renews the lease between writes, and publishes what is written. In-lane (the
// epochs before kernel.v1) the tick thread waits for its own entry; under kernel.v1 it never does.
#include "tickwire/durable/room_keeper.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <span>
#include <utility>

#include "tickwire/core/assert.h"
#include "tickwire/durable/room_records.h"

namespace tickwire::durable {
namespace {

constexpr auto kLeasePollEvery = std::chrono::milliseconds(50);  // the writer's look at the lease when idle

KeeperStop stop_for(const LeaseSupervisor& supervisor) {
  return supervisor.surrenders()[LeaseSurrender::lost] > 0 ? KeeperStop::lease_lost : KeeperStop::lease_ran_out;
}

}  // namespace

RoomKeeper::RoomKeeper(Store& store, std::unique_ptr<LeaseSupervisor> supervisor, const Recovery& recovered, WallClock wall,
                       const RoomKeeperConfig& config)
    : store_(store), supervisor_(std::move(supervisor)), wall_(std::move(wall)), config_(config) {
  TW_ASSERT(supervisor_ && supervisor_->lease(), "a keeper starts under a held lease");
  auto epoch = store_.epoch(supervisor_->room());
  epoch_ = stored(epoch) ? std::get<TickEpoch>(epoch) : TickEpoch::legacy_v1;
  tick_base_ = recovered.checkpoint_tick || recovered.journal_entries > 0 ? recovered.last_tick.value() + 1 : 0;
  next_sequence_ = recovered.next_sequence;
  written_sequence_ = recovered.next_sequence - 1;
  stats_.epoch = epoch_;
  stats_.in_lane = in_lane_ = epoch_ != TickEpoch::kernel_v1;
  authority_until_ = *supervisor_->authority_until();
  fence_ = supervisor_->lease()->fence;
  writer_ = std::thread([this] { run(); });
}

RoomKeeper::~RoomKeeper() {
  {
    std::lock_guard lock(mutex_);
    quitting_ = true;
  }
  wake_.notify_all();
  writer_.join();
}

Tick RoomKeeper::durable_tick(Tick local) const { return Tick::from_value(tick_base_ + local.value()); }

void RoomKeeper::take_facts(DurableState& game, uint64_t update, Tick last_tick) {
  TW_ASSERT(update > last_update_, "updates ascend");
  facts_.clear();
  game.take_facts(facts_);
  if (!facts_.empty()) {
    {
      std::lock_guard lock(mutex_);
      stats_.facts += facts_.size();
    }
    const std::span<const DurableFact> facts(facts_);
    for (std::size_t at = 0; at < facts.size(); at += kMaxFactsPerJournalEntry) {
      JournalEntry entry;
      entry.sequence = next_sequence_++;
      entry.epoch = epoch_;
      entry.payload = encode_fact_batch(durable_tick(last_tick), facts.subspan(at, std::min(kMaxFactsPerJournalEntry, facts.size() - at)));
      pending_.emplace_back(entry.sequence, update);
      submit(Append{std::move(entry)});
    }
    if (in_lane_) wait_until_all_written();
  }
  last_update_ = update;
  const bool due = config_.checkpoint_every_ticks > 0 &&
                   (!last_checkpoint_tick_ || last_tick - *last_checkpoint_tick_ >= config_.checkpoint_every_ticks);
  if (due) checkpoint(game, last_tick);
}

void RoomKeeper::checkpoint(DurableState& game, Tick last_tick) {
  const Tick tick = durable_tick(last_tick);
  Checkpoint checkpoint;
  checkpoint.tick = static_cast<uint64_t>(tick.value());
  checkpoint.journal_sequence = next_sequence_ - 1;  // the state holds every fact taken so far
  checkpoint.payload.reserve(last_checkpoint_bytes_);
  write_checkpoint_head(checkpoint.payload, tick, wall_());
  game.save_state(checkpoint.payload);
  last_checkpoint_bytes_ = checkpoint.payload.size();
  last_checkpoint_tick_ = last_tick;
  last_checkpoint_sequence_ = checkpoint.journal_sequence;
  submit(WriteCheckpoint{std::move(checkpoint)});
}

uint64_t RoomKeeper::durable_through() const {
  uint64_t written = 0;
  {
    std::lock_guard lock(mutex_);
    written = written_sequence_;
  }
  while (!pending_.empty() && pending_.front().first <= written) pending_.pop_front();
  return pending_.empty() ? last_update_ : pending_.front().second - 1;
}

bool RoomKeeper::authority() const {
  const WallTime now = wall_();
  std::lock_guard lock(mutex_);
  // A writer stuck in a store call cannot stop the keeper: the term it last renewed bounds it too.
  return !stats_.stopped.has_value() && now < authority_until_;
}

std::optional<KeeperStop> RoomKeeper::stopped() const {
  std::lock_guard lock(mutex_);
  return stats_.stopped;
}

KeeperStats RoomKeeper::stats() const {
  KeeperStats out;
  {
    std::lock_guard lock(mutex_);
    out = stats_;
    out.waiting = jobs_.size();
    out.journaled_through = written_sequence_;
  }
  out.durable_update = durable_through();
  return out;
}

void RoomKeeper::submit(Job job) {
  {
    std::lock_guard lock(mutex_);
    if (stats_.stopped) return;  // nothing more is written: the room is to stop
    if (jobs_.size() >= config_.max_waiting_writes) {
      stats_.stopped = KeeperStop::backlog_full;
      spdlog::error("durable: room {}: {} writes queued, the store cannot keep up; the room stops advancing here",
                    supervisor_->room(), jobs_.size());
      return;
    }
    jobs_.push_back(std::move(job));
    ++jobs_submitted_;
  }
  wake_.notify_one();
}

void RoomKeeper::wait_until_all_written() {
  std::unique_lock lock(mutex_);
  const uint64_t submitted = jobs_submitted_;
  written_.wait(lock, [&] { return jobs_done_ >= submitted || stats_.stopped.has_value(); });
}

bool RoomKeeper::checkpoint_and_flush(DurableState& game, Tick last_tick) {
  const bool covered = last_checkpoint_tick_ == last_tick && last_checkpoint_sequence_ == next_sequence_ - 1;
  if (!covered) checkpoint(game, last_tick);
  wait_until_all_written();
  return authority();
}

void RoomKeeper::release() {
  submit(Release{});
  wait_until_all_written();
}

void RoomKeeper::stop(KeeperStop why) {
  {
    std::lock_guard lock(mutex_);
    if (stats_.stopped) return;
    stats_.stopped = why;
    jobs_.clear();
  }
  if (why == KeeperStop::released) {
    spdlog::info("durable: room {}: lease released; another process may take the room", supervisor_->room());
  } else {
    spdlog::error("durable: room {} stops ({}): nothing more is written from here; the room stops advancing",
                  supervisor_->room(), reason_name(why));
  }
  written_.notify_all();
}

void RoomKeeper::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait_for(lock, kLeasePollEvery, [&] { return quitting_ || (!jobs_.empty() && !stats_.stopped); });
    if (stats_.stopped) {
      if (quitting_) return;
      continue;
    }
    if (quitting_ && jobs_.empty()) return;
    lock.unlock();
    const bool holding = supervisor_->poll(wall_());
    if (!holding || supervisor_->lease()->fence != fence_) {
      // A surrender is final here, even when the same poll took the lease again under a new fence:
      // another holder may have written the room meanwhile, and this one's state is stale.
      if (supervisor_->lease()) supervisor_->release();
      stop(stop_for(*supervisor_));
      lock.lock();
      continue;
    }
    lock.lock();
    authority_until_ = *supervisor_->authority_until();
    if (jobs_.empty() || stats_.stopped) continue;
    // Stays queued (counted as waiting) until written. Only this thread pops or clears the queue,
    // and the tick thread's pushes at the back leave a reference to the front standing.
    const Job& job = jobs_.front();
    lock.unlock();
    const bool done = write(job);
    lock.lock();
    if (stats_.stopped) continue;  // stop() cleared the queue: `job` is gone
    if (!done) {
      wake_.wait_for(lock, std::chrono::nanoseconds(config_.retry_after.ns()));
      continue;
    }
    if (const auto* append = std::get_if<Append>(&job)) written_sequence_ = append->entry.sequence;
    jobs_.pop_front();
    ++jobs_done_;
    written_.notify_all();
  }
}

bool RoomKeeper::write(const Job& job) {
  if (std::holds_alternative<Release>(job)) {
    supervisor_->release();
    stop(KeeperStop::released);
    return true;
  }
  const Lease& lease = *supervisor_->lease();
  std::optional<WallTime> began;  // a checkpoint's write is timed (stats)
  StoreStatus result;
  if (const auto* append = std::get_if<Append>(&job)) {
    result = store_.append(lease, append->entry);
  } else {
    const Checkpoint& checkpoint = std::get<WriteCheckpoint>(job).checkpoint;
    began = wall_();
    result = store_.write_checkpoint(lease, checkpoint);
    if (stored(result)) result = store_.trim_journal(lease, checkpoint.journal_sequence);
  }
  if (const StoreFailure* f = store_failure(result)) {
    if (f->reason == StoreRefusal::unavailable) {
      std::lock_guard lock(mutex_);
      ++stats_.store_retries;
      return false;
    }
    spdlog::error("durable: room {}: the store refused a write: {} ({})", supervisor_->room(), reason_name(f->reason), f->detail);
    stop(f->reason == StoreRefusal::stale_fence || f->reason == StoreRefusal::lease_lost ? KeeperStop::fence_refused
                                                                                          : KeeperStop::store_refused);
    return true;
  }
  std::lock_guard lock(mutex_);
  if (const auto* append = std::get_if<Append>(&job)) {
    ++stats_.journal_entries;
    stats_.journal_bytes += append->entry.payload.size();
  } else {
    ++stats_.checkpoints;
    stats_.checkpoint_bytes = std::get<WriteCheckpoint>(job).checkpoint.payload.size();
    stats_.checkpoint_write_ms = (wall_() - *began).milliseconds_f();
  }
  return true;
}

}  // namespace tickwire::durable
