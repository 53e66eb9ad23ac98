// What `tickwire match` tells about itself: the figures of its stats lines (JSON) and of /metrics
// (Prometheus text), both read from the desk's state under its lock, so the two always agree.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "match_desk.h"

namespace tickwire::cli {

// The stats line's figures: rooms, capacity, the line, offers out, sessions seated, promotions,
// refusals and seats lost by reason, resumptions, listing failures (the caller adds type and t).
nlohmann::json match_stats_json(const MatchState& state);

// The Prometheus exposition: the same figures, the HTTP refusals by reason (the endpoint's own and
// the requests answered 400) and the rooms the last listing left out by reason.
std::string render_match_metrics(const MatchState& state, const fleet::HttpEndpoint* endpoint);

}  // namespace tickwire::cli
