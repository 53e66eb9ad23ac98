// The authority's state as it moves between hosts (seed 002, "Host migration": the old host sends
// explicit state to the candidate): the terms, the frame clock, every seat's canonical inputs from
// the oldest frame any peer still lacks, what each peer holds, the checksums not yet compared and
// the checksum every peer agreed on last. One field table states it; a relay restored from it
// relays, compares and polices exactly as the one it came from would have.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "tickwire/lockstep/lockstep_messages.h"
#include "tickwire/lockstep/lockstep_settings.h"
#include "tickwire/protocol/mode_policy.h"
#include "tickwire/protocol/room_policy.h"

namespace tickwire::lockstep {

// A reported checksum not yet compared: its frame and value.
struct PendingChecksum {
  static constexpr std::string_view wire_name = "PendingChecksum";
  uint32_t frame = 0;
  uint32_t value = 0;
  template <class W>
  void fields(W& w) {
    w.u32("frame", frame);
    w.u32("value", value);
  }
};

inline constexpr uint32_t kMaxStateInputBytes = kRelayHistoryFrames * kMaxInputBytes;
inline constexpr uint32_t kMaxStateChecksums = 256;
// The furthest frame a state may name: 2^31 frames is over a year at 60 Hz, and every frame a
// relay computes from it stays far from wrapping.
inline constexpr uint32_t kMaxStateFrame = 1u << 31;
// A relay's frame clock stops here. Every frame a relay takes in is at most the delay, the window
// and a second of clock error past its clock (and a message's checksums past that), so a relay's
// frames stay within kMaxStateFrame however long it runs, and its export always restores.
inline constexpr uint32_t kLastClockFrame = kMaxStateFrame - (1u << 20);
static_assert(kContractMaxTickRateHz + kContractMaxInputDelayFrames + kContractMaxRollbackWindowFrames + kMaxChecksumsPerMessage < (1u << 20));

struct SeatState {
  static constexpr std::string_view wire_name = "SeatState";
  bool taken = false;
  uint32_t left_frame = kNoFrame;
  uint32_t next_frame = 0;
  std::vector<SeatFrame> held;         // what this peer holds of every seat's inputs
  uint32_t inputs_first = 0;           // the frame of inputs[0]; inputs run to the contiguous frontier
  std::vector<InputByte> inputs;
  uint32_t checksums_through = 0;
  std::vector<PendingChecksum> checksums;
  template <class W>
  void fields(W& w) {
    w.boolean("taken", taken);
    w.u32("leftFrame", left_frame);
    w.u32("nextFrame", next_frame);
    w.list8("held", held, 0, kMaxPeers);
    w.u32("inputsFirst", inputs_first);
    w.list16("inputs", inputs, 0, kMaxStateInputBytes);
    w.u32("checksumsThrough", checksums_through);
    w.list16("checksums", checksums, 0, kMaxStateChecksums);
  }
};

struct RelayState {
  static constexpr std::string_view wire_name = "RelayState";
  LockstepTerms terms;
  uint32_t clock_frame = 0;        // the frame clock when the state was taken...
  uint16_t clock_fraction = 0;     // ...and how far into that frame, in 1/65536
  uint32_t compared_through = 0;   // every frame through here compared
  uint32_t agreed_checksum = 0;    // the checksum every peer reported for that frame
  uint32_t desync_frame = kNoFrame;
  uint32_t desync_found_frame = 0;
  std::vector<SeatState> seats;
  template <class W>
  void fields(W& w) {
    w.shape("terms", terms);
    w.u32("clockFrame", clock_frame);
    w.u16("clockFraction", clock_fraction);
    w.u32("comparedThrough", compared_through);
    w.u32("agreedChecksum", agreed_checksum);
    w.u32("desyncFrame", desync_frame);
    w.u32("desyncFoundFrame", desync_found_frame);
    w.list8("seats", seats, 0, kMaxPeers);
  }
};

}  // namespace tickwire::lockstep
