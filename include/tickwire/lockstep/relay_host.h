// The relay behind a ReliableServer (deterministic mode's authority on the real transport): one
// seat per connection by its token's grant, the welcome when every seat is taken, frames in and
// relays out every iteration, the host's side of a migration, and its successors named every second.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/lockstep/host_handover.h"
#include "tickwire/lockstep/link_layout.h"
#include "tickwire/lockstep/lockstep_relay.h"
#include "tickwire/lockstep/migration_messages.h"
#include "tickwire/transport/reliable_server.h"

namespace tickwire::lockstep {

struct RelayHostCounters {
  uint64_t refused_connections = 0;  // a seat past the seats, taken, or not playing after the start
  uint64_t relays_sent = 0;
  uint64_t relay_bytes = 0;
};

class RelayHost {
 public:
  // `server` (max_clients >= seats) and `relay` must outlive the host; `handover`, if given, is
  // this host's side of a migration away from it; `host_seat` is the seat playing in this host's
  // process (kNoSeat: a dedicated host), never its own successor.
  RelayHost(ReliableServer& server, LockstepRelay& relay, HostHandover* handover = nullptr, uint8_t host_seat = kNoSeat);
  // One iteration: receive, seat newcomers, start once every seat is taken (welcoming each), take
  // every peer's frames, compare and police, drop whom the relay dropped, move the handshake on,
  // relay, send. Once the relay is retired (handed over) every connection is closed.
  void update(MonoTime now, WallTime wall_now);
  const RelayHostCounters& counters() const { return counters_; }
  // The round trip to each seat's peer (0 for a seat with no connection), for ranking candidates.
  std::vector<double> rtt_ms_by_seat() const;

 private:
  void take_events(MonoTime now);
  void seat_connection(uint32_t index, MonoTime now);
  ReliableEndpoint* endpoint_of(uint8_t seat);
  void send_reliable(uint8_t seat, std::span<const uint8_t> bytes);

  void send_successors(MonoTime now);

  ReliableServer& server_;
  LockstepRelay& relay_;
  HostHandover* handover_;
  uint8_t host_seat_;
  std::optional<MonoTime> next_successors_;
  std::array<int32_t, kMaxPeers> client_of_seat_;
  std::vector<int32_t> seat_of_client_;
  bool closed_ = false;
  RelayHostCounters counters_;
  std::vector<OutgoingMessage> outbox_;
  std::array<uint8_t, kMaxPacketPayloadBytes> buffer_{};
};

}  // namespace tickwire::lockstep
