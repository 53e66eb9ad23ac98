// The channel layout of a room session, the same on server and client: channel 0 reliable-ordered
// (the connect sequence, schema texts, the welcome, interactions; blocks up to 64 KiB so a schema
// text fits), channel 1 unreliable (inputs up, snapshots down; a late one inside the receive window
// is taken, for the snapshot and input layers to judge by tick and sequence). The unreliable queues
// hold a server's catch-up burst: after a stall the room runs up to 4 ticks per iteration,
// iterations back to back, and every one of those ticks' snapshots must reach a client that drains
// once a frame.
#pragma once

#include <cstdint>

#include "tickwire/transport/endpoint_config.h"
#include "tickwire/transport/message_envelope.h"

namespace tickwire {

inline constexpr uint8_t kSessionReliableChannel = 0;
inline constexpr uint8_t kSessionUnreliableChannel = 1;
inline constexpr uint32_t kSessionUnreliableQueueMessages = 64;  // 4 catch-up ticks of 16-fragment snapshots
// A fragment overtaken by the rest of its burst (a catch-up burst included) is still taken: the
// reassembler then judges it by its tick. The cap, kMaxUnreliableReceiveWindow.
inline constexpr uint32_t kSessionUnreliableReceiveWindow = 64;
inline constexpr uint32_t kSessionPacketsPerWrite = 24;           // a 16-fragment snapshot and the rest
inline constexpr uint32_t kSessionMaxBlockBytes = 64 * 1024;
// The largest game message (Server::send, Client::send_to): a block less the envelope in front of it.
inline constexpr uint32_t kSessionMaxGameMessageBytes = kSessionMaxBlockBytes - kMaxEnvelopeBytes;

EndpointConfig session_endpoint_config();

}  // namespace tickwire
