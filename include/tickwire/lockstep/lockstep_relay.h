// The authority of a deterministic match (seed 002: "all gameplay messages route through the
// Authority"): it seats the peers, keeps every seat's canonical inputs, relays to each peer what it
// does not yet hold, runs the frame clock every peer steers by, compares the checksums the peers
// report for each confirmed frame (the first disagreement is the desync, reported with its frame)
// and applies the lag policy to a peer that holds the others at the rollback window. It simulates
// nothing, so a dedicated authority costs a relay's CPU; a listen host is a peer beside it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/core/reasons.h"
#include "tickwire/core/ring_buffer.h"
#include "tickwire/core/status.h"
#include "tickwire/lockstep/input_ring.h"
#include "tickwire/lockstep/lockstep_messages.h"
#include "tickwire/lockstep/lockstep_settings.h"
#include "tickwire/lockstep/relay_state.h"

namespace tickwire::lockstep {

TW_REASONS(SeatDrop,
  lagged,       // held the others at the rollback window past the lag limit (lag policy: disconnect)
  fell_behind,  // its acks fell behind the relay's history: it can never be brought up to date
  left,         // its connection closed
  // A rebuilt authority's deadline passed while this survivor still said it held inputs of the
  // vanished host's that never reached the authority: kept, it would refuse every relay after.
  recovery_unfinished
)

struct RelayStats {
  uint32_t clock_frame = 0;
  uint64_t inputs_taken = 0;
  uint64_t inputs_duplicate = 0;
  uint64_t inputs_too_early = 0;      // frames further ahead of the clock than any honest peer runs
  uint64_t frames_compared = 0;       // frames whose checksums every seated peer reported
  uint64_t checksums_missing = 0;     // frames a peer skipped (its checksum ring overran)
  uint64_t checksums_too_early = 0;   // checksums of frames further ahead of the clock than any peer runs
  uint64_t inputs_forwarded = 0;      // other seats' inputs a survivor forwarded while recovering
  uint32_t desync_frame = kNoFrame;   // the first frame whose checksums disagreed
  uint32_t desync_found_frame = 0;    // the clock frame when it was found
  uint64_t held_at_window_ms = 0;     // time some peer held the others at the window
  ReasonCounters<SeatDrop> drops;
  ReasonCounters<Error> refused;      // peer messages refused, by decode error
};

class LockstepRelay {
 public:
  explicit LockstepRelay(const LockstepSettings& settings);

  const LockstepSettings& settings() const { return settings_; }
  // Seats a peer; false if the seat is taken or the match has started.
  bool take_seat(uint8_t seat);
  // A playing seat's peer has reached this relay (a new host) on a new connection: it has been
  // heard from once its first message arrives.
  bool heard_from(uint8_t seat) const { return seat < seats_.size() && seats_[seat].heard; }
  bool heard_from_every_playing_seat() const;
  bool seat_taken(uint8_t seat) const;
  bool all_seated() const;
  // The seat's welcome (envelope included) into `out`.
  std::size_t write_welcome(uint8_t seat, std::span<uint8_t> out) const;
  // The frame clock starts: frame 1 is now.
  void start(MonoTime now);
  bool started() const { return started_; }

  // A peer's PeerFrames (envelope and body). Refused bytes are counted and change nothing.
  Status receive(uint8_t seat, std::span<const uint8_t> message, MonoTime now);
  // Compares the checksums every seat has reported and applies the lag policy.
  void update(MonoTime now);
  // The seat's RelayFrames (envelope included) into `out`; 0 for a seat not playing.
  std::size_t write_relay(uint8_t seat, MonoTime now, std::span<uint8_t> out);
  // The seat's connection closed: its inputs end after the last one held.
  void seat_left(uint8_t seat);
  // A seat the relay dropped since the last call (the host closes its connection), or nothing.
  std::optional<uint8_t> take_dropped();

