// Records to replica states and back: positions within half a quantum, rotations within the
// grid's angle bound, look angles on 12-bit steps, exact floats, sorted ids, object sections'
// absent fields read as zero; and the rotation precision helper meets the angle it is asked for.
#include <gtest/gtest.h>

#include <cmath>

#include "support.h"
#include "tickwire/core/rng.h"
#include "tickwire/replication/frames/record_quantizer.h"
#include "tickwire/replication/frames/smallest_three.h"
#include "tickwire/wire/codec.h"

namespace tickwire {
namespace {

double angle_between(const wire::Quat& a, const wire::Quat& b) {
  const double dot = std::fabs(double(a.x) * b.x + double(a.y) * b.y + double(a.z) * b.z + double(a.w) * b.w);
  return 2 * std::acos(std::min(1.0, dot));
}

wire::Quat random_quat(Rng& rng) {
  double c[4], n = 0;
  for (double& v : c) v = rng.unit() * 2 - 1, n += v * v;
  n = std::sqrt(n);
  return {float(c[0] / n), float(c[1] / n), float(c[2] / n), float(c[3] / n)};
}

TEST(RecordQuantizer, EntityRecordsRoundTripWithinTheirPrecision) {
  Rng rng(test::test_seed(41));
  ReplicaKinds kinds = ReplicaKinds::defaults();
  kinds.set(2, ReplicaPrecision{0.02f, 9, rotation_steps_for_angle(0.001)});
  std::vector<protocol::Record> records;
  for (uint32_t id : {9u, 3u, 6u}) {
    protocol::EntityRecord e;
    e.kind = id == 6 ? 2 : 1;
    e.position = {float(rng.unit() * 200 - 100), float(rng.unit() * 200 - 100), float(rng.unit() * 30)};
    e.yaw_deg = float(rng.unit() * 360);
    e.pitch_deg = float(rng.unit() * 360);
    e.flags = 3;
    e.rotation = protocol::Rotation{random_quat(rng)};
    e.payload.channels = {{0.25f}, {-3.5f}};
    e.payload.bits = 0x81;
    records.push_back({id, e});
  }
  std::vector<ReplicaState> states;
  quantize_records(records, kinds, states);
  ASSERT_EQ(states.size(), 3u);
  EXPECT_EQ(states[0].id, 3u);
  EXPECT_EQ(states[2].id, 9u);
  for (const ReplicaState& s : states) {
    const protocol::Record& truth = *std::find_if(records.begin(), records.end(), [&](auto& r) { return r.entity_id == s.id; });
    const auto& t = std::get<protocol::EntityRecord>(truth.body);
    protocol::Record back;
    dequantize_state(s, kinds, back);
    const auto& e = std::get<protocol::EntityRecord>(back.body);
    const double half = kinds.of(s.kind).position_quantum_m / 2 * (1 + 1e-5);
    EXPECT_LE(std::fabs(e.position.x - t.position.x), half);
    EXPECT_LE(std::fabs(e.position.y - t.position.y), half);
    EXPECT_LE(std::fabs(e.position.z - t.position.z), half);
    EXPECT_LE(std::fabs(e.yaw_deg - t.yaw_deg), 360.0 / 4095 / 2 + 1e-3);
    const double bound = s.kind == 2 ? 0.001 : 2.3 / rotation_max_step(9);
    EXPECT_LE(angle_between(e.rotation->q, t.rotation->q), bound);
    EXPECT_EQ(e.kind, t.kind);
    EXPECT_EQ(e.payload.channels.size(), 2u);
    EXPECT_EQ(e.payload.channels[1].value, -3.5f);
    EXPECT_EQ(e.payload.bits, 0x81);
    EXPECT_EQ(e.flags, 3);
  }
}

TEST(RecordQuantizer, ObjectSectionsKeepOnlyTheirDirtyFields) {
  protocol::ObjectRecord o;
  o.object_index = 1234;
  o.flags = 1;
  protocol::ComponentSection light;
  light.wire_id = 1;
  light.dirty = 0b110001;  // channel 0, channel count, bits
  light.channel[0] = 0.5f;
  light.channel[1] = 9.0f;  // not dirty: reads as zero
  light.channel_count = 1;
  light.bits = 1;
  o.sections.push_back(light);
  std::vector<protocol::Record> records{{77, o}};
  std::vector<ReplicaState> states;
  quantize_records(records, ReplicaKinds::defaults(), states);
  ASSERT_EQ(states.size(), 1u);
  const ReplicaState& s = states[0];
  EXPECT_EQ(s.form, ReplicaForm::object);
  EXPECT_EQ(s.object_index, 1234u);
  EXPECT_FALSE(s.has_transform);
  EXPECT_EQ(s.payload_count, 1);
  EXPECT_EQ(s.payloads[0].channels[0], 0.5f);
  EXPECT_EQ(s.payloads[0].channels[1], 0.0f);
  protocol::Record back;
  dequantize_state(s, ReplicaKinds::defaults(), back);
  const auto& b = std::get<protocol::ObjectRecord>(back.body);
  ASSERT_EQ(b.sections.size(), 1u);
  EXPECT_EQ(b.sections[0].channel[0], 0.5f);
  EXPECT_EQ(b.sections[0].channel_count, 1);
  EXPECT_EQ(b.sections[0].bits, 1);
}

TEST(RecordQuantizer, RotationStepsForAnAngleMeetIt) {
  Rng rng(test::test_seed(5));
  for (double angle : {0.01, 0.003, 0.001}) {
    const int32_t max_step = rotation_steps_for_angle(angle);
    double worst = 0;
    for (int i = 0; i < 20000; ++i) {
      const wire::Quat q = random_quat(rng);
      worst = std::max(worst, angle_between(unpack_smallest_three(pack_smallest_three(q, max_step), max_step), q));
    }
    EXPECT_LE(worst, angle) << "max step " << max_step;
  }
}

// A client decodes every snapshot over the records of an earlier one: what it writes must be what a
// fresh record would hold, whatever the record held before (the other form, a rotation, a scale,
// more sections or channels).
TEST(RecordQuantizer, DequantizingOverAnEarlierRecordEqualsAFreshOne) {
  Rng rng(test::test_seed(43));
  const ReplicaKinds kinds = ReplicaKinds::defaults();
  std::vector<protocol::Record> records;
  for (uint32_t id = 1; id <= 200; ++id) {
    const protocol::Vec3 at{float(rng.unit() * 100 - 50), float(rng.unit() * 10), float(rng.unit() * 100 - 50)};
    const bool rotated = rng.unit() < 0.5, scaled = rng.unit() < 0.5;
    if (rng.unit() < 0.5) {
      protocol::EntityRecord e;
      e.kind = 1;
      e.position = at;
      e.yaw_deg = float(rng.unit() * 360);
      if (rotated) e.rotation = protocol::Rotation{random_quat(rng)};
      if (scaled) e.scale = protocol::Vec3{1.5f, 2.0f, 0.5f};
      e.payload.channels.resize(rng.below(5));
      for (auto& c : e.payload.channels) c.value = float(rng.unit());
      e.payload.bits = uint8_t(rng.below(256));
      records.push_back({id, e});
    } else {
      protocol::ObjectRecord o;
      o.object_index = id;
      o.flags = uint8_t(rng.below(4));
      if (rotated || scaled) o.transform = protocol::ObjectTransform{at, std::nullopt, std::nullopt};
      if (o.transform && rotated) o.transform->rotation = protocol::Rotation{random_quat(rng)};
      if (o.transform && scaled) o.transform->scale = protocol::Vec3{0.5f, 0.5f, 3.0f};
      o.sections.resize(rng.below(5));
      for (auto& section : o.sections) {
        section.wire_id = uint8_t(1 + rng.below(3));
        section.dirty = 0x3F;
        section.channel_count = uint8_t(rng.below(5));
        for (unsigned c = 0; c < section.channel_count; ++c) section.channel[c] = float(rng.unit());
        section.bits = uint8_t(rng.below(256));
      }
      records.push_back({id, o});
    }
  }
  std::vector<ReplicaState> states;
  quantize_records(records, kinds, states);
  // Each state written over every other state's record, and compared with a fresh decode.
  std::vector<protocol::Record> fresh(states.size());
  for (std::size_t i = 0; i < states.size(); ++i) dequantize_state(states[i], kinds, fresh[i]);
  for (std::size_t shift = 1; shift < 8; ++shift) {
    std::vector<protocol::Record> reused = fresh;
    for (std::size_t i = 0; i < states.size(); ++i) {
      const std::size_t from = (i + shift) % states.size();
      dequantize_state(states[from], kinds, reused[i]);
      const std::vector<uint8_t> want = wire::encode_bytes(fresh[from]);
      EXPECT_EQ(wire::encode_bytes(reused[i]), want) << "state " << from << " over record " << i;
    }
  }
}

}  // namespace
}  // namespace tickwire
