// RelayHost and PeerLink: the order of one iteration, and nothing else.
#include "tickwire/lockstep/lockstep_links.h"

namespace tickwire::lockstep {

EndpointConfig lockstep_endpoint_config() {
  EndpointConfig config;
  config.channels[kWelcomeChannel] = ChannelConfig::reliable();
  config.channels[kFramesChannel] = ChannelConfig::unreliable(1100);
  return config;
}

RelayHost::RelayHost(ReliableServer& server, LockstepRelay& relay) : server_(server), relay_(relay) {}

void RelayHost::take_events(MonoTime now) {
  ReliableServerEvent event;
  while (server_.poll_event(event)) {
    const uint32_t index = event.netcode.client_index;
    if (event.netcode.type == ServerEvent::Type::client_disconnected) {
      if (index < relay_.settings().policy.seats) relay_.seat_left(static_cast<uint8_t>(index));
      continue;
    }
    if (index >= relay_.settings().policy.seats || !relay_.take_seat(static_cast<uint8_t>(index))) {
      ++counters_.refused_connections;
      server_.netcode().disconnect_client(index, now);
    }
  }
}

void RelayHost::update(MonoTime now, WallTime wall_now) {
  server_.receive(now, wall_now);
  take_events(now);
  const uint32_t seats = relay_.settings().policy.seats;
  if (!relay_.started() && relay_.all_seated()) {
    relay_.start(now);
    for (uint8_t seat = 0; seat < seats; ++seat) {
      const std::size_t n = relay_.write_welcome(seat, buffer_);
      if (ReliableEndpoint* e = server_.endpoint(seat)) (void)e->send(kWelcomeChannel, std::span(buffer_.data(), n));
    }
  }
  for (uint8_t seat = 0; seat < seats; ++seat) {
    ReliableEndpoint* e = server_.endpoint(seat);
    if (e == nullptr) continue;
    while (auto message = e->receive(kFramesChannel)) (void)relay_.receive(seat, *message, now);
  }
  relay_.update(now);
  while (auto seat = relay_.take_dropped()) server_.netcode().disconnect_client(*seat, now);
  for (uint8_t seat = 0; seat < seats; ++seat) {
    ReliableEndpoint* e = server_.endpoint(seat);
    const std::size_t n = e != nullptr ? relay_.write_relay(seat, now, buffer_) : 0;
    if (n == 0) continue;
    if (e->send(kFramesChannel, std::span(buffer_.data(), n)).ok()) {
      ++counters_.relays_sent;
      counters_.relay_bytes += n;
    }
  }
  server_.send(now);
}

PeerLink::PeerLink(ReliableClient& client, RollbackSession& session) : client_(client), session_(session) {}

void PeerLink::update(MonoTime now) {
  client_.receive(now);
  if (ReliableEndpoint* e = client_.endpoint()) {
    const Duration rtt = Duration::from_milliseconds(e->stats().rtt_ms);
    while (auto message = e->receive(kWelcomeChannel)) (void)session_.receive(*message, now, rtt);
    while (auto message = e->receive(kFramesChannel)) (void)session_.receive(*message, now, rtt);
  }
  session_.advance(now);
  if (ReliableEndpoint* e = client_.endpoint()) {
    const std::size_t n = session_.write(buffer_);
    if (n > 0 && e->send(kFramesChannel, std::span(buffer_.data(), n)).ok()) bytes_sent_ += n;
  }
  client_.send(now);
}

}  // namespace tickwire::lockstep
