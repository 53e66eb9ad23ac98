// A shard's thread: adopt what was handed, run the due rooms, publish each window, wait.
#include "tickwire/fleet/shard_thread.h"

#include <algorithm>

#include "tickwire/core/assert.h"

namespace tickwire {
namespace {

// The longest a shard's thread waits before it looks at what was handed to it.
constexpr Duration kMaxIdleWait = Duration::milliseconds(10);

}  // namespace

ShardThread::ShardThread(uint32_t index, HostTimer& timer, const ShardConfig& config, const DeadlineWaitConfig& wait)
    : index_(index), timer_(timer), shard_(timer, config, &work_), wait_(timer, wait) {
  report_.index = index;
}

ShardThread::~ShardThread() { (void)stop(); }

void ShardThread::start() {
  TW_ASSERT(!thread_.joinable(), "a shard's thread starts once");
  thread_ = std::thread([this] { run(); });
}

std::vector<std::pair<uint32_t, std::unique_ptr<ShardRoom>>> ShardThread::stop() {
  stopping_ = true;
  if (thread_.joinable()) thread_.join();
  take_handed();
  std::vector<std::pair<uint32_t, std::unique_ptr<ShardRoom>>> rooms;
  std::vector<uint32_t> ids;
  for (const ShardRoomState& state : shard_.rooms()) ids.push_back(state.id);
  for (const uint32_t id : ids) rooms.emplace_back(id, shard_.release(id));
  held_ = 0;
  return rooms;
}

void ShardThread::hand(uint32_t id, std::unique_ptr<ShardRoom> room) {
  std::lock_guard lock(mutex_);
  handed_.emplace_back(id, std::move(room));
  ++held_;
}

void ShardThread::move_costliest_to(ShardThread& target) {
  TW_ASSERT(&target != this, "a room moves to another shard");
  std::lock_guard lock(mutex_);
  move_to_ = &target;
}

ShardReport ShardThread::report() const {
  std::lock_guard lock(mutex_);
  return report_;
}

void ShardThread::take_handed() {
  std::vector<std::pair<uint32_t, std::unique_ptr<ShardRoom>>> handed;
  ShardThread* move_to = nullptr;
  {
    std::lock_guard lock(mutex_);
    handed.swap(handed_);
    std::swap(move_to, move_to_);
  }
  uint64_t adopted = 0, refused = 0;
  for (auto& [id, room] : handed) {
    if (shard_.adopt(id, room)) {
      ++adopted;
    } else {
      ++refused;  // destroyed here, counted
      --held_;
    }
  }
  if (adopted + refused > 0) {
    std::lock_guard lock(mutex_);
    adopted_ += adopted;
    refused_ += refused;
  }
  if (move_to == nullptr) return;
  if (const auto id = shard_.costliest_movable()) {
    move_to->hand(*id, shard_.release(*id));
    --held_;
    std::lock_guard lock(mutex_);
    ++moved_out_;
  }
}

void ShardThread::run() {
  uint64_t published = 0;
  while (!stopping_) {
    take_handed();
    const MonoTime next = shard_.step();
    if (shard_.windows() != published) {
      published = shard_.windows();
      std::lock_guard lock(mutex_);
      report_.at = timer_.now();
      report_.rung = shard_.rung();
      report_.signals = shard_.signals();
      report_.rooms = shard_.rooms();
      report_.rung_changes = shard_.rung_changes();
      report_.rungs_engaged = shard_.rungs_engaged();
      report_.room_rungs_engaged = shard_.room_rungs_engaged();
      report_.windows = shard_.windows();
      report_.windows_at_kill_threshold = shard_.windows_at_kill_threshold();
      report_.rooms_moved_out = moved_out_;
      report_.rooms_adopted = adopted_;
      report_.rooms_refused = refused_;
    }
    wait_.wait_until(std::min(next, timer_.now() + kMaxIdleWait));
  }
}

}  // namespace tickwire
