// The fleet host's heartbeat thread (directory_presence.h).
#include "directory_presence.h"

#include <fmt/format.h>

#include "tickwire/clock/system_clock.h"

namespace tickwire::cli {

bool listing_differs(const durable::DirectoryProcess& a, const durable::DirectoryProcess& b) {
  return a.state != b.state || a.ops_address != b.ops_address || a.rooms != b.rooms;
}

std::unique_ptr<DirectoryPresence> DirectoryPresence::open(const std::string& url, const durable::FleetDirectoryConfig& config,
                                                           const durable::DirectoryProcess& first, std::string& error) {
  auto opened = durable::open_fleet_directory(url, config);
  if (const durable::StoreFailure* f = durable::store_failure(opened)) {
    error = fmt::format("directory {}: {}", url, f->detail);
    return nullptr;
  }
  std::unique_ptr<DirectoryPresence> p(new DirectoryPresence());
  p->directory_ = std::move(std::get<std::unique_ptr<durable::FleetDirectory>>(opened));
  if (auto f = durable::failure_of(p->directory_->register_process(first, wall_now()))) {
    error = fmt::format("directory: register {}: {} {}", first.process, reason_name(f->reason), f->detail);
    return nullptr;
  }
  p->latest_ = first;
  p->registrations_ = 1;
  p->thread_ = std::thread([raw = p.get()] { raw->run(); });
  return p;
}

DirectoryPresence::~DirectoryPresence() { deregister(); }

void DirectoryPresence::publish(const durable::DirectoryProcess& process) {
  std::lock_guard lock(mutex_);
  if (listing_differs(process, latest_)) {
    changed_ = true;
    wake_.notify_one();
  }
  latest_ = process;
}

void DirectoryPresence::deregister() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
    wake_.notify_one();
  }
  if (thread_.joinable()) thread_.join();
  const bool gone = durable::stored(directory_->deregister(latest_.process));
  std::lock_guard lock(mutex_);
  deregistered_ = gone;
}

void DirectoryPresence::run() {
  const Duration interval = durable::heartbeat_interval(directory_->config());
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    wake_.wait_for(lock, std::chrono::nanoseconds(interval.ns()), [this] { return stopping_ || changed_; });
    if (stopping_) break;
    changed_ = false;
    const durable::DirectoryProcess state = latest_;
    lock.unlock();
    durable::StoreStatus beat = directory_->heartbeat(state, wall_now());
    bool registered = false;
    if (const durable::StoreFailure* f = durable::store_failure(beat); f && f->reason == durable::StoreRefusal::not_registered) {
      beat = directory_->register_process(state, wall_now());  // swept while cut off: say so again
      registered = true;
    }
    const durable::StoreFailure* failed = durable::store_failure(beat);
    lock.lock();
    if (failed != nullptr) {
      ++failures_;
      last_failure_ = fmt::format("{} {}", reason_name(failed->reason), failed->detail);
    } else {
      ++heartbeats_;
      if (registered) ++registrations_;
    }
  }
}

nlohmann::json DirectoryPresence::stats_json() const {
  std::lock_guard lock(mutex_);
  nlohmann::json j = {{"heartbeats", heartbeats_}, {"failures", failures_}, {"registrations", registrations_},
                      {"deregistered", deregistered_}};
  if (!last_failure_.empty()) j["lastFailure"] = last_failure_;
  return j;
}

}  // namespace tickwire::cli
