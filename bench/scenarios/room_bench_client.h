// One of the room bench's scripted clients: a real connection (netcode 1.02 handshake and crypto,
// the reliability layer, the session with its contract check) that sends one input per tick with
// the un-acked ones before it, reports the frames it holds and decodes every snapshot, but neither
// predicts nor renders: the cheapest client that still costs the server everything a player does.
#pragma once

#include <cstdint>
#include <memory>

#include "tickwire/client/session_client.h"
#include "tickwire/transport/connect_token.h"
#include "tickwire/transport/datagram_socket.h"
#include "tickwire/transport/netcode_client.h"
#include "tickwire/transport/reliable_client.h"
#include "tickwire/world/bot_brain.h"

namespace tickwire::bench {

class RoomBenchClient {
 public:
  // `socket` is the client's own; `cache` (this build's schema) is shared by every client and must
  // outlive it. The brain wanders, seeded by `seed`, from a point of its script the seed picks.
  RoomBenchClient(std::unique_ptr<DatagramSocket> socket, SchemaCache& cache, uint64_t seed);

  void connect(const netcode::ConnectToken& token, MonoTime now);
  // One client tick: receive and decode what arrived, then send this tick's input (once welcomed).
  void frame(MonoTime now);

  bool sending() const { return session_.sending(); }
  uint64_t snapshots() const { return snapshots_; }
  uint64_t snapshot_bytes() const { return snapshot_bytes_; }  // encoded, fragments joined
  uint64_t records() const { return records_; }  // records in the snapshots decoded
  uint64_t inputs_sent() const { return inputs_sent_; }
  const SessionClient& session() const { return session_; }
  const NetcodeClient& netcode() const { return netcode_; }

 private:
  std::unique_ptr<DatagramSocket> socket_;
  NetcodeClient netcode_;
  ReliableClient reliable_;
  SessionClient session_;
  world::BotBrain brain_;
  uint32_t script_phase_ = 0;  // added to the input sequence the brain is stepped by
  protocol::Snapshot snapshot_;
  uint64_t snapshots_ = 0;
  uint64_t snapshot_bytes_ = 0;
  uint64_t records_ = 0;
  uint64_t inputs_sent_ = 0;
};

}  // namespace tickwire::bench
