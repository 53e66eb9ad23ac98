// Side by side: tickwire's reliable-ordered channel (netcode 1.02 + ReliableEndpoint, AEAD on every
// packet) and ENet's reliable channel (Debian's libenet-dev, no encryption), each client -> server
// over loopback UDP through the same in-process LinkConditioner (our LinkModel), on the real clock,
// in one process and one run, alternating libraries so the machine's drift hits both alike. Prints
// each run, then the medians of the runs for both and the ratio. Figures only, no assertions; each
// run checks exactly-once, in-order delivery and says so.
//
// Latency counts from the moment the application offers a message (its paced schedule time, or its
// first try when saturated), so time a full send queue refused it is included. Both libraries get
// the same application send queue of 256 KiB: tickwire's own (send_queue_full), and for ENet, which
// queues without limit, the bench refuses an offer while that many bytes are sent and not delivered.
//
// Usage: reliable_enet_bench [--runs N] [--case I] (default 3 runs of every case; I is the case's
// row, 0-4, to run one alone). Built without ENet (pkg-config found no
// libenet) it runs tickwire alone and says so.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "reliable_udp_stack.h"
#include "tickwire/core/bytes.h"

#if TICKWIRE_HAVE_ENET
#include <enet/enet.h>
#endif

namespace {

using namespace tickwire;

constexpr uint32_t kSaturatedMessages = 20'000;
constexpr uint32_t kPacedMessages = 5'000;
constexpr double kPacedMessagesPerSecond = 5'000.0;
constexpr std::size_t kAppSendQueueBytes = 256 * 1024;  // = reliable_bench_config().send_queue_bytes
constexpr Duration kRunLimit = Duration::seconds(60);   // a bound, far above any healthy run
constexpr uint64_t kConditionerSeed = 5;

struct Case {
  const char* name;
  double loss;
  std::size_t bytes;
  bool paced;
};

constexpr Case kCases[] = {
    {"5% loss, 100 B, saturated", 0.05, 100, false},
    {"5% loss, 1000 B, saturated", 0.05, 1000, false},
    {"5% loss, 100 B, 5,000 msg/s offered", 0.05, 100, true},
    {"5% loss, 1000 B, 5,000 msg/s offered", 0.05, 1000, true},
    {"no loss, 1000 B, saturated", 0.0, 1000, false},
};

// One library's connection, client -> server, as the run loop sees it.
class ReliableLink {
 public:
  virtual ~ReliableLink() = default;
  virtual void pump() = 0;
  // Queues one message; false when the send queue is full (offer again later).
  virtual bool offer(std::span<const uint8_t> message) = 0;
  // The next delivered message at the server, or nullopt.
  virtual std::optional<std::span<const uint8_t>> next() = 0;
  virtual uint64_t resends() const = 0;
  virtual bool broken() const = 0;
};

class TickwireLink final : public ReliableLink {
 public:
  explicit TickwireLink(double loss) : stack_(true, loss, bench::reliable_bench_config(), kConditionerSeed) {}
  void pump() override { stack_.pump(); }
  bool offer(std::span<const uint8_t> message) override {
    ReliableEndpoint* from = stack_.client->endpoint();
    return from != nullptr && from->send(0, message).ok();
  }
  std::optional<std::span<const uint8_t>> next() override {
    ReliableEndpoint* to = stack_.server->endpoint(0);
    return to == nullptr ? std::nullopt : to->receive(0);
  }
  uint64_t resends() const override {
    const ReliableEndpoint* from = stack_.client->endpoint();
    return from == nullptr ? 0 : from->stats().resends;
  }
  bool broken() const override { return stack_.client->endpoint() == nullptr || stack_.server->endpoint(0) == nullptr; }

 private:
  bench::TickwireUdpStack stack_;
};

#if TICKWIRE_HAVE_ENET
class EnetLink final : public ReliableLink {
 public:
  explicit EnetLink(double loss) {
    ENetAddress bind{};
    enet_address_set_host(&bind, "127.0.0.1");
    bind.port = 0;
    server_ = enet_host_create(&bind, 1, 1, 0, 0);
    TW_ASSERT(server_ != nullptr, "ENet server host");
    ENetAddress bound{};
    TW_ASSERT(enet_socket_get_address(server_->socket, &bound) == 0, "ENet server address");
    relay_ = std::make_unique<bench::LoopbackConditioner>(Address::ipv4(127, 0, 0, 1, bound.port), loss, kConditionerSeed);
    client_ = enet_host_create(nullptr, 1, 1, 0, 0);
    TW_ASSERT(client_ != nullptr, "ENet client host");
    ENetAddress to{};
    enet_address_set_host(&to, "127.0.0.1");
    to.port = relay_->address().port();
    peer_ = enet_host_connect(client_, &to, 1, 0);
    TW_ASSERT(peer_ != nullptr, "ENet connect");
    for (uint64_t i = 0; i < 10'000'000 && !(connected_ && server_peer_ != nullptr); ++i) pump();
    TW_ASSERT(connected_, "ENet client connected");
  }
  ~EnetLink() override {
    enet_host_destroy(client_);
    enet_host_destroy(server_);
  }
  EnetLink(const EnetLink&) = delete;
  EnetLink& operator=(const EnetLink&) = delete;

