// Decoded state against the float truth, value by value, with the bounds SCENARIOS.md fixes.
#include "precision_check.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <variant>

#include <fmt/format.h>

#include "tickwire/replication/delta/snapshot_delta_codec.h"

namespace tickwire::bench {
namespace {

constexpr double kLookStepDeg = 360.0 / 4095.0;  // protocol::kAngleSpec's resolution
constexpr double kFloatEps = std::numeric_limits<float>::epsilon();

// Float rounding on the way back from quanta: a few ulps of the value itself.
double rounding_slack(double value) { return 4.0 * kFloatEps * std::max(1.0, std::fabs(value)); }

double angle_diff_deg(double a, double b) {
  const double d = std::fmod(std::fabs(a - b), 360.0);
  return std::min(d, 360.0 - d);
}

}  // namespace

double smallest_three_angle_bound_rad(unsigned bits) {
  const double half_step = (1.0 / std::sqrt(2.0)) / static_cast<double>((1u << bits) - 1u);
  return 2.0 * std::sqrt(12.0) * half_step;
}

double rotation_angle_rad(const wire::Quat& a, const wire::Quat& b) {
  const double na = std::sqrt(double{a.x} * a.x + double{a.y} * a.y + double{a.z} * a.z + double{a.w} * a.w);
  const double nb = std::sqrt(double{b.x} * b.x + double{b.y} * b.y + double{b.z} * b.z + double{b.w} * b.w);
  if (na == 0 || nb == 0) return std::numbers::pi;
  const double dot = (double{a.x} * b.x + double{a.y} * b.y + double{a.z} * b.z + double{a.w} * b.w) / (na * nb);
  return 2.0 * std::acos(std::min(1.0, std::fabs(dot)));
}

PrecisionCheck::PrecisionCheck(const ReplicaKinds& kinds, std::optional<double> max_angle_error_rad)
    : kinds_(kinds), max_angle_error_rad_(max_angle_error_rad) {}

void PrecisionCheck::fail(uint32_t tick, uint32_t id, const std::string& what) {
  if (tally_.failures++ == 0) tally_.first_failure = fmt::format("tick {} id {}: {}", tick, id, what);
}

void PrecisionCheck::check(uint32_t tick, const TruthFrame& truth, const ReplicaFrame& frame) {
  const bool same_owner = truth.owner.has_value() == frame.owner.has_value() &&
                          (!truth.owner || same_owner_detail(*truth.owner, *frame.owner));
  if (!same_owner) fail(tick, 0, "owner detail differs from the truth");
  if (truth.records.size() != frame.states.size()) {
    fail(tick, 0, fmt::format("{} states for {} records", frame.states.size(), truth.records.size()));
    return;
  }
  for (std::size_t i = 0; i < truth.records.size(); ++i) check_record(tick, truth.records[i], frame.states[i]);
}

void PrecisionCheck::check_record(uint32_t tick, const protocol::Record& truth, const ReplicaState& state) {
  if (truth.entity_id != state.id) return fail(tick, truth.entity_id, fmt::format("state id {}", state.id));
  protocol::Record got;
  dequantize_state(state, kinds_, got);
  if (got.body.index() != truth.body.index()) return fail(tick, truth.entity_id, "record form differs");
  if (const auto* entity = std::get_if<protocol::EntityRecord>(&truth.body)) {
    check_entity(tick, truth.entity_id, *entity, std::get<protocol::EntityRecord>(got.body));
  } else {
    check_object(tick, truth.entity_id, std::get<protocol::ObjectRecord>(truth.body),
                 std::get<protocol::ObjectRecord>(got.body));
  }
}

void PrecisionCheck::check_entity(uint32_t tick, uint32_t id, const protocol::EntityRecord& truth,
                                  const protocol::EntityRecord& got) {
  ++tally_.values_checked;
  if (got.kind != truth.kind || got.flags != truth.flags) {
    fail(tick, id, "kind, flags or eye height differ");
  }
  const ReplicaPrecision& precision = kinds_.of(static_cast<uint8_t>(truth.kind));
  const double quantum_m = precision.position_quantum_m;
  const float t[3] = {truth.position.x, truth.position.y, truth.position.z};
  const float g[3] = {got.position.x, got.position.y, got.position.z};
  for (int axis = 0; axis < 3; ++axis) {
    const double error_m = std::fabs(double{g[axis]} - double{t[axis]});
    tally_.max_position_error_quanta = std::max(tally_.max_position_error_quanta, error_m / quantum_m);
    if (error_m > 0.5 * quantum_m + rounding_slack(t[axis])) {
      fail(tick, id, fmt::format("position axis {} off by {:.6f} m (bound {:.6f} m)", axis, error_m, 0.5 * quantum_m));
    }
  }
  const double look_bound_deg = 0.5 * kLookStepDeg + rounding_slack(360.0);
  if (angle_diff_deg(got.yaw_deg, truth.yaw_deg) > look_bound_deg ||
      angle_diff_deg(got.pitch_deg, truth.pitch_deg) > look_bound_deg) {
    fail(tick, id, "yaw or pitch past half a 12-bit step");
  }
  if (truth.rotation.has_value() != got.rotation.has_value()) return fail(tick, id, "rotation presence differs");
  if (truth.rotation) {
    const double bound = max_angle_error_rad_.value_or(smallest_three_angle_bound_rad(precision.rotation_bits));
    tally_.angle_bound_rad = tally_.angle_bound_rad == 0 ? bound : std::min(tally_.angle_bound_rad, bound);
    const double angle = rotation_angle_rad(truth.rotation->q, got.rotation->q);
    tally_.max_angle_error_rad = std::max(tally_.max_angle_error_rad, angle);
    if (angle > bound) fail(tick, id, fmt::format("orientation off by {:.6f} rad (bound {:.6f})", angle, bound));
  }
  const auto& tc = truth.payload.channels;
  const auto& gc = got.payload.channels;
  bool same = tc.size() == gc.size() && truth.payload.bits == got.payload.bits;
  for (std::size_t c = 0; same && c < tc.size(); ++c) same = tc[c].value == gc[c].value;
  if (!same) fail(tick, id, "kind payload differs");
}

// Object records carry exact floats: every field the truth names must come back with its value.
void PrecisionCheck::check_object(uint32_t tick, uint32_t id, const protocol::ObjectRecord& truth,
                                  const protocol::ObjectRecord& got) {
  ++tally_.values_checked;
  if (got.object_index != truth.object_index || got.flags != truth.flags) return fail(tick, id, "object head differs");
  if (got.sections.size() != truth.sections.size()) return fail(tick, id, "section count differs");
  for (std::size_t s = 0; s < truth.sections.size(); ++s) {
    const protocol::ComponentSection& want = truth.sections[s];
    const protocol::ComponentSection& have = got.sections[s];
    bool same = want.wire_id == have.wire_id;
    for (int field = 0; same && field < 4; ++field) {
      if (want.dirty & (1u << field)) same = (have.dirty & (1u << field)) && have.channel[field] == want.channel[field];
    }
    if (same && (want.dirty & (1u << 4))) same = (have.dirty & (1u << 4)) && have.channel_count == want.channel_count;
    if (same && (want.dirty & (1u << 5))) same = (have.dirty & (1u << 5)) && have.bits == want.bits;
    if (!same) return fail(tick, id, fmt::format("component section {} differs", s));
  }
}

}  // namespace tickwire::bench
