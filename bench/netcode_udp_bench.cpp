// Encrypted netcode payload packets per second per core over real UDP loopback, beside raw
// unencrypted sendmmsg/recvmmsg of the same payload sizes in the same run. One thread plays both
// ends, so each packet counted was encrypted, sent, received and decrypted on this one core. The
// per-packet AEAD runs three ways: libsodium's (before), OpenSSL's, and by size (after, the default:
// libsodium below 128 bytes, OpenSSL from there); and alone, with no socket, over a sweep of sizes.
// Prints encrypted/raw for both (goal: >= 0.85x at 100 bytes, >= 0.80x at 1200). Release preset.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tickwire/transport/connect_token.h"
#include "tickwire/transport/netcode_client.h"
#include "tickwire/transport/netcode_packet.h"
#include "tickwire/transport/netcode_server.h"
#include "tickwire/transport/packet_aead.h"
#include "tickwire/transport/udp_socket.h"

namespace netcode_bench {

using namespace tickwire;
constexpr std::size_t kBatch = 64;  // datagrams per sendmmsg / recvmmsg round
const Address kLoopback = Address::ipv4(127, 0, 0, 1, 0);

std::unique_ptr<UdpSocket> open_loopback() {
  auto opened = UdpSocket::open(kLoopback);
  if (!opened) {
    std::fprintf(stderr, "bench: %s\n", opened.message.c_str());
    std::abort();
  }
  return std::move(opened.socket);
}

void BM_RawUdp(benchmark::State& state) {
  const auto payload_bytes = static_cast<std::size_t>(state.range(0));
  auto sender = open_loopback();
  auto receiver = open_loopback();
  std::vector<uint8_t> payload(payload_bytes, 0x5a);
  std::vector<OutgoingDatagram> out(kBatch, OutgoingDatagram{receiver->local_address(), payload});
  std::vector<Datagram> in(kBatch);
  uint64_t packets = 0;
  for (auto _ : state) {
    const std::size_t sent = sender->send_batch(out);
    std::size_t got = 0;
    for (int spin = 0; got < sent && spin < 1000; ++spin) got += receiver->receive_batch(std::span<Datagram>(in).first(sent - got));
    packets += got;
    benchmark::DoNotOptimize(in[0].data[0]);
  }
  state.counters["packets_per_s"] = benchmark::Counter(static_cast<double>(packets), benchmark::Counter::kIsRate);
}

// Selects a packet AEAD for one benchmark and restores the default (by size) after it.
class AeadChoice {
 public:
  explicit AeadChoice(netcode::PacketAead aead) { netcode::select_packet_aead(aead); }
  ~AeadChoice() { netcode::select_packet_aead(netcode::PacketAead::by_size); }
  AeadChoice(const AeadChoice&) = delete;
  AeadChoice& operator=(const AeadChoice&) = delete;
};

void BM_NetcodeUdp(benchmark::State& state, netcode::PacketAead aead) {
  const AeadChoice choice(aead);
  const auto payload_bytes = static_cast<std::size_t>(state.range(0));
  auto server_socket = open_loopback();
  auto client_socket = open_loopback();
  NetcodeServerConfig config;
  config.private_key = netcode::random_key();
  config.public_address = server_socket->local_address();
  config.max_clients = 1;
  config.receive_queue_packets = 2 * kBatch;
  NetcodeServer server(*server_socket, config);
  NetcodeClient client(*client_socket);
  MonoTime now = MonoTime::from_ns(0);
  const WallTime wall = WallTime::from_ns(1'700'000'000'000'000'000);
  server.start(now);
  netcode::ConnectTokenParams params;
  params.client_id = 1;
  params.server_addresses.add(server_socket->local_address());
  params.timeout_seconds = -1;  // the bench's clock barely moves; no timeouts
  client.connect(netcode::generate_connect_token(params, config.private_key, wall).value(), now);
  for (int i = 0; i < 100 && !client.connected(); ++i) {
    now += Duration::milliseconds(100);
    client.update(now);
    server.update(now, wall);
  }
  if (!client.connected()) {
    state.SkipWithError("handshake did not complete");
    return;
  }
  std::vector<uint8_t> payload(payload_bytes, 0x5a);
  netcode::ReceivedPayload received;
  uint64_t packets = 0;
  for (auto _ : state) {
    for (std::size_t i = 0; i < kBatch; ++i) client.send_payload(payload, now);  // encrypt into the batch
    client.flush();                                                           // one sendmmsg
    server.update(now, wall);                                                 // recvmmsg + decrypt
    while (server.receive_payload(received)) ++packets;
    benchmark::DoNotOptimize(received.bytes[0]);
  }
  state.counters["packets_per_s"] = benchmark::Counter(static_cast<double>(packets), benchmark::Counter::kIsRate);
}

// The AEAD alone (seal + open one packet body through the seam), with no socket: the part of the
// encrypted path that no batching can remove, so raw / (raw + this) is the ceiling for the ratio.
// bytes_per_second counts payload bytes sealed and opened (each byte once).
void BM_AeadOnly(benchmark::State& state, netcode::PacketAead aead) {
  const AeadChoice choice(aead);
  const auto payload_bytes = static_cast<std::size_t>(state.range(0));
  const netcode::Key key = netcode::random_key();
  std::vector<uint8_t> plain(payload_bytes, 0x5a), sealed(payload_bytes + netcode::kMacBytes);
  const auto ad = netcode::packet_additional_data(netcode::kDefaultProtocolId, 0x85);
  uint64_t sequence = 0, packets = 0;
  for (auto _ : state) {
    netcode::aead_encrypt(sealed, plain, ad, sequence, key);
    if (!netcode::aead_decrypt(plain, sealed, ad, sequence, key)) state.SkipWithError("decrypt failed");
    ++sequence;
    ++packets;
  }
  state.SetBytesProcessed(static_cast<int64_t>(packets * payload_bytes));
  state.counters["packets_per_s"] = benchmark::Counter(static_cast<double>(packets), benchmark::Counter::kIsRate);
}

// Rates are per CPU second of this thread (the default timer): packets per second per core.
BENCHMARK(BM_RawUdp)->Arg(100)->Arg(1200)->MinTime(2.0);
BENCHMARK_CAPTURE(BM_NetcodeUdp, libsodium, netcode::PacketAead::libsodium)->Arg(100)->Arg(1200)->MinTime(2.0);
BENCHMARK_CAPTURE(BM_NetcodeUdp, openssl, netcode::PacketAead::openssl)->Arg(100)->Arg(1200)->MinTime(2.0);
BENCHMARK_CAPTURE(BM_NetcodeUdp, by_size, netcode::PacketAead::by_size)->Arg(100)->Arg(1200)->MinTime(2.0);
// The sizes either side of kOpensslAeadFromBytes (128) and the SIMD paths' steps (64, 256, 512).
void size_sweep(benchmark::internal::Benchmark* b) {
  for (int bytes : {16, 64, 100, 128, 192, 256, 384, 512, 768, 1200}) b->Arg(bytes);
  b->MinTime(1.0);
}
BENCHMARK_CAPTURE(BM_AeadOnly, libsodium, netcode::PacketAead::libsodium)->Apply(size_sweep);
BENCHMARK_CAPTURE(BM_AeadOnly, openssl, netcode::PacketAead::openssl)->Apply(size_sweep);

// Collects each run's packet rate so main can print encrypted/raw per payload size.
class RateReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      const auto it = run.counters.find("packets_per_s");
      if (it != run.counters.end()) rates[run.benchmark_name()] = it->second.value;
    }
  }
  std::map<std::string, double> rates;
};

}  // namespace netcode_bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  netcode_bench::RateReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  const auto rate = [&](const std::string& name) {
    const auto it = reporter.rates.find(name);
    return it == reporter.rates.end() ? 0.0 : it->second;
  };
  for (const char* size_text : {"100", "1200"}) {
    const std::string size = size_text;
    const double raw = rate(std::string("BM_RawUdp/") + size + "/min_time:2.000");
    if (raw <= 0) continue;
    std::printf("%5s-byte payloads: raw %.0f packets/s per core (goal for encrypted/raw: >= %s)\n", size.c_str(), raw,
                size == "100" ? "0.85" : "0.80");
    for (const char* aead : {"libsodium", "openssl", "by_size"}) {
      const double encrypted = rate(std::string("BM_NetcodeUdp/") + aead + "/" + size + "/min_time:2.000");
      // By size runs one of the two alone: the one it picks at this size (not measured twice).
      const bool small = std::stoul(size) < tickwire::netcode::kOpensslAeadFromBytes;
      const std::string alone_aead = std::string(aead) == "by_size" ? (small ? "libsodium" : "openssl") : aead;
      const double alone = rate(std::string("BM_AeadOnly/") + alone_aead + "/" + size + "/min_time:1.000");
      if (encrypted <= 0 || alone <= 0) continue;
      // Seconds per packet add up: raw path + AEAD is the best an encrypted packet can do.
      const double ceiling = (1.0 / raw) / (1.0 / raw + 1.0 / alone);
      std::printf("      %-9s AEAD: encrypted %.0f packets/s per core: %.2fx of raw (AEAD alone %.0f/s, %.0f MB/s, "
                  "caps it at %.2fx)\n",
                  aead, encrypted, encrypted / raw, alone, alone * std::stod(size) / 1e6, ceiling);
    }
  }
  benchmark::Shutdown();
  return 0;
}
