// The server half of "reliability inside netcode payloads": one ReliableEndpoint per NetcodeServer
// client slot, created when a client connects there and destroyed when it leaves, so the slot's next
// occupant starts from a fresh endpoint. update(now, wall_now) pumps every connection both ways.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/core/ring_buffer.h"
#include "tickwire/transport/endpoint_config.h"
#include "tickwire/transport/netcode_server.h"
#include "tickwire/transport/reliable_endpoint.h"
#include "tickwire/transport/reliable_link_drop.h"

namespace tickwire {

// A netcode connect/disconnect, plus the endpoint's fatal reason when that is why it ended.
struct ReliableServerEvent {
  ServerEvent netcode;
  std::optional<TransportReason> failure;
};

class ReliableServer {
 public:
  static constexpr std::size_t kMaxEvents = NetcodeServer::kMaxEvents;

  // `server` must outlive this object; `config` is every connection's channel layout and caps.
  ReliableServer(NetcodeServer& server, const EndpointConfig& config);

  // Receives (NetcodeServer::update), opens/closes endpoints on connect/disconnect, feeds each
  // payload to its slot's endpoint, writes every endpoint's packets and flushes. A failed endpoint
  // disconnects its client (event with `failure` set).
  void update(MonoTime now, WallTime wall_now);
  // The two halves of update(), for a caller that acts between them (a room reads what arrived,
  // simulates, then sends the tick's snapshots in the same iteration).
  void receive(MonoTime now, WallTime wall_now);
  void send(MonoTime now);

  // The slot's endpoint while a client is connected there; null otherwise.
  ReliableEndpoint* endpoint(uint32_t client_index);
  const ReliableEndpoint* endpoint(uint32_t client_index) const;
  // The slot's link estimate and what `interval` (one tick) can carry; nullopt for an empty slot.
  // The room sizes the client's snapshot from `unreliable_bytes` (docs/reliability.md, "Send rate").
  std::optional<SendAllowance> send_allowance(uint32_t client_index, Duration interval) const;
  // Connects and disconnects in order (capped at kMaxEvents; overflow counted).
  bool poll_event(ReliableServerEvent& out);
  uint64_t events_dropped() const { return events_dropped_; }
  const ReliableLinkCounters& counters() const { return counters_; }
  // Every connection's transport counters summed: the connections gone (kept at close) and the
  // live ones, so a drop's reason outlives the client that caused it.
  TransportCounters transport_counters() const;
  NetcodeServer& netcode() { return server_; }

 private:
  void take_netcode_events();
  void open(uint32_t index);
  void close(uint32_t index);
  void deliver_payloads(MonoTime now);
  void write_packets(MonoTime now);
  void push_event(const ReliableServerEvent& event);

  NetcodeServer& server_;
  EndpointConfig config_;
  std::vector<std::optional<ReliableEndpoint>> endpoints_;  // one per slot, max_clients long
  std::vector<std::optional<TransportReason>> failures_;    // set when we dropped the slot's client
  RingBuffer<ReliableServerEvent, kMaxEvents> events_;
  uint64_t events_dropped_ = 0;
  ReliableLinkCounters counters_;
  TransportCounters closed_transport_;  // of the endpoints closed so far
};

}  // namespace tickwire