  // The whole state as of `now`, for a host taking over (relay_state.h).
  RelayState export_state(MonoTime now) const;
  // A relay that continues from `state` as of `now` (its clock where the state's was, plus `transit`,
  // the time the state spent reaching this host); nullopt when the state breaks a cap or a rule.
  static std::optional<LockstepRelay> restore(const RelayState& state, MonoTime now, Duration transit);
  // The checksum every peer agreed on for the newest compared frame (0 before any).
  uint32_t agreed_checksum() const { return agreed_checksum_; }
  uint32_t compared_through() const { return compared_through_; }
  // This relay was rebuilt by a peer after the host vanished (its state: recovery_state). Until
  // every playing seat but the dead host's has reached it and none holds an input of the dead
  // host's it lacks, or `deadline`, it takes the inputs the survivors forward and polices no one;
  // then the seats not heard from (the dead host's among them) leave after the last input any
  // survivor forwarded. A survivor that still says it holds more of them at the deadline is dropped
  // (recovery_unfinished): the history it confirmed is not the one the others go on with.
  // `dead_seat` is the vanished host's seat (kMaxPeers or more: a dedicated host had none).
  void begin_recovery(uint8_t dead_seat, MonoTime deadline);
  bool recovering() const { return recovering_; }
  // This relay hands its peers to another host: it stops relaying (its peers hear from the new one).
  void retire() { retired_ = true; }
  bool retired() const { return retired_; }

  // The seat's newest frame through which every input is held (canonical history).
  uint32_t held_through(uint8_t seat) const;
  bool playing(uint8_t seat) const;
  // The frame the seat's peer last said it simulates next.
  uint32_t reported_frame(uint8_t seat) const { return seats_[seat].next_frame; }
  const RelayStats& stats() const { return stats_; }

 private:
  static constexpr uint32_t kChecksumRing = 256;
  struct Seat {
    bool taken = false;
    uint32_t left_frame = kNoFrame;
    uint32_t next_frame = 0;                     // the peer's clock, as last reported
    std::array<uint32_t, kMaxPeers> held{};      // what it holds of each seat's inputs (as far as this relay has)
    std::array<uint32_t, kMaxPeers> reported{};  // what it says it holds (a recovering relay waits for these)
    std::optional<InputRing> inputs;
    uint32_t checksums_through = 0;              // every checksum through here taken (or skipped)
    std::vector<uint32_t> checksums;             // kChecksumRing values...
    std::vector<uint32_t> checksum_frames;       // ...and the frame each holds
    std::optional<MonoTime> holding_since;       // since when it holds the others at the window
    bool heard = false;                          // a message of its has arrived here
  };

  double clock(MonoTime now) const;
  double latest_honest_frame(MonoTime now) const;
  void take_inputs(Seat& s, const PeerFrames& in, MonoTime now);
  void take_checksums(Seat& s, const PeerFrames& in, MonoTime now);
  void take_forwarded(uint8_t from, const PeerFrames& in, MonoTime now);
  void end_recovery_when_due(MonoTime now);
  void compare_checksums();
  bool apply_lag_policy(MonoTime now);  // whether some peer holds the others
  void drop(uint8_t seat, SeatDrop reason);
  void fill_seat(uint8_t dest, uint8_t source, SeatInputs& out);

  LockstepSettings settings_;
  std::vector<Seat> seats_;
  bool started_ = false;
  MonoTime start_;
  MonoTime last_update_;
  Duration paused_;  // time the frame clock stood still
  uint32_t compared_through_ = 0;
  uint32_t agreed_checksum_ = 0;
  bool retired_ = false;
  bool recovering_ = false;
  uint8_t dead_seat_ = 0xff;
  MonoTime recovery_deadline_;
  RingBuffer<uint8_t, kMaxPeers> dropped_;
  PeerFrames in_;     // decoded into in place: its lists keep their room
  RelayFrames out_;
  RelayStats stats_;
};

}  // namespace tickwire::lockstep
