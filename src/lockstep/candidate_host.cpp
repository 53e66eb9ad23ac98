// CandidateHost: restore, verify its own state against the agreed checksum, serve, confirm.
#include "tickwire/lockstep/candidate_host.h"

#include "tickwire/lockstep/migration_messages.h"
#include "tickwire/wire/codec.h"

namespace tickwire::lockstep {

CandidateHost::CandidateHost(ReliableServer& server, RollbackSession& session, PeerLink& link, Duration recovery_timeout)
    : server_(server), session_(session), link_(link), recovery_timeout_(recovery_timeout) {}

void CandidateHost::offer(std::span<const uint8_t> message, MonoTime now, Duration rtt) {
  ++counters_.offers;
  HandoverOffer offer;
  std::optional<LockstepRelay> restored;
  if (message.size() > 1 && wire::decode(message.subspan(1), offer).ok()) {
    restored = LockstepRelay::restore(offer.state, now, Duration::nanoseconds(rtt.ns() / 2));
  }
  if (!restored) {
    ++counters_.offers_refused;
    return;
  }
  host_.reset();  // a newer attempt replaces an older one
  relay_.emplace(std::move(*restored));
  host_.emplace(server_, *relay_, nullptr, session_.seat());
  handover_ = offer.handover;
  agreed_frame_ = offer.state.compared_through;
  agreed_checksum_ = offer.state.agreed_checksum;
  accepted_ = done_ = false;
}

void CandidateHost::take_over(uint8_t dead_seat, MonoTime now) {
  std::optional<LockstepRelay> rebuilt = LockstepRelay::restore(session_.recovery_state(), now, Duration{});
  if (!rebuilt) return;
  host_.reset();
  relay_.emplace(std::move(*rebuilt));
  relay_->begin_recovery(dead_seat, now + recovery_timeout_);
  host_.emplace(server_, *relay_, nullptr, session_.seat());
  accepted_ = done_ = true;  // no old host to answer
  ++counters_.takeovers;
}

void CandidateHost::stay() {
  host_.reset();
  relay_.reset();
}

// Step 3: this peer's own game has reached the frame every peer agreed on, with the same checksum.
bool CandidateHost::state_matches() const {
  if (agreed_frame_ == 0) return true;
  if (session_.confirmed_frame() < agreed_frame_) return false;
  const std::optional<uint64_t> ours = session_.confirmed_checksum(agreed_frame_);
  return ours && wire_checksum(*ours) == agreed_checksum_;
}

void CandidateHost::update(MonoTime now, WallTime wall_now) {
  if (!host_) {
    server_.update(now, wall_now);  // nobody is expected; keep the socket drained
    return;
  }
  host_->update(now, wall_now);
  if (!accepted_ && state_matches()) {
    accepted_ = true;
    ++counters_.accepted;
    link_.send_to_host(message_bytes(HandoverAccept{handover_}));
  }
  if (accepted_ && !done_ && relay_->heard_from_every_playing_seat()) {
    done_ = true;
    ++counters_.completed;
    link_.send_to_host(message_bytes(HandoverDone{handover_}));
  }
}

}  // namespace tickwire::lockstep
