// ReliableClient's pump: netcode receive -> endpoint -> netcode send, with the endpoint's life tied
// to the netcode connection's.
#include "tickwire/transport/reliable_client.h"

namespace tickwire {
namespace {

// Hands each endpoint packet to the netcode client as one encrypted payload.
class ClientSink final : public PacketSink {
 public:
  ClientSink(NetcodeClient& client, MonoTime now, ReliableLinkCounters& counters)
      : client_(client), now_(now), counters_(counters) {}
  void on_packet(uint16_t, std::span<const uint8_t> payload) override {
    if (!client_.send_payload(payload, now_)) counters_.add(ReliableLinkDrop::send_refused);
  }

 private:
  NetcodeClient& client_;
  MonoTime now_;
  ReliableLinkCounters& counters_;
};

}  // namespace

ReliableClient::ReliableClient(NetcodeClient& client, const EndpointConfig& config) : client_(client), config_(config) {
  config_.validate();
}

void ReliableClient::update(MonoTime now) {
  receive(now);
  send(now);
}

void ReliableClient::receive(MonoTime now) {
  client_.update(now);
  if (!client_.connected()) {
    endpoint_.reset();
  } else if (!endpoint_) {
    endpoint_.emplace(config_);
    ++connections_;
  }
  deliver_payloads(now);
}

void ReliableClient::send(MonoTime now) {
  write_packets(now);
  client_.flush();
}

void ReliableClient::deliver_payloads(MonoTime now) {
  netcode::ReceivedPayload payload;
  while (client_.receive_payload(payload)) {
    if (!endpoint_) {
      counters_.add(ReliableLinkDrop::no_endpoint);
      continue;
    }
    if (!endpoint_->receive_packet(payload.data(), now).ok()) counters_.add(ReliableLinkDrop::malformed_payload);
  }
}

void ReliableClient::write_packets(MonoTime now) {
  if (!endpoint_) return;
  if (!endpoint_->failed()) {
    ClientSink sink(client_, now, counters_);
    endpoint_->write_packets(now, sink);
  }
  if (endpoint_->failed()) {
    last_failure_ = endpoint_->failure();
    counters_.add(ReliableLinkDrop::endpoint_failed);
    client_.disconnect(now);
    endpoint_.reset();
  }
}

}  // namespace tickwire
