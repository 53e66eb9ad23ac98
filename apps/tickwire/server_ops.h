// `tickwire server`'s lifecycle and its operator endpoint (--ops HOST:PORT): the lifecycle moves as
// the server command goes (starting while it waits for its lease and recovers, ready once it admits,
// allocated while a session is seated, draining from SIGTERM, stopped before exit), the loop beats
// for /healthz, and a copy of the metrics and of whether it admits is published every 250 ms at most
// for the endpoint's thread, which reads nothing else (fleet/ops_board.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "server_metrics.h"
#include "tickwire/fleet/http_endpoint.h"
#include "tickwire/fleet/lifecycle.h"
#include "tickwire/fleet/loop_heartbeat.h"
#include "tickwire/fleet/ops_board.h"

namespace tickwire::cli {

// Serves `board`'s /healthz, /readyz and /metrics on `listen`; null and `error` set when it cannot.
std::unique_ptr<fleet::HttpEndpoint> serve_ops_board(const fleet::OpsBoard& board, const std::string& listen, std::string& error);

class ServerOps {
 public:
  ServerOps(MonoTime born, uint32_t target_tick_hz, uint32_t client_slots);

  // Starts serving /healthz, /readyz and /metrics on `listen`; false and `error` set when it cannot.
  bool serve(const std::string& listen, std::string& error);
  std::string address() const;  // where it serves ("" without --ops)
  // The board's routes for another endpoint to serve (the dashboard's, --http); the metrics are
  // rendered from here on.
  std::vector<fleet::HttpRoute> lend_routes();

  const fleet::Lifecycle& lifecycle() const { return lifecycle_; }
  std::string_view state_name() const { return reason_name(lifecycle_.state()); }

  // The loop's thread. What one tick's work took (the /metrics histogram).
  void add_tick_cost(double seconds) { tick_cost_.add(seconds); }
  // The loop's thread. A beat alone (while waiting for the lease: the wait is the loop then).
  void beat(MonoTime now) { heartbeat_.beat(now); }
  // One loop iteration: a beat; ready <-> allocated as sessions are seated or the room empties;
  // a new copy for the endpoint when one is due.
  void follow(const Server& server, const DurableServer* kept, MonoTime now);
  // A move the command decides (ready, draining, stopped), published at once so /readyz says it
  // without waiting for the next copy. False when the lifecycle refuses the move.
  bool move_to(fleet::LifecycleState state, const Server* server, const DurableServer* kept, MonoTime now);

 private:
  void publish(const Server* server, const DurableServer* kept, MonoTime now);

  uint32_t target_tick_hz_;
  uint32_t client_slots_;
  fleet::Lifecycle lifecycle_;
  fleet::LoopHeartbeat heartbeat_;
  fleet::OpsBoard board_;
  bool routes_lent_ = false;
  fleet::DurationHistogram tick_cost_;
  std::unique_ptr<fleet::HttpEndpoint> endpoint_;  // last: stopped first, while the board still stands
};

}  // namespace tickwire::cli
