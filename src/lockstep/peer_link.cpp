// PeerLink: which connection a message comes from and goes to, and finding a host again.
#include "tickwire/lockstep/peer_link.h"

#include <algorithm>

#include "tickwire/wire/codec.h"

namespace tickwire::lockstep {

PeerLink::PeerLink(ReliableClient& client, RollbackSession& session, PeerMigration* migration)
    : host_(&client), session_(session), migration_(migration) {}

void PeerLink::take_reliable(std::span<const uint8_t> message, MonoTime now, Duration rtt) {
  if (message.empty()) return;
  const uint8_t id = message[0];
  if (id == HandoverOffer::wire_id) {
    if (migration_ != nullptr) migration_->on_offer(message, now, rtt);
    return;
  }
  if (id == HostMove::wire_id) {
    HostMove move;
    if (migration_ == nullptr || !wire::decode(message.subspan(1), move).ok() || next_ != nullptr) return;
    next_ = migration_->connect_to_host(move.new_host_seat, now);
    if (next_ != nullptr) session_.begin_next_host();
    return;
  }
  if (id == Successors::wire_id) {
    take_successors(message.subspan(1));
    return;
  }
  if (id == HostStay::wire_id) {
    if (migration_ != nullptr && next_ != nullptr) migration_->release(*next_, now);
    next_ = nullptr;
    if (migration_ != nullptr) migration_->on_stay(now);
    return;
  }
  (void)session_.receive(message, now, rtt);
}

void PeerLink::take_messages(ReliableClient& from, RollbackSession::Host host, MonoTime now) {
  ReliableEndpoint* e = from.endpoint();
  if (e == nullptr) return;
  const Duration rtt = Duration::from_milliseconds(e->stats().rtt_ms);
  while (auto message = e->receive(kWelcomeChannel)) take_reliable(*message, now, rtt);
  while (auto message = e->receive(kFramesChannel)) {
    if (session_.receive(*message, now, rtt, host).ok() && !message->empty() && (*message)[0] == RelayFrames::wire_id) {
      if (last_relay_) longest_gap_ = std::max(longest_gap_, now - *last_relay_);
      last_relay_ = now;
    }
  }
}

void PeerLink::send_frames(ReliableClient& to, std::span<const uint8_t> frames) {
  if (ReliableEndpoint* e = to.endpoint(); e != nullptr && e->send(kFramesChannel, frames).ok()) bytes_sent_ += frames.size();
}

void PeerLink::take_successors(std::span<const uint8_t> body) {
  Successors successors;
  if (!wire::decode(body, successors).ok()) return;
  successors_.clear();
  for (const SeatNumber& s : successors.ranked) successors_.push_back(s.seat);
  host_seat_ = successors.host_seat;
  successor_cursor_ = 0;
}

// The host vanished (its connection timed out with no move under way): connect to the first
// successor that answers, rebuilding the authority here if that is this peer.
void PeerLink::replace_lost_host(MonoTime now) {
  if (host_->connected()) host_was_connected_ = true;
  if (migration_ == nullptr || !session_.seated() || host_->connected() || !host_was_connected_) return;
  if (next_ != nullptr) {
    if (!is_error_state(next_->netcode().state())) return;  // still connecting
    migration_->release(*next_, now);                        // that successor did not answer
    next_ = nullptr;
    ++successor_cursor_;
  }
  if (!looking_) {
    looking_ = true;
    ++host_losses_;
  }
  while (next_ == nullptr && successor_cursor_ < successors_.size()) {
    const uint8_t seat = successors_[successor_cursor_];
    if (seat == session_.seat()) migration_->take_over(host_seat_, now);
    next_ = migration_->connect_to_host(seat, now);
    if (next_ == nullptr) ++successor_cursor_;
  }
  if (next_ != nullptr) session_.begin_next_host();
}

void PeerLink::update(MonoTime now) {
  host_->receive(now);
  if (next_ != nullptr) next_->receive(now);
  take_messages(*host_, RollbackSession::Host::current, now);
  if (next_ != nullptr) take_messages(*next_, RollbackSession::Host::next, now);
  if (next_ != nullptr && next_->connected() && !host_->connected()) {  // the old host let go: the move is done
    host_ = next_;
    next_ = nullptr;
    session_.promote_next_host();
    successor_cursor_ = 0;
    looking_ = false;
    ++moves_;
  }
  replace_lost_host(now);
  session_.advance(now);
  if (const std::size_t n = session_.write(buffer_, RollbackSession::Host::current); n > 0) {
    send_frames(*host_, std::span(buffer_.data(), n));
  }
  if (next_ != nullptr) {
    if (const std::size_t n = session_.write(buffer_, RollbackSession::Host::next); n > 0) send_frames(*next_, std::span(buffer_.data(), n));
  }
  host_->send(now);
  if (next_ != nullptr) next_->send(now);
}

void PeerLink::send_to_host(std::span<const uint8_t> message) {
  if (ReliableEndpoint* e = host_->endpoint()) (void)e->send(kWelcomeChannel, message);
}

}  // namespace tickwire::lockstep
