// The fleet host's lifecycle and operator endpoint (host_ops.h).
#include "host_ops.h"

#include "server_ops.h"

#include <fmt/format.h>

#include "tickwire/clock/system_clock.h"
#include "tickwire/fleet/prometheus_text.h"

namespace tickwire::cli {

// One look at each room (a room's stats are read once per publish, not once per use).
struct RoomFigures {
  std::string_view name;
  bool serving = false;
  uint32_t clients = 0;
  uint32_t seats = 0;
  double tick_rate_hz = 0;
};

namespace {

using fleet::LifecycleState;
using fleet::MetricType;

std::vector<RoomFigures> figures_of(const std::vector<std::unique_ptr<HostedRoom>>& rooms) {
  std::vector<RoomFigures> out;
  out.reserve(rooms.size());
  for (const auto& room : rooms) {
    RoomFigures f{room->name(), room->serving(), 0, room->seats(), 0};
    if (f.serving) {
      const ServerStats s = room->server().stats();
      f.clients = s.clients;
      f.tick_rate_hz = s.tick_rate_hz;
    }
    out.push_back(f);
  }
  return out;
}

std::string render_host_metrics(const fleet::Lifecycle& lifecycle, const std::vector<RoomFigures>& rooms) {
  fleet::PrometheusText out;
  out.family("tickwire_lifecycle_state", MetricType::gauge, "1 for the process's lifecycle state.");
  out.sample({{"state", reason_name(lifecycle.state())}}, 1.0);
  out.family("tickwire_host_room_serving", MetricType::gauge, "1 while this process serves the room (holds its lease).");
  for (const RoomFigures& room : rooms) out.sample({{"room", room.name}}, room.serving ? 1.0 : 0.0);
  out.family("tickwire_host_room_clients", MetricType::gauge, "Sessions seated in the room.");
  for (const RoomFigures& room : rooms)
    if (room.serving) out.sample({{"room", room.name}}, uint64_t{room.clients});
  out.family("tickwire_host_room_tick_rate_hz", MetricType::gauge, "The room's measured tick rate.");
  for (const RoomFigures& room : rooms)
    if (room.serving) out.sample({{"room", room.name}}, room.tick_rate_hz);
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
  const std::vector<RoomFigures> figures = figures_of(rooms);
  bool serving = false;
  bool seated = false;
  for (const RoomFigures& room : figures) {
    serving = serving || room.serving;
    seated = seated || room.clients > 0;
  }
  const LifecycleState state = lifecycle_.state();
  if (state == LifecycleState::starting && serving) lifecycle_.move_to(LifecycleState::ready, now);
  if (state == LifecycleState::ready || state == LifecycleState::allocated) {
    lifecycle_.move_to(seated ? LifecycleState::allocated : LifecycleState::ready, now);
  }
  publish(figures, now);
}

void HostOps::move_to(LifecycleState state, const std::vector<std::unique_ptr<HostedRoom>>& rooms, MonoTime now) {
  (void)lifecycle_.move_to(state, now);
  publish(figures_of(rooms), now);
}

void HostOps::publish(const std::vector<RoomFigures>& rooms, MonoTime now) {
  bool seat_free = false;
  for (const RoomFigures& room : rooms) seat_free = seat_free || (room.serving && room.clients < room.seats);
  board_.publish(now, render_host_metrics(lifecycle_, rooms), seat_free);
}

}  // namespace tickwire::cli
