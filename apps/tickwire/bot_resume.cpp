// A bot's resume token, kept on disk across its processes.
#include "bot_resume.h"

#include <fmt/format.h>


#include "tickwire/client/game_client.h"
#include "tickwire/core/hex.h"
#include "tickwire/core/regular_file.h"
#include "tickwire/protocol/resume_ticket.h"
#include "whole_file.h"

namespace tickwire::cli {
namespace {
constexpr std::size_t kMaxResumeFileBytes = protocol::kMaxResumeTokenHexChars + 2;  // the token and a newline
}  // namespace

BotResumeFile::BotResumeFile(std::filesystem::path dir, uint32_t index)
    : path_(std::move(dir) / fmt::format("bot-{}.token", index)), index_(index) {}

std::vector<uint8_t> BotResumeFile::read() const {
  // A missing or foreign file is no token: the bot joins fresh.
  const FileText file = read_regular_file(path_, kMaxResumeFileBytes);
  return file ? from_hex(file.text).value_or(std::vector<uint8_t>{}) : std::vector<uint8_t>{};
}

std::optional<nlohmann::json> BotResumeFile::follow(const Client& client, double at_s) {
  const protocol::ResumeTicket* ticket = client.resume_ticket();
  if (ticket == nullptr || (seen_any_ && ticket->token_hex == seen_token_)) return std::nullopt;
  seen_any_ = true;
  seen_token_ = ticket->token_hex;
  if (!ticket->token_hex.empty()) {
    std::string ignored;  // a token not kept is only a resume the next run cannot make
    (void)write_whole_file(path_.string(), std::string_view(ticket->token_hex), ignored);
  }
  nlohmann::json j = {{"type", "ticket"},
                      {"t", at_s},
                      {"bot", index_},
                      {"outcome", std::string(reason_name(ticket->outcome))},
                      {"pawn", client.game().session().welcome() ? client.game().session().welcome()->pawn_ref : 0}};
  if (ticket->outcome == protocol::ResumeOutcome::refused) j["refusal"] = std::string(reason_name(ticket->refusal));
  return j;
}

}  // namespace tickwire::cli
