// The server command's lifecycle and operator endpoint (server_ops.h).
#include "server_ops.h"

#include <fmt/format.h>

#include "durable_server.h"
#include "tickwire/clock/system_clock.h"

namespace tickwire::cli {

using fleet::LifecycleState;

ServerOps::ServerOps(MonoTime born, uint32_t target_tick_hz, uint32_t client_slots)
    : target_tick_hz_(target_tick_hz), client_slots_(client_slots), lifecycle_(born), board_(lifecycle_, heartbeat_) {
  heartbeat_.beat(born);  // alive from birth: a loop that never starts turns /healthz 503 a window later
}

std::unique_ptr<fleet::HttpEndpoint> serve_ops_board(const fleet::OpsBoard& board, const std::string& listen, std::string& error) {
  fleet::HttpEndpointConfig config;
  config.listen = listen;
  fleet::HttpEndpointOpen opened = fleet::HttpEndpoint::open(config, board.routes([] { return mono_now(); }));
  if (!opened) error = fmt::format("--ops {}", opened.error);
  return std::move(opened.endpoint);
}

bool ServerOps::serve(const std::string& listen, std::string& error) {
  endpoint_ = serve_ops_board(board_, listen, error);
  if (!endpoint_) return false;
  publish(nullptr, nullptr, mono_now());
  return true;
}

std::vector<fleet::HttpRoute> ServerOps::lend_routes() {
  routes_lent_ = true;
  return board_.routes([] { return mono_now(); });
}

std::string ServerOps::address() const { return endpoint_ ? endpoint_->bound_address().to_string() : std::string(); }

void ServerOps::follow(const Server& server, const DurableServer* kept, MonoTime now) {
  heartbeat_.beat(now);
  if (!board_.publish_due(now)) return;  // the room's seats are looked at on the board's cadence too
  const LifecycleState state = lifecycle_.state();
  if (state == LifecycleState::ready || state == LifecycleState::allocated) {
    const bool seated = server.stats().clients > 0;
    lifecycle_.move_to(seated ? LifecycleState::allocated : LifecycleState::ready, now);
  }
  publish(&server, kept, now);
}

bool ServerOps::move_to(LifecycleState state, const Server* server, const DurableServer* kept, MonoTime now) {
  const bool moved = lifecycle_.move_to(state, now);
  publish(server, kept, now);
  return moved;
}

void ServerOps::publish(const Server* server, const DurableServer* kept, MonoTime now) {
  const bool seat_free = server != nullptr && server->clients().size() < client_slots_;
  // Without --ops or --http nobody reads the metrics: none are rendered (the board keeps the cadence).
  std::string metrics = endpoint_ || routes_lent_ ? render_server_metrics({lifecycle_, server, kept, target_tick_hz_, client_slots_, &tick_cost_}) : std::string();
  board_.publish(now, std::move(metrics), seat_free);
}

}  // namespace tickwire::cli
