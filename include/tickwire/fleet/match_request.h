// What a player's request to the matchmaker's HTTP routes says (/match, /resume, /leave): its actor
// id, the room it resumes in and its resume ticket, read from the query's text and refused by name
// when malformed. Untrusted text in, bounded values out: the actor a canonical nonzero decimal
// uint64, the room a directory id, the ticket hex of 1..kMaxGrantedResumeTokenBytes bytes (it rides
// the connect token's user data, which holds no more).
#pragma once

#include <string>
#include <variant>

#include "tickwire/core/reasons.h"
#include "tickwire/fleet/admission_queue.h"
#include "tickwire/fleet/http_route.h"
#include "tickwire/server/admission_grants.h"

namespace tickwire::fleet {

TW_REASONS(MatchRequestRefusal,
           bad_actor,   // "actor" missing, not a canonical decimal, 0, or past 2^64 - 1
           bad_room,    // "room" missing or not a directory id (1..128 of [A-Za-z0-9._:-])
           bad_ticket)  // "ticket" missing, not hex, or its bytes empty or past kMaxGrantedResumeTokenBytes

template <class T>
using MatchRequestRead = std::variant<T, MatchRequestRefusal>;

// /resume's parameters: who, where, and the grants its token will carry (the resume token).
struct ResumeRequest {
  ActorId actor = 0;
  std::string room;
  AdmissionGrants grants;
};

// The "actor" parameter (/match, /leave).
MatchRequestRead<ActorId> read_actor(const HttpQuery& query);
// "actor", "room" and "ticket" (/resume), checked in that order.
MatchRequestRead<ResumeRequest> read_resume(const HttpQuery& query);

}  // namespace tickwire::fleet
