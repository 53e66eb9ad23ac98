// What the matchmaker's tests share: a fleet listing made to order (processes, rooms, seats), a
// matchmaker keyed for it, and a connect token opened the way the room's server opens it (with the
// fleet's private key), so a test reads back the address, the actor and the grants a token carries.
#pragma once

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "tickwire/durable/fleet_listing.h"
#include "tickwire/fleet/matchmaker.h"
#include "tickwire/server/admission_grants.h"
#include "tickwire/transport/connect_token.h"

namespace tickwire::fleet::test {

inline constexpr uint64_t kProtocolId = 0x7477'6d6d'0000'0001;
inline const netcode::Key kFleetKey = [] {
  netcode::Key key{};
  for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<uint8_t>(7 * i + 1);
  return key;
}();
inline const TimeAnchor kAnchor{MonoTime::from_ns(0), WallTime::from_ns(1'700'000'000'000'000'000)};
inline const MonoTime kT0 = MonoTime::from_ns(10'000'000'000);  // a test's first instant
// Process "a"'s first two rooms, as fleet_process names them.
inline const RoomKey kRoomA0{"a", "room.0"};
inline const RoomKey kRoomA1{"a", "room.1"};

inline MatchmakerConfig matchmaker_config(RoomChoice choice = RoomChoice::fill_first) {
  MatchmakerConfig config;
  config.queue.max_line = 1024;
  config.queue.waiter_timeout = Duration::seconds(30);
  config.queue.claim_window = Duration::seconds(20);
  config.choice = choice;
  config.protocol_id = kProtocolId;
  config.private_key = kFleetKey;
  config.anchor = kAnchor;
  return config;
}

// A process with `rooms` rooms of `seats` seats each, room i at 127.0.0.1:(port + i).
inline durable::DirectoryProcess fleet_process(const std::string& id, durable::ProcessState state, uint32_t rooms,
                                               uint32_t seats, uint16_t port) {
  durable::DirectoryProcess p;
  p.process = id;
  p.state = state;
  p.ops_address = "127.0.0.1:9100";
  for (uint32_t i = 0; i < rooms; ++i)
    p.rooms.push_back(durable::DirectoryRoom{fmt::format("room.{}", i), fmt::format("127.0.0.1:{}", port + i), seats, 0, {}});
  return p;
}

// What the room's server reads from a token: nullopt when it does not open under the fleet's key.
struct OpenedToken {
  uint64_t client_id = 0;
  std::vector<Address> addresses;
  AdmissionGrants grants;
  uint64_t expire_timestamp = 0;
};
inline std::optional<OpenedToken> open_token(const netcode::ConnectTokenBytes& bytes, const netcode::Key& key) {
  netcode::ConnectToken token;
  if (!netcode::read_connect_token(bytes, token).ok()) return std::nullopt;
  netcode::ConnectTokenPrivate sealed;
  if (netcode::open_private_token(token.private_data, kProtocolId, token.expire_timestamp, token.nonce, key, sealed) !=
      netcode::Reject::ok)
    return std::nullopt;
  OpenedToken out;
  out.client_id = sealed.client_id;
  for (uint32_t i = 0; i < sealed.server_addresses.size(); ++i) out.addresses.push_back(sealed.server_addresses[i]);
  out.grants = read_admission_grants(sealed.user_data);
  out.expire_timestamp = token.expire_timestamp;
  return out;
}

}  // namespace tickwire::fleet::test
