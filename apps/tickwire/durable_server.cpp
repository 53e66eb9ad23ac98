// The dedicated server's durable side: the lease, the recovery, the keeper, the resume desk.
#include "durable_server.h"

#include <unistd.h>

#include <chrono>
#include <thread>

#include <fmt/format.h>

#include "tickwire/clock/system_clock.h"
#include "tickwire/durable/lease_supervisor.h"
#include "tickwire/durable/room_recovery.h"
#include "tickwire/server/room_server.h"
#include "tickwire/transport/key_file.h"

namespace tickwire::cli {
namespace {

std::optional<durable::TickEpoch> epoch_of(const std::string& word) {
  if (word == "legacy") return durable::TickEpoch::legacy_v1;
  if (word == "canonical") return durable::TickEpoch::canonical_v1;
  if (word == "kernel") return durable::TickEpoch::kernel_v1;
  return std::nullopt;
}

std::unique_ptr<durable::Store> open_or_say(const std::string& url, std::string& error) {
  auto opened = durable::open_store(url);
  if (const durable::StoreFailure* f = durable::store_failure(opened)) {
    error = fmt::format("store {}: {}", url, f->detail);
    return nullptr;
  }
  return std::move(std::get<std::unique_ptr<durable::Store>>(opened));
}

}  // namespace

std::optional<durable::ResumeKey> resume_key_for(const netcode::Key& private_key, const std::string& path, std::string& error) {
  if (path.empty()) return private_key;
  const auto own = netcode::read_private_key_file(path, error);
  if (!own) {
    error = fmt::format("--resume-key: {}", error);
    return std::nullopt;
  }
  return *own;
}

std::unique_ptr<DurableServer> DurableServer::open(const DurableOptions& options, const durable::ResumeKey& resume_key,
                                                   std::string& error) {
  if (!epoch_of(options.epoch)) {
    error = fmt::format("--epoch {}: legacy, canonical or kernel", options.epoch);
    return nullptr;
  }
  std::unique_ptr<DurableServer> d(new DurableServer());
  d->options_ = options;
  d->resume_key_ = resume_key;
  d->keeper_store_ = open_or_say(options.store_url, error);
  d->desk_store_ = d->keeper_store_ ? open_or_say(options.store_url, error) : nullptr;
  if (!d->desk_store_) return nullptr;
  durable::LeaseSupervisorConfig lease;
  lease.term = Duration::from_seconds(options.lease_term_s);
  std::string owner = options.owner;
  if (owner.empty()) {
    char host[128] = {};
    (void)gethostname(host, sizeof host - 1);
    owner = fmt::format("{}:{}", host, getpid());
  }
  d->supervisor_ = std::make_unique<durable::LeaseSupervisor>(*d->keeper_store_, options.room, owner, lease);
  return d;
}

std::unique_ptr<DurableServer> DurableServer::take(const DurableOptions& options, const durable::ResumeKey& resume_key,
                                                   std::string& error, const std::function<bool()>& keep_waiting) {
  std::unique_ptr<DurableServer> d = open(options, resume_key, error);
  if (!d) return nullptr;
  // Another process may hold the room: its lease runs out within a term if it is gone.
  while (!d->try_take(TakePolicy::any_free, error)) {
    if (!error.empty()) return nullptr;
    if (!keep_waiting()) {
      error = fmt::format("room {}: no lease (another process holds it)", options.room);
      return nullptr;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return d;
}

bool DurableServer::try_take(TakePolicy policy, std::string& error) {
  error.clear();
  if (!supervisor_) return keeper_ != nullptr;  // kept already
  if (policy == TakePolicy::adopt_lived) {
    auto holder = keeper_store_->lease_of(options_.room);
    if (const durable::StoreFailure* f = durable::store_failure(holder)) {
      error = fmt::format("room {}: lease: {}", options_.room, f->detail);
      return false;
    }
    if (!std::get<std::optional<durable::Lease>>(holder)) return false;  // never held: its own process will come
  }
  if (!supervisor_->poll(wall_now())) return false;
  const durable::TickEpoch epoch = *epoch_of(options_.epoch);
  auto current = keeper_store_->epoch(options_.room);
  if (const durable::StoreFailure* f = durable::store_failure(current)) {
    error = fmt::format("room {}: epoch: {}", options_.room, f->detail);
    return false;
  }
  if (epoch > std::get<durable::TickEpoch>(current)) {
    if (auto f = durable::failure_of(keeper_store_->advance_epoch(*supervisor_->lease(), epoch))) {
      error = fmt::format("room {}: advance to {}: {}", options_.room, durable::epoch_name(epoch), f->detail);
      return false;
    }
  }
  return true;
}

bool DurableServer::keep(Server& server, std::string& error) {
  durable::RecoveryResult recovered = durable::recover_room(*keeper_store_, options_.room, server.room());
  if (const auto* e = std::get_if<durable::RecoveryError>(&recovered)) {
    error = fmt::format("room {}: recovery: {} {}", options_.room, reason_name(e->reason), e->detail);
    return false;
  }
  recovery_ = std::get<durable::Recovery>(recovered);
  durable::RoomKeeperConfig config;
  config.checkpoint_every_ticks = options_.checkpoint_every_ticks;
  keeper_ = std::make_unique<durable::RoomKeeper>(*keeper_store_, std::move(supervisor_), recovery_, [] { return wall_now(); },
                                                  config);
  desk_ = std::make_unique<durable::StoreResumeDesk>(resume_key_, *desk_store_, options_.room,
                                                     Duration::from_seconds(options_.token_life_s));
  server.room_server().hold_acknowledgements(*keeper_);
  server.room_server().offer_resume(*desk_);
  return true;
}

bool DurableServer::authority() const { return keeper_ && keeper_->authority(); }

bool DurableServer::drain(Server& server) {
  if (!keeper_ || keeper_->stopped()) return false;
  const bool flushed = keeper_->checkpoint_and_flush(server.room(), server.room().last_tick());
  keeper_->release();
  return flushed;
}

nlohmann::json DurableServer::stats_json() const {
  const durable::KeeperStats s = keeper_->stats();
  nlohmann::json j = {{"room", options_.room},
                      {"epoch", durable::epoch_name(s.epoch)},
                      {"in_lane", s.in_lane},
                      {"authority", keeper_->authority()},
                      {"facts", s.facts},
                      {"journal_entries", s.journal_entries},
                      {"journal_bytes", s.journal_bytes},
                      {"checkpoints", s.checkpoints},
                      {"checkpoint_bytes", s.checkpoint_bytes},
                      {"checkpoint_write_ms", s.checkpoint_write_ms},
                      {"store_retries", s.store_retries},
                      {"waiting", s.waiting},
                      {"journaled_through", s.journaled_through}};
  j["stopped"] = s.stopped ? nlohmann::json(reason_name(*s.stopped)) : nlohmann::json(nullptr);
  return j;
}

void DurableServer::write_metrics(fleet::PrometheusText& out) const {
  using fleet::MetricType;
  if (!keeper_) return;  // not kept yet (still recovering)
  const durable::KeeperStats s = keeper_->stats();
  const std::string_view room = options_.room;
  out.family("tickwire_durable_authority", MetricType::gauge, "1 while the keeper holds the room's lease and may advance it.");
  out.sample({{"room", room}}, keeper_->authority() ? 1.0 : 0.0);
  out.family("tickwire_durable_epoch", MetricType::gauge, "1 for the tick stream's epoch.");
  out.sample({{"room", room}, {"epoch", durable::epoch_name(s.epoch)}}, 1.0);
  const struct {
    const char* name;
    MetricType type;
    const char* help;
    double value;
  } figures[] = {
      {"tickwire_durable_facts_total", MetricType::counter, "Facts taken from the game.", static_cast<double>(s.facts)},
      {"tickwire_durable_journal_entries_total", MetricType::counter, "Journal entries written.",
       static_cast<double>(s.journal_entries)},
      {"tickwire_durable_journal_bytes_total", MetricType::counter, "Journal bytes written.", static_cast<double>(s.journal_bytes)},
      {"tickwire_durable_checkpoints_total", MetricType::counter, "Checkpoints written.", static_cast<double>(s.checkpoints)},
      {"tickwire_durable_checkpoint_bytes", MetricType::gauge, "The newest checkpoint's bytes.",
       static_cast<double>(s.checkpoint_bytes)},
      {"tickwire_durable_checkpoint_write_ms", MetricType::gauge, "The newest checkpoint's write and journal trim.",
       s.checkpoint_write_ms},
      {"tickwire_durable_store_retries_total", MetricType::counter, "Writes the store could not take at once.",
       static_cast<double>(s.store_retries)},
      {"tickwire_durable_waiting", MetricType::gauge, "Writes queued for the keeper's writer now.", static_cast<double>(s.waiting)},
  };
  for (const auto& figure : figures) {
    out.family(figure.name, figure.type, figure.help);
    out.sample({{"room", room}}, figure.value);
  }
  out.family("tickwire_durable_stopped", MetricType::gauge, "1 with the reason once the keeper has stopped.");
  if (s.stopped) out.sample({{"room", room}, {"reason", reason_name(*s.stopped)}}, 1.0);
}

nlohmann::json DurableServer::recovery_json() const {
  nlohmann::json j = {{"journal_entries", recovery_.journal_entries},
                      {"facts_replayed", recovery_.facts_replayed},
                      {"facts_refused", recovery_.facts_refused},
                      {"checkpoint_bytes", recovery_.checkpoint_bytes},
                      {"next_sequence", recovery_.next_sequence}};
  j["checkpoint_tick"] = recovery_.checkpoint_tick ? nlohmann::json(recovery_.checkpoint_tick->value()) : nlohmann::json(nullptr);
  return j;
}

}  // namespace tickwire::cli
