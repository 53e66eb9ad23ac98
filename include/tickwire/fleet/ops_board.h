// What the operator's endpoint answers, kept apart from the loop that produces it: the loop
// publishes a copy (the rendered metrics and whether it admits) under a mutex at most every
// publish interval, and the endpoint's thread answers /metrics and /readyz from that copy and the
// lifecycle's atomic state, and /healthz from the loop's heartbeat against the time it is asked.
// Nothing here reads a clock: the endpoint's side is handed one (the app's) to call per probe.
#pragma once

#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/fleet/http_route.h"
#include "tickwire/fleet/lifecycle.h"
#include "tickwire/fleet/loop_heartbeat.h"

namespace tickwire::fleet {

struct OpsBoardConfig {
  Duration publish_every = Duration::milliseconds(250);  // the loop's copy is at most this old
  Duration liveness_window = Duration::seconds(5);       // /healthz fails once the loop is this quiet
};

class OpsBoard {
 public:
  OpsBoard(const Lifecycle& lifecycle, const LoopHeartbeat& heartbeat, OpsBoardConfig config = {});

  // The loop's thread: whether a publish interval has passed since the last copy (or none was made).
  bool publish_due(MonoTime now) const;
  // The loop's thread: a new copy. `metrics_text` is a whole exposition (fleet/prometheus_text.h).
  void publish(MonoTime now, std::string metrics_text, bool admits);

  // Any thread. /healthz: 200 "ok" while the loop beats within the window, else 503.
  HttpResponse health(MonoTime now) const;
  // /readyz: 200 with the state's name when lifecycle_admits(state, the copy's admits), else 503
  // with the state's name (and "full" when only admitting is what fails).
  HttpResponse readiness() const;
  // /metrics: the newest copy; 503 before the first.
  HttpResponse metrics() const;

  // The three routes over this board; `clock` is called once per /healthz.
  std::vector<HttpRoute> routes(std::function<MonoTime()> clock) const;

 private:
  const Lifecycle& lifecycle_;
  const LoopHeartbeat& heartbeat_;
  const OpsBoardConfig config_;
  MonoTime last_publish_;  // the loop's own
  bool published_once_ = false;

  mutable std::mutex mutex_;
  std::string metrics_text_;  // guarded by mutex_
  bool admits_ = false;       // guarded by mutex_
  bool has_copy_ = false;     // guarded by mutex_
};

}  // namespace tickwire::fleet
