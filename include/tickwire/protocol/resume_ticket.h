// ResumeTicket (seed 003, "Durability and rejoin"): what a server that offers resumption tells a
// client once it is admitted: whether it came back into the pawn it left (or why not, by name) and
// the resume token it presents next time (hex, opaque to the client: the server signed it). A
// token is used once, so every admission brings a fresh one.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "tickwire/core/reasons.h"
#include "tickwire/wire/describe_walker.h"

namespace tickwire::protocol {

// Why a presented resume token did not bring its player back into its pawn (the player was
// admitted with a fresh one instead).
TW_REASONS(ResumeRefusal,
           malformed,    // not a token this build reads: cut short, a bad length, an unknown version
           forged,       // its signature does not hold under the servers' key
           expired,      // past its lifetime (or issued in the future)
           foreign,      // for another room, or another player than the one its pawn is held for
           replayed,     // used already (the store remembers every token used until it expires)
           unavailable,  // the store could not say whether it was used
           pawn_gone,    // the pawn is no longer held (its hold ran out, it was kicked, or it was never durable)
           not_offered)  // this server does not resume players
inline constexpr wire::NamedValue kResumeRefusalMembers[] = {{"malformed", 0}, {"forged", 1},     {"expired", 2},
                                                             {"foreign", 3},   {"replayed", 4},   {"unavailable", 5},
                                                             {"pawnGone", 6},  {"notOffered", 7}};
inline constexpr wire::EnumDef kResumeRefusalDef{"ResumeRefusal", kResumeRefusalMembers};

TW_REASONS(ResumeOutcome,
           fresh,    // no token was presented: a fresh pawn
           resumed,  // the token's pawn, as the player left it
           refused)  // a token was presented and refused (`refusal` says why): a fresh pawn
inline constexpr wire::NamedValue kResumeOutcomeMembers[] = {{"fresh", 0}, {"resumed", 1}, {"refused", 2}};
inline constexpr wire::EnumDef kResumeOutcomeDef{"ResumeOutcome", kResumeOutcomeMembers};

inline constexpr std::size_t kMaxResumeTokenHexChars = 512;

struct ResumeTicket {
  static constexpr std::string_view wire_name = "ResumeTicket";
  static constexpr std::string_view message_name = "resumeTicket";
  static constexpr uint8_t wire_id = 28;
  static constexpr wire::Direction wire_direction = wire::Direction::server_to_client;

  ResumeOutcome outcome = ResumeOutcome::fresh;
  ResumeRefusal refusal = ResumeRefusal::malformed;  // meaningful when refused
  std::string token_hex;                            // the next token (empty: none could be issued)
  uint32_t lifetime_s = 0;                          // how long it is good for from now

  template <class W>
  void fields(W& w) {
    w.enum8("outcome", outcome, kResumeOutcomeDef);
    w.enum8("refusal", refusal, kResumeRefusalDef);
    w.str16("tokenHex", token_hex, kMaxResumeTokenHexChars);
    w.u32("lifetimeS", lifetime_s);
  }
};

}  // namespace tickwire::protocol
