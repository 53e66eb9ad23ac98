// StoreResumeDesk: the server's ResumeDesk over MAC-signed resume tokens (ResumeTokens) and a store
// that remembers every token used (so a token is good once, in any process of a fleet sharing the
// key and the store). Its store is its own connection: a keeper's belongs to the keeper's thread.
// A redeem is one store write on the tick thread, once per returning player.
#pragma once

#include <string>

#include "tickwire/durable/resume_token.h"
#include "tickwire/durable/store.h"
#include "tickwire/server/resume_desk.h"

namespace tickwire::durable {

class StoreResumeDesk final : public ResumeDesk {
 public:
  // `store` must outlive the desk; `lifetime` at most kMaxResumeLifetime.
  StoreResumeDesk(const ResumeKey& key, Store& store, std::string room, Duration lifetime);

  std::optional<std::vector<uint8_t>> issue(std::string_view player, uint64_t pawn, WallTime now) override;
  std::variant<ResumeClaim, protocol::ResumeRefusal> redeem(std::span<const uint8_t> token, WallTime now) override;
  Duration token_lifetime() const override { return lifetime_; }

 private:
  ResumeTokens tokens_;
  Store& store_;
  std::string room_;
  Duration lifetime_;
};

}  // namespace tickwire::durable
