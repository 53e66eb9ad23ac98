// The fleet host's lifecycle and operator endpoint (host_ops.h).
#include "host_ops.h"

#include "server_ops.h"

#include <fmt/format.h>

#include "tickwire/clock/system_clock.h"
#include "tickwire/fleet/prometheus_text.h"

namespace tickwire::cli {
namespace {

using fleet::LifecycleState;
using fleet::MetricType;

std::string render_host_metrics(const fleet::Lifecycle& lifecycle, const std::vector<std::unique_ptr<HostedRoom>>& rooms) {
  fleet::PrometheusText out;
  out.family("tickwire_lifecycle_state", MetricType::gauge, "1 for the process's lifecycle state.");
  out.sample({{"state", reason_name(lifecycle.state())}}, 1.0);
  out.family("tickwire_host_room_serving", MetricType::gauge, "1 while this process serves the room (holds its lease).");
  for (const auto& room : rooms) out.sample({{"room", room->name()}}, room->serving() ? 1.0 : 0.0);
  out.family("tickwire_host_room_clients", MetricType::gauge, "Sessions seated in the room.");
  for (const auto& room : rooms)
    if (room->serving()) out.sample({{"room", room->name()}}, uint64_t{room->server().stats().clients});
  out.family("tickwire_host_room_tick_rate_hz", MetricType::gauge, "The room's measured tick rate.");
  for (const auto& room : rooms)
    if (room->serving()) out.sample({{"room", room->name()}}, room->server().stats().tick_rate_hz);
  return out.take();
}

}  // namespace

HostOps::HostOps(MonoTime born) : lifecycle_(born), board_(lifecycle_, heartbeat_) { heartbeat_.beat(born); }

bool HostOps::serve(const std::string& listen, std::string& error) {
  endpoint_ = serve_ops_board(board_, listen, error);
  return endpoint_ != nullptr;
}

std::string HostOps::address() const { return endpoint_ ? endpoint_->bound_address().to_string() : std::string(); }

void HostOps::follow(const std::vector<std::unique_ptr<HostedRoom>>& rooms, MonoTime now) {
  heartbeat_.beat(now);
  if (!board_.publish_due(now)) return;
  bool serving = false;
  bool seated = false;
  for (const auto& room : rooms) {
    if (!room->serving()) continue;
    serving = true;
    seated = seated || room->server().stats().clients > 0;
  }
  const LifecycleState state = lifecycle_.state();
  if (state == LifecycleState::starting && serving) lifecycle_.move_to(LifecycleState::ready, now);
  if (state == LifecycleState::ready || state == LifecycleState::allocated) {
    lifecycle_.move_to(seated ? LifecycleState::allocated : LifecycleState::ready, now);
  }
  publish(rooms, now);
}

void HostOps::move_to(LifecycleState state, const std::vector<std::unique_ptr<HostedRoom>>& rooms, MonoTime now) {
  (void)lifecycle_.move_to(state, now);
  publish(rooms, now);
}

void HostOps::publish(const std::vector<std::unique_ptr<HostedRoom>>& rooms, MonoTime now) {
  bool seat_free = false;
  for (const auto& room : rooms)
    if (room->serving() && room->server().stats().clients < room->seats()) seat_free = true;
  board_.publish(now, render_host_metrics(lifecycle_, rooms), seat_free);
}

}  // namespace tickwire::cli
