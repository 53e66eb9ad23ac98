// Deterministic mode's wire (seed 002: "frame numbers are the primary packet identifier; input
// replication is the sync mechanism"). Three messages, each stated once in its field table: the
// authority seats a peer (LockstepWelcome, reliable); a peer sends its own inputs redundantly from
// the authority's ack, what it holds of everyone's, and its confirmed frames' checksums
// (PeerFrames, unreliable, every frame); the authority relays every seat's canonical inputs from
// what the peer holds, its frame clock and its verdicts (RelayFrames, unreliable, every frame).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "tickwire/lockstep/lockstep_settings.h"
#include "tickwire/protocol/snapshot_fragment.h"
#include "tickwire/wire/describe_walker.h"
#include "tickwire/wire/message_registry.h"
#include "tickwire/wire/types.h"

namespace tickwire::lockstep {

// One byte of an input run: the protocol's one-byte shape (the wire has no raw-bytes kind, so a
// run is a list of these, on the wire exactly a count and the bytes).
using InputByte = protocol::SliceByte;

inline constexpr uint32_t kMaxInputRunBytes = kMaxFramesPerMessage * kMaxInputBytes;

// The settings as they cross the wire: a peer runs exactly what the authority runs.
struct LockstepTerms {
  static constexpr std::string_view wire_name = "LockstepTerms";
  LockstepSettings settings;
  template <class W>
  void fields(W& w) {
    w.u32("logicHz", settings.logic_hz);
    w.shape("policy", settings.policy);
  }
};

struct LockstepWelcome {
  static constexpr std::string_view wire_name = "LockstepWelcome";
  static constexpr std::string_view message_name = "lockstepWelcome";
  static constexpr uint8_t wire_id = 1;
  static constexpr wire::Direction wire_direction = wire::Direction::server_to_client;

  uint8_t seat = 0;
  LockstepTerms terms;

  template <class W>
  void fields(W& w) {
    w.u8("seat", seat);
    w.shape("terms", terms);
  }
};

// One confirmed frame's checksum as it crosses the wire: the game's 64 bits folded to 32 (a false
// agreement is one chance in four billion per frame, and every frame is compared).
struct FrameChecksum {
  static constexpr std::string_view wire_name = "FrameChecksum";
  uint32_t value = 0;
  template <class W>
  void fields(W& w) {
    w.u32("value", value);
  }
};
inline uint32_t wire_checksum(uint64_t checksum) { return static_cast<uint32_t>(checksum ^ (checksum >> 32)); }

// One frame number per seat: what a peer holds of each seat's inputs.
struct SeatFrame {
  static constexpr std::string_view wire_name = "SeatFrame";
  uint32_t frame = 0;
  template <class W>
  void fields(W& w) {
    w.u32("frame", frame);
  }
};

// One seat's canonical inputs from first_frame on, and the frame it left at (kNoFrame: seated).
struct SeatInputs {
  static constexpr std::string_view wire_name = "SeatInputs";
  uint32_t first_frame = 0;
  uint32_t left_frame = kNoFrame;
  std::vector<InputByte> inputs;
  template <class W>
  void fields(W& w) {
    w.u32("firstFrame", first_frame);
    w.u32("leftFrame", left_frame);
    w.list16("inputs", inputs, 0, kMaxInputRunBytes);
  }
};

// Another seat's canonical inputs a peer forwards to a recovering authority.
struct ForwardedInputs {
  static constexpr std::string_view wire_name = "ForwardedInputs";
  uint8_t seat = 0;
  uint32_t first_frame = 0;
  std::vector<InputByte> inputs;
  template <class W>
  void fields(W& w) {
    w.u8("seat", seat);
    w.u32("firstFrame", first_frame);
    w.list16("inputs", inputs, 0, kMaxInputRunBytes);
  }
};

struct PeerFrames {
  static constexpr std::string_view wire_name = "PeerFrames";
  static constexpr std::string_view message_name = "peerFrames";
  static constexpr uint8_t wire_id = 2;
  static constexpr wire::Direction wire_direction = wire::Direction::client_to_server;

  uint32_t next_frame = 0;            // the frame this peer simulates next (its clock)
  uint32_t first_input_frame = 0;     // the frame of inputs[0]
  std::vector<InputByte> inputs;      // own inputs, whole frames, from the authority's ack on
  std::vector<SeatFrame> held;        // per seat: the newest frame through which all inputs are held
  uint32_t first_checksum_frame = 0;  // the frame of checksums[0]
  std::vector<FrameChecksum> checksums;
  // Other seats' canonical inputs a recovering authority lacks (it says what it holds): a host
  // rebuilt after the old one vanished learns from the survivors what only they had received.
  std::vector<ForwardedInputs> forwarded;

  template <class W>
  void fields(W& w) {
    w.u32("nextFrame", next_frame);
    w.u32("firstInputFrame", first_input_frame);
    w.list16("inputs", inputs, 0, kMaxInputRunBytes);
    w.list8("held", held, 0, kMaxPeers);
    w.u32("firstChecksumFrame", first_checksum_frame);
    w.list8("checksums", checksums, 0, kMaxChecksumsPerMessage);
    w.list8("forwarded", forwarded, 0, kMaxPeers);
  }
};

struct RelayFrames {
  static constexpr std::string_view wire_name = "RelayFrames";
  static constexpr std::string_view message_name = "relayFrames";
  static constexpr uint8_t wire_id = 3;
  static constexpr wire::Direction wire_direction = wire::Direction::server_to_client;

  uint32_t clock_frame = 0;           // the authority's frame clock when it sent this
  uint16_t clock_fraction = 0;        // and how far into that frame, in 1/65536
  uint32_t own_held = 0;              // the newest of your frames through which it holds all
  uint32_t checksums_held = 0;        // the newest of your checksums it holds
  uint32_t desync_frame = kNoFrame;   // the first frame whose checksums disagreed, if any did
  std::vector<SeatInputs> seats;      // one per seat, yours included (empty inputs)
  std::vector<SeatFrame> recovering;  // while rebuilt after its predecessor vanished: what it holds per seat

  template <class W>
  void fields(W& w) {
    w.u32("clockFrame", clock_frame);
    w.u16("clockFraction", clock_fraction);
    w.u32("ownHeld", own_held);
    w.u32("checksumsHeld", checksums_held);
    w.u32("desyncFrame", desync_frame);
    w.list8("seats", seats, 0, kMaxPeers);
    w.list8("recovering", recovering, 0, kMaxPeers);
  }
};

// A message with its envelope byte, in a vector of exactly its size.
template <class M>
std::vector<uint8_t> message_bytes(const M& message) {
  std::vector<uint8_t> out(1 + wire::measure(message));
  const Result<std::size_t> written = wire::encode_message(message, out);
  TW_ASSERT(written.ok() && written.value() == out.size(), "a measured message fits its measure");
  return out;
}

// Deterministic mode's registry: its own schema text and hash.
const wire::WireMessages& lockstep_messages();

}  // namespace tickwire::lockstep
