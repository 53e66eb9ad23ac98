// The resume desk over signed tokens and the store's record of used ones.
#include "tickwire/durable/store_resume_desk.h"

#include "tickwire/core/assert.h"
#include "tickwire/server/admission_grants.h"

namespace tickwire::durable {

static_assert(kMaxResumeTokenBytes <= kMaxGrantedResumeTokenBytes, "a resume token rides in a connect token's user data");

StoreResumeDesk::StoreResumeDesk(const ResumeKey& key, Store& store, std::string room, Duration lifetime)
    : tokens_(key), store_(store), room_(std::move(room)), lifetime_(lifetime) {
  TW_ASSERT(lifetime > Duration{} && lifetime <= kMaxResumeLifetime, "a resume token lives a bounded time");
}

std::optional<std::vector<uint8_t>> StoreResumeDesk::issue(std::string_view player, uint64_t pawn, WallTime now) {
  return tokens_.issue(room_, player, pawn, now, lifetime_);
}

std::variant<ResumeClaim, protocol::ResumeRefusal> StoreResumeDesk::redeem(std::span<const uint8_t> token, WallTime now) {
  auto redeemed = tokens_.redeem(token, room_, now, store_);
  if (const auto* refusal = std::get_if<ResumeRefusal>(&redeemed)) return *refusal;
  ResumeClaims& claims = std::get<ResumeClaims>(redeemed);
  return ResumeClaim{std::move(claims.player), claims.pawn};
}

}  // namespace tickwire::durable
