// RelayHost: the order of one iteration, the seat each connection holds.
#include "tickwire/lockstep/relay_host.h"

#include "tickwire/wire/codec.h"

namespace tickwire::lockstep {

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

}  // namespace tickwire::lockstep
