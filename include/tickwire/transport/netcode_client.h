// The client side of netcode 1.02: holds a connect token, walks its server addresses, sends
// connection requests then challenge responses at 10 Hz, and once connected exchanges encrypted
// payloads and keep-alives. Every state and error state the standard names, with its numbering.
// A single-threaded step function: update(now) does all receiving, timing and sending.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/transport/connect_token.h"
#include "tickwire/transport/datagram_batch.h"
#include "tickwire/transport/datagram_socket.h"
#include "tickwire/transport/netcode_packet.h"
#include "tickwire/transport/payload_queue.h"
#include "tickwire/transport/sequence_streams.h"

namespace tickwire {

enum class ClientState : int8_t {
  connect_token_expired = -6,
  invalid_connect_token = -5,
  connection_timed_out = -4,
  connection_response_timed_out = -3,
  connection_request_timed_out = -2,
  connection_denied = -1,
  disconnected = 0,
  sending_connection_request = 1,
  sending_connection_response = 2,
  connected = 3,
};
std::string_view client_state_name(ClientState state) noexcept;
constexpr bool is_error_state(ClientState s) { return static_cast<int8_t>(s) < 0; }

struct NetcodeClientConfig {
  Duration send_interval = netcode::kPacketSendInterval;  // requests, responses, idle keep-alives
  int disconnect_packets = netcode::kRedundantDisconnectPackets;
  std::size_t receive_queue_packets = 256;
  std::size_t max_datagrams_per_update = 1024;
  netcode::SequenceStreams* sequence_streams = nullptr;  // null: SequenceStreams::process()
};

class NetcodeClient {
 public:
  NetcodeClient(DatagramSocket& socket, const NetcodeClientConfig& config = {});
  ~NetcodeClient();
  NetcodeClient(const NetcodeClient&) = delete;
  NetcodeClient& operator=(const NetcodeClient&) = delete;

  // Starts connecting with a token from the backend (2048 bytes, or already parsed). A token that
  // does not read, lists no server, or was created after it expires -> invalid_connect_token.
  // Connecting while connected disconnects first.
  void connect(std::span<const uint8_t> token_bytes, MonoTime now);
  void connect(const netcode::ConnectToken& token, MonoTime now);
  // Receives and processes waiting datagrams, sends what is due, applies timeouts, flushes.
  void update(MonoTime now);
  // Encrypts and queues one payload (1..1200 bytes); false unless connected.
  bool send_payload(std::span<const uint8_t> payload, MonoTime now);
  bool receive_payload(netcode::ReceivedPayload& out) { return received_.pop(out); }
  // Sends the redundant disconnect packets (when connected) and goes to disconnected.
  void disconnect(MonoTime now);
  void flush();

  ClientState state() const { return state_; }
  bool connected() const { return state_ == ClientState::connected; }
  uint32_t client_index() const { return client_index_; }
  uint32_t max_clients() const { return max_clients_; }
  // The server address currently tried (or connected to).
  Address server_address() const;
  uint32_t server_address_index() const { return server_index_; }
  const netcode::RejectCounters& rejects() const { return rejects_; }
  uint64_t bytes_sent() const { return batch_.bytes_sent(); }

 private:
  void begin_server(uint32_t index, MonoTime now);
  void fail_over(ClientState error, MonoTime now);
  void process_datagram(const Datagram& datagram, MonoTime now);
  void process_packet(const netcode::DecodedPacket& packet, MonoTime now);
  void send_due_packets(MonoTime now);
  bool send_encrypted(netcode::PacketType type, std::span<const uint8_t> body, MonoTime now);
  void send_request(MonoTime now);
  void check_timeouts(MonoTime now);
  void enter(ClientState state);
  void forget_token();

  DatagramSocket& socket_;
  NetcodeClientConfig config_;
  ClientState state_ = ClientState::disconnected;
  netcode::ConnectToken token_;
  uint32_t server_index_ = 0;
  MonoTime connect_start_;
  MonoTime last_send_;
  MonoTime last_receive_;
  uint32_t client_index_ = 0;
  uint32_t max_clients_ = 0;
  netcode::ChallengeBody challenge_;
  netcode::ReplayProtection replay_;
  netcode::SendSequence sequence_;
  netcode::DatagramBatch batch_;
  std::vector<Datagram> receive_buffer_;
  netcode::PayloadQueue received_;
  netcode::RejectCounters rejects_;
};

}  // namespace tickwire
