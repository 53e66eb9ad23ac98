// What a bad network does to one direction of a path, as plain numbers: latency, jitter, loss,
// duplication, reordering, a bandwidth cap and burst stalls. SimNetwork and the UDP link conditioner
// read the same struct (and the same named profiles), so a simulated run and a real one agree.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace tickwire {

// One direction of a link. Every field is per datagram, one way; the defaults are a perfect wire.
struct LinkModel {
  double latency_ms = 0.0;  // base one-way delay
  double jitter_ms = 0.0;   // uniform in [-jitter_ms, +jitter_ms] per datagram; total delay never < 0
  double loss = 0.0;        // probability in [0, 1] that a datagram is lost on the wire
  double duplicate = 0.0;   // probability in [0, 1] that a delivered datagram arrives a second time
  double reorder = 0.0;     // probability in [0, 1] that a datagram is held back reorder_delay_ms
  double reorder_delay_ms = 30.0;  // extra delay of a reordered datagram: enough to fall behind later ones
  // Jitter keeps order (true): a jittered delivery is never earlier than the one before it, as on a
  // real path where jitter is queueing; only `reorder` (and duplicates) reorders. false: each datagram
  // is jittered independently, so jitter wider than the send spacing reorders too.
  bool jitter_keeps_order = true;
  uint32_t rate_kbps = 0;                    // bottleneck bandwidth, kilobits per second; 0 = unlimited
  uint32_t rate_queue_cap_bytes = 64 * 1024;  // bytes waiting at the bottleneck before tail drop
  // Burst stalls: windows of stall_ms starting every stall_every_ms (on the clock's own zero). A
  // delivery falling inside a window is held and released at the window's end with everything else
  // held. stall_ms == stall_every_ms means the link only ever delivers at window ends.
  double stall_ms = 0.0;
  double stall_every_ms = 0.0;

  // nullopt when usable; otherwise what is wrong, for a CLI to print ("loss must be in [0, 1]").
  std::optional<std::string> invalid_reason() const;
};

// A named, documented set of numbers (both directions use the same model).
struct LinkProfile {
  std::string_view name;
  std::string_view description;
  LinkModel model;
};

// lan, broadband, transatlantic, mobile-bad, burst-host (numbers in docs/conditioner.md).
std::span<const LinkProfile> link_profiles();
std::optional<LinkModel> link_profile(std::string_view name);

}  // namespace tickwire
