// A fleet host's room (hosted_room.h).
#include "hosted_room.h"

#include <algorithm>

#include <fmt/format.h>

#include "tickwire/clock/system_clock.h"
#include "tickwire/server/room.h"
#include "tickwire/server/room_loop.h"
#include "tickwire/server/room_server.h"
#include "tickwire/transport/netcode_server.h"

namespace tickwire::cli {

std::unique_ptr<HostedRoom> HostedRoom::open(const HostedRoomSettings& settings, std::string& error) {
  std::unique_ptr<HostedRoom> room(new HostedRoom(settings));
  room->settings_.server.policy.identity.room_id = settings.durable.room;
  if (!room->reopen(error)) return nullptr;
  return room;
}

HostedRoom::~HostedRoom() { stop_serving(); }

bool HostedRoom::reopen(std::string& error) {
  durable_ = DurableServer::open(settings_.durable, settings_.resume_key, error);
  return durable_ != nullptr;
}

void HostedRoom::stop_serving() {
  if (server_) server_->stop();  // redundant disconnect packets: its players go and resume elsewhere
  server_.reset();
  game_.reset();
  durable_.reset();
}

std::optional<nlohmann::json> HostedRoom::try_serve(MonoTime now, double at_s) {
  if (!waiting_started_) {
    waiting_since_ = now;
    waiting_started_ = true;
  }
  std::string error;
  if (!durable_ && !reopen(error)) {
    return nlohmann::json{{"type", "room_failed"}, {"t", at_s}, {"room", name()}, {"error", error}};
  }
  if (!durable_->try_take(settings_.take, error)) {
    if (error.empty()) return std::nullopt;  // another process holds it (or it has not lived yet)
    return nlohmann::json{{"type", "room_failed"}, {"t", at_s}, {"room", name()}, {"error", error}};
  }
  game_ = std::make_unique<world::ReferenceGame>(*settings_.map);
  ServerOpen opened = Server::open(settings_.server, *game_);
  if (opened && !durable_->keep(*opened.server, error)) opened.server.reset();
  if (!opened.server) {
    const std::string why = opened.error.empty() ? error : opened.error;
    stop_serving();  // the lease goes with the keeper's store; another process may take the room
    return nlohmann::json{{"type", "room_failed"}, {"t", at_s}, {"room", name()}, {"error", why}};
  }
  server_ = std::move(opened.server);
  input_sources_ = InputSources{};  // a new server's sessions count from zero
  ++times_served_;
  waiting_started_ = false;
  return nlohmann::json{{"type", "room_serving"},
                        {"t", at_s},
                        {"room", name()},
                        {"address", server_->public_address()},
                        {"adopted", adopted()},
                        {"waitedSeconds", (mono_now() - waiting_since_).seconds_f()},
                        {"recovered", durable_->recovery_json()}};
}

std::optional<nlohmann::json> HostedRoom::check_authority(double at_s) {
  if (!server_ || durable_->authority()) return std::nullopt;
  nlohmann::json line = {{"type", "room_lost"}, {"t", at_s}, {"room", name()}, {"durable", durable_->stats_json()}};
  stop_serving();
  return line;
}

MonoTime HostedRoom::next_due() const { return server_->room().next_due(); }

uint32_t HostedRoom::run(MonoTime now) {
  const uint32_t ticks = server_->update(now).ticks_run;
  if (ticks > 0) input_sources_.add(server_->clients(), input_);
  return ticks;
}

durable::DirectoryRoom HostedRoom::listing() {
  durable::DirectoryRoom r;
  r.room = name();
  r.public_address = server_->public_address();
  r.seats_total = seats();
  // The admitted sessions' client ids, read slot by slot (not Server::clients(): that builds every
  // client's whole link report, reasons and all, four times a second).
  NetcodeServer& netcode = server_->netcode();
  for (uint32_t slot = 0; slot < netcode.max_clients(); ++slot) {
    if (server_->room_server().admitted(slot)) r.seated.push_back(netcode.client_id(slot));
  }
  std::sort(r.seated.begin(), r.seated.end());
  r.seated.erase(std::unique(r.seated.begin(), r.seated.end()), r.seated.end());
  r.seats_taken = static_cast<uint32_t>(r.seated.size());
  return r;
}

nlohmann::json HostedRoom::stats_json() const {
  nlohmann::json j = {{"room", name()}, {"serving", serving()}, {"adopted", adopted()}, {"timesServed", times_served_}};
  if (!server_) return j;
  const ServerStats s = server_->stats();
  j["address"] = server_->public_address();
  j["clients"] = s.clients;
  j["hz"] = s.tick_rate_hz;
  j["ticks"] = s.ticks_executed;
  j["resumes"] = s.resumes;
  j["held_pawns"] = s.held_pawns;
  input_.put(j);
  j["durable"] = durable_->stats_json();
  return j;
}

bool HostedRoom::drain() {
  if (!server_) return true;
  const bool flushed = durable_->drain(*server_);
  stop_serving();
  return flushed;
}

}  // namespace tickwire::cli