  void pump() override {
    relay_->step(mono_now());
    ENetEvent event;
    while (enet_host_service(client_, &event, 0) > 0) on_event(event, false);
    while (enet_host_service(server_, &event, 0) > 0) on_event(event, true);
  }
  bool offer(std::span<const uint8_t> message) override {
    if (outstanding_bytes_ + message.size() > kAppSendQueueBytes) return false;
    ENetPacket* packet = enet_packet_create(message.data(), message.size(), ENET_PACKET_FLAG_RELIABLE);
    if (packet == nullptr || enet_peer_send(peer_, 0, packet) != 0) return false;
    outstanding_bytes_ += message.size();
    return true;
  }
  std::optional<std::span<const uint8_t>> next() override {
    if (received_.empty()) return std::nullopt;
    current_ = std::move(received_.front());
    received_.pop_front();
    outstanding_bytes_ -= std::min(outstanding_bytes_, current_.size());
    return std::span<const uint8_t>(current_);
  }
  uint64_t resends() const override { return peer_->packetsLost; }
  bool broken() const override { return disconnected_; }

 private:
  void on_event(const ENetEvent& event, bool at_server) {
    switch (event.type) {
      case ENET_EVENT_TYPE_CONNECT:
        if (at_server) server_peer_ = event.peer;
        else connected_ = true;
        break;
      case ENET_EVENT_TYPE_RECEIVE:
        if (at_server) received_.emplace_back(event.packet->data, event.packet->data + event.packet->dataLength);
        enet_packet_destroy(event.packet);
        break;
      case ENET_EVENT_TYPE_DISCONNECT:
        disconnected_ = true;
        break;
      case ENET_EVENT_TYPE_NONE:
        break;
    }
  }

