// PeerSchema: one connection's side of the connect sequence, and the gate every received message
// passes before dispatch. Each side opens with a ConnectRequest naming its schema hash; a side that
// has never seen the other's hash asks for the text (SchemaRequest) and caches it (SchemaText).
// From then on a peer with our hash is dispatched as is and any other is rewritten into our shapes
// through its plan, so no handler ever sees another build's bytes. Reliable messages that arrive
// before the plan is ready are held (capped); unreliable ones are dropped and counted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tickwire/core/reasons.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/protocol/schema_cache.h"
#include "tickwire/transport/net_channel.h"
#include "tickwire/wire/codec.h"

namespace tickwire {

inline constexpr std::size_t kPeerSchemaHeldMessages = 32;        // reliable messages held before ready
inline constexpr std::size_t kPeerSchemaHeldBytes = 64 * 1024;    // and their bytes
inline constexpr std::size_t kPeerSchemaTranslateBytes = 64 * 1024;  // largest rewritten message

// Why a connect-sequence message or an early message was not taken. The first four end the session.
TW_REASONS(PeerRefusal,
  protocol_mismatch,       // the peer's fixed frame is another protocol version: fatal
  schema_text_refused,     // the text did not hash to its name, or does not pair with ours: fatal
  held_overflow,           // more reliable messages before the plan than the hold takes: fatal
  hello_malformed,         // a ConnectRequest that does not decode: fatal
  duplicate_hello,         // a second ConnectRequest: ignored
  unsolicited_text,        // a SchemaText we did not ask for: ignored
  foreign_request,         // a SchemaRequest for a hash that is not ours: ignored
  fixed_frame_malformed,   // a SchemaRequest/SchemaText that does not decode: ignored
  early_unreliable,        // an unreliable message before the plan was ready: dropped
  untranslatable          // a message the plan could not rewrite (unknown id, malformed): dropped
)
bool peer_refusal_is_fatal(PeerRefusal refusal);

// A received message in our own shapes: `body` is valid until the next call on the PeerSchema.
struct PeerMessage {
  uint8_t id = 0;
  std::span<const uint8_t> body;
};

class PeerSchema {
 public:
  // `incoming`: the direction the peer's messages travel (client_to_server on a server).
  PeerSchema(SchemaCache& cache, wire::Direction incoming, std::string build_name, uint8_t reliable_channel);
  ~PeerSchema();
  PeerSchema(const PeerSchema&) = delete;
  PeerSchema& operator=(const PeerSchema&) = delete;

  // Sends our ConnectRequest. Call once, when the connection opens.
  void start(NetChannel& net);

  // Feeds one received message. Returns it in our shapes when it is for dispatch now; the connect
  // sequence's own messages, held, dropped and refused ones return nothing.
  std::optional<PeerMessage> receive(NetChannel& net, const NetMessage& message, bool reliable);
  // Call once per iteration: a session waiting on another session's request for the same text
  // picks the learned build up here (or asks itself if that request ended unanswered).
  void poll(NetChannel& net);
  // After receive() or poll() made the side ready, the held messages in arrival order, one per call.
  std::optional<PeerMessage> next_held();

  // Rewrites a peer message that reached us inside another (a reassembled snapshot) into our
  // shapes, as receive() does; nothing before the side is ready.
  std::optional<PeerMessage> rewrite(uint8_t peer_id, std::span<const uint8_t> body);

  bool ready() const { return peer_hash_.has_value() && (same_build_ || build_ != nullptr); }
  bool same_build() const { return same_build_; }
  // Whether the peer's schema has a message of ours of this name (what it can take: snapshotDelta,
  // mapRestTable...). False until ready(); true for the same build.
  bool peer_lists(std::string_view message_name) const;
  const std::optional<wire::Hash16>& peer_hash() const { return peer_hash_; }
  const std::string& peer_build_name() const { return peer_build_name_; }
  // Set once the session must end (a fatal refusal); nothing is dispatched after it.
  std::optional<PeerRefusal> failure() const { return failure_; }
  const ReasonCounters<PeerRefusal>& refusals() const { return refusals_; }
  uint64_t translated() const { return translated_; }
  uint64_t schema_texts_received() const { return texts_received_; }

 private:
  void on_hello(NetChannel& net, std::span<const uint8_t> body);
  void on_schema_request(NetChannel& net, std::span<const uint8_t> body);
  void on_schema_text(std::span<const uint8_t> body);
  std::optional<PeerMessage> deliver(uint8_t peer_id, std::span<const uint8_t> body);
  void hold(uint8_t peer_id, std::span<const uint8_t> body);
  void refuse(PeerRefusal refusal);
  void request_text(NetChannel& net);

  SchemaCache& cache_;
  wire::Direction incoming_;
  std::string build_name_;
  uint8_t channel_;
  bool started_ = false;
  std::optional<wire::Hash16> peer_hash_;
  std::string peer_build_name_;
  bool same_build_ = false;
  bool text_requested_ = false;  // we sent the SchemaRequest (and own the cache's in-flight mark)
  bool awaiting_text_ = false;   // another session's request for the same hash is in flight
  std::shared_ptr<PeerBuild> build_;
  struct Held {
    uint8_t id;
    std::vector<uint8_t> body;
  };
  std::vector<Held> held_;
  std::size_t held_bytes_ = 0;
  std::size_t held_next_ = 0;
  std::vector<uint8_t> scratch_;
  std::optional<PeerRefusal> failure_;
  ReasonCounters<PeerRefusal> refusals_;
  wire::DecodeErrorCounters decode_errors_;
  uint64_t translated_ = 0;
  uint64_t texts_received_ = 0;
};

}  // namespace tickwire
