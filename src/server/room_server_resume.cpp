// Resumption on the wire (seed 003, "Durability and rejoin"): a session whose connect token presents
// a resume token comes back into the pawn it names, or is told why not and seated fresh; every
// admitted session is sent a ResumeTicket with its next token, held (like every acknowledgement of
// a durable room) until its pawn's joining is journaled, so no token names a pawn a crash can lose.
#include <fmt/format.h>

#include "tickwire/core/assert.h"
#include "tickwire/core/hex.h"
#include "tickwire/server/room_server.h"
#include "tickwire/wire/typed_channel.h"

namespace tickwire {

void RoomServer::offer_resume(ResumeDesk& desk) {
  TW_ASSERT(update_number_ == 0 && resume_ == nullptr, "a server offers resumption from its first update");
  resume_ = &desk;
}

std::optional<EntityRef> RoomServer::seat(Connection& c, const AdmissionGrants& grants, std::string player) {
  protocol::ResumeTicket ticket;
  std::optional<EntityRef> pawn;
  if (!grants.resume_token.empty()) {
    if (const auto refusal = try_resume(c, grants)) {
      ticket.outcome = protocol::ResumeOutcome::refused;
      ticket.refusal = *refusal;
      resume_refusals_.add(*refusal);
    } else {
      ticket.outcome = protocol::ResumeOutcome::resumed;
      ++resumes_;
      const RoomSession* session = room_.session(c.owner);
      pawn = session->pawn;
      player = session->player;
    }
  }
  if (!pawn) pawn = room_.admit(c.owner, grants, player);
  if (!pawn) return pawn;
  if (resume_ == nullptr) {  // no tokens here: only one who presented a token is told (not_offered)
    if (ticket.outcome == protocol::ResumeOutcome::fresh) return pawn;
  } else if (const auto token = resume_->issue(player, pawn->raw(), wall_now_)) {
    ticket.token_hex = to_hex(*token);
    ticket.lifetime_s = static_cast<uint32_t>(resume_->token_lifetime().seconds_f());
  }
  tickets_.push_back(TicketOut{static_cast<uint32_t>(c.owner) - 1, c.serial, std::move(ticket)});
  return pawn;
}

std::optional<protocol::ResumeRefusal> RoomServer::try_resume(Connection& c, const AdmissionGrants& grants) {
  if (resume_ == nullptr) return protocol::ResumeRefusal::not_offered;
  auto redeemed = resume_->redeem(grants.resume_token, wall_now_);
  if (const auto* refusal = std::get_if<protocol::ResumeRefusal>(&redeemed)) return *refusal;
  const ResumeClaim& claim = std::get<ResumeClaim>(redeemed);
  const EntityRef pawn = EntityRef::from_raw(claim.pawn);
  if (const auto holder = room_.owner_of(pawn)) {  // the player's old connection has not timed out yet
    if (room_.session(*holder)->player != claim.player) return protocol::ResumeRefusal::foreign;
    supersede(*holder);
  }
  return room_.resume(c.owner, pawn, claim.player, grants);
}

// The player came back on a new connection while its old one still holds the pawn (a killed
// process is only noticed at the link's timeout): the old session departs now and its connection
// is dropped at the end of this receive pass.
void RoomServer::supersede(OwnerId holder) {
  const uint32_t slot = static_cast<uint32_t>(holder) - 1;
  Connection& old = *connections_[slot];
  if (const RoomSession* session = room_.session(holder)) closed_offences_.merge(session->conduct.offences());
  room_.depart(holder);
  replication_.remove_client(holder);
  old.admitted = false;  // close() has nothing left to do in the room
  old.superseded = true;
  end_session(slot, SessionEnd::superseded);
  ++superseded_;
}

void RoomServer::send_tickets() {
  if (gate_ != nullptr) drops_.add(SessionDrop::held_past_cap, held_tickets_.pass(tickets_, update_number_, durable_update_));
  for (const TicketOut& t : tickets_) {
    Connection* c = admitted(t.slot) ? connections_[t.slot].get() : nullptr;
    if (c == nullptr || c->serial != t.serial) continue;  // gone meanwhile: its token goes with it
    if (!wire::send_message(c->net, config_.reliable_channel, t.ticket).ok()) drops_.add(SessionDrop::ticket_unsent);
  }
  tickets_.clear();
}

}  // namespace tickwire
