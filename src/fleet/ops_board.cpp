// The operator endpoint's board: the loop's published copy and the three probes' answers
// (fleet/ops_board.h).
#include "tickwire/fleet/ops_board.h"

#include <fmt/format.h>

#include "tickwire/fleet/prometheus_text.h"

namespace tickwire::fleet {

OpsBoard::OpsBoard(const Lifecycle& lifecycle, const LoopHeartbeat& heartbeat, OpsBoardConfig config)
    : lifecycle_(lifecycle), heartbeat_(heartbeat), config_(config) {}

bool OpsBoard::publish_due(MonoTime now) const { return !published_once_ || now - last_publish_ >= config_.publish_every; }

void OpsBoard::publish(MonoTime now, std::string metrics_text, bool admits) {
  last_publish_ = now;
  published_once_ = true;
  const std::lock_guard<std::mutex> lock(mutex_);
  metrics_text_ = std::move(metrics_text);
  admits_ = admits;
  has_copy_ = true;
}

HttpResponse OpsBoard::health(MonoTime now) const {
  if (heartbeat_.alive(now, config_.liveness_window)) return HttpResponse{200, kPlainTextContentType, "ok\n"};
  return HttpResponse{503, kPlainTextContentType,
                      heartbeat_.beats() == 0 ? std::string("loop not started\n") : std::string("loop stalled\n")};
}

HttpResponse OpsBoard::readiness() const {
  const LifecycleState state = lifecycle_.state();
  bool admits = false;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    admits = admits_;
  }
  if (lifecycle_admits(state, admits)) return HttpResponse{200, kPlainTextContentType, fmt::format("{}\n", reason_name(state))};
  const bool only_full = lifecycle_admits(state, true);
  return HttpResponse{503, kPlainTextContentType, fmt::format("{}{}\n", reason_name(state), only_full ? " full" : "")};
}

HttpResponse OpsBoard::metrics() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (!has_copy_) return HttpResponse{503, kPlainTextContentType, "no metrics yet\n"};
  return HttpResponse{200, kPrometheusContentType, metrics_text_};
}

std::vector<HttpRoute> OpsBoard::routes(std::function<MonoTime()> clock) const {
  return {
      HttpRoute{"/healthz", [this, clock](const HttpQuery&) { return health(clock()); }},
      HttpRoute{"/readyz", [this](const HttpQuery&) { return readiness(); }},
      HttpRoute{"/metrics", [this](const HttpQuery&) { return metrics(); }},
  };
}

}  // namespace tickwire::fleet
