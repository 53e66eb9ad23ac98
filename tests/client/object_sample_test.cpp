// sample_of_record answers "is this record the sample I hold?" without building a sample: it must
// agree with object_sample(record) == sample on every pair, equal or differing in any one field
// (flags, transform presence, position, rotation, scale, section count, wire id, bits, channel count
// or one channel), and on records with more sections or channels than a sample keeps.
#include "tickwire/client/object_sample.h"

#include <gtest/gtest.h>

#include <vector>

#include "support.h"
#include "tickwire/core/rng.h"

namespace tickwire {
namespace {

protocol::ObjectRecord random_record(Rng& rng) {
  protocol::ObjectRecord o;
  o.object_index = uint32_t(rng.below(4));
  o.flags = uint8_t(rng.below(3));
  if (rng.chance(0.5)) {
    protocol::ObjectTransform& t = o.transform.emplace();
    t.position = {float(rng.below(3)), 1.0f, float(rng.below(2))};
    if (rng.chance(0.5)) t.rotation = protocol::Rotation{{0.0f, float(rng.below(2)), 0.0f, 1.0f}};
    if (rng.chance(0.5)) t.scale = protocol::Vec3{1.0f, float(1 + rng.below(2)), 1.0f};
  }
  o.sections.resize(rng.below(protocol::MaxComponentSections + 2));  // a record may hold more than a sample keeps
  for (auto& section : o.sections) {
    section.wire_id = uint8_t(1 + rng.below(2));
    section.dirty = 0x3F;
    section.channel_count = uint8_t(rng.below(protocol::MaxKindChannels + 1));
    for (unsigned c = 0; c < 4; ++c) section.channel[c] = float(rng.below(2));
    section.bits = uint8_t(rng.below(2));
  }
  return o;
}

TEST(ObjectSample, SampleOfRecordAgreesWithBuildingTheSample) {
  Rng rng(test::test_seed(71));
  std::vector<protocol::ObjectRecord> records;
  for (int i = 0; i < 400; ++i) records.push_back(random_record(rng));
  uint64_t equal = 0, differing = 0;
  for (const auto& held : records) {
    const ObjectSample sample = object_sample(held);
    for (const auto& record : records) {
      const bool want = object_sample(record) == sample;
      ASSERT_EQ(sample_of_record(sample, record), want);
      (want ? equal : differing) += 1;
    }
    EXPECT_TRUE(sample_of_record(sample, held)) << "a record is its own sample";
  }
  EXPECT_GT(equal, records.size()) << "the small value ranges make equal pairs besides each record with itself";
  EXPECT_GT(differing, equal);
}

TEST(ObjectSample, SampleOfRecordSeesEveryFieldChange) {
  protocol::ObjectRecord base;
  base.object_index = 7;
  base.flags = 1;
  base.transform = protocol::ObjectTransform{{1, 2, 3}, protocol::Rotation{{0, 0, 0, 1}}, protocol::Vec3{1, 1, 1}};
  base.sections.resize(2);
  for (auto& section : base.sections) {
    section.wire_id = 2;
    section.dirty = 0x3F;
    section.channel_count = 3;
    section.channel[0] = section.channel[1] = section.channel[2] = 0.5f;
    section.bits = 1;
  }
  const ObjectSample sample = object_sample(base);
  ASSERT_TRUE(sample_of_record(sample, base));
  const std::vector<void (*)(protocol::ObjectRecord&)> changes = {
      [](protocol::ObjectRecord& o) { o.object_index = 8; },
      [](protocol::ObjectRecord& o) { o.flags = 0; },
      [](protocol::ObjectRecord& o) { o.transform.reset(); },
      [](protocol::ObjectRecord& o) { o.transform->position.y = 2.5f; },
      [](protocol::ObjectRecord& o) { o.transform->rotation.reset(); },
      [](protocol::ObjectRecord& o) { o.transform->rotation->q.w = 0.5f; },
      [](protocol::ObjectRecord& o) { o.transform->scale.reset(); },
      [](protocol::ObjectRecord& o) { o.transform->scale->z = 2.0f; },
      [](protocol::ObjectRecord& o) { o.sections.pop_back(); },
      [](protocol::ObjectRecord& o) { o.sections.push_back(o.sections.back()); },
      [](protocol::ObjectRecord& o) { o.sections[1].wire_id = 3; },
      [](protocol::ObjectRecord& o) { o.sections[1].bits = 0; },
      [](protocol::ObjectRecord& o) { o.sections[1].channel_count = 2; },
      [](protocol::ObjectRecord& o) { o.sections[1].channel[2] = 0.25f; },
  };
  for (std::size_t i = 0; i < changes.size(); ++i) {
    protocol::ObjectRecord changed = base;
    changes[i](changed);
    EXPECT_FALSE(sample_of_record(sample, changed)) << "change " << i;
    EXPECT_FALSE(object_sample(changed) == sample) << "change " << i;
  }
  protocol::ObjectRecord unseen = base;
  unseen.sections[1].channel[3] = 9.0f;  // past the section's channel count: not part of the sample
  EXPECT_TRUE(sample_of_record(sample, unseen));
  EXPECT_EQ(object_sample(unseen), sample);
}

}  // namespace
}  // namespace tickwire
