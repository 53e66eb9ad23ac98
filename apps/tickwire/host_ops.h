// `tickwire host`'s operator endpoint: the process's lifecycle (starting until a room serves,
// ready, allocated while a session is seated, draining, stopped), a loop heartbeat for /healthz,
// and /metrics with the process's rooms as labelled samples (serving, clients, tick rate, the
// keeper's authority). Always served (the fleet directory lists every process's ops address; port 0
// takes any free one); the endpoint's thread reads only the board's copy (fleet/ops_board.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "hosted_room.h"
#include "tickwire/fleet/http_endpoint.h"
#include "tickwire/fleet/lifecycle.h"
#include "tickwire/fleet/loop_heartbeat.h"
#include "tickwire/fleet/ops_board.h"

namespace tickwire::cli {

struct RoomFigures;

class HostOps {
 public:
  explicit HostOps(MonoTime born);

  bool serve(const std::string& listen, std::string& error);
  std::string address() const;
  std::string_view state_name() const { return reason_name(lifecycle_.state()); }

  // One loop iteration: a beat; starting -> ready once a room serves; ready <-> allocated as
  // sessions are seated; a new copy when one is due.
  void follow(const std::vector<std::unique_ptr<HostedRoom>>& rooms, MonoTime now);
  // A move the command decides (draining, stopped), published at once.
  void move_to(fleet::LifecycleState state, const std::vector<std::unique_ptr<HostedRoom>>& rooms, MonoTime now);

 private:
  void publish(const std::vector<RoomFigures>& rooms, MonoTime now);

  fleet::Lifecycle lifecycle_;
  fleet::LoopHeartbeat heartbeat_;
  fleet::OpsBoard board_;
  std::unique_ptr<fleet::HttpEndpoint> endpoint_;  // last: stopped first, while the board still stands
};

}  // namespace tickwire::cli
