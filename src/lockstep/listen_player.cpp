// A listen-server player's process: its server, its peer and the connections that follow the
// authority, assembled; the first host's relay beside them.
#include "tickwire/lockstep/listen_player.h"

#include <utility>

#include "tickwire/core/assert.h"
#include "tickwire/lockstep/link_layout.h"

namespace tickwire::lockstep {

ListenPlayer::ListenPlayer(const ListenPlayerConfig& config, DatagramSocket& server_socket,
                           std::array<DatagramSocket*, 2> client_sockets, HostTokenSource tokens, DeterministicGame& game,
                           LocalInputSource& input, MonoTime now)
    : seat_(config.seat), client_sockets_(client_sockets), tokens_(std::move(tokens)) {
  TW_ASSERT(client_sockets[0] != nullptr && client_sockets[1] != nullptr, "a listen player has two client sockets");
  netcode_server_ = std::make_unique<NetcodeServer>(server_socket, config.server);
  netcode_server_->start(now);
  reliable_server_ = std::make_unique<ReliableServer>(*netcode_server_, lockstep_endpoint_config());
  session_ = std::make_unique<RollbackSession>(game, input);
  ReliableClient* first = open_connection(0, config.first_host_seat, now);
  TW_ASSERT(first != nullptr, "a listen player has a token for the first host's server");
  link_ = std::make_unique<PeerLink>(*first, *session_, this);
  candidate_ = std::make_unique<CandidateHost>(*reliable_server_, *session_, *link_);
  if (config.seat == config.first_host_seat) {
    first_relay_.emplace(config.settings);
    handover_.emplace(*first_relay_, config.handshake_timeout);
    first_host_.emplace(*reliable_server_, *first_relay_, &*handover_, config.seat);
  }
}

ListenPlayer::~ListenPlayer() = default;

// The first host keeps serving its relay after a handover (it retires it: its peers hear from the
// new host); every other process serves whatever its candidate hosts.
void ListenPlayer::update(MonoTime now, WallTime wall_now) {
  if (first_host_) first_host_->update(now, wall_now);
  else candidate_->update(now, wall_now);
  link_->update(now);
}

bool ListenPlayer::begin_handover(MonoTime now) {
  if (!handover_ || first_relay_->retired()) return false;
  if (handover_->under_way()) return false;
  const std::vector<double> rtt = first_host_->rtt_ms_by_seat();
  const std::vector<uint8_t> ranked = rank_candidates(*first_relay_, rtt, seat_);
  handover_->begin(ranked, now);
  return true;
}

bool ListenPlayer::hosting() const { return serving_relay() != nullptr; }

const LockstepRelay* ListenPlayer::serving_relay() const {
  if (first_relay_ && !first_relay_->retired()) return &*first_relay_;
  return candidate_->hosting() ? candidate_->relay() : nullptr;
}

ReliableClient* ListenPlayer::open_connection(std::size_t socket, uint8_t host_seat, MonoTime now) {
  const std::vector<uint8_t> token = tokens_(host_seat);
  if (token.empty()) return nullptr;
  clients_[socket].reset();
  netcodes_[socket] = std::make_unique<NetcodeClient>(*client_sockets_[socket]);
  clients_[socket] = std::make_unique<ReliableClient>(*netcodes_[socket], lockstep_endpoint_config());
  netcodes_[socket]->connect(std::span<const uint8_t>(token), now);
  return clients_[socket].get();
}

// A move connects on the socket the current host's connection does not use.
ReliableClient* ListenPlayer::connect_to_host(uint8_t seat, MonoTime now) {
  const std::size_t spare = &link_->host_connection() == clients_[0].get() ? 1 : 0;
  return open_connection(spare, seat, now);
}

void ListenPlayer::release(ReliableClient& client, MonoTime now) {
  for (std::size_t s = 0; s < clients_.size(); ++s) {
    if (clients_[s].get() == &client) netcodes_[s]->disconnect(now);
  }
}

void ListenPlayer::on_offer(std::span<const uint8_t> message, MonoTime now, Duration rtt) { candidate_->offer(message, now, rtt); }
void ListenPlayer::on_stay(MonoTime) { candidate_->stay(); }
void ListenPlayer::take_over(uint8_t dead_seat, MonoTime now) { candidate_->take_over(dead_seat, now); }

}  // namespace tickwire::lockstep
