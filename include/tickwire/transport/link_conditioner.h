// A UDP relay that puts a LinkModel on a real path: clients send to the listen socket, each client
// gets its own upstream socket toward `forward`, and both directions pass through LinkSimulator (the
// code SimNetwork uses). A step function on `now` with injected sockets, so tests can drive it on a
// simulated clock; `tickwire conditioner` is the thin CLI around it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tickwire/core/reasons.h"
#include "tickwire/clock/time.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/core/rng.h"
#include "tickwire/transport/address.h"
#include "tickwire/transport/datagram_socket.h"
#include "tickwire/transport/delay_queue.h"
#include "tickwire/transport/link_simulator.h"

namespace tickwire {

TW_REASONS(ConditionerDrop,
  loss,                  // the link model lost it
  rate_cap,              // the link model's bottleneck queue was full
  held_cap,              // max_held_datagrams already waiting
  client_cap,            // a new client beyond max_clients
  upstream_open_failed,  // the factory could not open an upstream socket for a new client
  unexpected_source,     // something other than `forward` sent to an upstream socket
  send_failed,           // the socket refused the datagram on release
  session_gone          // the client's session expired while its datagram was held
)

struct ConditionerConfig {
  Address forward;      // where client traffic goes (the server)
  LinkModel to_server;  // client -> forward
  LinkModel to_client;  // forward -> client
  uint64_t seed = 1;
  std::size_t max_clients = 64;                         // concurrent client source addresses
  Duration client_idle_timeout = Duration::seconds(60);  // a session silent both ways this long is closed
  std::size_t max_held_datagrams = 1u << 16;            // datagrams waiting for their delivery time
  std::size_t max_receive_per_socket = 1024;            // per socket per step, so one flood cannot starve the rest
};

struct ConditionerStats {
  uint64_t from_clients = 0;  // datagrams received on the listen socket
  uint64_t to_server = 0;     // copies released toward forward
  uint64_t from_server = 0;   // datagrams received from forward
  uint64_t to_clients = 0;    // copies released toward clients
  uint64_t duplicated = 0;    // extra copies the link models made
  uint64_t sessions_opened = 0;
  uint64_t sessions_expired = 0;
  ReasonCounters<ConditionerDrop> dropped;
};

// Opens one upstream socket (e.g. UdpSocket on 127.0.0.1:0, or SimNetwork::bind); null on failure.
using UpstreamSocketFactory = std::function<std::unique_ptr<DatagramSocket>()>;

class LinkConditioner {
 public:
  // `listen` must outlive the conditioner. Asserts on invalid models or a zero cap.
  LinkConditioner(const ConditionerConfig& config, DatagramSocket& listen, UpstreamSocketFactory open_upstream);
  ~LinkConditioner();
  LinkConditioner(const LinkConditioner&) = delete;
  LinkConditioner& operator=(const LinkConditioner&) = delete;

  // Receives what waits on every socket (stamped `now`), releases everything due at `now`, and
  // closes idle sessions. Call with non-decreasing `now`.
  void step(MonoTime now);
  // When the next held datagram is due (a driver may sleep until then); nullopt if none is held.
  std::optional<MonoTime> next_release() const { return held_.next_time(); }

  const ConditionerStats& stats() const { return stats_; }
  std::size_t session_count() const { return sessions_.size(); }
  std::size_t held() const { return held_.size(); }

 private:
  struct Session {
    Address client;
    std::unique_ptr<DatagramSocket> upstream;
    LinkSimulator to_server;
    LinkSimulator to_client;
    MonoTime last_active;
  };
  struct Held {
    uint64_t session_id;
    bool toward_server;
    std::vector<uint8_t> bytes;
  };

  void receive_from_clients(MonoTime now);
  void receive_from_server(MonoTime now);
  void release(MonoTime now);
  void expire_idle(MonoTime now);
  Session* find_or_open(const Address& client, MonoTime now, uint64_t& id);
  void schedule(uint64_t session_id, bool toward_server, LinkSimulator& link, const Datagram& datagram, MonoTime now);

  ConditionerConfig config_;
  DatagramSocket& listen_;
  UpstreamSocketFactory open_upstream_;
  Rng rng_;
  ConditionerStats stats_;
  uint64_t next_session_id_ = 1;
  std::map<uint64_t, Session> sessions_;  // ordered by id: iteration is deterministic
  std::unordered_map<Address, uint64_t, AddressHash> session_by_client_;  // lookup only
  DelayQueue<Held> held_;
  std::vector<Datagram> receive_buffer_;
};

}  // namespace tickwire
