// LockstepRelay's export and restore: the inputs kept are those some peer still lacks (from the
// lowest frame any peer reported holding), the checksums those not yet compared. A restored relay
// checks every count and frame against its rules before it takes anything.
#include <algorithm>
#include <cmath>

#include "tickwire/core/assert.h"
#include "tickwire/lockstep/lockstep_relay.h"

namespace tickwire::lockstep {

RelayState LockstepRelay::export_state(MonoTime now) const {
  RelayState state;
  state.terms.settings = settings_;
  const double c = clock(now);
  state.clock_frame = static_cast<uint32_t>(c);
  state.clock_fraction = static_cast<uint16_t>((c - std::floor(c)) * 65535.0);
  state.compared_through = compared_through_;
  state.agreed_checksum = agreed_checksum_;
  state.desync_frame = stats_.desync_frame;
  state.desync_found_frame = stats_.desync_found_frame;
  const uint32_t known = kFirstFrame + settings_.policy.input_delay_frames - 1;
  for (uint32_t s = 0; s < settings_.policy.seats; ++s) {
    const Seat& seat = seats_[s];
    SeatState out;
    out.taken = seat.taken;
    out.left_frame = seat.left_frame;
    out.next_frame = seat.next_frame;
    for (uint32_t src = 0; src < settings_.policy.seats; ++src) out.held.push_back(SeatFrame{seat.held[src]});
    const InputRing& ring = *seat.inputs;
    uint32_t first = ring.contiguous() + 1;
    for (uint32_t d = 0; d < settings_.policy.seats; ++d) {
      if (seats_[d].taken) first = std::min(first, seats_[d].held[s] + 1);
    }
    first = std::max({first, ring.oldest_kept(), known + 1});
    out.inputs_first = first;
    for (uint32_t f = first; f <= ring.contiguous(); ++f) {
      const std::optional<std::span<const uint8_t>> input = ring.find(f);
      TW_ASSERT(input.has_value(), "a relay's history is kept to its oldest frame");
      for (uint8_t b : *input) out.inputs.push_back(InputByte{b});
    }
    out.checksums_through = seat.checksums_through;
    for (uint32_t f = compared_through_ + 1; f <= seat.checksums_through; ++f) {
      if (seat.checksum_frames[f % kChecksumRing] == f) out.checksums.push_back(PendingChecksum{f, seat.checksums[f % kChecksumRing]});
    }
    state.seats.push_back(std::move(out));
  }
  return state;
}

namespace {

bool seat_state_valid(const SeatState& s, const LockstepSettings& settings, uint32_t compared_through) {
  const uint32_t bytes = settings.policy.input_bytes;
  if (s.held.size() != settings.policy.seats || s.inputs.size() % bytes != 0) return false;
  if (s.inputs.size() / bytes > kRelayHistoryFrames / 2 || s.inputs_first < kFirstFrame) return false;
  if (s.checksums_through < compared_through && !s.checksums.empty()) return false;
  if (s.checksums_through > compared_through + kMaxStateChecksums || s.checksums_through > kMaxStateFrame) return false;
  if (uint64_t{s.inputs_first} + s.inputs.size() / bytes > kMaxStateFrame) return false;  // the frontier's next frame too
  uint32_t previous = compared_through;
  for (const PendingChecksum& c : s.checksums) {
    if (c.frame <= previous || c.frame > s.checksums_through || c.frame - compared_through > kMaxStateChecksums) return false;
    previous = c.frame;
  }
  return true;
}

}  // namespace

std::optional<LockstepRelay> LockstepRelay::restore(const RelayState& state, MonoTime now, Duration transit) {
  const LockstepSettings& settings = state.terms.settings;
  if (!settings_valid(settings) || state.seats.size() != settings.policy.seats || state.clock_frame < kFirstFrame ||
      state.clock_frame > kLastClockFrame || state.compared_through > kMaxStateFrame) {
    return std::nullopt;
  }
  for (const SeatState& s : state.seats) {
    if (!seat_state_valid(s, settings, state.compared_through)) return std::nullopt;
  }
  std::optional<LockstepRelay> relay(std::in_place, settings);
  LockstepRelay& r = *relay;
  const double frames_since_start = state.clock_frame + state.clock_fraction / 65536.0 - kFirstFrame;
  r.started_ = true;
  r.start_ = now + transit - Duration::from_seconds(frames_since_start / settings.logic_hz);
  r.last_update_ = now;
  r.compared_through_ = state.compared_through;
  r.agreed_checksum_ = state.agreed_checksum;
  r.stats_.desync_frame = state.desync_frame;
  r.stats_.desync_found_frame = state.desync_found_frame;
  const uint32_t bytes = settings.policy.input_bytes;
  for (uint32_t s = 0; s < settings.policy.seats; ++s) {
    const SeatState& in = state.seats[s];
    Seat& seat = r.seats_[s];
    seat.taken = in.taken;
    seat.left_frame = in.left_frame;
    seat.next_frame = in.next_frame;
    seat.inputs->skip_to(in.inputs_first - 1);
    std::array<uint8_t, kMaxInputBytes> input{};
    for (std::size_t i = 0; i < in.inputs.size() / bytes; ++i) {
      for (uint32_t b = 0; b < bytes; ++b) input[b] = in.inputs[i * bytes + b].value;
      if (seat.inputs->put(in.inputs_first + static_cast<uint32_t>(i), std::span(input.data(), bytes)) != InputRing::Put::stored) {
        return std::nullopt;
      }
    }
    seat.checksums_through = in.checksums_through;
    for (const PendingChecksum& c : in.checksums) {
      seat.checksums[c.frame % kChecksumRing] = c.value;
      seat.checksum_frames[c.frame % kChecksumRing] = c.frame;
    }
  }
  for (uint32_t s = 0; s < settings.policy.seats; ++s) {
    for (uint32_t src = 0; src < settings.policy.seats; ++src) {
      const uint32_t held = state.seats[s].held[src].frame;
      if (held > r.seats_[src].inputs->contiguous()) return std::nullopt;  // a peer holding what the relay never had
      r.seats_[s].held[src] = held;
    }
  }
  return relay;
}

}  // namespace tickwire::lockstep
