// What deterministic mode runs by (seed 002, "Deterministic Mode"): the contract's logic rate (its
// cadence's tick rate) and its deterministic policy (protocol/mode_policy.h: seats, input size,
// rollback window, input delay, lag policy). Nothing in lockstep/ restates one of those numbers;
// this file adds only the caps the wire and the preallocated rings are sized by.
#pragma once

#include <cstdint>

#include "tickwire/protocol/mode_policy.h"

namespace tickwire {
struct NetcodeContract;
}

namespace tickwire::lockstep {

inline constexpr uint32_t kMaxPeers = kContractMaxSeats;
inline constexpr uint32_t kMaxInputBytes = kContractMaxInputBytes;
inline constexpr uint32_t kMaxRollbackWindowFrames = kContractMaxRollbackWindowFrames;
// Frames of inputs one message carries per seat (own inputs up, each seat's inputs down).
inline constexpr uint32_t kMaxFramesPerMessage = 32;
// Checksums one peer message carries.
inline constexpr uint32_t kMaxChecksumsPerMessage = 32;
// Bytes of input runs one message may spend: a message stays inside one datagram.
inline constexpr uint32_t kInputRunBudgetBytes = 900;
// Bytes of other seats' inputs one peer message forwards to a recovering authority.
inline constexpr uint32_t kForwardBudgetBytes = 256;
// Canonical input history the authority keeps per seat: a peer whose acks fall further behind can
// never be brought up to date, and is dropped.
inline constexpr uint32_t kRelayHistoryFrames = 256;
// The first frame a match simulates; frame 0 is the state before it.
inline constexpr uint32_t kFirstFrame = 1;
// "No such frame": a seat that has not left, no desync found.
inline constexpr uint32_t kNoFrame = 0xffff'ffffu;

struct LockstepSettings {
  uint32_t logic_hz = 60;
  DeterministicPolicy policy;

  // The frames one peer keeps states and inputs for: the window, the frame being confirmed, slack.
  uint32_t ring_frames() const { return policy.rollback_window_frames + policy.input_delay_frames + 4; }
  // Frames of one seat's inputs a relay carries, so that every seat's run fits one datagram.
  uint32_t relay_frames_per_seat() const;
  // Frames of its own inputs a peer's message carries.
  uint32_t peer_frames_per_message() const;
};

// A deterministic room's settings, from its resolved contract.
LockstepSettings lockstep_settings(const NetcodeContract& contract);
// Whether the numbers are inside the contract's ranges (a welcome carrying others is refused).
bool settings_valid(const LockstepSettings& settings);

}  // namespace tickwire::lockstep
