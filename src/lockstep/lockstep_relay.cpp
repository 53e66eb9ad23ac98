// LockstepRelay. A seat's input for a frame is canonical once the relay holds it: nothing rewrites
// it, and a seat that leaves has zero inputs (absent) from the frame after its last held one, which
// every peer learns from the relay, so all of them simulate the same frames from the same inputs.
#include "tickwire/lockstep/lockstep_relay.h"

#include <algorithm>
#include <cmath>

#include "tickwire/core/assert.h"
#include "tickwire/lockstep/input_runs.h"
#include "tickwire/wire/codec.h"

namespace tickwire::lockstep {

LockstepRelay::LockstepRelay(const LockstepSettings& settings) : settings_(settings), seats_(settings.policy.seats) {
  TW_ASSERT(settings_valid(settings), "lockstep settings outside their caps");
  const uint32_t known = kFirstFrame + settings.policy.input_delay_frames - 1;
  for (Seat& s : seats_) {
    s.inputs.emplace(kRelayHistoryFrames, settings.policy.input_bytes, known);
    s.held.fill(known);
    s.checksums.assign(kChecksumRing, 0);
    s.checksum_frames.assign(kChecksumRing, 0);
  }
  out_.seats.resize(settings.policy.seats);
  for (SeatInputs& s : out_.seats) s.inputs.reserve(kMaxInputRunBytes);
  in_.inputs.reserve(kMaxInputRunBytes);
  in_.held.reserve(kMaxPeers);
  in_.checksums.reserve(kMaxChecksumsPerMessage);
}

bool LockstepRelay::take_seat(uint8_t seat) {
  if (started_ || seat >= seats_.size() || seats_[seat].taken) return false;
  seats_[seat].taken = true;
  return true;
}

bool LockstepRelay::seat_taken(uint8_t seat) const { return seat < seats_.size() && seats_[seat].taken; }

bool LockstepRelay::all_seated() const {
  return std::all_of(seats_.begin(), seats_.end(), [](const Seat& s) { return s.taken; });
}

bool LockstepRelay::heard_from_every_playing_seat() const {
  for (uint8_t seat = 0; seat < seats_.size(); ++seat) {
    if (playing(seat) && !seats_[seat].heard) return false;
  }
  return true;
}

bool LockstepRelay::playing(uint8_t seat) const {
  return seat < seats_.size() && seats_[seat].taken && seats_[seat].left_frame == kNoFrame;
}

uint32_t LockstepRelay::held_through(uint8_t seat) const { return seats_[seat].inputs->contiguous(); }

std::size_t LockstepRelay::write_welcome(uint8_t seat, std::span<uint8_t> out) const {
  LockstepWelcome welcome;
  welcome.seat = seat;
  welcome.terms.settings = settings_;
  const Result<std::size_t> written = wire::encode_message(welcome, out);
  TW_ASSERT(written.ok(), "a welcome larger than its buffer");
  return written.value();
}

void LockstepRelay::start(MonoTime now) {
  TW_ASSERT(!started_, "a match starts once");
  started_ = true;
  start_ = now;
  last_update_ = now;
}

// The frame clock stands still while the match cannot advance (a peer holds the others at the
// window, or a rebuilt authority recovers its survivors): the peers wait rather than fall behind
// a clock they would then have to race. It stops for good at kLastClockFrame (over a year at 60 Hz).
double LockstepRelay::clock(MonoTime now) const {
  const double running = kFirstFrame + std::max(0.0, (now - start_ - paused_).seconds_f()) * settings_.logic_hz;
  return std::min(running, static_cast<double>(kLastClockFrame));
}

// An honest peer samples at most the delay, the window and a second of clock error ahead.
double LockstepRelay::latest_honest_frame(MonoTime now) const {
  return clock(now) + settings_.policy.input_delay_frames + settings_.policy.rollback_window_frames + settings_.logic_hz;
}

Status LockstepRelay::receive(uint8_t seat, std::span<const uint8_t> message, MonoTime now) {
  Status status = Error::ok;
  if (message.empty()) status = Error::truncated;
  else if (message[0] != PeerFrames::wire_id || !started_ || !playing(seat)) status = Error::unknown_message;
  else status = wire::decode(message.subspan(1), in_);
  if (status && in_.held.size() != settings_.policy.seats) status = Error::count_mismatch;
  if (status) status = read_input_runs(in_.inputs, settings_.policy.input_bytes, kMaxFramesPerMessage, [](uint32_t, auto) {});
  if (!status) {
    stats_.refused.add(status.error());
    return status;
  }
  Seat& s = seats_[seat];
  s.heard = true;
  s.next_frame = std::max(s.next_frame, in_.next_frame);
  take_inputs(s, in_, now);
  if (recovering_) take_forwarded(seat, in_, now);
  for (uint32_t src = 0; src < settings_.policy.seats; ++src) {
    s.reported[src] = std::max(s.reported[src], in_.held[src].frame);
    s.held[src] = std::clamp(in_.held[src].frame, s.held[src], seats_[src].inputs->contiguous());
  }
  take_checksums(s, in_, now);
  return Error::ok;
}

void LockstepRelay::take_inputs(Seat& s, const PeerFrames& in, MonoTime now) {
  const double latest = latest_honest_frame(now);
  bool too_early = false;
  (void)read_input_runs(in.inputs, settings_.policy.input_bytes, kMaxFramesPerMessage, [&](uint32_t i, std::span<const uint8_t> input) {
    const uint32_t frame = in.first_input_frame + i;
    if (too_early || frame < in.first_input_frame || frame > latest) {
      too_early = true;
      return;
    }
    const InputRing::Put put = s.inputs->put(frame, input);
    if (put == InputRing::Put::stored) ++stats_.inputs_taken;
    if (put == InputRing::Put::duplicate) ++stats_.inputs_duplicate;
  });
  if (too_early) ++stats_.inputs_too_early;
}

void LockstepRelay::begin_recovery(uint8_t dead_seat, MonoTime deadline) {
  recovering_ = true;
  dead_seat_ = dead_seat;
  recovery_deadline_ = deadline;
}

// Inputs the survivors received from the old host are canonical: the ones this relay lacks are
// taken from whoever forwards them (never over one it holds).
void LockstepRelay::take_forwarded(uint8_t from, const PeerFrames& in, MonoTime now) {
  const double latest = latest_honest_frame(now);
  for (const ForwardedInputs& run : in.forwarded) {
    if (run.seat >= seats_.size() || run.seat == from) continue;
    Seat& seat = seats_[run.seat];
    (void)read_input_runs(run.inputs, settings_.policy.input_bytes, kMaxFramesPerMessage, [&](uint32_t i, std::span<const uint8_t> input) {
      const uint32_t frame = run.first_frame + i;
      if (frame < run.first_frame || frame > latest || frame >= seat.left_frame) return;
      if (seat.inputs->put(frame, input) == InputRing::Put::stored) ++stats_.inputs_forwarded;
    });
  }
}

void LockstepRelay::end_recovery_when_due(MonoTime now) {
  // Done once every survivor has reached this relay and none holds an input of a seat not heard
  // from (the vanished host's) that this relay lacks; or at the deadline, whoever is missing.
  bool everyone = true;
  for (uint8_t seat = 0; seat < seats_.size(); ++seat) {
    if (!playing(seat) || seats_[seat].heard) continue;
    if (seat != dead_seat_) everyone = false;
    for (const Seat& survivor : seats_) {
      if (survivor.heard && survivor.reported[seat] > seats_[seat].inputs->contiguous()) everyone = false;
    }
  }
  if (!everyone && now < recovery_deadline_) return;
  recovering_ = false;
  // At the deadline, a survivor holding inputs of an unheard seat that never reached this relay
  // confirmed a history the others will not have (that seat leaves after what was forwarded).
  for (uint8_t survivor = 0; survivor < seats_.size(); ++survivor) {
    if (!playing(survivor) || !seats_[survivor].heard) continue;
    for (uint8_t seat = 0; seat < seats_.size(); ++seat) {
      if (!playing(seat) || seats_[seat].heard) continue;
      if (seats_[survivor].reported[seat] > seats_[seat].inputs->contiguous()) {
        drop(survivor, SeatDrop::recovery_unfinished);
        break;
      }
    }
  }
  for (uint8_t seat = 0; seat < seats_.size(); ++seat) {
    if (playing(seat) && !seats_[seat].heard) drop(seat, SeatDrop::left);  // the vanished host, and anyone who never came
  }
}

void LockstepRelay::take_checksums(Seat& s, const PeerFrames& in, MonoTime now) {
  // A peer confirms no frame its clock has not reached, so a checksum past the latest frame it
  // could have sampled is not one an honest peer sends.
  if (in.first_checksum_frame > latest_honest_frame(now)) {
    ++stats_.checksums_too_early;
    return;
  }
  if (in.first_checksum_frame > s.checksums_through + 1) {
    // The peer's ring overran: the frames between were never sent and are not compared for it.
    stats_.checksums_missing += in.first_checksum_frame - s.checksums_through - 1;
    s.checksums_through = in.first_checksum_frame - 1;
  }
  for (std::size_t i = 0; i < in.checksums.size(); ++i) {
    const uint32_t frame = in.first_checksum_frame + static_cast<uint32_t>(i);
    if (frame <= s.checksums_through) continue;
    if (frame > compared_through_ + kChecksumRing) break;  // no room until the others catch up
    s.checksums[frame % kChecksumRing] = in.checksums[i].value;
    s.checksum_frames[frame % kChecksumRing] = frame;
    s.checksums_through = frame;
  }
}

void LockstepRelay::update(MonoTime now) {
  if (!started_) return;
  stats_.clock_frame = static_cast<uint32_t>(clock(now));
  compare_checksums();
  const bool held = recovering_ || apply_lag_policy(now);
  if (recovering_) end_recovery_when_due(now);
  if (held) paused_ += now - last_update_;
  last_update_ = now;
}

// A frame is compared once every seat still playing at it has reported it; a seat gone counts for
// the frames it reported.
void LockstepRelay::compare_checksums() {
  for (uint32_t step = 0; step < kChecksumRing; ++step) {  // bounded: the rest waits for the next update
    const uint32_t frame = compared_through_ + 1;
    std::optional<uint32_t> first;
    bool complete = true;
    bool any_playing = false;
    for (const Seat& s : seats_) {
      const bool gone = s.left_frame != kNoFrame;
      if (!s.taken || (gone && (frame >= s.left_frame || s.checksums_through < frame))) continue;
      any_playing = true;
      if (s.checksums_through < frame) {
        complete = false;
        break;
      }
      if (s.checksum_frames[frame % kChecksumRing] != frame) continue;  // skipped by that peer
      const uint32_t value = s.checksums[frame % kChecksumRing];
      if (first && *first != value && stats_.desync_frame == kNoFrame) {
        stats_.desync_frame = frame;
        stats_.desync_found_frame = stats_.clock_frame;
      }
      if (!first) first = value;
    }
    if (!complete || !any_playing) return;
    if (first) agreed_checksum_ = *first;
    ++stats_.frames_compared;
    compared_through_ = frame;
  }
}

// A seat holds the others when one of them has run the whole window past the seat's last input.
bool LockstepRelay::apply_lag_policy(MonoTime now) {
  bool anyone_held = false;
  for (uint8_t seat = 0; seat < seats_.size(); ++seat) {
    if (!playing(seat)) continue;
    Seat& s = seats_[seat];
    const uint32_t have = s.inputs->contiguous();
    bool holding = false;
    for (uint8_t other = 0; other < seats_.size(); ++other) {
      if (other != seat && playing(other) && seats_[other].next_frame > have + settings_.policy.rollback_window_frames) holding = true;
    }
    if (!holding) {
      s.holding_since.reset();
      continue;
    }
    anyone_held = true;
    if (!s.holding_since) s.holding_since = now;
    const bool past_limit = now - *s.holding_since >= Duration::milliseconds(settings_.policy.lag_limit_ms);
    if (past_limit && settings_.policy.lag_policy == LagPolicy::disconnect) drop(seat, SeatDrop::lagged);
  }
  if (anyone_held) stats_.held_at_window_ms += static_cast<uint64_t>((now - last_update_).milliseconds_f());
  return anyone_held;
}

void LockstepRelay::seat_left(uint8_t seat) {
  if (playing(seat) && !retired_) drop(seat, SeatDrop::left);
}

void LockstepRelay::drop(uint8_t seat, SeatDrop reason) {
  Seat& s = seats_[seat];
  s.left_frame = s.inputs->contiguous() + 1;
  stats_.drops.add(reason);
  if (reason == SeatDrop::left) return;
  const bool queued = dropped_.push(seat);
  TW_ASSERT(queued, "a seat is dropped once");
}

std::optional<uint8_t> LockstepRelay::take_dropped() {
  if (dropped_.empty()) return std::nullopt;
  return dropped_.pop();
}

void LockstepRelay::fill_seat(uint8_t dest, uint8_t source, SeatInputs& out) {
  const Seat& src = seats_[source];
  out.left_frame = src.left_frame;
  out.inputs.clear();
  out.first_frame = seats_[dest].held[source] + 1;
  if (dest == source) return;
  const InputRing& ring = *src.inputs;
  if (out.first_frame <= ring.contiguous() && out.first_frame < ring.oldest_kept()) {
    drop(dest, SeatDrop::fell_behind);
    return;
  }
  InputRunWriter runs(out.inputs, settings_.policy.input_bytes);
  for (uint32_t f = out.first_frame; f <= ring.contiguous() && f < out.first_frame + settings_.relay_frames_per_seat(); ++f) {
    const std::optional<std::span<const uint8_t>> input = ring.find(f);
    TW_ASSERT(input.has_value(), "a relay's canonical history is kept to its oldest frame");
    runs.add(*input);
  }
}

std::size_t LockstepRelay::write_relay(uint8_t seat, MonoTime now, std::span<uint8_t> out) {
  if (!started_ || retired_ || !playing(seat)) return 0;
  const double c = clock(now);
  out_.clock_frame = static_cast<uint32_t>(c);
  out_.clock_fraction = static_cast<uint16_t>((c - std::floor(c)) * 65535.0);
  out_.own_held = seats_[seat].inputs->contiguous();
  out_.checksums_held = seats_[seat].checksums_through;
  out_.desync_frame = stats_.desync_frame;
  for (uint8_t src = 0; src < settings_.policy.seats; ++src) fill_seat(seat, src, out_.seats[src]);
  out_.recovering.clear();
  for (uint8_t src = 0; recovering_ && src < settings_.policy.seats; ++src) out_.recovering.push_back(SeatFrame{seats_[src].inputs->contiguous()});
  if (!playing(seat)) return 0;  // it fell behind the history just now
  const Result<std::size_t> written = wire::encode_message(out_, out);
  TW_ASSERT(written.ok(), "a relay larger than its buffer");
  return written.value();
}

}  // namespace tickwire::lockstep
