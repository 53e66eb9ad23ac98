// The connect sequence and the plan gate, one per connection.
#include "tickwire/protocol/peer_schema.h"

#include <utility>

#include "tickwire/core/assert.h"
#include "tickwire/protocol/fixed_frame.h"
#include "tickwire/wire/typed_channel.h"

namespace tickwire {

bool peer_refusal_is_fatal(PeerRefusal refusal) {
  return refusal == PeerRefusal::protocol_mismatch || refusal == PeerRefusal::schema_text_refused ||
         refusal == PeerRefusal::held_overflow || refusal == PeerRefusal::hello_malformed;
}

PeerSchema::PeerSchema(SchemaCache& cache, wire::Direction incoming, std::string build_name, uint8_t reliable_channel)
    : cache_(cache), incoming_(incoming), build_name_(std::move(build_name)), channel_(reliable_channel) {
  TW_ASSERT(incoming_ != wire::Direction::both, "a peer's messages travel one way");
  TW_ASSERT(build_name_.size() <= protocol::MaxBuildNameBytes, "build name over its cap");
}

PeerSchema::~PeerSchema() {
  if (text_requested_ && !build_ && peer_hash_) cache_.end_request(*peer_hash_);
}

void PeerSchema::start(NetChannel& net) {
  TW_ASSERT(!started_, "the connect sequence starts once");
  started_ = true;
  protocol::ConnectRequest hello;
  hello.schema_hash = cache_.our_hash();
  hello.build_name = build_name_;
  (void)wire::send_message(net, channel_, hello);  // a refused reliable send fails the endpoint itself
}

void PeerSchema::refuse(PeerRefusal refusal) {
  refusals_.add(refusal);
  if (peer_refusal_is_fatal(refusal) && !failure_) failure_ = refusal;
}

std::optional<PeerMessage> PeerSchema::receive(NetChannel& net, const NetMessage& message, bool reliable) {
  if (failure_) return std::nullopt;
  // Message ids below 256 only: the envelope's type is wider than any registry's id.
  if (message.type > UINT8_MAX) {
    refuse(PeerRefusal::untranslatable);
    return std::nullopt;
  }
  const auto id = static_cast<uint8_t>(message.type);
  switch (id) {
    case protocol::ConnectRequest::wire_id: on_hello(net, message.payload); return std::nullopt;
    case protocol::SchemaRequest::wire_id: on_schema_request(net, message.payload); return std::nullopt;
    case protocol::SchemaText::wire_id: on_schema_text(message.payload); return std::nullopt;
    default: break;
  }
  if (!ready()) {
    if (reliable) {
      hold(id, message.payload);
    } else {
      refuse(PeerRefusal::early_unreliable);
    }
    return std::nullopt;
  }
  return deliver(id, message.payload);
}

void PeerSchema::on_hello(NetChannel& net, std::span<const uint8_t> body) {
  if (peer_hash_) {
    refuse(PeerRefusal::duplicate_hello);
    return;
  }
  protocol::ConnectRequest hello;
  if (!wire::decode_counted(body, hello, decode_errors_).ok()) {
    refuse(PeerRefusal::hello_malformed);
    return;
  }
  if (hello.protocol_version != protocol::kProtocolVersion) {
    refuse(PeerRefusal::protocol_mismatch);
    return;
  }
  peer_hash_ = hello.schema_hash;
  peer_build_name_ = std::move(hello.build_name);
  if (hello.schema_hash == cache_.our_hash()) {
    same_build_ = true;
    return;
  }
  build_ = cache_.find(hello.schema_hash);
  if (build_) return;
  awaiting_text_ = true;
  poll(net);
}

void PeerSchema::poll(NetChannel& net) {
  if (!awaiting_text_ || failure_) return;
  build_ = cache_.find(*peer_hash_);
  if (build_) {
    awaiting_text_ = false;
  } else if (cache_.begin_request(*peer_hash_)) {
    awaiting_text_ = false;
    request_text(net);
  }
}

void PeerSchema::request_text(NetChannel& net) {
  text_requested_ = true;
  (void)wire::send_message(net, channel_, protocol::SchemaRequest{*peer_hash_});
}

void PeerSchema::on_schema_request(NetChannel& net, std::span<const uint8_t> body) {
  protocol::SchemaRequest request;
  if (!wire::decode_counted(body, request, decode_errors_).ok()) {
    refuse(PeerRefusal::fixed_frame_malformed);
    return;
  }
  if (!(request.schema_hash == cache_.our_hash())) {
    refuse(PeerRefusal::foreign_request);
    return;
  }
  protocol::SchemaText text;
  text.schema_hash = cache_.our_hash();
  text.text = cache_.our_text();
  (void)wire::send_message(net, channel_, text);
  cache_.count_text_sent();
}

void PeerSchema::on_schema_text(std::span<const uint8_t> body) {
  protocol::SchemaText text;
  if (!wire::decode_counted(body, text, decode_errors_).ok()) {
    refuse(PeerRefusal::fixed_frame_malformed);
    return;
  }
  if (!text_requested_ || build_ || !peer_hash_ || !(text.schema_hash == *peer_hash_)) {
    refuse(PeerRefusal::unsolicited_text);
    return;
  }
  ++texts_received_;
  auto learned = cache_.learn(text.schema_hash, text.text);
  if (!learned.ok()) {
    cache_.end_request(text.schema_hash);  // another session may ask its own peer
    refuse(PeerRefusal::schema_text_refused);
    return;
  }
  build_ = std::move(learned).value();
}

bool PeerSchema::peer_lists(std::string_view message_name) const {
  if (!ready()) return false;
  if (same_build_) return true;  // the peer is this build: it lists every message we would send
  return build_->plan.peer_schema().find_message(message_name) != nullptr;
}

std::optional<PeerMessage> PeerSchema::rewrite(uint8_t peer_id, std::span<const uint8_t> body) {
  if (failure_ || !ready()) return std::nullopt;
  return deliver(peer_id, body);
}

std::optional<PeerMessage> PeerSchema::deliver(uint8_t peer_id, std::span<const uint8_t> body) {
  if (same_build_) return PeerMessage{peer_id, body};
  scratch_.clear();
  auto translated = build_->plan.translate(peer_id, incoming_, body, scratch_);
  if (!translated.ok() || scratch_.size() > kPeerSchemaTranslateBytes) {
    refuse(PeerRefusal::untranslatable);
    return std::nullopt;
  }
  ++translated_;
  return PeerMessage{translated.value().id, std::span<const uint8_t>(scratch_)};
}

void PeerSchema::hold(uint8_t peer_id, std::span<const uint8_t> body) {
  if (held_.size() >= kPeerSchemaHeldMessages || held_bytes_ + body.size() > kPeerSchemaHeldBytes) {
    refuse(PeerRefusal::held_overflow);
    return;
  }
  held_.push_back(Held{peer_id, std::vector<uint8_t>(body.begin(), body.end())});
  held_bytes_ += body.size();
}

std::optional<PeerMessage> PeerSchema::next_held() {
  while (!failure_ && ready() && held_next_ < held_.size()) {
    const Held& held = held_[held_next_++];
    if (auto message = deliver(held.id, held.body)) return message;
  }
  if (ready() && held_next_ == held_.size()) {
    // All handed out, and the caller is done with the last one (it asked again): free the hold.
    held_.clear();
    held_next_ = 0;
    held_bytes_ = 0;
  }
  return std::nullopt;
}

}  // namespace tickwire
