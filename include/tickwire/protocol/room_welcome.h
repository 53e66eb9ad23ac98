// RoomWelcome: the server's answer once a session is admitted into a room: who the client is, the
// pawn it owns, the tick the room is at, and the netcode contract in full. The client validates the
// contract, hashes it itself and from then on refuses any authority frame carrying another hash.
#pragma once

#include <cstdint>
#include <string_view>

#include "tickwire/protocol/netcode_contract.h"
#include "tickwire/wire/describe_walker.h"
#include "tickwire/wire/types.h"

namespace tickwire::protocol {

struct RoomWelcome {
  static constexpr std::string_view wire_name = "RoomWelcome";
  static constexpr std::string_view message_name = "roomWelcome";
  static constexpr uint8_t wire_id = 15;
  static constexpr wire::Direction wire_direction = wire::Direction::server_to_client;

  uint16_t owner_id = 0;      // the client's owner id (1..kMaxClientOwner) in the room
  uint64_t pawn_ref = 0;      // EntityRef of the pawn it owns (raw)
  uint32_t server_tick = 0;   // the last tick the room simulated when it admitted the session
  wire::Hash16 contract_hash; // the server's hash of `contract`
  NetcodeContract contract;

  template <class W>
  void fields(W& w) {
    w.u16("ownerId", owner_id);
    w.u64("pawnRef", pawn_ref);
    w.u32("serverTick", server_tick);
    w.hash16("contractHash", contract_hash);
    w.shape("contract", contract);
  }
};

}  // namespace tickwire::protocol
