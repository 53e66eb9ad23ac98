// The simulated host's sleep law and virtual clock.
#include "tickwire/clock/sim_host_timer.h"

#include <cmath>

#include "tickwire/core/assert.h"

namespace tickwire {

SleepModel SleepModel::through(Duration request_a, Duration actual_a, Duration request_b, Duration actual_b) {
  TW_ASSERT(request_a != request_b, "two distinct requests are needed to fit a sleep model");
  const double scale = static_cast<double>((actual_b - actual_a).ns()) / static_cast<double>((request_b - request_a).ns());
  const double fixed_ns = static_cast<double>(actual_a.ns()) - scale * static_cast<double>(request_a.ns());
  TW_ASSERT(scale > 0.0 && fixed_ns >= 0.0, "a sleep model must not run backwards");
  SleepModel model;
  model.scale = scale;
  model.fixed = Duration::nanoseconds(std::llround(fixed_ns));
  return model;
}

Duration SleepModel::actual_for(Duration request) const {
  if (request.ns() <= 0) return Duration{};
  return fixed + Duration::nanoseconds(std::llround(scale * static_cast<double>(request.ns())));
}

SimHostTimer::SimHostTimer(MonoTime start, SleepModel model, Duration pause_quantum, Rng* jitter_rng)
    : now_(start), model_(model), pause_quantum_(pause_quantum), jitter_rng_(jitter_rng) {
  TW_ASSERT(pause_quantum.ns() > 0, "a simulated spin must advance the clock");
  TW_ASSERT(model.jitter_max.ns() == 0 || jitter_rng != nullptr, "sleep jitter needs an Rng");
}

void SimHostTimer::sleep(Duration request) {
  if (request.ns() <= 0) return;
  Duration actual = model_.actual_for(request);
  if (model_.jitter_max.ns() > 0) {
    actual += Duration::nanoseconds(jitter_rng_->between(0, model_.jitter_max.ns()));
  }
  now_ += actual;
  total_slept_ += actual;
  ++sleeps_;
}

void SimHostTimer::pause() {
  now_ += pause_quantum_;
  total_paused_ += pause_quantum_;
  ++pauses_;
}

void SimHostTimer::advance(Duration d) {
  TW_ASSERT(d.ns() >= 0, "simulated time does not run backwards");
  now_ += d;
}

}  // namespace tickwire
