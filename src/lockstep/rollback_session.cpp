// RollbackSession. The one rule that shapes this file: a frame's state is only ever computed from
// the inputs recorded for it in the window (canonical where known, guessed where not), so a
// rollback replays exactly what changed, and a confirmed frame's state is the canonical one.
#include "tickwire/lockstep/rollback_session.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "tickwire/core/assert.h"
#include "tickwire/lockstep/input_runs.h"
#include "tickwire/wire/codec.h"

namespace tickwire::lockstep {

namespace {
// How much of each clock sample moves the estimate: a tenth of a frame of jitter barely moves it.
constexpr double kClockSmoothing = 0.05;
// A sample further off than this is the authority's clock standing still or moving on (a stall, a
// new host), not jitter: the estimate follows it at once.
constexpr double kClockJumpFrames = 2.0;
}  // namespace

RollbackSession::RollbackSession(DeterministicGame& game, LocalInputSource& input) : game_(game), input_(input) {}

const RollbackStats& RollbackSession::stats() const {
  stats_.next_frame = next_frame_;
  stats_.confirmed_frame = confirmed_;
  return stats_;
}

Status RollbackSession::receive(std::span<const uint8_t> message, MonoTime now, Duration rtt, Host from) {
  Status status = Error::unknown_message;
  if (!message.empty()) {
    const std::span<const uint8_t> body = message.subspan(1);
    if (message[0] == LockstepWelcome::wire_id) status = take_welcome(body, now);
    if (message[0] == RelayFrames::wire_id) status = take_relay(body, now, rtt, from);
  } else {
    status = Error::truncated;
  }
  if (!status) stats_.refused.add(status.error());
  return status;
}

Status RollbackSession::take_welcome(std::span<const uint8_t> body, MonoTime now) {
  LockstepWelcome welcome;
  if (Status s = wire::decode(body, welcome); !s) return s;
  if (seated_) return Error::ok;  // a repeat (the reliable channel delivers once; a new match is a new session)
  const DeterministicPolicy& terms = welcome.terms.settings.policy;
  if (!settings_valid(welcome.terms.settings) || welcome.seat >= terms.seats || terms.seats != game_.seats() ||
      terms.input_bytes != game_.input_bytes()) {
    ++stats_.refused_terms;
    return Error::value_out_of_range;
  }
  settings_ = welcome.terms.settings;
  seat_ = welcome.seat;
  const uint32_t delay = settings_.policy.input_delay_frames;
  ring_frames_ = settings_.ring_frames();
  seats_.clear();
  for (uint32_t s = 0; s < settings_.policy.seats; ++s) {
    // Room for everything unacknowledged in flight both ways, and as much history; our own inputs
    // keep the relay's history, so a new host that lags the old one is sent what it lacks.
    const uint32_t frames = s == seat_ ? kRelayHistoryFrames : 4 * ring_frames_;
    seats_.push_back(Seat{InputRing(frames, settings_.policy.input_bytes, kFirstFrame + delay - 1), kNoFrame});
  }
  state_bytes_ = game_.max_state_bytes();
  states_.assign(static_cast<std::size_t>(ring_frames_) * state_bytes_, 0);
  state_sizes_.assign(ring_frames_, 0);
  used_inputs_.assign(static_cast<std::size_t>(ring_frames_) * settings_.policy.seats * settings_.policy.input_bytes, 0);
  used_presence_.assign(static_cast<std::size_t>(ring_frames_) * settings_.policy.seats, 1);
  frame_inputs_.assign(settings_.policy.seats, PeerInput{});
  checksums_.assign(kChecksumRing, 0);
  out_.inputs.reserve(kMaxInputRunBytes);
  out_.held.reserve(kMaxPeers);
  out_.checksums.reserve(kMaxChecksumsPerMessage);
  out_.forwarded.reserve(kMaxPeers);
  state_sizes_[0] = static_cast<uint32_t>(game_.save(state_slot(0)));  // the state before the first frame
  next_frame_ = kFirstFrame;
  confirmed_ = kFirstFrame - 1;
  own_held_.fill(seats_[seat_].inputs.contiguous());
  checksums_held_.fill(confirmed_);
  clock_anchor_ = now;
  seated_ = true;
  return Error::ok;
}

Status RollbackSession::take_relay(std::span<const uint8_t> body, MonoTime now, Duration rtt, Host from) {
  if (!seated_) {  // the relay's channel overtook the welcome's: nothing to read it by yet
    ++stats_.relays_before_welcome;
    return Error::ok;
  }
  if (Status s = wire::decode(body, relay_); !s) return s;
  if (relay_.seats.size() != settings_.policy.seats) return Error::count_mismatch;
  if (!relay_.recovering.empty() && relay_.recovering.size() != settings_.policy.seats) return Error::count_mismatch;
  for (const SeatInputs& in : relay_.seats) {  // every run whole before anything is taken
    const Status runs = read_input_runs(in.inputs, settings_.policy.input_bytes, kMaxFramesPerMessage, [](uint32_t, auto) {});
    if (!runs) return runs;
  }
  for (uint32_t s = 0; s < settings_.policy.seats; ++s) {
    if (s == seat_) continue;
    if (Status st = take_seat_inputs(s, relay_.seats[s]); !st) return st;
  }
  std::vector<uint32_t>& holds = recovering_held_[static_cast<std::size_t>(from)];
  holds.clear();
  for (const SeatFrame& f : relay_.recovering) holds.push_back(f.frame);
  uint32_t& own_held = own_held_[static_cast<std::size_t>(from)];
  uint32_t& checksums_held = checksums_held_[static_cast<std::size_t>(from)];
  own_held = std::clamp(relay_.own_held, own_held, seats_[seat_].inputs.contiguous());
  checksums_held = std::clamp(relay_.checksums_held, checksums_held, confirmed_);
  if (relay_.desync_frame != kNoFrame && stats_.desync_frame == kNoFrame) stats_.desync_frame = relay_.desync_frame;
  note_clock(relay_, now, rtt);
  return Error::ok;
}

Status RollbackSession::take_seat_inputs(uint32_t seat, const SeatInputs& in) {
  Seat& s = seats_[seat];
  bool stop = false;
  (void)read_input_runs(in.inputs, settings_.policy.input_bytes, kMaxFramesPerMessage, [&](uint32_t i, std::span<const uint8_t> input) {
    const uint32_t frame = in.first_frame + i;
    if (stop || frame < in.first_frame || frame >= s.left_frame) {  // wrapped, or past the seat's last input
      stop = true;
      return;
    }
    if (s.inputs.put(frame, input) != InputRing::Put::stored || frame >= next_frame_) return;
    const std::span<uint8_t> used = used_slot(frame, seat);
    if (!std::equal(used.begin(), used.end(), input.begin())) {
      ++stats_.predictions_wrong;
      rollback_from_ = std::min(rollback_from_, frame);
    }
  });
  if (in.left_frame != kNoFrame && s.left_frame == kNoFrame) {
    // A seat leaves after its last canonical input; frames from there were guessed as present.
    if (in.left_frame <= confirmed_) return Error::value_out_of_range;
    s.left_frame = in.left_frame;
    if (in.left_frame < next_frame_) rollback_from_ = std::min(rollback_from_, in.left_frame);
  }
  return Error::ok;
}

void RollbackSession::note_clock(const RelayFrames& relay, MonoTime now, Duration rtt) {
  const double hz = settings_.logic_hz;
  // The authority's frame now: what it said, plus the half round trip the message spent coming.
  const double authority_now = relay.clock_frame + relay.clock_fraction / 65536.0 + rtt.seconds_f() * 0.5 * hz;
  const double local = clock_anchor_frame_ + (now - clock_anchor_).seconds_f() * hz;
  if (!clock_known_) {
    clock_anchor_ = now;
    clock_anchor_frame_ = authority_now;
    clock_known_ = true;
    return;
  }
  const double error = authority_now - local;
  clock_anchor_frame_ = std::abs(error) > kClockJumpFrames ? authority_now : local + kClockSmoothing * error;
  clock_anchor_ = now;
}

uint32_t RollbackSession::clock_target(MonoTime now) const {
  if (!clock_known_) return next_frame_;
  const double frame = clock_anchor_frame_ + (now - clock_anchor_).seconds_f() * settings_.logic_hz;
  // A clock far past the frames this session could ever run (a hostile or broken authority) is
  // held to a day of frames ahead: the session steps at most its catch-up per update anyway.
  const double ceiling = static_cast<double>(next_frame_) + 86'400.0 * settings_.logic_hz;
  return frame < kFirstFrame ? kFirstFrame : static_cast<uint32_t>(std::floor(std::min(frame, ceiling))) + 1;
}

void RollbackSession::advance(MonoTime now) {
  if (!seated_) return;
  roll_back();
  confirm();
  const uint32_t target = clock_target(now);
  uint32_t steps = 0;
  while (next_frame_ < target && steps < settings_.policy.max_catch_up_frames) {
    if (next_frame_ > confirmed_ + settings_.policy.rollback_window_frames) {
      ++stats_.stalled_updates;
      break;
    }
    sample_own_input(next_frame_ + settings_.policy.input_delay_frames);
    step_frame(next_frame_);
    ++next_frame_;
    ++stats_.frames_simulated;
    ++steps;
  }
  if (steps > 1) stats_.catch_up_frames += steps - 1;
  confirm();
}

void RollbackSession::sample_own_input(uint32_t frame) {
  std::array<uint8_t, kMaxInputBytes> input{};
  const std::span<uint8_t> bytes(input.data(), settings_.policy.input_bytes);
  input_.sample(frame, bytes);
  const InputRing::Put put = seats_[seat_].inputs.put(frame, bytes);
  TW_ASSERT(put == InputRing::Put::stored, "own input sampled out of order");
}

void RollbackSession::roll_back() {
  if (rollback_from_ == kNoFrame) return;
  const uint32_t from = rollback_from_;
  rollback_from_ = kNoFrame;
  TW_ASSERT(from > confirmed_, "a rollback past the confirmed frame");
  const uint32_t before = from - 1;
  const Status loaded = game_.load(state_slot(before).first(state_sizes_[before % ring_frames_]));
  TW_ASSERT(loaded.ok(), "the game refused a state it saved");
  const uint32_t depth = next_frame_ - from;
  for (uint32_t f = from; f < next_frame_; ++f) step_frame(f);
  ++stats_.rollbacks;
  stats_.frames_resimulated += depth;
  ++stats_.depth_histogram[std::min<uint32_t>(depth, kMaxRollbackWindowFrames)];
}

// Runs one frame on the inputs known for it (a seat's last known input where its own is not),
// records them, and saves the state after it.
void RollbackSession::step_frame(uint32_t frame) {
  for (uint32_t s = 0; s < settings_.policy.seats; ++s) {
    const Seat& seat = seats_[s];
    const std::span<uint8_t> used = used_slot(frame, s);
    const bool present = frame < seat.left_frame;
    std::optional<std::span<const uint8_t>> input;
    if (present) input = seat.inputs.find(frame);
    if (present && !input) {
      ++stats_.inputs_predicted;
      input = seat.inputs.find(seat.inputs.contiguous());
      TW_ASSERT(input.has_value(), "a seat's newest contiguous input is always held");
    }
    if (present) std::copy(input->begin(), input->end(), used.begin());
    else std::fill(used.begin(), used.end(), uint8_t{0});
    used_presence_[(frame % ring_frames_) * settings_.policy.seats + s] = present ? 1 : 0;
    frame_inputs_[s] = PeerInput{used, present};
  }
  game_.step(FrameInputs{frame, frame_inputs_});
  state_sizes_[frame % ring_frames_] = static_cast<uint32_t>(game_.save(state_slot(frame)));
}

uint32_t RollbackSession::known_through(uint32_t seat) const {
  const Seat& s = seats_[seat];
  const uint32_t contiguous = s.inputs.contiguous();
  if (s.left_frame != kNoFrame && contiguous + 1 >= s.left_frame) return kNoFrame;  // known for ever after
  return contiguous;
}

// Moves the confirmed frame up to what every seat's canonical inputs cover and the simulation has
// reached, and queues the newly confirmed frames' checksums.
void RollbackSession::confirm() {
  TW_ASSERT(rollback_from_ == kNoFrame, "confirming over a pending rollback");
  uint32_t through = next_frame_ - 1;
  for (uint32_t s = 0; s < settings_.policy.seats; ++s) through = std::min(through, known_through(s));
  for (uint32_t f = confirmed_ + 1; f <= through; ++f) {
    const uint32_t slot = f % ring_frames_;
    const uint64_t checksum = game_.checksum(state_slot(f).first(state_sizes_[slot]));
    checksums_[f % kChecksumRing] = checksum;
    if (sink_ != nullptr) tell_sink(f, checksum);
    for (uint32_t& held : checksums_held_) {
      if (f - held <= kChecksumRing) continue;
      held = f - kChecksumRing;  // the oldest unsent one was just overwritten
      if (&held == &checksums_held_[0]) ++stats_.checksums_overrun;
    }
  }
  if (through > confirmed_) confirmed_ = through;
}

// A confirmed frame ran on canonical inputs only: the ones recorded for it are the match's.
void RollbackSession::tell_sink(uint32_t frame, uint64_t checksum) {
  for (uint32_t s = 0; s < settings_.policy.seats; ++s) {
    frame_inputs_[s] = PeerInput{used_slot(frame, s), used_presence_[(frame % ring_frames_) * settings_.policy.seats + s] != 0};
  }
  sink_->on_confirmed(frame, frame_inputs_, checksum);
}

std::optional<uint64_t> RollbackSession::confirmed_checksum(uint32_t frame) const {
  if (!seated_ || frame > confirmed_ || frame == 0 || confirmed_ - frame >= kChecksumRing) return std::nullopt;
  return checksums_[frame % kChecksumRing];
}

void RollbackSession::begin_next_host() {
  own_held_[1] = 0;  // its relays will say what it holds; until then it is sent from the oldest kept
  checksums_held_[1] = confirmed_ > kChecksumRing ? confirmed_ - kChecksumRing : 0;
}

void RollbackSession::promote_next_host() {
  own_held_[0] = own_held_[1];
  checksums_held_[0] = checksums_held_[1];
  recovering_held_[0] = recovering_held_[1];
  recovering_held_[1].clear();
}

// What a recovering host lacks of other seats' inputs and this peer holds, a few frames a seat per
// message (the forwarding budget keeps the message inside one datagram).
void RollbackSession::write_forwarded(const std::vector<uint32_t>& relay_holds) {
  out_.forwarded.clear();
  if (relay_holds.size() != settings_.policy.seats) return;
  const uint32_t bytes = settings_.policy.input_bytes;
  const uint32_t per_seat = std::max<uint32_t>(1, kForwardBudgetBytes / (settings_.policy.seats * bytes));
  for (uint32_t s = 0; s < settings_.policy.seats; ++s) {
    const InputRing& ring = seats_[s].inputs;
    const uint32_t first = std::max(relay_holds[s] + 1, ring.oldest_kept());
    if (s == seat_ || first > ring.contiguous()) continue;
    ForwardedInputs run;
    run.seat = static_cast<uint8_t>(s);
    run.first_frame = first;
    InputRunWriter runs(run.inputs, bytes);
    for (uint32_t f = first; f <= ring.contiguous() && f < first + per_seat && f < seats_[s].left_frame; ++f) {
      const std::optional<std::span<const uint8_t>> input = ring.find(f);
      if (!input) break;
      runs.add(*input);
    }
    if (runs.frames() > 0) out_.forwarded.push_back(std::move(run));
  }
}

RelayState RollbackSession::recovery_state() const {
  RelayState state;
  state.terms.settings = settings_;
  // The clock restarts where this peer stands: the survivors have all been waiting.
  state.clock_frame = std::max(kFirstFrame, next_frame_ - 1);
  state.clock_fraction = 0;
  state.compared_through = confirmed_;
  const std::optional<uint64_t> agreed = confirmed_checksum(confirmed_);
  state.agreed_checksum = agreed ? wire_checksum(*agreed) : 0;
  state.desync_frame = stats_.desync_frame;
  const uint32_t bytes = settings_.policy.input_bytes;
  for (uint32_t s = 0; s < settings_.policy.seats; ++s) {
    const InputRing& ring = seats_[s].inputs;
    const uint32_t first = std::max(ring.oldest_kept(), kFirstFrame + settings_.policy.input_delay_frames);
    SeatState seat;
    seat.taken = true;
    seat.left_frame = seats_[s].left_frame;
    seat.next_frame = next_frame_;
    seat.inputs_first = first;
    for (uint32_t f = first; f <= ring.contiguous() && seat.inputs.size() / bytes < kRelayHistoryFrames / 2; ++f) {
      const std::optional<std::span<const uint8_t>> input = ring.find(f);
      if (!input) break;
      for (uint8_t b : *input) seat.inputs.push_back(InputByte{b});
    }
    seat.checksums_through = confirmed_;
    state.seats.push_back(std::move(seat));
  }
  // What each peer holds is unknown: everyone is taken to hold only what precedes the history
  // here, so the first relays repeat it all and the peers' answers raise it.
  for (SeatState& seat : state.seats) {
    for (uint32_t src = 0; src < settings_.policy.seats; ++src) seat.held.push_back(SeatFrame{state.seats[src].inputs_first - 1});
  }
  return state;
}

std::size_t RollbackSession::write(std::span<uint8_t> out, Host to) {
  if (!seated_) return 0;
  const uint32_t own_held = own_held_[static_cast<std::size_t>(to)];
  const uint32_t checksums_held = checksums_held_[static_cast<std::size_t>(to)];
  const uint32_t bytes = settings_.policy.input_bytes;
  const InputRing& own = seats_[seat_].inputs;
  out_.next_frame = next_frame_;
  out_.first_input_frame = std::max(own_held + 1, own.oldest_kept());
  InputRunWriter runs(out_.inputs, bytes);
  for (uint32_t f = out_.first_input_frame; f <= own.contiguous() && f < out_.first_input_frame + settings_.peer_frames_per_message(); ++f) {
    const std::optional<std::span<const uint8_t>> input = own.find(f);
    TW_ASSERT(input.has_value(), "own inputs are kept until the authority holds them");
    runs.add(*input);
  }
  out_.held.clear();
  for (uint32_t s = 0; s < settings_.policy.seats; ++s) out_.held.push_back(SeatFrame{seats_[s].inputs.contiguous()});
  out_.first_checksum_frame = checksums_held + 1;
  out_.checksums.clear();
  for (uint32_t f = out_.first_checksum_frame; f <= confirmed_ && out_.checksums.size() < kMaxChecksumsPerMessage; ++f) {
    out_.checksums.push_back(FrameChecksum{wire_checksum(checksums_[f % kChecksumRing])});
  }
  stats_.checksums_sent += out_.checksums.size();
  write_forwarded(recovering_held_[static_cast<std::size_t>(to)]);
  const Result<std::size_t> written = wire::encode_message(out_, out);
  TW_ASSERT(written.ok(), "a PeerFrames message larger than its buffer");
  return written.value();
}

std::span<uint8_t> RollbackSession::state_slot(uint32_t frame) {
  return std::span<uint8_t>(states_.data() + static_cast<std::size_t>(frame % ring_frames_) * state_bytes_, state_bytes_);
}

std::span<uint8_t> RollbackSession::used_slot(uint32_t frame, uint32_t seat) {
  const std::size_t row = static_cast<std::size_t>(frame % ring_frames_) * settings_.policy.seats + seat;
  return std::span<uint8_t>(used_inputs_.data() + row * settings_.policy.input_bytes, settings_.policy.input_bytes);
}

}  // namespace tickwire::lockstep
