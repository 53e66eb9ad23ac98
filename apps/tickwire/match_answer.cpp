// Reading the matchmaker's answers (match_answer.h): the status names the shape, the HTTP code must
// agree with it, and every field the shape needs is there, typed and bounded.
#include "match_answer.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "tickwire/core/hex.h"
#include "tickwire/transport/address.h"
#include "tickwire/transport/connect_token.h"

namespace tickwire::cli {
namespace {

struct StatusShape {
  std::string_view name;
  MatchStatus status;
  unsigned http_status;
  unsigned other_http_status;  // a second code it may come with (0: none)
};
constexpr StatusShape kShapes[] = {
    {"offered", MatchStatus::offered, 200, 0},         {"seated", MatchStatus::seated, 200, 0},
    {"queued", MatchStatus::queued, 200, 0},           {"refused", MatchStatus::refused, 503, 404},
    {"bad_request", MatchStatus::bad_request, 400, 0}, {"left", MatchStatus::left, 200, 0},
    {"not_held", MatchStatus::not_held, 404, 0},
};

MatchReading defect(MatchAnswerDefect why) { return MatchReading{std::nullopt, why}; }

bool text_field(const nlohmann::json& j, const char* key, std::string& out) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_string()) return false;
  out = it->get<std::string>();
  return !out.empty() && out.size() <= kMaxMatchTextBytes;
}

bool count_field(const nlohmann::json& j, const char* key, uint64_t& out) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number_unsigned()) return false;
  out = it->get<uint64_t>();
  return true;
}

bool seconds_field(const nlohmann::json& j, const char* key, double& out) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return false;
  out = it->get<double>();
  return std::isfinite(out) && out >= 0;
}

// offered and seated: where the seat is (and for an offer, the token that claims it).
std::optional<MatchAnswerDefect> read_seat(const nlohmann::json& j, MatchAnswer& a) {
  if (!text_field(j, "room", a.room) || !text_field(j, "process", a.process) || !text_field(j, "address", a.address))
    return MatchAnswerDefect::missing_field;
  const auto address = Address::parse(a.address);
  if (!address || address->port() == 0) return MatchAnswerDefect::bad_address;
  if (a.status != MatchStatus::offered) return std::nullopt;
  const auto token_it = j.find("token");
  if (token_it == j.end() || !token_it->is_string() || !seconds_field(j, "claimBySeconds", a.claim_by_s))
    return MatchAnswerDefect::missing_field;
  const std::string& hex = token_it->get_ref<const std::string&>();
  if (hex.size() != 2 * netcode::kConnectTokenBytes) return MatchAnswerDefect::bad_token;
  auto bytes = from_hex(hex);
  netcode::ConnectToken token;
  if (!bytes || !netcode::read_connect_token(*bytes, token).ok()) return MatchAnswerDefect::bad_token;
  a.token = std::move(*bytes);
  return std::nullopt;
}

std::optional<MatchAnswerDefect> read_fields(const nlohmann::json& j, MatchAnswer& a) {
  switch (a.status) {
    case MatchStatus::offered:
    case MatchStatus::seated:
      return read_seat(j, a);
    case MatchStatus::queued: {
      if (!count_field(j, "position", a.position) || !count_field(j, "length", a.length) || a.position == 0)
        return MatchAnswerDefect::missing_field;
      const auto eta = j.find("etaSeconds");
      if (eta == j.end()) return MatchAnswerDefect::missing_field;
      if (eta->is_null()) return std::nullopt;
      double eta_s = 0;
      if (!seconds_field(j, "etaSeconds", eta_s)) return MatchAnswerDefect::missing_field;
      a.eta_s = eta_s;
      return std::nullopt;
    }
    case MatchStatus::refused:
    case MatchStatus::bad_request:
      if (!text_field(j, "reason", a.reason)) return MatchAnswerDefect::missing_field;
      return std::nullopt;
    case MatchStatus::left:
    case MatchStatus::not_held:
      return std::nullopt;
  }
  return MatchAnswerDefect::unexpected_answer;
}

}  // namespace

MatchReading read_match_answer(unsigned http_status, std::string_view body) {
  const nlohmann::json j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return defect(MatchAnswerDefect::not_json);
  const auto status_it = j.find("status");
  if (status_it == j.end() || !status_it->is_string()) return defect(MatchAnswerDefect::missing_field);
  const std::string& name = status_it->get_ref<const std::string&>();
  for (const StatusShape& shape : kShapes) {
    if (shape.name != name) continue;
    if (http_status != shape.http_status && http_status != shape.other_http_status)
      return defect(MatchAnswerDefect::unexpected_answer);
    MatchAnswer answer;
    answer.status = shape.status;
    if (const auto bad = read_fields(j, answer)) return defect(*bad);
    return MatchReading{std::move(answer), MatchAnswerDefect::not_json};
  }
  return defect(MatchAnswerDefect::unexpected_answer);
}

}  // namespace tickwire::cli
