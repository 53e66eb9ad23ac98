// `tickwire match`'s HTTP API (docs/matchmaking.md, "The HTTP API"): /match, /resume, /leave, /fleet,
// /healthz and /metrics, answered on the endpoint's thread from the desk alone (never the store).
// The paths, parameters, statuses and JSON field names are a contract bots are written against.
#pragma once

#include <functional>
#include <vector>

#include "match_desk.h"
#include "tickwire/fleet/http_route.h"
#include "tickwire/fleet/loop_heartbeat.h"

namespace tickwire::cli {

inline constexpr const char* kJsonContentType = "application/json";
inline constexpr Duration kMatchLivenessWindow = Duration::seconds(5);  // /healthz fails once the runner is this quiet

// The routes over `desk`; /healthz asks whether `loop` (the runner's) beat within the window of `clock()`.
std::vector<fleet::HttpRoute> match_routes(MatchDesk& desk, const fleet::LoopHeartbeat& loop, std::function<MonoTime()> clock);

}  // namespace tickwire::cli
