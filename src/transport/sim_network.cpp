// SimNetwork's state lives in a shared core that the network and every socket hold, so any of them
// can be destroyed first. Maps are used for lookup only; every decision is made in call order and
// every release goes through the DelayQueue's (time, sequence) order, which keeps runs exact.
#include "tickwire/transport/sim_network.h"

#include <cstring>
#include <deque>
#include <unordered_map>
#include <vector>

#include "tickwire/core/assert.h"
#include "tickwire/core/rng.h"
#include "tickwire/transport/delay_queue.h"
#include "tickwire/transport/link_simulator.h"

namespace tickwire {
namespace detail {

constexpr std::size_t kMaxLinkStates = 1u << 16;  // directed pairs with their own queue state
constexpr std::size_t kMaxSpareBuffers = 4096;     // delivered datagrams' buffers kept for the next sends

struct SimPacket {
  Address from;
  Address to;
  std::vector<uint8_t> bytes;
};

struct SimEndpoint {
  std::deque<SimPacket> queue;
  uint64_t drops = 0;
};

struct LinkKey {
  Address from;
  Address to;
  friend bool operator==(const LinkKey&, const LinkKey&) = default;
};

struct LinkKeyHash {
  std::size_t operator()(const LinkKey& key) const noexcept {
    const AddressHash hash;
    return hash(key.from) * 31u ^ hash(key.to);
  }
};

Address any_port(Address address) {
  address.set_port(0);
  return address;
}

struct SimNetworkCore {
  SimNetworkCore(uint64_t seed, const SimNetworkLimits& lim)
      : limits(lim), rng(seed), in_flight(lim.in_flight_datagrams), next_port(lim.first_ephemeral_port) {}

  SimNetworkLimits limits;
  Rng rng;
  MonoTime now{};
  SimNetworkStats stats;
  std::unordered_map<Address, SimEndpoint, AddressHash> endpoints;
  std::unordered_map<LinkKey, LinkSimulator, LinkKeyHash> links;
  std::unordered_map<LinkKey, LinkModel, LinkKeyHash> rules;
  LinkModel default_model;
  LinkSimulator overflow_link;  // shared by pairs beyond kMaxLinkStates
  DelayQueue<SimPacket> in_flight;
  std::vector<std::vector<uint8_t>> spare_buffers;  // a send takes one rather than allocate
  uint16_t next_port;
  std::function<void(const SimDelivery&)> tap;

  LinkModel resolve(const LinkKey& key) const {
    const LinkKey candidates[] = {key, {any_port(key.from), key.to}, {key.from, any_port(key.to)},
                                  {any_port(key.from), any_port(key.to)}};
    for (const LinkKey& candidate : candidates) {
      if (auto it = rules.find(candidate); it != rules.end()) return it->second;
    }
    return default_model;
  }

  LinkSimulator& link_for(const LinkKey& key) {
    if (auto it = links.find(key); it != links.end()) return it->second;
    if (links.size() >= kMaxLinkStates) {
      overflow_link.set_model(resolve(key));
      return overflow_link;
    }
    return links.emplace(key, LinkSimulator(resolve(key))).first->second;
  }

  void refresh_links() {
    for (auto& [key, link] : links) link.set_model(resolve(key));
  }

  void drop(SimDrop reason) { stats.dropped.add(reason); }

  bool send(const Address& from, const OutgoingDatagram& datagram) {
    if (!datagram.to.valid()) {
      drop(SimDrop::bad_address);
      return false;
    }
    if (datagram.bytes.size() > kMaxDatagramBytes) {
      drop(SimDrop::oversize);
      return false;
    }
    ++stats.sent;
    const LinkKey key{from, datagram.to};
    const LinkDelivery verdict = link_for(key).decide(now, datagram.bytes.size(), rng);
    if (verdict.copies == 0) drop(verdict.drop == LinkDrop::rate_cap ? SimDrop::rate_cap : SimDrop::loss);
    if (verdict.copies == 2) ++stats.duplicated;
    for (std::size_t i = 0; i < verdict.copies; ++i) {
      SimPacket packet{from, datagram.to, take_buffer()};
      packet.bytes.assign(datagram.bytes.begin(), datagram.bytes.end());
      if (!in_flight.push(verdict.at[i], std::move(packet))) drop(SimDrop::in_flight_cap);
    }
    return true;
  }

  std::vector<uint8_t> take_buffer() {
    if (spare_buffers.empty()) return {};
    std::vector<uint8_t> buffer = std::move(spare_buffers.back());
    spare_buffers.pop_back();
    return buffer;
  }
  void give_back(std::vector<uint8_t>&& buffer) {
    if (spare_buffers.size() < kMaxSpareBuffers) spare_buffers.push_back(std::move(buffer));
  }

