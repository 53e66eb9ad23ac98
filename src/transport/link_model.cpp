// Validation of link numbers and the named profiles. The profiles are the shared vocabulary of the
// simulation tests and the conditioner CLI; docs/conditioner.md repeats these numbers.
#include "tickwire/transport/link_model.h"

#include <array>

namespace tickwire {
namespace {

constexpr double kMaxDelayMs = 60'000.0;  // a minute: anything larger is a typo, not a network

bool is_probability(double p) { return p >= 0.0 && p <= 1.0; }
bool is_delay(double ms) { return ms >= 0.0 && ms <= kMaxDelayMs; }

LinkModel make_lan() {
  LinkModel m;
  m.latency_ms = 0.5;
  m.jitter_ms = 0.2;
  return m;
}

LinkModel make_broadband() {
  LinkModel m;
  m.latency_ms = 15.0;
  m.jitter_ms = 3.0;
  m.loss = 0.002;
  m.rate_kbps = 20'000;
  m.rate_queue_cap_bytes = 64 * 1024;
  return m;
}

LinkModel make_transatlantic() {
  LinkModel m;
  m.latency_ms = 50.0;
  m.jitter_ms = 10.0;
  m.loss = 0.005;
  return m;
}

LinkModel make_mobile_bad() {
  LinkModel m;
  m.latency_ms = 120.0;
  m.jitter_ms = 60.0;
  m.loss = 0.05;
  m.duplicate = 0.01;
  m.reorder = 0.02;
  m.reorder_delay_ms = 40.0;
  m.rate_kbps = 1'000;
  m.rate_queue_cap_bytes = 32 * 1024;
  m.stall_ms = 250.0;
  m.stall_every_ms = 5'000.0;
  return m;
}

LinkModel make_burst_host() {
  LinkModel m;
  m.latency_ms = 10.0;
  m.jitter_ms = 1.0;
  m.stall_ms = 83.0;
  m.stall_every_ms = 83.0;
  return m;
}

const std::array<LinkProfile, 5> kProfiles = {{
    {"lan", "wired LAN: 0.5 +- 0.2 ms one way, no loss", make_lan()},
    {"broadband", "home broadband: 15 +- 3 ms one way, 0.2% loss, 20 Mbit/s", make_broadband()},
    {"transatlantic", "100 ms RTT: 50 +- 10 ms one way, 0.5% loss", make_transatlantic()},
    {"mobile-bad", "poor mobile: 120 +- 60 ms, 5% loss, 1% dup, 2% reorder, 1 Mbit/s, 250 ms stall every 5 s",
     make_mobile_bad()},
    {"burst-host", "a host whose sleeps overshoot to 83 ms: 10 +- 1 ms, delivered only in 83 ms bursts, no loss",
     make_burst_host()},
}};

}  // namespace

std::optional<std::string> LinkModel::invalid_reason() const {
  if (!is_delay(latency_ms)) return "latency_ms must be in [0, 60000]";
  if (!is_delay(jitter_ms)) return "jitter_ms must be in [0, 60000]";
  if (!is_probability(loss)) return "loss must be in [0, 1]";
  if (!is_probability(duplicate)) return "duplicate must be in [0, 1]";
  if (!is_probability(reorder)) return "reorder must be in [0, 1]";
  if (!is_delay(reorder_delay_ms)) return "reorder_delay_ms must be in [0, 60000]";
  if (rate_kbps > 0 && rate_queue_cap_bytes == 0) return "rate_queue_cap_bytes must be > 0 with a rate cap";
  if (!is_delay(stall_ms) || !is_delay(stall_every_ms)) return "stall_ms and stall_every_ms must be in [0, 60000]";
  if (stall_ms > 0.0 && stall_every_ms <= 0.0) return "stall_ms needs stall_every_ms > 0";
  if (stall_ms > stall_every_ms) return "stall_ms must not exceed stall_every_ms";
  return std::nullopt;
}

std::span<const LinkProfile> link_profiles() { return kProfiles; }

std::optional<LinkModel> link_profile(std::string_view name) {
  for (const LinkProfile& profile : kProfiles) {
    if (profile.name == name) return profile.model;
  }
  return std::nullopt;
}

}  // namespace tickwire
