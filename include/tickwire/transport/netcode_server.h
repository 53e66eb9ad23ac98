// The dedicated-server side of netcode 1.02: one socket, up to 256 client slots, the standard's
// request and response processing in its exact order, encrypted keep-alive/payload/disconnect
// traffic with replay protection, keep-alives when idle, timeouts and redundant disconnects.
// A single-threaded step function: update(now, wall_now) does all receiving, timing and sending.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/core/ring_buffer.h"
#include "tickwire/transport/connect_token.h"
#include "tickwire/transport/datagram_batch.h"
#include "tickwire/transport/datagram_socket.h"
#include "tickwire/transport/netcode_packet.h"
#include "tickwire/transport/payload_queue.h"
#include "tickwire/transport/pending_handshakes.h"
#include "tickwire/transport/sequence_streams.h"
#include "tickwire/transport/token_use_table.h"

namespace tickwire {

struct NetcodeServerConfig {
  uint64_t protocol_id = netcode::kDefaultProtocolId;
  netcode::Key private_key{};               // shared with the backend that mints tokens
  Address public_address;                   // the address tokens must list; invalid: the socket's
  uint32_t max_clients = 64;                // [1, 256]
  std::size_t max_pending_handshakes = 0;   // encryption mappings cap; 0: 16 x max_clients
  std::size_t max_token_records = 0;        // token-use history cap; 0: 64 x max_clients
  Duration max_handshake_time = Duration::seconds(5);  // a pending mapping never outlives this
  Duration keep_alive_interval = netcode::kPacketSendInterval;
  int disconnect_packets = netcode::kRedundantDisconnectPackets;
  std::size_t receive_queue_packets = 1024;      // payloads waiting for receive_payload()
  std::size_t max_datagrams_per_update = 8192;   // receive work per update()
  // Clients connected per update(); 0: no cap. A crowd that connects at once then joins over a few
  // updates instead of stalling one: a verified response past the cap waits in a queue (one place
  // per client slot; its resends are counted and ignored) and connects in a later update, first
  // come first served, while its handshake lives.
  uint32_t max_connects_per_update = 0;
  netcode::SequenceStreams* sequence_streams = nullptr;  // null: SequenceStreams::process()
};

enum class DisconnectCause : uint8_t {
  none,
  timed_out,            // nothing heard for the token's timeout
  client_disconnected,  // the client sent a disconnect packet
  server_disconnected,  // disconnect_client() was called
  server_stopped,       // stop() was called
  sequence_exhausted,   // the slot's send stream ran out (after 2^32 packets)
};

struct ServerEvent {
  enum class Type : uint8_t { client_connected, client_disconnected };
  Type type = Type::client_connected;
  uint32_t client_index = 0;
  uint64_t client_id = 0;
  DisconnectCause cause = DisconnectCause::none;
};

class NetcodeServer {
 public:
  static constexpr std::size_t kMaxEvents = 1024;

  NetcodeServer(DatagramSocket& socket, const NetcodeServerConfig& config);
  ~NetcodeServer();
  NetcodeServer(const NetcodeServer&) = delete;
  NetcodeServer& operator=(const NetcodeServer&) = delete;

  // Begins accepting: a fresh random challenge key, a fresh handshake sequence stream, empty
  // tables. Calling start() on a running server restarts it (stop() first).
  void start(MonoTime now);
  // Disconnects every client (redundant disconnect packets), forgets all handshake state.
  void stop(MonoTime now);
  bool running() const { return running_; }

  // Receives and processes waiting datagrams, sends keep-alives, applies timeouts, flushes.
  void update(MonoTime now, WallTime wall_now);
  // Encrypts and queues one payload (1..1200 bytes) for a connected client; false otherwise.
  bool send_payload(uint32_t client_index, std::span<const uint8_t> payload, MonoTime now);
  // Pops the oldest received payload.
  bool receive_payload(netcode::ReceivedPayload& out) { return received_.pop(out); }
  bool poll_event(ServerEvent& out);
  // Sends the redundant disconnect packets now and frees the slot.
  void disconnect_client(uint32_t client_index, MonoTime now);
  // Hands queued packets to the socket (update() does this itself at its end).
  void flush();

