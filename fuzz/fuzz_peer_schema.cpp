// Fuzzes a server's side of the connect sequence and its plan gate: the input is a sequence of
// received messages ([id u8][flags u8: bit 0 reliable][length u16 LE][body]) fed to a PeerSchema
// whose cache knows our build and may learn the peer's (the seeds carry the v0 build's hello, its
// schema text and its inputs). Whatever arrives, nothing crashes, nothing is read past a length,
// and every message it rewrites through a plan decodes in our own shapes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <span>

#include "tickwire/protocol/input_frame.h"
#include "tickwire/protocol/peer_schema.h"
#include "tickwire/protocol/session_channels.h"
#include "tickwire/protocol/wire_messages.h"
#include "tickwire/wire/codec.h"

namespace {

using namespace tickwire;

// A message of our own build passes as it came (its reader judges it); one rewritten through a
// plan was written by our encoder, so it must read back cleanly.
void check_dispatched(const PeerSchema& peer, const PeerMessage& message) {
  if (peer.same_build() || message.id != protocol::InputFrame::wire_id) return;
  protocol::InputFrame frame;
  if (!wire::decode(message.body, frame).ok()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  SchemaCache cache(protocol::protocol_messages().schema_text());
  ReliableEndpoint endpoint(session_endpoint_config());
  NetChannel net(endpoint, kAuthorityOwner, 1);
  PeerSchema peer(cache, wire::Direction::client_to_server, "fuzz", kSessionReliableChannel);
  peer.start(net);
  std::span<const uint8_t> in(data, size);
  while (in.size() >= 4) {
    const uint8_t id = in[0];
    const bool reliable = (in[1] & 1) != 0;
    const std::size_t length = std::size_t{in[2]} | std::size_t{in[3]} << 8;
    in = in.subspan(4);
    const std::size_t take = length < in.size() ? length : in.size();
    NetMessage message;
    message.type = id;
    message.from = 1;
    message.payload = in.first(take);
    in = in.subspan(take);
    if (auto ours = peer.receive(net, message, reliable)) check_dispatched(peer, *ours);
    peer.poll(net);
    while (auto held = peer.next_held()) check_dispatched(peer, *held);
  }
  return 0;
}
