// One arena player of a deterministic match over the real transport, assembled in one place: its
// netcode client on a socket, the reliability layer, the game, its bot, the rollback session and
// the link that drives them. `tickwire lockstep` and the whole-system tests build their players
// from it.
#pragma once

#include <cstdint>

#include "tickwire/lockstep/peer_link.h"
#include "tickwire/lockstep/rollback_session.h"
#include "tickwire/transport/datagram_socket.h"
#include "tickwire/transport/netcode_client.h"
#include "tickwire/transport/reliable_client.h"
#include "tickwire/world/arena_bot_input.h"
#include "tickwire/world/lockstep_arena.h"

namespace tickwire::world {

struct ArenaPeer {
  // `socket` outlives the peer; the arena starts from `game_seed` (every peer the same), the bot
  // plays from `bot_seed`.
  ArenaPeer(DatagramSocket& socket, uint32_t seats, uint32_t game_seed, uint64_t bot_seed)
      : netcode(socket),
        reliable(netcode, lockstep::lockstep_endpoint_config()),
        game(seats, game_seed),
        input(bot_seed),
        session(game, input),
        link(reliable, session) {}
  ArenaPeer(const ArenaPeer&) = delete;
  ArenaPeer& operator=(const ArenaPeer&) = delete;

  NetcodeClient netcode;
  ReliableClient reliable;
  LockstepArena game;
  ArenaBotInput input;
  lockstep::RollbackSession session;
  lockstep::PeerLink link;
};

}  // namespace tickwire::world
