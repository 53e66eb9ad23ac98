// RelayHost and PeerLink: the order of one iteration, the seat each connection holds, and, for
// host migration, which connection a message goes to.
#include "tickwire/lockstep/lockstep_links.h"

#include <algorithm>

#include "tickwire/lockstep/migration_messages.h"
#include "tickwire/wire/codec.h"

namespace tickwire::lockstep {

namespace {
constexpr std::array<uint8_t, 4> kSeatGrantTag = {'S', 'E', 'A', 'T'};
}

EndpointConfig lockstep_endpoint_config() {
  EndpointConfig config;
  config.channels[kWelcomeChannel] = ChannelConfig::reliable_with_blocks(64 * 1024);
  config.channels[kFramesChannel] = ChannelConfig::unreliable(1100);
  return config;
}

netcode::UserData seat_grant(uint8_t seat) {
  netcode::UserData data{};
  std::copy(kSeatGrantTag.begin(), kSeatGrantTag.end(), data.begin());
  data[kSeatGrantTag.size()] = seat;
  return data;
}

std::optional<uint8_t> granted_seat(const netcode::UserData& user_data) {
  if (!std::equal(kSeatGrantTag.begin(), kSeatGrantTag.end(), user_data.begin())) return std::nullopt;
  return user_data[kSeatGrantTag.size()];
}

namespace {
constexpr Duration kSuccessorsInterval = Duration::seconds(1);
}

RelayHost::RelayHost(ReliableServer& server, LockstepRelay& relay, HostHandover* handover, uint8_t host_seat)
    : server_(server), relay_(relay), handover_(handover), host_seat_(host_seat), seat_of_client_(server.netcode().max_clients(), -1) {
  client_of_seat_.fill(-1);
}

ReliableEndpoint* RelayHost::endpoint_of(uint8_t seat) {
  return client_of_seat_[seat] < 0 ? nullptr : server_.endpoint(static_cast<uint32_t>(client_of_seat_[seat]));
}

std::vector<double> RelayHost::rtt_ms_by_seat() const {
  std::vector<double> rtt(relay_.settings().policy.seats, 0.0);
  for (uint8_t seat = 0; seat < rtt.size(); ++seat) {
    const ReliableEndpoint* e = client_of_seat_[seat] < 0 ? nullptr : server_.endpoint(static_cast<uint32_t>(client_of_seat_[seat]));
    if (e != nullptr) rtt[seat] = e->stats().rtt_ms;
  }
  return rtt;
}

// Before the start a connection takes the seat its token grants (its slot if none); after it, it
// rejoins a playing seat no other connection holds (the authority has moved here).
void RelayHost::seat_connection(uint32_t index, MonoTime now) {
  const uint32_t seat = granted_seat(server_.netcode().client_user_data(index)).value_or(static_cast<uint8_t>(index));
  bool seated = false;
  if (seat < relay_.settings().policy.seats && client_of_seat_[seat] < 0) {
    seated = relay_.started() ? relay_.playing(static_cast<uint8_t>(seat)) : relay_.take_seat(static_cast<uint8_t>(seat));
  }
  if (!seated) {
    ++counters_.refused_connections;
    server_.netcode().disconnect_client(index, now);
    return;
  }
  client_of_seat_[seat] = static_cast<int32_t>(index);
  seat_of_client_[index] = static_cast<int32_t>(seat);
}

void RelayHost::take_events(MonoTime now) {
  ReliableServerEvent event;
  while (server_.poll_event(event)) {
    const uint32_t index = event.netcode.client_index;
    if (event.netcode.type == ServerEvent::Type::client_connected) {
      seat_connection(index, now);
      continue;
    }
    const int32_t seat = seat_of_client_[index];
    if (seat < 0) continue;
    seat_of_client_[index] = -1;
    client_of_seat_[static_cast<std::size_t>(seat)] = -1;
    relay_.seat_left(static_cast<uint8_t>(seat));
    if (handover_ != nullptr) handover_->seat_left(static_cast<uint8_t>(seat));
  }
}

void RelayHost::send_reliable(uint8_t seat, std::span<const uint8_t> bytes) {
  if (ReliableEndpoint* e = endpoint_of(seat)) (void)e->send(kWelcomeChannel, bytes);
}

// Every second, who takes over if this host vanishes.
void RelayHost::send_successors(MonoTime now) {
  if (!relay_.started() || relay_.retired() || (next_successors_ && now < *next_successors_)) return;
  next_successors_ = now + kSuccessorsInterval;
  Successors successors;
  successors.host_seat = host_seat_;
  for (uint8_t seat : rank_candidates(relay_, rtt_ms_by_seat(), host_seat_)) successors.ranked.push_back(SeatNumber{seat});
  const std::vector<uint8_t> bytes = message_bytes(successors);
  for (uint8_t seat = 0; seat < relay_.settings().policy.seats; ++seat) {
    if (relay_.playing(seat)) send_reliable(seat, bytes);
  }
}

void RelayHost::update(MonoTime now, WallTime wall_now) {
  server_.receive(now, wall_now);
  take_events(now);
  const uint32_t seats = relay_.settings().policy.seats;
  if (!relay_.started() && relay_.all_seated()) {
    relay_.start(now);
    for (uint8_t seat = 0; seat < seats; ++seat) send_reliable(seat, std::span(buffer_.data(), relay_.write_welcome(seat, buffer_)));
  }
  for (uint8_t seat = 0; seat < seats; ++seat) {
    ReliableEndpoint* e = endpoint_of(seat);
    if (e == nullptr) continue;
    while (auto message = e->receive(kFramesChannel)) (void)relay_.receive(seat, *message, now);
    while (auto message = e->receive(kWelcomeChannel)) {
      if (handover_ != nullptr) handover_->receive(seat, *message);
    }
  }
  relay_.update(now);
  while (auto seat = relay_.take_dropped()) {
    if (client_of_seat_[*seat] >= 0) server_.netcode().disconnect_client(static_cast<uint32_t>(client_of_seat_[*seat]), now);
  }
  if (handover_ != nullptr) {
    outbox_.clear();
    handover_->update(now, outbox_);
    for (const OutgoingMessage& m : outbox_) send_reliable(m.seat, m.bytes);
  }
  send_successors(now);
  for (uint8_t seat = 0; seat < seats; ++seat) {
    ReliableEndpoint* e = endpoint_of(seat);
    const std::size_t n = e != nullptr ? relay_.write_relay(seat, now, buffer_) : 0;
    if (n == 0) continue;
    if (e->send(kFramesChannel, std::span(buffer_.data(), n)).ok()) {
      ++counters_.relays_sent;
      counters_.relay_bytes += n;
    }
  }
  server_.send(now);
  if (relay_.retired() && !closed_) {  // handed over: the peers are with the new host
    closed_ = true;
    for (uint8_t seat = 0; seat < seats; ++seat) {
      if (client_of_seat_[seat] >= 0) server_.netcode().disconnect_client(static_cast<uint32_t>(client_of_seat_[seat]), now);
    }
  }
}

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
