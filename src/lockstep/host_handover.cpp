// HostHandover: one attempt at a time, numbered, so an answer to an aborted attempt never counts
// for the next; the relay is retired only on the candidate's confirmation that every peer reached it.
#include "tickwire/lockstep/host_handover.h"

#include <algorithm>
#include <cmath>

#include "tickwire/lockstep/migration_messages.h"
#include "tickwire/wire/codec.h"

namespace tickwire::lockstep {

std::vector<uint8_t> rank_candidates(const LockstepRelay& relay, std::span<const double> rtt_ms_by_seat, uint8_t host_seat) {
  std::vector<uint8_t> ranked;
  for (uint8_t seat = 0; seat < relay.settings().policy.seats; ++seat) {
    if (seat != host_seat && relay.playing(seat) && seat < rtt_ms_by_seat.size()) ranked.push_back(seat);
  }
  const auto bucket = [&](uint8_t seat) { return static_cast<int64_t>(std::floor(rtt_ms_by_seat[seat] / 10.0)); };
  std::stable_sort(ranked.begin(), ranked.end(), [&](uint8_t a, uint8_t b) {
    if (bucket(a) != bucket(b)) return bucket(a) < bucket(b);
    return relay.reported_frame(a) > relay.reported_frame(b);
  });
  return ranked;
}

HostHandover::HostHandover(LockstepRelay& relay, Duration timeout) : relay_(relay), timeout_(timeout) {}

void HostHandover::begin(std::span<const uint8_t> ranked, MonoTime now) {
  candidates_.assign(ranked.begin(), ranked.end());
  next_candidate_ = 0;
  phase_ = HandoverPhase::idle;
  deadline_ = now;
}

bool HostHandover::under_way() const {
  if (phase_ == HandoverPhase::offered || phase_ == HandoverPhase::moving) return true;
  return phase_ == HandoverPhase::idle && next_candidate_ < candidates_.size();
}

template <class M>
void HostHandover::to_every_playing_seat(const M& message, std::vector<OutgoingMessage>& out) const {
  const std::vector<uint8_t> bytes = message_bytes(message);
  for (uint8_t seat = 0; seat < relay_.settings().policy.seats; ++seat) {
    if (relay_.playing(seat)) out.push_back(OutgoingMessage{seat, bytes});
  }
}

void HostHandover::offer_next(MonoTime now, std::vector<OutgoingMessage>& out) {
  while (next_candidate_ < candidates_.size() && !relay_.playing(candidates_[next_candidate_])) ++next_candidate_;
  if (next_candidate_ == candidates_.size()) {
    phase_ = HandoverPhase::failed;  // no one left to take it: this host keeps the authority
    return;
  }
  candidate_ = candidates_[next_candidate_++];
  ++handover_;
  ++stats_.attempts;
  accepted_ = done_ = candidate_left_ = false;
  HandoverOffer offer;
  offer.handover = handover_;
  offer.state = relay_.export_state(now);
  out.push_back(OutgoingMessage{candidate_, message_bytes(offer)});
  phase_ = HandoverPhase::offered;
  deadline_ = now + timeout_;
}

void HostHandover::abort(HandoverAbort why, MonoTime now, std::vector<OutgoingMessage>& out) {
  stats_.aborts.add(why);
  if (phase_ == HandoverPhase::moving) to_every_playing_seat(HostStay{handover_}, out);
  offer_next(now, out);
}

void HostHandover::receive(uint8_t seat, std::span<const uint8_t> message) {
  if (message.empty() || seat != candidate_) return;
  const std::span<const uint8_t> body = message.subspan(1);
  if (message[0] == HandoverAccept::wire_id) {
    HandoverAccept accept;
    if (wire::decode(body, accept).ok() && accept.handover == handover_) accepted_ = true;
  } else if (message[0] == HandoverDone::wire_id) {
    HandoverDone done;
    if (wire::decode(body, done).ok() && done.handover == handover_) done_ = true;
  }
}

void HostHandover::seat_left(uint8_t seat) {
  if (seat == candidate_) candidate_left_ = true;
}

void HostHandover::update(MonoTime now, std::vector<OutgoingMessage>& out) {
  switch (phase_) {
    case HandoverPhase::idle:
      if (!candidates_.empty()) offer_next(now, out);
      return;
    case HandoverPhase::offered:
      if (candidate_left_) return abort(HandoverAbort::candidate_left, now, out);
      if (accepted_) {
        to_every_playing_seat(HostMove{handover_, candidate_}, out);
        phase_ = HandoverPhase::moving;
        deadline_ = now + timeout_;
      } else if (now >= deadline_) {
        abort(HandoverAbort::not_accepted, now, out);
      }
      return;
    case HandoverPhase::moving:
      if (candidate_left_) return abort(HandoverAbort::candidate_left, now, out);
      if (done_) {
        relay_.retire();
        phase_ = HandoverPhase::complete;
        stats_.new_host_seat = candidate_;
      } else if (now >= deadline_) {
        abort(HandoverAbort::not_moved, now, out);
      }
      return;
    case HandoverPhase::complete:
    case HandoverPhase::failed:
      return;
  }
}

}  // namespace tickwire::lockstep
