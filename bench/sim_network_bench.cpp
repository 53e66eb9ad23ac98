// SimNetwork cost per datagram under a busy link model, so whole-system simulations know what a
// simulated second of traffic costs. Prints figures only.
#include <benchmark/benchmark.h>

#include <vector>

#include "tickwire/transport/sim_network.h"

namespace {

using namespace tickwire;

// One iteration: 64 datagrams sent through mobile-bad (uncapped), clock advanced 1 ms, everything due received.
void BM_SimNetworkMobileBad(benchmark::State& state) {
  SimNetwork net(1);
  LinkModel model = *link_profile("mobile-bad");
  model.rate_kbps = 0;  // no bandwidth cap: measure deliveries, not tail drops
  net.set_default_link(model);
  auto a = net.bind(Address::ipv4(10, 0, 0, 1, 1));
  auto b = net.bind(Address::ipv4(10, 0, 0, 2, 1));
  const std::vector<uint8_t> payload(static_cast<std::size_t>(state.range(0)), 0x5a);
  std::vector<OutgoingDatagram> out(64, OutgoingDatagram{b->local_address(), payload});
  std::vector<Datagram> in(64);
  MonoTime now{};
  for (auto _ : state) {
    a->send_batch(out);
    now += Duration::milliseconds(1);
    net.advance_to(now);
    while (b->receive_batch(in) == in.size()) {
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * out.size()));
  state.counters["delivered"] = static_cast<double>(net.stats().delivered);
}
BENCHMARK(BM_SimNetworkMobileBad)->Arg(100)->Arg(1200);

}  // namespace

BENCHMARK_MAIN();
