// Reading the matchmaker's requests (fleet/match_request.h): each parameter bounded before it is
// decoded, every refusal named.
#include "tickwire/fleet/match_request.h"

#include "tickwire/core/decimal.h"
#include "tickwire/core/hex.h"
#include "tickwire/durable/fleet_listing.h"

namespace tickwire::fleet {

MatchRequestRead<ActorId> read_actor(const HttpQuery& query) {
  const std::string* text = query.find("actor");
  const auto actor = text == nullptr ? std::nullopt : parse_decimal_u64(*text);
  if (!actor || *actor == 0) return MatchRequestRefusal::bad_actor;
  return *actor;
}

MatchRequestRead<ResumeRequest> read_resume(const HttpQuery& query) {
  ResumeRequest request;
  const auto actor = read_actor(query);
  if (const auto* refused = std::get_if<MatchRequestRefusal>(&actor)) return *refused;
  request.actor = std::get<ActorId>(actor);
  const std::string* room = query.find("room");
  if (room == nullptr || !durable::valid_directory_name(*room)) return MatchRequestRefusal::bad_room;
  request.room = *room;
  const std::string* ticket = query.find("ticket");
  if (ticket == nullptr || ticket->empty() || ticket->size() > 2 * kMaxGrantedResumeTokenBytes)
    return MatchRequestRefusal::bad_ticket;
  auto bytes = from_hex(*ticket);
  if (!bytes) return MatchRequestRefusal::bad_ticket;
  request.grants.resume_token = std::move(*bytes);
  return request;
}

}  // namespace tickwire::fleet
