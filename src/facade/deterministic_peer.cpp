// DeterministicPeer: a socket for its token, netcode 1.02, the reliability layer and the rollback
// session, assembled.
#include "tickwire/clock/host_timer.h"
#include "tickwire/clock/system_host_timer.h"
#include "tickwire/deterministic.h"
#include "tickwire/lockstep/peer_link.h"
#include "tickwire/lockstep/rollback_session.h"
#include "tickwire/transport/netcode_client.h"
#include "tickwire/transport/reliable_client.h"
#include "injected_or_own.h"
#include "token_socket.h"

namespace tickwire {

struct DeterministicPeer::Parts {
  std::unique_ptr<DatagramSocket> own_socket;
  DatagramSocket* socket = nullptr;
  std::unique_ptr<SystemHostTimer> own_timer;
  HostTimer* timer = nullptr;
  std::unique_ptr<NetcodeClient> netcode;
  std::unique_ptr<ReliableClient> reliable;
  std::unique_ptr<lockstep::RollbackSession> session;
  std::unique_ptr<lockstep::PeerLink> link;
};

DeterministicPeerOpen DeterministicPeer::open(const DeterministicPeerConfig& config, lockstep::DeterministicGame& game,
                                              lockstep::LocalInputSource& input) {
  auto p = std::make_unique<Parts>();
  if (config.connect_token.empty()) return {nullptr, "no connect token"};
  if (config.socket != nullptr) {
    p->socket = config.socket;
  } else {
    if (auto error = open_token_socket(config.connect_token, std::nullopt, p->own_socket)) return {nullptr, *error};
    p->socket = p->own_socket.get();
  }
  p->timer = injected_or_own<HostTimer>(config.timer, p->own_timer);
  p->netcode = std::make_unique<NetcodeClient>(*p->socket);
  p->reliable = std::make_unique<ReliableClient>(*p->netcode, lockstep::lockstep_endpoint_config());
  p->session = std::make_unique<lockstep::RollbackSession>(game, input);
  p->link = std::make_unique<lockstep::PeerLink>(*p->reliable, *p->session);
  p->netcode->connect(std::span<const uint8_t>(config.connect_token), p->timer->now());
  return {std::unique_ptr<DeterministicPeer>(new DeterministicPeer(std::move(p))), {}};
}

DeterministicPeer::DeterministicPeer(std::unique_ptr<Parts> parts) : parts_(std::move(parts)) {}
DeterministicPeer::~DeterministicPeer() = default;

void DeterministicPeer::update() { parts_->link->update(parts_->timer->now()); }
bool DeterministicPeer::connected() const { return parts_->reliable->connected(); }
bool DeterministicPeer::seated() const { return parts_->session->seated(); }
uint32_t DeterministicPeer::next_frame() const { return parts_->session->next_frame(); }
const lockstep::RollbackStats& DeterministicPeer::stats() const { return parts_->session->stats(); }
void DeterministicPeer::record_to(lockstep::ConfirmedFrameSink* sink) { parts_->session->record_to(sink); }

}  // namespace tickwire
