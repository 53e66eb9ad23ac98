// libFuzzer target: the matchmaker's requests (/match, /resume, /leave) from any query. The input is
// split as a query string is ('&' between parameters, the first '=' between key and value), within
// the endpoint's caps; whatever reads must be within its bounds: a nonzero actor, a directory id for
// the room, and a ticket that fits the connect token's user data.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tickwire/durable/fleet_listing.h"
#include "tickwire/fleet/match_request.h"

using namespace tickwire;
using namespace tickwire::fleet;

namespace {

HttpQuery query_of(std::string_view text) {
  HttpQuery query;
  while (!text.empty() && query.params.size() < kMaxHttpQueryParams) {
    const std::size_t amp = text.find('&');
    const std::string_view param = text.substr(0, amp);
    text = amp == std::string_view::npos ? std::string_view() : text.substr(amp + 1);
    const std::size_t eq = param.find('=');
    const std::string_view key = param.substr(0, eq);
    const std::string_view value = eq == std::string_view::npos ? std::string_view() : param.substr(eq + 1);
    if (key.size() > kMaxHttpQueryValueBytes || value.size() > kMaxHttpQueryValueBytes) continue;
    query.params.emplace_back(std::string(key), std::string(value));
  }
  return query;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const HttpQuery query = query_of(std::string_view(reinterpret_cast<const char*>(data), size));
  const auto actor = read_actor(query);
  if (const auto* id = std::get_if<ActorId>(&actor); id != nullptr && *id == 0) std::abort();
  const auto resume = read_resume(query);
  if (const auto* request = std::get_if<ResumeRequest>(&resume)) {
    netcode::UserData user_data{};
    if (request->actor == 0 || !durable::valid_directory_name(request->room) || request->grants.resume_token.empty() ||
        !write_admission_grants(request->grants, user_data) || read_admission_grants(user_data) != request->grants)
      std::abort();
  }
  return 0;
}
