// An in-memory UDP network on a virtual clock, so a server and many clients can run in one process
// under a seeded bad network and reproduce exactly: same seed and same calls -> same deliveries,
// byte for byte. Each directed address pair has its own LinkSimulator (the conditioner's code).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "tickwire/core/reasons.h"
#include "tickwire/clock/time.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/transport/address.h"
#include "tickwire/transport/datagram_socket.h"
#include "tickwire/transport/link_model.h"

namespace tickwire {

namespace detail {
struct SimNetworkCore;
struct SimEndpoint;
}

TW_REASONS(SimDrop,
  loss,           // the link lost it
  rate_cap,       // the link's bottleneck queue was full
  queue,          // the receiver's queue was full
  no_endpoint,    // nothing bound at the destination when it arrived
  oversize,       // larger than kMaxDatagramBytes: refused at send, like EMSGSIZE
  bad_address,    // destination not a valid address: refused at send
  in_flight_cap  // the network already held SimNetworkLimits::in_flight_datagrams
)

struct SimNetworkLimits {
  std::size_t receive_queue_datagrams = 4096;   // per socket, like a socket's receive buffer
  std::size_t in_flight_datagrams = 1u << 20;  // the whole network
  uint16_t first_ephemeral_port = 49152;       // port-0 binds take the next free port from here
};

struct SimNetworkStats {
  uint64_t sent = 0;        // datagrams accepted by send_batch
  uint64_t duplicated = 0;  // extra copies made by links
  uint64_t delivered = 0;   // copies placed in a receive queue
  ReasonCounters<SimDrop> dropped;
};

// A delivery as the wiretap sees it (bytes valid only during the callback).
struct SimDelivery {
  MonoTime at;
  Address from;
  Address to;
  std::span<const uint8_t> bytes;
};

class SimSocket;

// Single-threaded. Sends are stamped with now(); advance_to() moves due datagrams into receive
// queues. Addresses are exact (no wildcard binds): bind the address peers will send to.
class SimNetwork {
 public:
  explicit SimNetwork(uint64_t seed, const SimNetworkLimits& limits = {});
  ~SimNetwork();
  SimNetwork(const SimNetwork&) = delete;
  SimNetwork& operator=(const SimNetwork&) = delete;

  // nullptr if the address is invalid, already bound, or (port 0) no ephemeral port is free.
  std::unique_ptr<SimSocket> bind(const Address& address);

  // The model of every directed pair without its own; existing pairs keep their queue state.
  void set_default_link(const LinkModel& model);
  // The model from `from` to `to`. A port of 0 on either side matches every port of that host;
  // an exact pair wins over a port-0 rule, which wins over the default.
  void set_link(const Address& from, const Address& to, const LinkModel& model);

  // Moves the clock forward (never back) and delivers everything due at or before `now`.
  void advance_to(MonoTime now);
  MonoTime now() const;
  // The earliest pending delivery, if any: lets a driver jump the clock straight to it.
  std::optional<MonoTime> next_delivery_time() const;
  std::size_t in_flight() const;

  const SimNetworkStats& stats() const;
  // Called for every delivered copy, in delivery order (for traces and debugging); empty = off.
  void set_wiretap(std::function<void(const SimDelivery&)> tap);

 private:
  std::shared_ptr<detail::SimNetworkCore> core_;
};

// An endpoint on a SimNetwork. Keeps the network's state alive, so it stays usable whatever else is
// destroyed; destroying it unbinds the address (datagrams still in flight to it become no_endpoint).
class SimSocket final : public DatagramSocket {
 public:
  ~SimSocket() override;
  SimSocket(const SimSocket&) = delete;
  SimSocket& operator=(const SimSocket&) = delete;

  Address local_address() const override { return address_; }
  std::size_t send_batch(std::span<const OutgoingDatagram> datagrams) override;
  std::size_t receive_batch(std::span<Datagram> out) override;

  std::size_t queued() const;         // datagrams waiting to be received
  uint64_t queue_drops() const;       // arrivals dropped because the queue was full

 private:
  friend class SimNetwork;
  SimSocket(std::shared_ptr<detail::SimNetworkCore> core, const Address& address, detail::SimEndpoint& endpoint);

  std::shared_ptr<detail::SimNetworkCore> core_;
  Address address_;
  detail::SimEndpoint* endpoint_;  // the core's entry for address_ (map nodes stay put until unbound)
};

}  // namespace tickwire
