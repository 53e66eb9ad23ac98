// A bot's resume token on disk (seed 003, "Durability and rejoin"): `tickwire bot --resume-dir DIR`
// keeps each bot's newest token in DIR/bot-<index>.token (hex), written whole (a temporary file
// renamed over it) whenever a ResumeTicket brings a new one, and presents it at start, so a bot
// process killed and started again comes back into the same pawns.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tickwire/client.h"

namespace tickwire::cli {

class BotResumeFile {
 public:
  BotResumeFile(std::filesystem::path dir, uint32_t index);
  // The token a previous process left (empty: none, or unreadable).
  std::vector<uint8_t> read() const;
  // Called every frame: when the client holds a ticket it has not seen, its token is written and a
  // JSON line describing it returned (to print); nullopt otherwise.
  std::optional<nlohmann::json> follow(const Client& client, double at_s);

 private:
  std::filesystem::path path_;
  uint32_t index_;
  bool seen_any_ = false;
  std::string seen_token_;  // the newest ticket's (each admission's token is new)
};

}  // namespace tickwire::cli
