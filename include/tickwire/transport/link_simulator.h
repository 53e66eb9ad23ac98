// The one piece of link-model code: given when a datagram is sent and how big it is, decide when
// its 0, 1 or 2 copies arrive. It keeps the per-direction state (bottleneck queue, order floor) and
// takes randomness from the caller's Rng, so SimNetwork and the UDP conditioner behave identically.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "tickwire/clock/time.h"
#include "tickwire/core/rng.h"
#include "tickwire/transport/link_model.h"

namespace tickwire {

enum class LinkDrop : uint8_t { none = 0, loss, rate_cap };

// The verdict for one datagram: copies == 0 means dropped for `drop`.
struct LinkDelivery {
  std::size_t copies = 0;
  std::array<MonoTime, 2> at{};  // at[0..copies) in the order they were decided, not sorted
  LinkDrop drop = LinkDrop::none;
};

struct LinkStats {
  uint64_t offered = 0;       // datagrams given to decide()
  uint64_t lost = 0;          // dropped by `loss`
  uint64_t rate_dropped = 0;  // tail-dropped at the full bottleneck queue
  uint64_t duplicated = 0;    // second copies made
  uint64_t reordered = 0;     // held back by reorder_delay_ms
  uint64_t stalled = 0;       // copies held by a stall window
};

class LinkSimulator {
 public:
  explicit LinkSimulator(const LinkModel& model = {});

  // Decides the fate of one datagram of size_bytes sent at send_time. Calls are expected in
  // non-decreasing send_time order (as a socket sends); draws from rng only for features in use.
  LinkDelivery decide(MonoTime send_time, std::size_t size_bytes, Rng& rng);

  // Changes the numbers; the bottleneck queue and order floor carry over.
  void set_model(const LinkModel& model);
  const LinkModel& model() const { return model_; }
  const LinkStats& stats() const { return stats_; }
  // Bytes still waiting at the bottleneck at `now` (0 without a rate cap).
  std::size_t rate_backlog_bytes(MonoTime now) const;

 private:
  bool admit_to_bottleneck(MonoTime send_time, std::size_t size_bytes, MonoTime& departs);
  MonoTime jittered_arrival(MonoTime departs, Rng& rng) const;
  MonoTime apply_stall(MonoTime at);

  LinkModel model_;
  LinkStats stats_;
  MonoTime bottleneck_free_at_{};  // when the bottleneck finishes serialising what it holds
  MonoTime order_floor_{};         // latest in-order delivery so far (jitter_keeps_order)
};

}  // namespace tickwire
