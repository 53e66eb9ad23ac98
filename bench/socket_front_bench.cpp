// Many rooms in one process: one UDP socket per room, or one socket front for all of them? Each
// iteration is one tick of a process's rooms: every client (16 per room, each its own socket) has
// sent one 100-byte datagram, and every room must end up holding its own. Per room: each room's
// socket is drained by its own shard (receive_batch until empty), the kernel having demultiplexed
// by port. Front: one socket is drained, each datagram looked up by its source address and handed
// to its room's queue under that queue's lock (what a front thread must do to reach the shard
// threads), and each room then takes its queue. Prints figures only (docs/shards.md reads them).
#include <benchmark/benchmark.h>

#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "tickwire/transport/address.h"
#include "tickwire/transport/udp_socket.h"

namespace {

using tickwire::Address;
using tickwire::AddressHash;
using tickwire::Datagram;
using tickwire::OutgoingDatagram;
using tickwire::UdpSocket;

constexpr std::size_t kClientsPerRoom = 16;
constexpr std::size_t kBatch = 64;

struct Clients {
  std::vector<std::unique_ptr<UdpSocket>> sockets;
  bool open(std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
      auto opened = UdpSocket::open(Address::ipv4(127, 0, 0, 1, 0));
      if (!opened) return false;
      sockets.push_back(std::move(opened.socket));
    }
    return true;
  }
};

std::unique_ptr<UdpSocket> open_room() { return std::move(UdpSocket::open(Address::ipv4(127, 0, 0, 1, 0)).socket); }

// Drains `socket`, returning the datagrams taken.
std::size_t drain(UdpSocket& socket, std::vector<Datagram>& in) {
  std::size_t taken = 0;
  for (;;) {
    const std::size_t got = socket.receive_batch(in);
    taken += got;
    if (got < in.size()) return taken;
  }
}

void BM_SocketPerRoom(benchmark::State& state) {
  const auto rooms = static_cast<std::size_t>(state.range(0));
  std::vector<std::unique_ptr<UdpSocket>> room_sockets;
  for (std::size_t r = 0; r < rooms; ++r) room_sockets.push_back(open_room());
  Clients clients;
  if (!clients.open(rooms * kClientsPerRoom) || room_sockets.back() == nullptr) {
    state.SkipWithError("cannot open loopback sockets");
    return;
  }
  const std::vector<uint8_t> payload(100, 0x5a);
  std::vector<Datagram> in(kBatch);
  std::size_t lost = 0;
  for (auto _ : state) {
    state.PauseTiming();
    for (std::size_t c = 0; c < clients.sockets.size(); ++c) {
      (void)clients.sockets[c]->send(room_sockets[c / kClientsPerRoom]->local_address(), payload);
    }
    state.ResumeTiming();
    std::size_t got = 0;
    for (auto& socket : room_sockets) got += drain(*socket, in);
    lost += clients.sockets.size() - got;
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * clients.sockets.size()));
  state.counters["lost"] = static_cast<double>(lost);
}

struct RoomQueue {
  std::mutex mutex;
  std::vector<Datagram> datagrams;
};

void BM_SingleFront(benchmark::State& state) {
  const auto rooms = static_cast<std::size_t>(state.range(0));
  auto front = open_room();
  Clients clients;
  if (!clients.open(rooms * kClientsPerRoom) || front == nullptr) {
    state.SkipWithError("cannot open loopback sockets");
    return;
  }
  std::unordered_map<Address, std::size_t, AddressHash> room_of;
  for (std::size_t c = 0; c < clients.sockets.size(); ++c) room_of[clients.sockets[c]->local_address()] = c / kClientsPerRoom;
  std::vector<RoomQueue> queues(rooms);
  for (auto& q : queues) q.datagrams.reserve(kClientsPerRoom * 2);
  std::vector<Datagram> taken;
  taken.reserve(kClientsPerRoom * 2);
  const std::vector<uint8_t> payload(100, 0x5a);
  std::vector<Datagram> in(kBatch);
  std::size_t lost = 0;
  for (auto _ : state) {
    state.PauseTiming();
    for (const auto& client : clients.sockets) (void)client->send(front->local_address(), payload);
    state.ResumeTiming();
    std::size_t got = 0;
    for (;;) {  // the front thread: receive, look up, hand over
      const std::size_t n = front->receive_batch(in);
      for (std::size_t i = 0; i < n; ++i) {
        const auto room = room_of.find(in[i].address);
        if (room == room_of.end()) continue;
        RoomQueue& q = queues[room->second];
        std::lock_guard lock(q.mutex);
        q.datagrams.push_back(in[i]);
      }
      if (n < in.size()) break;
    }
    for (auto& q : queues) {  // each shard takes its room's queue
      {
        std::lock_guard lock(q.mutex);
        taken.swap(q.datagrams);
      }
      got += taken.size();
      taken.clear();
    }
    lost += clients.sockets.size() - got;
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * clients.sockets.size()));
  state.counters["lost"] = static_cast<double>(lost);
}

BENCHMARK(BM_SocketPerRoom)->Arg(8)->Arg(32);
BENCHMARK(BM_SingleFront)->Arg(8)->Arg(32);

}  // namespace

BENCHMARK_MAIN();
