// The reliable channel judged end to end in a whole-system run: clients send each other numbered
// game messages through the server (relay: reliable-ordered up, reliable-ordered down), and every
// message received is checked at once against the ledger of what its sender sent: each stream
// arrives in order with nothing missing and nothing twice, stamped with its real sender. At the end
// every stream between two clients still playing, with nothing left in flight, must be complete.
#pragma once

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "tickwire/client.h"
#include "tickwire/protocol/relay_refused.h"

namespace tickwire::test {

class RelayLedger {
 public:
  static constexpr MessageType kType = 4242;  // a game message type of the swarm's own
  static constexpr std::size_t kPayloadBytes = 16;

  using Fail = std::function<void(std::string invariant, std::string detail)>;
  explicit RelayLedger(Fail fail) : fail_(std::move(fail)) {}

  // The next message of member `from`'s stream to member `to` (numbered; counted once noted).
  std::array<uint8_t, kPayloadBytes> next_payload(uint32_t from, uint32_t to) {
    std::array<uint8_t, kPayloadBytes> payload{};
    const std::array<uint32_t, 4> words = {kMagic, from, to, streams_[{from, to}].sent};
    std::memcpy(payload.data(), words.data(), kPayloadBytes);
    return payload;
  }
  // Member `from` (owner `from_owner`) queued its next message to `to`.
  void note_sent(uint32_t from, OwnerId from_owner, uint32_t to) {
    owner_of_[from] = from_owner;
    ++streams_[{from, to}].sent;
    ++sent_;
  }
  // Both through `client`: the next message to member `to`, whose owner id is `to_owner`. False
  // (nothing counted) when the client's channel would not take it.
  bool send(Client& client, uint32_t from, OwnerId from_owner, uint32_t to, OwnerId to_owner) {
    if (!client.send_to(to_owner, kType, next_payload(from, to))) return false;
    note_sent(from, from_owner, to);
    return true;
  }

  // A game message member `member` took; the swarm's own are judged, any other left alone.
  void receive(uint32_t member, const GameMessage& m) {
    if (m.type != kType) return;
    std::array<uint32_t, 4> words{};
    if (m.payload.size() != kPayloadBytes) {
      fail_("reliable messages", fmt::format("m{} took a relay of {} bytes", member, m.payload.size()));
      return;
    }
    std::memcpy(words.data(), m.payload.data(), kPayloadBytes);
    const auto [magic, from, to, number] = words;
    if (magic != kMagic) {
      fail_("reliable messages", fmt::format("m{} took a relay whose bytes changed", member));
      return;
    }
    if (to != member) {  // addressed to the owner id's earlier holder, relayed after it left
      ++misaddressed_;
      return;
    }
    if (m.from != owner_of_[from])
      fail_("reliable messages",
            fmt::format("m{} took m{}'s relay stamped as from owner {}, not {}", member, from, m.from, owner_of_[from]));
    Stream& s = streams_[{from, to}];
    if (number < s.received) {
      fail_("reliable messages",
            fmt::format("m{} took m{}'s message {} again or late (next due {})", member, from, number, s.received));
      return;
    }
    if (number > s.received) {
      if (excused_.contains(from)) {
        excused_gaps_ += number - s.received;
      } else {
        fail_("reliable messages",
              fmt::format("m{} took m{}'s message {} but never {} (lost or overtaken)", member, from, number, s.received));
      }
    }
    s.received = number + 1;
    ++received_;
  }

  // The server refused one of `member`'s relays and told it so (rate, a full target queue): a gap
  // in its streams is not a loss.
  void excuse(uint32_t member) { excused_.insert(member); }

  // The end of the run: every stream between two members for which `settled(from, to)` holds (both
  // playing, nothing of theirs in flight) must have arrived whole. Returns the streams judged.
  uint64_t judge_complete(const std::function<bool(uint32_t from, uint32_t to)>& settled) {
    uint64_t judged = 0;
    for (const auto& [pair, s] : streams_) {
      if (excused_.contains(pair.first) || !settled(pair.first, pair.second)) continue;
      ++judged;
      if (s.received != s.sent)
        fail_("reliable messages", fmt::format("m{} -> m{}: {} of {} messages arrived, nothing in flight", pair.first,
                                               pair.second, s.received, s.sent));
    }
    return judged;
  }

  uint64_t messages_sent() const { return sent_; }
  uint64_t messages_received() const { return received_; }
  uint64_t misaddressed() const { return misaddressed_; }
  uint64_t excused_gaps() const { return excused_gaps_; }

 private:
  static constexpr uint32_t kMagic = 0x5357524dU;
  struct Stream {
    uint32_t sent = 0;      // the next number to send
    uint32_t received = 0;  // the next number due
  };
  Fail fail_;
  std::map<std::pair<uint32_t, uint32_t>, Stream> streams_;  // (from, to) members
  std::map<uint32_t, OwnerId> owner_of_;                      // each sending member's owner id
  std::set<uint32_t> excused_;
  uint64_t sent_ = 0, received_ = 0, misaddressed_ = 0, excused_gaps_ = 0;
};

}  // namespace tickwire::test
