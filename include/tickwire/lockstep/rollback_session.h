// One peer of a deterministic match (seed 002; GGPO's rollback): it steps the game at the logic
// rate against the authority's frame clock, predicts every seat whose input has not arrived (its
// last known input, repeated), and when a canonical input contradicts a guess it loads the state
// before that frame and resimulates up to the present. It never runs more than the rollback window
// past its confirmed frame (the frame through which every input is canonical): there it waits.
// Confirmed frames' checksums go to the authority, which compares every peer's.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/lockstep/deterministic_game.h"
#include "tickwire/lockstep/input_ring.h"
#include "tickwire/lockstep/lockstep_messages.h"
#include "tickwire/lockstep/lockstep_settings.h"
#include "tickwire/lockstep/relay_state.h"
#include "tickwire/lockstep/replay.h"
#include "tickwire/lockstep/rollback_stats.h"

namespace tickwire::lockstep {

class RollbackSession {
 public:
  // `game` and `input` must outlive the session; `game` holds the match's initial state.
  RollbackSession(DeterministicGame& game, LocalInputSource& input);

  // Which host a message came from or goes to: while the authority moves (host migration) a peer
  // talks to the old host and the new one, and each acknowledges what it holds of this peer's
  // inputs and checksums separately, so each is sent what it lacks.
  enum class Host : uint8_t { current = 0, next = 1 };

  // A message from the authority (envelope byte and body): the welcome seats this peer, a relay
  // brings canonical inputs and the frame clock. `rtt` is the link's round trip now. Malformed or
  // out-of-place bytes are refused (counted in stats().refused) and change nothing.
  Status receive(std::span<const uint8_t> message, MonoTime now, Duration rtt, Host from = Host::current);
  // Rolls back if a canonical input contradicted a guess, then steps the frames the clock asks for.
  void advance(MonoTime now);
  // This peer's PeerFrames for a host (envelope included) into `out`; 0 before the welcome.
  std::size_t write(std::span<uint8_t> out, Host to = Host::current);
  // The authority starts moving to a new host: it holds nothing of ours yet (its relays will say).
  void begin_next_host();
  // The move is done: the new host is the current one.
  void promote_next_host();
  // What this peer knows, as a relay's state: the authority rebuilt here when the host vanished
  // (every seat's inputs this peer holds, its frame clock, its confirmed frame as the agreed one).
  RelayState recovery_state() const;

  // Every frame confirmed from now on is told to `sink` (a ReplayRecorder); null stops it. Attach
  // before the welcome to record a whole match.
  void record_to(ConfirmedFrameSink* sink) { sink_ = sink; }

  bool seated() const { return seated_; }
  uint8_t seat() const { return seat_; }
  const LockstepSettings& settings() const { return settings_; }
  uint32_t next_frame() const { return next_frame_; }
  uint32_t confirmed_frame() const { return confirmed_; }
  // The checksum of a confirmed frame still held in the window, or nothing.
  std::optional<uint64_t> confirmed_checksum(uint32_t frame) const;
  const RollbackStats& stats() const;

 private:
  struct Seat {
    InputRing inputs;
    uint32_t left_frame = kNoFrame;
  };

  Status take_welcome(std::span<const uint8_t> body, MonoTime now);
  Status take_relay(std::span<const uint8_t> body, MonoTime now, Duration rtt, Host from);
  Status take_seat_inputs(uint32_t seat, const SeatInputs& in);
  void write_forwarded(const std::vector<uint32_t>& relay_holds);
  void note_clock(const RelayFrames& relay, MonoTime now, Duration rtt);
  uint32_t clock_target(MonoTime now) const;
  void roll_back();
  void step_frame(uint32_t frame);
  void sample_own_input(uint32_t frame);
  void confirm();
  void tell_sink(uint32_t frame, uint64_t checksum);
  uint32_t known_through(uint32_t seat) const;
  std::span<uint8_t> state_slot(uint32_t frame);
  std::span<uint8_t> used_slot(uint32_t frame, uint32_t seat);

  DeterministicGame& game_;
  LocalInputSource& input_;
  LockstepSettings settings_;
  bool seated_ = false;
  uint8_t seat_ = 0;
  std::vector<Seat> seats_;
  uint32_t next_frame_ = kFirstFrame;
  uint32_t confirmed_ = 0;
  uint32_t rollback_from_ = kNoFrame;  // the earliest frame simulated on a guess proven wrong
  std::array<uint32_t, 2> own_held_{};        // each host holds our inputs through here (by Host)
  std::array<uint32_t, 2> checksums_held_{};  // and our checksums through here
  std::array<std::vector<uint32_t>, 2> recovering_held_;  // a recovering host's holdings per seat (empty: not recovering)

  // Per frame in the window (ring_frames slots): the state after it, the inputs it ran on.
  uint32_t ring_frames_ = 0;
  std::size_t state_bytes_ = 0;
  std::vector<uint8_t> states_;
  std::vector<uint32_t> state_sizes_;
  std::vector<uint8_t> used_inputs_;
  std::vector<uint8_t> used_presence_;
  std::vector<PeerInput> frame_inputs_;

  // Confirmed frames' checksums not yet held by the authority (a ring of kChecksumRing).
  static constexpr uint32_t kChecksumRing = 256;
  std::vector<uint64_t> checksums_;

  // The frame clock: the authority's frame at `clock_anchor_` plus elapsed time at the logic rate.
  bool clock_known_ = false;
  MonoTime clock_anchor_;
  double clock_anchor_frame_ = 0.0;

  ConfirmedFrameSink* sink_ = nullptr;
  RelayFrames relay_;  // decoded into in place: its lists keep their room between messages
  PeerFrames out_;
  mutable RollbackStats stats_;
};

}  // namespace tickwire::lockstep
