// Host migration's handshake (seed 002, "Handshake Protocol"), on the reliable channel: the old
// host offers its relay's state to the ranked candidate (HandoverOffer); the candidate, once its
// own game has confirmed the agreed frame with the agreed checksum, runs a relay restored from it
// and accepts (HandoverAccept); the old host tells every peer where the authority moves
// (HostMove); the candidate, once every peer has reached it, confirms (HandoverDone) and only then
// does the old host stop. On candidate loss or a timeout the old host keeps authority (HostStay).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "tickwire/lockstep/relay_state.h"
#include "tickwire/wire/types.h"

namespace tickwire::lockstep {

struct HandoverOffer {
  static constexpr std::string_view wire_name = "HandoverOffer";
  static constexpr std::string_view message_name = "handoverOffer";
  static constexpr uint8_t wire_id = 4;
  static constexpr wire::Direction wire_direction = wire::Direction::server_to_client;
  uint32_t handover = 0;  // which attempt this is (a late answer to an aborted one is ignored)
  RelayState state;
  template <class W>
  void fields(W& w) {
    w.u32("handover", handover);
    w.shape("state", state);
  }
};

// The one-number messages of the handshake.
struct HandoverAccept {
  static constexpr std::string_view wire_name = "HandoverAccept";
  static constexpr std::string_view message_name = "handoverAccept";
  static constexpr uint8_t wire_id = 5;
  static constexpr wire::Direction wire_direction = wire::Direction::client_to_server;
  uint32_t handover = 0;
  template <class W>
  void fields(W& w) {
    w.u32("handover", handover);
  }
};

struct HostMove {
  static constexpr std::string_view wire_name = "HostMove";
  static constexpr std::string_view message_name = "hostMove";
  static constexpr uint8_t wire_id = 6;
  static constexpr wire::Direction wire_direction = wire::Direction::server_to_client;
  uint32_t handover = 0;
  uint8_t new_host_seat = 0;  // the seat whose process hosts the authority now
  template <class W>
  void fields(W& w) {
    w.u32("handover", handover);
    w.u8("newHostSeat", new_host_seat);
  }
};

struct HandoverDone {
  static constexpr std::string_view wire_name = "HandoverDone";
  static constexpr std::string_view message_name = "handoverDone";
  static constexpr uint8_t wire_id = 7;
  static constexpr wire::Direction wire_direction = wire::Direction::client_to_server;
  uint32_t handover = 0;
  template <class W>
  void fields(W& w) {
    w.u32("handover", handover);
  }
};

struct HostStay {
  static constexpr std::string_view wire_name = "HostStay";
  static constexpr std::string_view message_name = "hostStay";
  static constexpr uint8_t wire_id = 8;
  static constexpr wire::Direction wire_direction = wire::Direction::server_to_client;
  uint32_t handover = 0;
  template <class W>
  void fields(W& w) {
    w.u32("handover", handover);
  }
};

// One seat's number.
struct SeatNumber {
  static constexpr std::string_view wire_name = "SeatNumber";
  uint8_t seat = 0;
  template <class W>
  void fields(W& w) {
    w.u8("seat", seat);
  }
};
inline constexpr uint8_t kNoSeat = 0xff;

// Who takes the authority if this host vanishes (seed 002, "Candidate Election", beyond the seed):
// the host's own seat (kNoSeat for a dedicated one) and the candidates, best first. Sent to every
// peer now and then; a peer whose host is gone connects to the first that answers.
struct Successors {
  static constexpr std::string_view wire_name = "Successors";
  static constexpr std::string_view message_name = "successors";
  static constexpr uint8_t wire_id = 9;
  static constexpr wire::Direction wire_direction = wire::Direction::server_to_client;
  uint8_t host_seat = kNoSeat;
  std::vector<SeatNumber> ranked;
  template <class W>
  void fields(W& w) {
    w.u8("hostSeat", host_seat);
    w.list8("ranked", ranked, 0, kMaxPeers);
  }
};

}  // namespace tickwire::lockstep
