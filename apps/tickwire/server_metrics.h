// `tickwire server --ops`: the server's /metrics, one Prometheus exposition rendered on the loop's
// thread from what the stats lines read (Server::stats(), the client links), the lifecycle and the
// tick rate aimed at; a durable server's keeper adds its own families (DurableServer).
#pragma once

#include <cstdint>
#include <string>

#include "tickwire/fleet/duration_histogram.h"
#include "tickwire/fleet/lifecycle.h"
#include "tickwire/server.h"

namespace tickwire::cli {

class DurableServer;

struct ServerMetricsSources {
  const fleet::Lifecycle& lifecycle;
  const Server* server = nullptr;        // null while it is not open yet (waiting for the lease)
  const DurableServer* kept = nullptr;   // null unless --store
  uint32_t target_tick_hz = 0;
  uint32_t client_slots = 0;
  const fleet::DurationHistogram* tick_cost = nullptr;  // the loop's work per tick (null: not measured)
};

// Every reason counter is a sample of one family chosen by the reason's kind, its full name
// ("netcode.reject.token_expired") the `reason` label: refusals (reject, refusal), drops, kicks,
// and the rest (link, offence, decode, rewind, note, contract, game) as tickwire_reasons_total.
std::string_view reason_family(std::string_view reason);

std::string render_server_metrics(const ServerMetricsSources& sources);

}  // namespace tickwire::cli
