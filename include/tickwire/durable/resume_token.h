// Resume tokens (seed 003, "Durability and rejoin"): what a server hands a player so that, after
// its process or its connection is gone, it can come back into the same room with the same pawn.
// A token is bound to a room, a player and a pawn, lives a bounded time, is used once, and is
// signed with the servers' shared key (HMAC-SHA-512-256, libsodium's crypto_auth), so any process
// of a fleet can verify one another issued and none can be forged. Its bytes are small enough to
// ride in a connect token's user data. Every way a token can be refused has a name.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/core/reasons.h"
#include "tickwire/durable/store.h"
#include "tickwire/protocol/resume_ticket.h"

namespace tickwire::durable {

inline constexpr std::size_t kResumeKeyBytes = 32;
inline constexpr std::size_t kResumeTokenIdBytes = 16;
inline constexpr std::size_t kResumeMacBytes = 32;
inline constexpr std::size_t kMaxResumeNameBytes = 64;  // a room's or a player's name in a token
inline constexpr std::size_t kMaxResumeTokenBytes = 1 + kResumeTokenIdBytes + 8 + 8 + 8 + 2 + 2 * kMaxResumeNameBytes + kResumeMacBytes;
inline constexpr Duration kMaxResumeLifetime = Duration::seconds(3600);

using ResumeKey = std::array<uint8_t, kResumeKeyBytes>;
using ResumeTokenId = std::array<uint8_t, kResumeTokenIdBytes>;

// What a token says (once its signature holds).
struct ResumeClaims {
  ResumeTokenId id{};
  WallTime issued_at;
  WallTime expires_at;
  std::string room;
  std::string player;
  uint64_t pawn = 0;  // the pawn's EntityRef, raw
  friend bool operator==(const ResumeClaims&, const ResumeClaims&) = default;
};

// Why a token was refused: the protocol's reasons (a client hears them in its ResumeTicket); a token
// check itself names only malformed, forged, expired, foreign, replayed and unavailable.
using ResumeRefusal = protocol::ResumeRefusal;

// Signs tokens (the issuing server) and verifies them (any server sharing the key).
class ResumeTokens {
 public:
  explicit ResumeTokens(const ResumeKey& key) : key_(key) {}

  // A token for `player`'s `pawn` in `room`, valid from now for `lifetime` (at most
  // kMaxResumeLifetime); names past kMaxResumeNameBytes are refused (nullopt).
  std::optional<std::vector<uint8_t>> issue(std::string_view room, std::string_view player, uint64_t pawn, WallTime now,
                                            Duration lifetime) const;
  // Reads and checks a token presented to `room` at `now`, without using it up (malformed, forged,
  // expired, foreign).
  std::variant<ResumeClaims, ResumeRefusal> check(std::span<const uint8_t> token, std::string_view room, WallTime now) const;
  // check(), then uses the token up in the store (replayed when it was used already; the store
  // holds the record until the token would have expired anyway).
  std::variant<ResumeClaims, ResumeRefusal> redeem(std::span<const uint8_t> token, std::string_view room, WallTime now,
                                                   Store& store) const;

 private:
  ResumeKey key_;
};

// A fresh random key (libsodium's generator), for keygen and tests.
ResumeKey random_resume_key();

}  // namespace tickwire::durable
