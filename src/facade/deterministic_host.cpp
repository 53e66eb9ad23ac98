// DeterministicHost: a socket, netcode 1.02, the reliability layer and the relay, assembled; its
// counters as named reasons.
#include <optional>

#include "injected_or_own.h"
#include "reason_list.h"
#include "relay_reasons.h"
#include "tickwire/clock/host_timer.h"
#include "tickwire/clock/system_clock.h"
#include "tickwire/clock/system_host_timer.h"
#include "tickwire/deterministic.h"
#include "tickwire/lockstep/lockstep_relay.h"
#include "tickwire/lockstep/relay_host.h"
#include "tickwire/transport/netcode_server.h"
#include "tickwire/transport/reliable_server.h"
#include "tickwire/transport/udp_socket.h"

namespace tickwire {

struct DeterministicHost::Parts {
  std::unique_ptr<DatagramSocket> own_socket;
  DatagramSocket* socket = nullptr;
  std::unique_ptr<SystemHostTimer> own_timer;
  HostTimer* timer = nullptr;
  TimeAnchor anchor;
  NetcodeContract contract;
  std::unique_ptr<NetcodeServer> netcode;
  std::unique_ptr<ReliableServer> reliable;
  std::unique_ptr<lockstep::LockstepRelay> relay;
  std::unique_ptr<lockstep::RelayHost> host;
};

DeterministicHostOpen DeterministicHost::open(const DeterministicHostConfig& config) {
  auto p = std::make_unique<Parts>();
  const ContractResolution resolved = resolve_netcode_contract(config.policy);
  if (!resolved.ok()) return {nullptr, "room policy refused: " + resolved.issue.field + ": " + std::string(reason_name(resolved.issue.error))};
  if (resolved.contract->mode.mode != RuntimeMode::deterministic) {
    return {nullptr, "room policy refused: mode.mode: a DeterministicHost runs deterministic mode"};
  }
  p->contract = *resolved.contract;
  if (config.socket != nullptr) {
    p->socket = config.socket;
  } else {
    const auto bind = Address::parse(config.bind);
    if (!bind) return {nullptr, "bind: not a numeric HOST:PORT: " + config.bind};
    UdpOpenResult opened = UdpSocket::open(*bind);
    if (!opened) return {nullptr, opened.message};
    p->own_socket = std::move(opened.socket);
    p->socket = p->own_socket.get();
  }
  std::optional<Address> public_address = p->socket->local_address();
  if (!config.public_address.empty()) public_address = Address::parse(config.public_address);
  if (!public_address) return {nullptr, "public address: not a numeric HOST:PORT: " + config.public_address};
  p->timer = injected_or_own<HostTimer>(config.timer, p->own_timer);
  p->anchor = TimeAnchor{p->timer->now(), config.timer != nullptr ? config.wall_at_start : wall_now()};
  const lockstep::LockstepSettings settings = lockstep::lockstep_settings(p->contract);
  NetcodeServerConfig netcode;
  netcode.protocol_id = config.protocol_id;
  netcode.private_key = config.private_key;
  netcode.public_address = *public_address;
  netcode.max_clients = settings.policy.seats;
  p->netcode = std::make_unique<NetcodeServer>(*p->socket, netcode);
  p->netcode->start(p->timer->now());
  p->reliable = std::make_unique<ReliableServer>(*p->netcode, lockstep::lockstep_endpoint_config());
  p->relay = std::make_unique<lockstep::LockstepRelay>(settings);
  p->host = std::make_unique<lockstep::RelayHost>(*p->reliable, *p->relay);
  return {std::unique_ptr<DeterministicHost>(new DeterministicHost(std::move(p))), {}};
}

DeterministicHost::DeterministicHost(std::unique_ptr<Parts> parts) : parts_(std::move(parts)) {}
DeterministicHost::~DeterministicHost() = default;

void DeterministicHost::update() {
  const MonoTime now = parts_->timer->now();
  parts_->host->update(now, parts_->anchor.to_wall(now));
}

DeterministicHostStats DeterministicHost::stats() const {
  const lockstep::RelayStats& r = parts_->relay->stats();
  DeterministicHostStats s;
  s.clock_frame = r.clock_frame;
  s.frames_compared = r.frames_compared;
  s.desync_frame = r.desync_frame;
  s.held_at_window_ms = r.held_at_window_ms;
  s.relay_bytes = parts_->host->counters().relay_bytes;
  append_reasons(s.reasons, "netcode.reject", parts_->netcode->rejects());
  append_reasons(s.reasons, "transport", parts_->reliable->transport_counters());
  append_relay_reasons(s.reasons, r);
  if (parts_->host->counters().refused_connections != 0) {
    s.reasons.push_back(ReasonCount{"lockstep.refused_connections", parts_->host->counters().refused_connections});
  }
  return s;
}

const NetcodeContract& DeterministicHost::contract() const { return parts_->contract; }
std::string DeterministicHost::address() const { return parts_->socket->local_address().to_string(); }

}  // namespace tickwire
