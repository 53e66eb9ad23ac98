// ResumeDesk (seed 003, "Durability and rejoin"): the server's seam to resume tokens. A room server
// that offers resumption asks the desk for a token for every session it admits, and hands it every
// token a returning player presents; the desk signs, checks and uses tokens up (durable/'s
// StoreResumeDesk: MAC-signed tokens, used ones remembered in the store), the server only asks, so
// the engine below durable/ never touches a key or a database.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/protocol/resume_ticket.h"

namespace tickwire {

// What a token that holds says: whose it is and which pawn it names.
struct ResumeClaim {
  std::string player;
  uint64_t pawn = 0;  // EntityRef raw
};

class ResumeDesk {
 public:
  virtual ~ResumeDesk() = default;
  // A token for `player`'s `pawn` in this desk's room, valid from `now` for token_lifetime()
  // (nullopt: none can be issued, e.g. a name too long).
  virtual std::optional<std::vector<uint8_t>> issue(std::string_view player, uint64_t pawn, WallTime now) = 0;
  // Checks a presented token and uses it up: its claim, or why it was refused.
  virtual std::variant<ResumeClaim, protocol::ResumeRefusal> redeem(std::span<const uint8_t> token, WallTime now) = 0;
  virtual Duration token_lifetime() const = 0;
};

}  // namespace tickwire
