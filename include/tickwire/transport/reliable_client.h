// The client half of "reliability inside netcode payloads": one ReliableEndpoint riding a
// NetcodeClient's connection. update(now) pumps both ways; the endpoint is created fresh on each
// connect and destroyed on disconnect, so nothing of one connection leaks into the next.
#pragma once

#include <cstdint>
#include <optional>

#include "tickwire/clock/time.h"
#include "tickwire/transport/endpoint_config.h"
#include "tickwire/transport/netcode_client.h"
#include "tickwire/transport/reliable_endpoint.h"
#include "tickwire/transport/reliable_link_drop.h"

namespace tickwire {

class ReliableClient {
 public:
  // `client` must outlive this object; `config` is validated (both peers must use the same layout).
  ReliableClient(NetcodeClient& client, const EndpointConfig& config);

  // Receives (NetcodeClient::update), feeds every payload to the endpoint, writes the endpoint's
  // packets as netcode payloads and flushes. An endpoint failure disconnects the client.
  void update(MonoTime now);
  // The two halves of update(), for a caller that acts between them.
  void receive(MonoTime now);
  void send(MonoTime now);

  // The connection's endpoint while connected (send/receive/stats); null otherwise.
  ReliableEndpoint* endpoint() { return endpoint_ ? &*endpoint_ : nullptr; }
  const ReliableEndpoint* endpoint() const { return endpoint_ ? &*endpoint_ : nullptr; }
  bool connected() const { return endpoint_.has_value(); }
  // The link estimate and what `interval` can carry while connected (docs/reliability.md, "Send rate").
  std::optional<SendAllowance> send_allowance(Duration interval) const {
    return endpoint_ ? std::optional<SendAllowance>(endpoint_->send_allowance(interval)) : std::nullopt;
  }
  // How many connections this client has had an endpoint for (a change means a new connection).
  uint64_t connections() const { return connections_; }
  // The fatal reason of the last endpoint that failed, if any did.
  std::optional<TransportReason> last_failure() const { return last_failure_; }
  const ReliableLinkCounters& counters() const { return counters_; }
  NetcodeClient& netcode() { return client_; }

 private:
  void deliver_payloads(MonoTime now);
  void write_packets(MonoTime now);

  NetcodeClient& client_;
  EndpointConfig config_;
  std::optional<ReliableEndpoint> endpoint_;
  uint64_t connections_ = 0;
  std::optional<TransportReason> last_failure_;
  ReliableLinkCounters counters_;
};

}  // namespace tickwire
