// What the matchmaker answered one of a bot's asks (`tickwire match`'s HTTP API: /match, /resume,
// /leave, docs/matchmaking.md), read from the HTTP status and the JSON body and checked whole before
// the bot acts on it: an offer's token must be a netcode connect token and its address numeric.
// An answer that is not one of the API's is a defect, named and counted, never a guess.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tickwire/core/reasons.h"

namespace tickwire::cli {

TW_REASONS(MatchAnswerDefect,
           not_json,           // the body is not a JSON object (a proxy's error page, a cut body)
           unexpected_answer,  // a status the API does not have, one this ask is never answered, or a code that disagrees
           missing_field,      // a field the status needs is absent, of the wrong type or out of range
           bad_token,          // an offer's token is not the hex of a whole netcode 1.02 connect token
           bad_address)        // an offer's address is not a numeric HOST:PORT

enum class MatchStatus : uint8_t { offered, seated, queued, refused, bad_request, left, not_held };

inline constexpr std::size_t kMaxMatchTextBytes = 128;  // a room, process or reason longer is a defect

struct MatchAnswer {
  MatchStatus status = MatchStatus::refused;
  std::string room, process, address;  // offered, seated
  std::vector<uint8_t> token;          // offered: the whole connect token's bytes
  double claim_by_s = 0;               // offered: connect within this long
  uint64_t position = 0, length = 0;   // queued (position 1 = next)
  std::optional<double> eta_s;         // queued, when the matchmaker has an estimate
  std::string reason;                  // refused, bad_request
};

struct MatchReading {
  std::optional<MatchAnswer> answer;  // null: `defect` says why
  MatchAnswerDefect defect = MatchAnswerDefect::not_json;
};

MatchReading read_match_answer(unsigned http_status, std::string_view body);

}  // namespace tickwire::cli