  uint32_t max_clients() const { return config_.max_clients; }
  uint32_t connected_clients() const { return connected_count_; }
  bool client_connected(uint32_t client_index) const;
  uint64_t client_id(uint32_t client_index) const;
  const Address& client_address(uint32_t client_index) const;
  const netcode::UserData& client_user_data(uint32_t client_index) const;
  std::size_t pending_handshakes() const { return pending_.size(); }
  std::size_t pending_capacity() const { return pending_.capacity(); }
  uint64_t pending_evictions() const { return pending_.evictions(); }
  const netcode::RejectCounters& rejects() const { return rejects_; }

  // Whether an authentic connection request may start a session, decided from its token's client id
  // and user data before any state is made for it: a request the filter refuses is answered with a
  // denied packet and counted (request_denied_by_server). Unset (the default): every request may.
  using RequestFilter = std::function<bool(uint64_t client_id, const netcode::UserData& user_data)>;
  void set_request_filter(RequestFilter filter) { request_filter_ = std::move(filter); }
  uint64_t bytes_sent() const { return batch_.bytes_sent(); }
  uint64_t datagrams_sent() const { return batch_.datagrams_sent(); }
  uint64_t bytes_received() const { return bytes_received_; }
  uint64_t events_dropped() const { return events_dropped_; }

 private:
  struct Slot;

  void process_datagram(const Datagram& datagram, MonoTime now, uint64_t now_unix);
  void process_request(const Datagram& datagram, MonoTime now, uint64_t now_unix);
  void process_response(const Datagram& datagram, const netcode::DecodedPacket& packet,
                        netcode::PendingHandshake& pending, MonoTime now);
  // Connects a verified response's client when a slot is free (denied otherwise).
  void connect_response(const Address& from, netcode::PendingHandshake& pending, const netcode::ChallengeToken& token,
                        MonoTime now);
  void connect_deferred(MonoTime now);
  void process_from_slot(uint32_t index, const Datagram& datagram, const netcode::EncryptedHeader& header,
                         MonoTime now);
  void send_denied(const Address& to, const netcode::Key& key, std::size_t reply_budget_bytes);
  void send_challenge(const Address& to, const netcode::Key& key, const netcode::ChallengeToken& token,
                      std::size_t reply_budget_bytes);
  bool send_to_slot(uint32_t index, netcode::PacketType type, std::span<const uint8_t> body, MonoTime now);
  bool send_keep_alive(uint32_t index, MonoTime now);
  uint64_t take_handshake_sequence();
  void connect_slot(uint32_t index, const Address& from, const netcode::PendingHandshake& keys,
                    const netcode::ChallengeToken& token, MonoTime now);
  void reset_slot(uint32_t index, DisconnectCause cause);
  void send_keep_alives(MonoTime now);
  void check_timeouts(MonoTime now);
  int find_free_slot() const;
  bool client_id_connected(uint64_t client_id) const;
  void push_event(const ServerEvent& event);
  netcode::SequenceStreams& streams();

  DatagramSocket& socket_;
  NetcodeServerConfig config_;
  bool running_ = false;
  std::vector<Slot> slots_;
  netcode::FixedHashIndex<Address, AddressHash> slot_by_address_;
  uint32_t connected_count_ = 0;
  netcode::PendingHandshakes pending_;
  netcode::TokenUseTable token_uses_;
  netcode::Key challenge_key_{};
  uint64_t challenge_sequence_ = 0;
  netcode::SendSequence handshake_sequence_;
  netcode::DatagramBatch batch_;
  std::vector<Datagram> receive_buffer_;
  netcode::PayloadQueue received_;
  RingBuffer<ServerEvent, kMaxEvents> events_;
  netcode::RejectCounters rejects_;
  RequestFilter request_filter_;
  uint64_t bytes_received_ = 0;
  uint32_t connects_this_update_ = 0;
  struct DeferredConnect {
    Address address;
    netcode::Mac token_mac;  // the connect token its handshake was made for
    netcode::ChallengeToken token;
  };
  std::deque<DeferredConnect> deferred_;  // at most one per slot
  uint64_t events_dropped_ = 0;
};

}  // namespace tickwire
