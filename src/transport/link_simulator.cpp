// The link model's arithmetic: bottleneck queue, loss, latency + jitter (with an order floor),
// reordering, stall windows and duplicates, in that order, on integer nanoseconds.
#include "tickwire/transport/link_simulator.h"

#include <algorithm>

#include "tickwire/core/assert.h"

namespace tickwire {
namespace {

constexpr double kNsPerByteAtOneKbps = 8.0 * 1'000'000.0;  // 8 bits / (1000 bit/s) = 8 ms = 8e6 ns

int64_t ms_to_ns(double ms) { return Duration::from_milliseconds(ms).ns(); }

}  // namespace

LinkSimulator::LinkSimulator(const LinkModel& model) { set_model(model); }

void LinkSimulator::set_model(const LinkModel& model) {
  TW_ASSERT(!model.invalid_reason().has_value(), "LinkSimulator given an invalid LinkModel");
  model_ = model;
}

std::size_t LinkSimulator::rate_backlog_bytes(MonoTime now) const {
  if (model_.rate_kbps == 0 || bottleneck_free_at_ <= now) return 0;
  const double waiting_ns = static_cast<double>((bottleneck_free_at_ - now).ns());
  return static_cast<std::size_t>(waiting_ns * model_.rate_kbps / kNsPerByteAtOneKbps);
}

bool LinkSimulator::admit_to_bottleneck(MonoTime send_time, std::size_t size_bytes, MonoTime& departs) {
  if (model_.rate_kbps == 0) {
    departs = send_time;
    return true;
  }
  if (rate_backlog_bytes(send_time) + size_bytes > model_.rate_queue_cap_bytes) return false;
  const double transmit_ns = static_cast<double>(size_bytes) * kNsPerByteAtOneKbps / model_.rate_kbps;
  const MonoTime starts = std::max(send_time, bottleneck_free_at_);
  bottleneck_free_at_ = starts + Duration::nanoseconds(static_cast<int64_t>(transmit_ns));
  departs = bottleneck_free_at_;
  return true;
}

MonoTime LinkSimulator::jittered_arrival(MonoTime departs, Rng& rng) const {
  int64_t delay_ns = ms_to_ns(model_.latency_ms);
  const int64_t jitter_ns = ms_to_ns(model_.jitter_ms);
  if (jitter_ns > 0) delay_ns += rng.between(-jitter_ns, jitter_ns);
  return departs + Duration::nanoseconds(std::max<int64_t>(delay_ns, 0));
}

MonoTime LinkSimulator::apply_stall(MonoTime at) {
  const int64_t stall_ns = ms_to_ns(model_.stall_ms);
  const int64_t period_ns = ms_to_ns(model_.stall_every_ms);
  if (stall_ns <= 0 || period_ns <= 0) return at;
  const int64_t offset_ns = ((at.ns() % period_ns) + period_ns) % period_ns;
  if (offset_ns == 0 || offset_ns >= stall_ns) return at;
  ++stats_.stalled;
  return at + Duration::nanoseconds(stall_ns - offset_ns);
}

LinkDelivery LinkSimulator::decide(MonoTime send_time, std::size_t size_bytes, Rng& rng) {
  ++stats_.offered;
  LinkDelivery out;
  MonoTime departs;
  if (!admit_to_bottleneck(send_time, size_bytes, departs)) {
    ++stats_.rate_dropped;
    out.drop = LinkDrop::rate_cap;
    return out;
  }
  if (model_.loss > 0.0 && rng.chance(model_.loss)) {
    ++stats_.lost;
    out.drop = LinkDrop::loss;
    return out;
  }
  MonoTime first = jittered_arrival(departs, rng);
  if (model_.jitter_keeps_order) {
    first = std::max(first, order_floor_);
    order_floor_ = first;
  }
  if (model_.reorder > 0.0 && rng.chance(model_.reorder)) {
    ++stats_.reordered;
    first += Duration::nanoseconds(ms_to_ns(model_.reorder_delay_ms));
  }
  out.at[0] = apply_stall(first);
  out.copies = 1;
  if (model_.duplicate > 0.0 && rng.chance(model_.duplicate)) {
    ++stats_.duplicated;
    out.at[1] = apply_stall(jittered_arrival(departs, rng));
    out.copies = 2;
  }
  return out;
}

}  // namespace tickwire
