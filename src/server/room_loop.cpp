// The paced server loop.
#include "tickwire/server/room_loop.h"

#include <utility>

namespace tickwire {
namespace {

TickPacerConfig for_room(TickPacerConfig config, const Room& room) {
  config.tick_rate_hz = room.clock().tick_rate_hz();
  return config;
}

}  // namespace

RoomLoop::RoomLoop(HostTimer& timer, RoomServer& server, const TimeAnchor& anchor, TickPacerConfig pacer,
                   std::shared_ptr<spdlog::logger> logger)
    : timer_(timer), server_(server), anchor_(anchor), pacer_(timer, for_room(pacer, server.room()), std::move(logger)) {}

MonoTime RoomLoop::wait_for_next_tick() {
  pacer_.wait_until(server_.room().next_due());
  return timer_.now();
}

RoomUpdate RoomLoop::iterate(MonoTime now) {
  const RoomUpdate update = server_.update(now, anchor_.to_wall(now));
  pacer_.record_ticks(now, update.ticks_run);
  ++iterations_;
  return update;
}

}  // namespace tickwire
