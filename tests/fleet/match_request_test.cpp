// The matchmaker's requests read from their query text: an actor, a room and a ticket each taken
// only in their bounded form (a canonical nonzero decimal, a directory id, hex of a resume token
// that fits the connect token's user data) and refused by name otherwise, the first bad one naming
// the refusal.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tickwire/fleet/match_request.h"

namespace tickwire::fleet {
namespace {

HttpQuery query(std::vector<std::pair<std::string, std::string>> params) { return HttpQuery{std::move(params)}; }

MatchRequestRefusal refusal_of(const MatchRequestRead<ResumeRequest>& read) {
  const auto* refused = std::get_if<MatchRequestRefusal>(&read);
  return refused == nullptr ? MatchRequestRefusal::count_ : *refused;
}

TEST(MatchRequest, AnActorIsACanonicalNonzeroDecimal) {
  EXPECT_EQ(std::get<ActorId>(read_actor(query({{"actor", "4242"}}))), 4242u);
  EXPECT_EQ(std::get<ActorId>(read_actor(query({{"actor", "18446744073709551615"}}))), 18446744073709551615u);
  EXPECT_EQ(std::get<ActorId>(read_actor(query({{"room", "x"}, {"actor", "7"}, {"actor", "8"}}))), 7u);  // the first wins
  for (const char* bad : {"", "0", "007", "-7", "+7", "7 ", "7a", "0x7", "18446744073709551616"}) {
    EXPECT_EQ(std::get<MatchRequestRefusal>(read_actor(query({{"actor", bad}}))), MatchRequestRefusal::bad_actor) << bad;
  }
  EXPECT_EQ(std::get<MatchRequestRefusal>(read_actor(query({}))), MatchRequestRefusal::bad_actor);
}

TEST(MatchRequest, AResumeNamesItsRoomAndCarriesItsTicketAsTheGrantsResumeToken) {
  const auto read = read_resume(query({{"actor", "9"}, {"room", "arena-2"}, {"ticket", "00ab7F"}}));
  ASSERT_TRUE(std::holds_alternative<ResumeRequest>(read));
  const ResumeRequest& request = std::get<ResumeRequest>(read);
  EXPECT_EQ(request.actor, 9u);
  EXPECT_EQ(request.room, "arena-2");
  EXPECT_EQ(request.grants.resume_token, (std::vector<uint8_t>{0x00, 0xab, 0x7f}));
  EXPECT_FALSE(request.grants.world_authority);
  const std::string longest(2 * kMaxGrantedResumeTokenBytes, 'a');
  EXPECT_TRUE(std::holds_alternative<ResumeRequest>(read_resume(query({{"actor", "9"}, {"room", "r"}, {"ticket", longest}}))));
}

TEST(MatchRequest, AMalformedResumeIsRefusedForItsFirstBadParameter) {
  EXPECT_EQ(refusal_of(read_resume(query({{"room", "r"}, {"ticket", "ab"}}))), MatchRequestRefusal::bad_actor);
  EXPECT_EQ(refusal_of(read_resume(query({{"actor", "0"}, {"room", "bad room"}}))), MatchRequestRefusal::bad_actor);
  for (const std::string& room : {std::string(), std::string("bad room"), std::string("a/b"), std::string(129, 'r')}) {
    EXPECT_EQ(refusal_of(read_resume(query({{"actor", "9"}, {"room", room}, {"ticket", "ab"}}))), MatchRequestRefusal::bad_room)
        << room;
  }
  EXPECT_EQ(refusal_of(read_resume(query({{"actor", "9"}, {"ticket", "ab"}}))), MatchRequestRefusal::bad_room);
  for (const std::string& ticket : {std::string(), std::string("a"), std::string("abc"), std::string("zz"), std::string("ab cd"),
                                   std::string(2 * kMaxGrantedResumeTokenBytes + 2, 'a')}) {
    EXPECT_EQ(refusal_of(read_resume(query({{"actor", "9"}, {"room", "r"}, {"ticket", ticket}}))),
              MatchRequestRefusal::bad_ticket)
        << ticket;
  }
  EXPECT_EQ(refusal_of(read_resume(query({{"actor", "9"}, {"room", "r"}}))), MatchRequestRefusal::bad_ticket);
}

}  // namespace
}  // namespace tickwire::fleet
