// Raw batched UDP on loopback (sendmmsg + recvmmsg through UdpSocket, no crypto): the baseline the
// encrypted-packet benchmark compares against, and a check that batching pays. Prints figures only.
#include <benchmark/benchmark.h>

#include <vector>

#include "tickwire/transport/udp_socket.h"

namespace {

using tickwire::Address;
using tickwire::Datagram;
using tickwire::OutgoingDatagram;
using tickwire::UdpSocket;

// Sends `batch` datagrams of `size` bytes per iteration and receives them all back.
void BM_UdpLoopbackBatch(benchmark::State& state) {
  const auto size = static_cast<std::size_t>(state.range(0));
  const auto batch = static_cast<std::size_t>(state.range(1));
  auto sender = UdpSocket::open(Address::ipv4(127, 0, 0, 1, 0));
  auto receiver = UdpSocket::open(Address::ipv4(127, 0, 0, 1, 0));
  if (!sender || !receiver) {
    state.SkipWithError("cannot open loopback sockets");
    return;
  }
  const std::vector<uint8_t> payload(size, 0x5a);
  std::vector<OutgoingDatagram> out(batch, OutgoingDatagram{receiver.socket->local_address(), payload});
  std::vector<Datagram> in(batch);
  std::size_t lost = 0;
  for (auto _ : state) {
    const std::size_t sent = sender.socket->send_batch(out);
    std::size_t got = 0;
    for (int spins = 0; got < sent && spins < 100000; ++spins) {
      got += receiver.socket->receive_batch(std::span<Datagram>(in.data(), in.size() - got));
    }
    lost += sent - got;
    benchmark::DoNotOptimize(in.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * batch));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * batch * size));
  state.counters["lost"] = static_cast<double>(lost);
}
BENCHMARK(BM_UdpLoopbackBatch)->Args({100, 1})->Args({100, 64})->Args({1200, 1})->Args({1200, 64});

}  // namespace

BENCHMARK_MAIN();
