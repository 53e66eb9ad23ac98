// ReliableServer's pump: netcode events open/close the per-slot endpoints, received payloads go to
// their slot's endpoint, every endpoint's packets go out as netcode payloads to its slot.
#include "tickwire/transport/reliable_server.h"

#include "tickwire/core/assert.h"

namespace tickwire {
namespace {

// Hands each endpoint packet to the netcode server as one encrypted payload for one slot.
class SlotSink final : public PacketSink {
 public:
  SlotSink(NetcodeServer& server, uint32_t client_index, MonoTime now, ReliableLinkCounters& counters)
      : server_(server), client_index_(client_index), now_(now), counters_(counters) {}
  void on_packet(uint16_t, std::span<const uint8_t> payload) override {
    if (!server_.send_payload(client_index_, payload, now_)) counters_.add(ReliableLinkDrop::send_refused);
  }

 private:
  NetcodeServer& server_;
  uint32_t client_index_;
  MonoTime now_;
  ReliableLinkCounters& counters_;
};

}  // namespace

ReliableServer::ReliableServer(NetcodeServer& server, const EndpointConfig& config)
    : server_(server), config_(config), endpoints_(server.max_clients()), failures_(server.max_clients()) {
  config_.validate();
}

void ReliableServer::update(MonoTime now, WallTime wall_now) {
  receive(now, wall_now);
  send(now);
}

void ReliableServer::receive(MonoTime now, WallTime wall_now) {
  server_.update(now, wall_now);
  take_netcode_events();
  // A slot whose events were lost to the netcode event cap: follow its real state.
  for (uint32_t i = 0; i < endpoints_.size(); ++i) {
    if (endpoints_[i] && !server_.client_connected(i)) close(i);
  }
  deliver_payloads(now);
}

void ReliableServer::send(MonoTime now) {
  write_packets(now);
  take_netcode_events();  // the disconnects write_packets caused
  server_.flush();
}

ReliableEndpoint* ReliableServer::endpoint(uint32_t client_index) {
  if (client_index >= endpoints_.size() || !endpoints_[client_index]) return nullptr;
  return &*endpoints_[client_index];
}

const ReliableEndpoint* ReliableServer::endpoint(uint32_t client_index) const {
  if (client_index >= endpoints_.size() || !endpoints_[client_index]) return nullptr;
  return &*endpoints_[client_index];
}

void ReliableServer::take_netcode_events() {
  ServerEvent event;
  while (server_.poll_event(event)) {
    TW_ASSERT(event.client_index < endpoints_.size(), "netcode event for a slot beyond max_clients");
    ReliableServerEvent out{event, std::nullopt};
    if (event.type == ServerEvent::Type::client_connected) {
      open(event.client_index);
    } else {
      out.failure = failures_[event.client_index];
      close(event.client_index);
    }
    push_event(out);
  }
}

void ReliableServer::open(uint32_t index) {
  close(index);  // never reuse a previous occupant's state (its counts are kept)
  endpoints_[index].emplace(config_);
}

void ReliableServer::close(uint32_t index) {
  if (endpoints_[index]) closed_transport_.merge(endpoints_[index]->counters());
  endpoints_[index].reset();
  failures_[index].reset();
}

TransportCounters ReliableServer::transport_counters() const {
  TransportCounters total = closed_transport_;
  for (const auto& e : endpoints_)
    if (e) total.merge(e->counters());
  return total;
}

void ReliableServer::deliver_payloads(MonoTime now) {
  netcode::ReceivedPayload payload;
  while (server_.receive_payload(payload)) {
    ReliableEndpoint* e = endpoint(payload.client_index);
    if (e == nullptr && server_.client_connected(payload.client_index)) {
      open(payload.client_index);  // its connect event was lost to the netcode event cap
      e = endpoint(payload.client_index);
    }
    if (e == nullptr) {
      counters_.add(ReliableLinkDrop::no_endpoint);
      continue;
    }
    if (!e->receive_packet(payload.data(), now).ok()) counters_.add(ReliableLinkDrop::malformed_payload);
  }
}

void ReliableServer::write_packets(MonoTime now) {
  for (uint32_t i = 0; i < endpoints_.size(); ++i) {
    if (!endpoints_[i]) continue;
    ReliableEndpoint& e = *endpoints_[i];
    if (!e.failed()) {
      SlotSink sink(server_, i, now, counters_);
      e.write_packets(now, sink);
    }
    if (e.failed()) {
      counters_.add(ReliableLinkDrop::endpoint_failed);
      const TransportReason reason = e.failure();
      server_.disconnect_client(i, now);  // its disconnect event closes the endpoint
      failures_[i] = reason;
    }
  }
}

bool ReliableServer::poll_event(ReliableServerEvent& out) {
  if (events_.empty()) return false;
  out = events_.pop();
  return true;
}

void ReliableServer::push_event(const ReliableServerEvent& event) {
  if (!events_.push(event)) ++events_dropped_;
}

std::optional<SendAllowance> ReliableServer::send_allowance(uint32_t client_index, Duration interval) const {
  const ReliableEndpoint* e = endpoint(client_index);
  if (e == nullptr) return std::nullopt;
  return e->send_allowance(interval);
}

}  // namespace tickwire
