// Keeps `tickwire match`'s matchmaker fed from the fleet directory: on its cadence it lists the
// directory by the wall clock and hands the listing to the desk (observed, then the seated roll
// call), and settles lapses and promotions; now and then it sweeps the directory's long-dead rows
// (the reader's job). A listing or sweep the store fails is counted and the last good listing stays.
// The store is touched on the runner's thread only, never under the desk's lock.
#pragma once

#include "match_desk.h"
#include "tickwire/clock/time.h"
#include "tickwire/durable/fleet_directory.h"
#include "tickwire/fleet/loop_heartbeat.h"

namespace tickwire::cli {

struct MatchRunnerConfig {
  Duration poll = Duration::milliseconds(250);  // between listings
  Duration sweep_every = Duration::seconds(10);  // between sweeps
};

class MatchRunner {
 public:
  MatchRunner(durable::FleetDirectory& directory, MatchDesk& desk, const MatchRunnerConfig& config);

  // One iteration at `now`: a beat (for /healthz); a listing when a poll is due, a sweep when one is,
  // and the matchmaker settled.
  void run(MonoTime now);
  MonoTime next_poll() const { return next_poll_; }
  const fleet::LoopHeartbeat& heartbeat() const { return heartbeat_; }

 private:
  void poll();
  void sweep();

  durable::FleetDirectory& directory_;
  MatchDesk& desk_;
  MatchRunnerConfig config_;
  fleet::LoopHeartbeat heartbeat_;
  MonoTime next_poll_;
  MonoTime next_sweep_;
  bool started_ = false;
};

}  // namespace tickwire::cli
