// Deterministic mode over the real transport: the relay behind a ReliableServer (one seat per
// client slot) and a rollback session behind a ReliableClient. The welcome travels on the reliable
// channel; inputs, relays and checksums on the unreliable one, made reliable by redundancy (every
// message repeats what the other side has not acknowledged), so a lost datagram costs nothing.
#pragma once

#include <array>
#include <cstdint>

#include "tickwire/clock/time.h"
#include "tickwire/lockstep/lockstep_relay.h"
#include "tickwire/lockstep/rollback_session.h"
#include "tickwire/transport/endpoint_config.h"
#include "tickwire/transport/reliable_client.h"
#include "tickwire/transport/reliable_server.h"

namespace tickwire::lockstep {

inline constexpr uint8_t kWelcomeChannel = 0;  // reliable-ordered
inline constexpr uint8_t kFramesChannel = 1;   // unreliable

// The channel layout both ends of a deterministic match use.
EndpointConfig lockstep_endpoint_config();

struct RelayHostCounters {
  uint64_t refused_connections = 0;  // a slot past the seats, or a connection after the start
  uint64_t relays_sent = 0;
  uint64_t relay_bytes = 0;
};

class RelayHost {
 public:
  // `server` (max_clients >= seats) and `relay` must outlive the host.
  RelayHost(ReliableServer& server, LockstepRelay& relay);
  // One iteration: receive, seat newcomers, start once every seat is taken (welcoming each), take
  // every peer's frames, compare and police, drop whom the relay dropped, relay, send.
  void update(MonoTime now, WallTime wall_now);
  const RelayHostCounters& counters() const { return counters_; }

 private:
  void take_events(MonoTime now);

  ReliableServer& server_;
  LockstepRelay& relay_;
  RelayHostCounters counters_;
  std::array<uint8_t, kMaxPacketPayloadBytes> buffer_{};
};

class PeerLink {
 public:
  // `client` and `session` must outlive the link.
  PeerLink(ReliableClient& client, RollbackSession& session);
  // One iteration: receive (welcome, relays), advance the session, send its frames.
  void update(MonoTime now);
  uint64_t bytes_sent() const { return bytes_sent_; }

 private:
  ReliableClient& client_;
  RollbackSession& session_;
  uint64_t bytes_sent_ = 0;
  std::array<uint8_t, kMaxPacketPayloadBytes> buffer_{};
};

}  // namespace tickwire::lockstep