  std::unique_ptr<bench::LoopbackConditioner> relay_;
  ENetHost* server_ = nullptr;
  ENetHost* client_ = nullptr;
  ENetPeer* peer_ = nullptr;
  ENetPeer* server_peer_ = nullptr;
  bool connected_ = false;
  bool disconnected_ = false;
  std::size_t outstanding_bytes_ = 0;
  std::deque<std::vector<uint8_t>> received_;
  std::vector<uint8_t> current_;
};
#endif

struct Figures {
  double msgs_per_s = 0;  // delivered / time to the last delivery
  double mb_per_s = 0;
  double mean_ms = 0;
  double p99_ms = 0;
  uint64_t delivered = 0;
  uint64_t resends = 0;
  uint64_t order_errors = 0;  // a message out of order, repeated or missing
};

Figures run_case(ReliableLink& link, const Case& c) {
  const uint32_t messages = c.paced ? kPacedMessages : kSaturatedMessages;
  std::vector<int64_t> offered_at_ns(messages);
  std::vector<double> latency_ms;
  latency_ms.reserve(messages);
  std::vector<uint8_t> message(c.bytes, 0x5a);
  Figures f;
  const uint64_t resends_before = link.resends();
  const MonoTime start = mono_now();
  MonoTime last_delivery = start;
  uint32_t sent = 0;
  uint32_t offered = 0;
  uint32_t expected = 0;
  while (expected < messages && mono_now() - start < kRunLimit && !link.broken()) {
    link.pump();
    while (auto m = link.next()) {
      const MonoTime now = mono_now();
      const auto index = load_le<uint32_t>(m->data());
      if (index != expected || index >= messages) {
        ++f.order_errors;
        if (index >= messages) continue;
      }
      latency_ms.push_back(static_cast<double>(now.ns() - offered_at_ns[index]) * 1e-6);
      expected = index + 1;
      last_delivery = now;
    }
    const MonoTime now = mono_now();
    const uint32_t due = c.paced ? std::min<uint32_t>(messages, static_cast<uint32_t>((now - start).seconds_f() *
                                                                                      kPacedMessagesPerSecond) + 1)
                                 : messages;
    while (sent < due) {
      if (offered < sent + 1) {
        offered_at_ns[sent] =
            c.paced ? start.ns() + static_cast<int64_t>(sent * 1e9 / kPacedMessagesPerSecond) : now.ns();
        offered = sent + 1;
      }
      store_le(message.data(), sent);
      if (!link.offer(message)) break;
      ++sent;
    }
  }
  if (expected != messages) ++f.order_errors;
  f.delivered = latency_ms.size();
  const double seconds = std::max((last_delivery - start).seconds_f(), 1e-9);
  f.msgs_per_s = static_cast<double>(f.delivered) / seconds;
  f.mb_per_s = f.msgs_per_s * static_cast<double>(c.bytes) / 1e6;
  std::sort(latency_ms.begin(), latency_ms.end());
  double sum = 0;
  for (double v : latency_ms) sum += v;
  f.mean_ms = latency_ms.empty() ? 0.0 : sum / static_cast<double>(latency_ms.size());
  f.p99_ms = latency_ms.empty() ? 0.0 : latency_ms[latency_ms.size() * 99 / 100];
  f.resends = link.resends() - resends_before;
  return f;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Column {
  std::vector<Figures> runs;
  double med(double Figures::*field) const {
    std::vector<double> v;
    for (const Figures& f : runs) v.push_back(f.*field);
    return median(v);
  }
};

void print_run(const char* library, int run, const Figures& f) {
  std::printf("  run %d %-8s %9.0f msg/s %8.2f MB/s  latency mean %7.2f ms p99 %7.2f ms  delivered %llu  "
              "resends %llu  %s\n",
              run + 1, library, f.msgs_per_s, f.mb_per_s, f.mean_ms, f.p99_ms,
              static_cast<unsigned long long>(f.delivered), static_cast<unsigned long long>(f.resends),
              f.order_errors == 0 ? "exactly once, in order" : "ORDER/LOSS ERRORS");
}

std::string ratio(double tickwire, double enet) {
  if (enet <= 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", tickwire / enet);
  return buf;
}

void print_row(const char* label, const char* metric, double enet, double tickwire, bool have_enet, const char* format) {
  char e[32];
  char t[32];
  std::snprintf(e, sizeof e, format, enet);
  std::snprintf(t, sizeof t, format, tickwire);
  std::printf("| %-38s | %-22s | %12s | %12s | %8s |\n", label, metric, have_enet ? e : "(no ENet)", t,
              have_enet ? ratio(tickwire, enet).c_str() : "-");
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 3;
  int only_case = -1;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--runs") == 0) runs = std::max(1, std::atoi(argv[i + 1]));
    if (std::strcmp(argv[i], "--case") == 0) only_case = std::atoi(argv[i + 1]);
  }
#if TICKWIRE_HAVE_ENET
  const bool have_enet = true;
  TW_ASSERT(enet_initialize() == 0, "enet_initialize");
  std::printf("reliable_enet_bench: ENet %u.%u.%u vs tickwire, %d runs per case, medians below\n", ENET_VERSION_MAJOR,
              ENET_VERSION_MINOR, ENET_VERSION_PATCH, runs);
#else
  const bool have_enet = false;
  std::printf("reliable_enet_bench: built without ENet (pkg-config found no libenet; scripts/install-deps installs "
              "libenet-dev): tickwire column only\n");
#endif
  std::vector<Column> enet(std::size(kCases));
  std::vector<Column> tickwire(std::size(kCases));
  for (std::size_t c = 0; c < std::size(kCases); ++c) {
    if (only_case >= 0 && static_cast<std::size_t>(only_case) != c) continue;
    std::printf("%s\n", kCases[c].name);
    for (int r = 0; r < runs; ++r) {
#if TICKWIRE_HAVE_ENET
      {
        EnetLink link(kCases[c].loss);
        enet[c].runs.push_back(run_case(link, kCases[c]));
        print_run("ENet", r, enet[c].runs.back());
      }
#endif
      TickwireLink link(kCases[c].loss);
      tickwire[c].runs.push_back(run_case(link, kCases[c]));
      print_run("tickwire", r, tickwire[c].runs.back());
    }
  }
  std::printf("\n| %-38s | %-22s | %12s | %12s | %8s |\n", "case (medians)", "figure", "ENet", "tickwire", "tw/ENet");
  std::printf("|%s|%s|%s|%s|%s|\n", std::string(40, '-').c_str(), std::string(24, '-').c_str(),
              std::string(14, '-').c_str(), std::string(14, '-').c_str(), std::string(10, '-').c_str());
  for (std::size_t c = 0; c < std::size(kCases); ++c) {
    if (only_case >= 0 && static_cast<std::size_t>(only_case) != c) continue;
    const Case& k = kCases[c];
    const Column& e = enet[c];
    const Column& t = tickwire[c];
    if (!k.paced) {
      print_row(k.name, "msg/s", e.med(&Figures::msgs_per_s), t.med(&Figures::msgs_per_s), have_enet, "%.0f");
      print_row("", "MB/s", e.med(&Figures::mb_per_s), t.med(&Figures::mb_per_s), have_enet, "%.2f");
    } else {
      print_row(k.name, "latency mean (ms)", e.med(&Figures::mean_ms), t.med(&Figures::mean_ms), have_enet, "%.2f");
      print_row("", "latency p99 (ms)", e.med(&Figures::p99_ms), t.med(&Figures::p99_ms), have_enet, "%.2f");
      print_row("", "delivered msg/s", e.med(&Figures::msgs_per_s), t.med(&Figures::msgs_per_s), have_enet, "%.0f");
    }
  }
#if TICKWIRE_HAVE_ENET
  enet_deinitialize();
#endif
  return 0;
}