  void deliver(MonoTime at, SimPacket&& packet) {
    auto it = endpoints.find(packet.to);
    if (it == endpoints.end()) {
      drop(SimDrop::no_endpoint);
      return;
    }
    SimEndpoint& endpoint = it->second;
    if (endpoint.queue.size() >= limits.receive_queue_datagrams) {
      ++endpoint.drops;
      drop(SimDrop::queue);
      return;
    }
    ++stats.delivered;
    if (tap) tap(SimDelivery{at, packet.from, packet.to, packet.bytes});
    endpoint.queue.push_back(std::move(packet));
  }

  std::optional<Address> pick_port(Address address) {
    const uint32_t first = limits.first_ephemeral_port;
    const uint32_t range = 65536u - first;
    for (uint32_t attempt = 0; attempt < range; ++attempt) {
      const uint16_t port = next_port;
      next_port = port == 65535 ? static_cast<uint16_t>(first) : static_cast<uint16_t>(port + 1);
      address.set_port(port);
      if (!endpoints.contains(address)) return address;
    }
    return std::nullopt;
  }
};

}  // namespace detail

SimNetwork::SimNetwork(uint64_t seed, const SimNetworkLimits& limits)
    : core_(std::make_shared<detail::SimNetworkCore>(seed, limits)) {
  TW_ASSERT(limits.first_ephemeral_port > 0, "the ephemeral port range must not include port 0");
}

SimNetwork::~SimNetwork() = default;

std::unique_ptr<SimSocket> SimNetwork::bind(const Address& address) {
  if (!address.valid()) return nullptr;
  Address bound = address;
  if (address.port() == 0) {
    const auto picked = core_->pick_port(address);
    if (!picked) return nullptr;
    bound = *picked;
  } else if (core_->endpoints.contains(address)) {
    return nullptr;
  }
  detail::SimEndpoint& endpoint = core_->endpoints.emplace(bound, detail::SimEndpoint{}).first->second;
  return std::unique_ptr<SimSocket>(new SimSocket(core_, bound, endpoint));
}

void SimNetwork::set_default_link(const LinkModel& model) {
  TW_ASSERT(!model.invalid_reason().has_value(), "set_default_link given an invalid LinkModel");
  core_->default_model = model;
  core_->refresh_links();
}

void SimNetwork::set_link(const Address& from, const Address& to, const LinkModel& model) {
  TW_ASSERT(!model.invalid_reason().has_value(), "set_link given an invalid LinkModel");
  core_->rules.insert_or_assign(detail::LinkKey{from, to}, model);
  core_->refresh_links();
}

void SimNetwork::advance_to(MonoTime now) {
  TW_ASSERT(now >= core_->now, "SimNetwork time cannot go back");
  detail::SimNetworkCore& core = *core_;
  core.in_flight.release_due(now, [&core](MonoTime at, detail::SimPacket&& packet) {
    core.deliver(at, std::move(packet));
  });
  core.now = now;
}

MonoTime SimNetwork::now() const { return core_->now; }
std::optional<MonoTime> SimNetwork::next_delivery_time() const { return core_->in_flight.next_time(); }
std::size_t SimNetwork::in_flight() const { return core_->in_flight.size(); }
const SimNetworkStats& SimNetwork::stats() const { return core_->stats; }
void SimNetwork::set_wiretap(std::function<void(const SimDelivery&)> tap) { core_->tap = std::move(tap); }

SimSocket::SimSocket(std::shared_ptr<detail::SimNetworkCore> core, const Address& address, detail::SimEndpoint& endpoint)
    : core_(std::move(core)), address_(address), endpoint_(&endpoint) {}

SimSocket::~SimSocket() { core_->endpoints.erase(address_); }

std::size_t SimSocket::send_batch(std::span<const OutgoingDatagram> datagrams) {
  std::size_t accepted = 0;
  for (const OutgoingDatagram& datagram : datagrams) {
    if (core_->send(address_, datagram)) ++accepted;
  }
  return accepted;
}

std::size_t SimSocket::receive_batch(std::span<Datagram> out) {
  std::deque<detail::SimPacket>& queue = endpoint_->queue;
  std::size_t count = 0;
  while (count < out.size() && !queue.empty()) {
    detail::SimPacket& packet = queue.front();
    Datagram& datagram = out[count++];
    datagram.address = packet.from;
    datagram.size = packet.bytes.size();
    if (!packet.bytes.empty()) std::memcpy(datagram.data, packet.bytes.data(), packet.bytes.size());
    core_->give_back(std::move(packet.bytes));
    queue.pop_front();
  }
  return count;
}

std::size_t SimSocket::queued() const { return endpoint_->queue.size(); }

uint64_t SimSocket::queue_drops() const { return endpoint_->drops; }

}  // namespace tickwire
