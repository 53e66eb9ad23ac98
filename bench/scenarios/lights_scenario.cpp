// Scenario (a): the lights at rest, the walking pawn, and the no-delta comparison points.
#include "lights_scenario.h"

#include <cmath>

#include "tickwire/protocol/snapshot_delta.h"
#include "tickwire/replication/delta/snapshot_delta_codec.h"
#include "tickwire/wire/codec.h"

namespace tickwire::bench {
namespace {

constexpr double kTickS = 1.0 / 60.0;
constexpr double kWalkMps = 4.0;
constexpr double kLoopSideM = 24.0;      // the square loop, centred on the origin
constexpr uint8_t kLightWireId = 1;      // the reference game's ComponentWireId::light
constexpr uint8_t kAllSectionFields = 0x3f;  // channels 0..3, channel count, bits
constexpr uint8_t kFlagGrounded = 1;
constexpr uint8_t kKindPawn = 1;  // the reference game's player pawn
constexpr float kStanceHeightM = 1.8f;
constexpr float kEyeHeightM = 1.6f;
constexpr uint64_t kPawnRef = (uint64_t{LightsScenario::kPawnId} << 32) | (uint64_t{1} << 16);  // EntityRef: handle, generation 1

protocol::Record light_record(uint32_t index) {
  protocol::ComponentSection light;
  light.wire_id = kLightWireId;
  light.dirty = kAllSectionFields;
  // The reference map's warm white, every fifth light a cooler one: a map has more than one fixture.
  const bool cool = index % 5 == 0;
  light.channel[0] = cool ? 0.8f : 1.0f;
  light.channel[1] = cool ? 0.9f : 0.85f;
  light.channel[2] = cool ? 1.0f : 0.7f;
  light.channel[3] = cool ? 250.0f : 400.0f;
  light.channel_count = 4;
  light.bits = 1;  // enabled
  protocol::ObjectRecord object;
  object.object_index = index;
  object.flags = 1;  // enabled
  object.sections.push_back(light);
  return protocol::Record{index, object};
}

std::size_t snapshot_delta_message_bytes(std::size_t body_bytes, uint32_t rest_revision) {
  protocol::SnapshotDelta message;
  message.rest_revision = rest_revision;
  message.body.resize(body_bytes);
  return 1 + wire::measure(message);
}

}  // namespace

LightsScenario::LightsScenario(uint32_t ticks)
    : ticks_(ticks),
      vocabulary_(GameVocabulary{}.kind(kKindPawn, "pawn").pawn_value("stanceHeight").pawn_value("eyeHeight")),
      kinds_(ReplicaKinds::from(vocabulary_)) {
  lights_.reserve(kLights);
  for (uint32_t i = 0; i < kLights; ++i) lights_.push_back(light_record(i));
  rest_.tick = 0;
  quantize_records(lights_, kinds_, rest_.states);
}

void LightsScenario::pawn_at(uint32_t tick, TruthFrame& out) const {
  const double along_m = std::fmod(kWalkMps * kTickS * tick, 4 * kLoopSideM);
  const int side = static_cast<int>(along_m / kLoopSideM);
  const double on_side_m = along_m - side * kLoopSideM;
  static constexpr double kCorner[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
  static constexpr double kHeading[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
  const double half = kLoopSideM / 2;
  const protocol::Vec3 feet{static_cast<float>(kCorner[side][0] * half + kHeading[side][0] * on_side_m),
                            static_cast<float>(kCorner[side][1] * half + kHeading[side][1] * on_side_m), 0.0f};

  protocol::EntityRecord pawn;
  pawn.kind = kKindPawn;
  pawn.position = feet;
  pawn.yaw_deg = 90.0f * static_cast<float>(side);
  pawn.pitch_deg = 0;
  pawn.flags = kFlagGrounded;  // its eye height follows from the flags, as the reference game's does
  out.records.push_back(protocol::Record{kPawnId, pawn});

  protocol::OwnerDetail owner;
  owner.ack = protocol::InputAck{1000 + tick};
  owner.queue_depth = 2;
  owner.pawn.pawn_ref = kPawnRef;
  owner.pawn.position = feet;
  owner.pawn.velocity = {static_cast<float>(kHeading[side][0] * kWalkMps), static_cast<float>(kHeading[side][1] * kWalkMps), 0};
  owner.pawn.values = protocol::PawnValues{{kStanceHeightM}, {kEyeHeightM}};
  owner.pawn.flags = kFlagGrounded;
  out.owner = owner;
}

void LightsScenario::truth_at(uint32_t tick, TruthFrame& out) {
  out.records.insert(out.records.end(), lights_.begin(), lights_.end());
  pawn_at(tick, out);  // the highest id: last
}

void LightsScenario::observe(const TruthFrame& truth, const ReplicaFrame& frame, std::vector<ExtraFigure>& extras) {
  if (extras.empty()) {
    extras = {{"full Snapshot bytes (no rest, no delta)"},
              {"thinned Snapshot bytes (rest, no delta)"},
              {"delta vs rest frame only, message bytes"}};
  }
  protocol::Snapshot full;
  full.tick = frame.tick;
  full.owner = truth.owner;
  full.records = truth.records;
  full.record_count = static_cast<uint16_t>(full.records.size());
  extras[0].sum += static_cast<double>(1 + wire::measure(full));
  extras[0].samples++;

  protocol::Snapshot thinned = full;  // the rest table names every light, unchanged: only the pawn
  thinned.records.assign(full.records.end() - 1, full.records.end());
  thinned.record_count = 1;
  extras[1].sum += static_cast<double>(1 + wire::measure(thinned));
  extras[1].samples++;

  if (encode_snapshot_delta(frame, DeltaRefs{&rest_, nullptr}, kinds_, scratch_)) {
    extras[2].sum += static_cast<double>(snapshot_delta_message_bytes(scratch_.size(), 1));
    extras[2].samples++;
  }
}

}  // namespace tickwire::bench
