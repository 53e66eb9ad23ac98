// DeterministicPlayer: its sockets (its own server's and two to reach whichever process hosts), its
// tokens (the backend's, or minted with the key), the timer, and a lockstep::ListenPlayer over
// them; its counters as named reasons.
#include "tickwire/deterministic_player.h"

#include <optional>

#include "dev_token.h"
#include "injected_or_own.h"
#include "reason_list.h"
#include "relay_reasons.h"
#include "tickwire/clock/host_timer.h"
#include "tickwire/clock/system_clock.h"
#include "tickwire/clock/system_host_timer.h"
#include "tickwire/lockstep/link_layout.h"
#include "tickwire/lockstep/listen_player.h"
#include "tickwire/protocol/netcode_contract.h"
#include "tickwire/transport/udp_socket.h"
#include "token_socket.h"

namespace tickwire {

struct DeterministicPlayer::Parts {
  std::unique_ptr<DatagramSocket> own_server_socket;
  std::array<std::unique_ptr<DatagramSocket>, 2> own_client_sockets;
  std::unique_ptr<SystemHostTimer> own_timer;
  HostTimer* timer = nullptr;
  TimeAnchor anchor;
  DatagramSocket* server_socket = nullptr;
  std::vector<Address> servers;  // each seat's, as tokens list it
  std::unique_ptr<lockstep::ListenPlayer> player;
};

namespace {

// The policy's settings, or why it cannot run a listen-server match.
std::optional<std::string> settings_of(const DeterministicPlayerConfig& config, lockstep::LockstepSettings& out) {
  const ContractResolution resolved = resolve_netcode_contract(config.policy);
  if (!resolved.ok()) return "room policy refused: " + resolved.issue.field + ": " + std::string(reason_name(resolved.issue.error));
  if (resolved.contract->mode.mode != RuntimeMode::deterministic) {
    return std::string("room policy refused: mode.mode: a DeterministicPlayer plays deterministic mode");
  }
  out = lockstep::lockstep_settings(*resolved.contract);
  const uint32_t seats = out.policy.seats;
  if (config.seat >= seats || config.first_host_seat >= seats) return std::string("seat: outside the policy's seats");
  if (config.player_servers.size() != seats) return std::string("player_servers: one address per seat");
  if (!config.host_tokens.empty() && config.host_tokens.size() != seats) return std::string("host_tokens: one token per seat");
  return std::nullopt;
}

std::optional<std::string> open_sockets(const DeterministicPlayerConfig& config, DeterministicPlayer::Parts& p) {
  for (const std::string& text : config.player_servers) {
    const auto address = Address::parse(text);
    if (!address || address->port() == 0) return "player_servers: not a numeric HOST:PORT: " + text;
    p.servers.push_back(*address);
  }
  if (config.server_socket != nullptr) {
    p.server_socket = config.server_socket;
  } else {
    const auto bind = Address::parse(config.bind);
    if (!bind) return "bind: not a numeric HOST:PORT: " + config.bind;
    UdpOpenResult opened = UdpSocket::open(*bind);
    if (!opened) return opened.message;
    p.own_server_socket = std::move(opened.socket);
    p.server_socket = p.own_server_socket.get();
  }
  for (std::size_t s = 0; s < 2; ++s) {
    if (config.client_sockets[s] != nullptr) continue;
    if (auto error = open_token_socket({}, p.servers[config.first_host_seat], p.own_client_sockets[s])) return error;
  }
  return std::nullopt;
}

// Where this player's tokens come from: the backend's, or minted here with the key.
lockstep::HostTokenSource token_source(const DeterministicPlayerConfig& config, const DeterministicPlayer::Parts& p) {
  if (!config.host_tokens.empty()) {
    return [tokens = config.host_tokens](uint8_t seat) { return seat < tokens.size() ? tokens[seat] : std::vector<uint8_t>{}; };
  }
  DevTokenTerms terms;
  terms.protocol_id = config.protocol_id;
  terms.client_id = config.client_id != 0 ? config.client_id : 7000 + config.seat;
  terms.timeout_seconds = config.token_timeout_s;
  terms.user_data = lockstep::seat_grant(config.seat);
  return [terms, key = config.private_key, &p](uint8_t seat) {
    if (seat >= p.servers.size()) return std::vector<uint8_t>{};
    return mint_dev_token(terms, p.servers[seat], key, p.anchor.to_wall(p.timer->now())).value_or(std::vector<uint8_t>{});
  };
}

}  // namespace

DeterministicPlayerOpen DeterministicPlayer::open(const DeterministicPlayerConfig& config, lockstep::DeterministicGame& game,
                                                  lockstep::LocalInputSource& input) {
  auto p = std::make_unique<Parts>();
  lockstep::ListenPlayerConfig listen;
  if (auto error = settings_of(config, listen.settings)) return {nullptr, *error};
  if (auto error = open_sockets(config, *p)) return {nullptr, *error};
  p->timer = injected_or_own<HostTimer>(config.timer, p->own_timer);
  p->anchor = TimeAnchor{p->timer->now(), config.timer != nullptr ? config.wall_at_start : wall_now()};
  listen.seat = config.seat;
  listen.first_host_seat = config.first_host_seat;
  listen.server.protocol_id = config.protocol_id;
  listen.server.private_key = config.private_key;
  listen.server.public_address = p->servers[config.seat];
  listen.server.max_clients = listen.settings.policy.seats;
  listen.handshake_timeout = config.handshake_timeout;
  std::array<DatagramSocket*, 2> clients{};
  for (std::size_t s = 0; s < 2; ++s) clients[s] = config.client_sockets[s] != nullptr ? config.client_sockets[s] : p->own_client_sockets[s].get();
  if (!config.host_tokens.empty() && config.host_tokens[config.first_host_seat].empty()) {
    return {nullptr, "host_tokens: no token for the first host's server"};
  }
  const lockstep::HostTokenSource tokens = token_source(config, *p);
  p->player = std::make_unique<lockstep::ListenPlayer>(listen, *p->server_socket, clients, tokens, game, input, p->timer->now());
  return {std::unique_ptr<DeterministicPlayer>(new DeterministicPlayer(std::move(p))), {}};
}

DeterministicPlayer::DeterministicPlayer(std::unique_ptr<Parts> parts) : parts_(std::move(parts)) {}
DeterministicPlayer::~DeterministicPlayer() = default;

void DeterministicPlayer::update() {
  const MonoTime now = parts_->timer->now();
  parts_->player->update(now, parts_->anchor.to_wall(now));
}

bool DeterministicPlayer::begin_handover() { return parts_->player->begin_handover(parts_->timer->now()); }
bool DeterministicPlayer::hosting() const { return parts_->player->hosting(); }
bool DeterministicPlayer::seated() const { return parts_->player->session().seated(); }
uint32_t DeterministicPlayer::next_frame() const { return parts_->player->session().next_frame(); }
std::string DeterministicPlayer::server_address() const { return parts_->server_socket->local_address().to_string(); }

DeterministicPlayerStats DeterministicPlayer::stats() const {
  const lockstep::ListenPlayer& player = *parts_->player;
  DeterministicPlayerStats s;
  s.peer = player.session().stats();
  s.hosting = player.hosting();
  s.moves = player.link().moves();
  s.host_losses = player.link().host_losses();
  s.takeovers = player.candidate().counters().takeovers;
  s.handovers_completed = player.candidate().counters().completed;
  s.longest_relay_gap_ms = player.link().longest_relay_gap().milliseconds_f();
  if (const lockstep::HostHandover* handover = player.handover()) {
    append_reasons(s.reasons, "lockstep.handover.abort", handover->stats().aborts);
  }
  if (const lockstep::LockstepRelay* relay = player.serving_relay()) {
    const lockstep::RelayStats& r = relay->stats();
    s.clock_frame = r.clock_frame;
    s.frames_compared = r.frames_compared;
    s.desync_frame = r.desync_frame;
    append_relay_reasons(s.reasons, r);
  }
  append_reasons(s.reasons, "netcode.reject", player.server().rejects());
  return s;
}

}  // namespace tickwire
