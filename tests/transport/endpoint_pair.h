// Test-only: two ReliableEndpoints joined through SimNetwork sockets (the real link model), stepped
// on a virtual clock. Each step delivers what is due, lets the test act, then writes each side's
// packets. Shared by the unit tests, the quick soaks and the long soaks.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "tickwire/clock/time.h"
#include "tickwire/core/assert.h"
#include "tickwire/transport/address.h"
#include "tickwire/transport/datagram_socket.h"
#include "tickwire/transport/link_model.h"
#include "tickwire/transport/reliable_endpoint.h"
#include "tickwire/transport/sim_network.h"

namespace tickwire::test {

// Sends every payload an endpoint writes to one address through one socket.
class SocketSink final : public PacketSink {
 public:
  SocketSink(DatagramSocket& socket, Address to) : socket_(socket), to_(to) {}
  void on_packet(uint16_t /*sequence*/, std::span<const uint8_t> payload) override {
    const OutgoingDatagram datagram{to_, payload};
    sent_ += socket_.send_batch(std::span<const OutgoingDatagram>(&datagram, 1));
    ++written_;
    max_payload_bytes_ = payload.size() > max_payload_bytes_ ? payload.size() : max_payload_bytes_;
  }
  uint64_t written() const { return written_; }
  std::size_t max_payload_bytes() const { return max_payload_bytes_; }

 private:
  DatagramSocket& socket_;
  Address to_;
  uint64_t sent_ = 0;
  uint64_t written_ = 0;
  std::size_t max_payload_bytes_ = 0;
};

class EndpointPair {
 public:
  EndpointPair(const EndpointConfig& config, const LinkModel& a_to_b, const LinkModel& b_to_a, uint64_t seed)
      : a(config), b(config), net_(seed) {
    const Address address_a = *Address::parse("127.0.0.1:4000");
    const Address address_b = *Address::parse("127.0.0.1:4001");
    socket_a_ = net_.bind(address_a);
    socket_b_ = net_.bind(address_b);
    TW_ASSERT(socket_a_ && socket_b_, "binding the test sockets");
    net_.set_link(address_a, address_b, a_to_b);
    net_.set_link(address_b, address_a, b_to_a);
    sink_a_ = std::make_unique<SocketSink>(*socket_a_, address_b);
    sink_b_ = std::make_unique<SocketSink>(*socket_b_, address_a);
  }

  // Moves the clock and feeds every datagram now due into its endpoint.
  void deliver(Duration dt) {
    now_ += dt;
    net_.advance_to(now_);
    drain(*socket_a_, a);
    drain(*socket_b_, b);
  }
  // Both endpoints write this tick's packets.
  void write() {
    if (writes_a) a.write_packets(now_, *sink_a_);
    if (writes_b) b.write_packets(now_, *sink_b_);
  }
  void step(Duration dt) {
    deliver(dt);
    write();
  }

  MonoTime now() const { return now_; }
  SimNetwork& network() { return net_; }
  const SocketSink& sink_a() const { return *sink_a_; }
  const SocketSink& sink_b() const { return *sink_b_; }

  ReliableEndpoint a;
  ReliableEndpoint b;
  bool writes_a = true;  // false: A is silent (a peer that never sends, so never acks)
  bool writes_b = true;
  bool reads_a = true;   // false: A's arrivals are discarded
  bool reads_b = true;

 private:
  void drain(SimSocket& socket, ReliableEndpoint& endpoint) {
    const bool reads = &endpoint == &a ? reads_a : reads_b;
    for (;;) {
      const std::size_t n = socket.receive_batch(std::span<Datagram>(batch_.get(), kBatch));
      for (std::size_t i = 0; i < n && reads; ++i) {
        (void)endpoint.receive_packet(std::span<const uint8_t>(batch_[i].data, batch_[i].size), now_);
      }
      if (n < kBatch) return;
    }
  }

  static constexpr std::size_t kBatch = 32;
  SimNetwork net_;
  std::unique_ptr<SimSocket> socket_a_;
  std::unique_ptr<SimSocket> socket_b_;
  std::unique_ptr<SocketSink> sink_a_;
  std::unique_ptr<SocketSink> sink_b_;
  std::unique_ptr<Datagram[]> batch_ = std::make_unique<Datagram[]>(kBatch);
  MonoTime now_ = MonoTime::from_ns(1'000'000'000);
};

}  // namespace tickwire::test
