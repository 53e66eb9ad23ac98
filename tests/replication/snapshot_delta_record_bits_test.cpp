// The inspector's per-record log: a body coded with a log lists every added, changed and removed
// record in id order, each with its own bits, and those bits add up to the entity, object and
// removal sections exactly; the log changes nothing in the bytes; it is cleared per body and capped
// (counting what it left out); no log, nothing logged.
#include <gtest/gtest.h>

#include <vector>

#include "replica_frame_support.h"
#include "support.h"
#include "tickwire/core/rng.h"
#include "tickwire/replication/delta/snapshot_delta_codec.h"

namespace tickwire {
namespace {

ReplicaFrame frame_of(Rng& rng, uint32_t tick, uint32_t max_id, double density) {
  ReplicaFrame f;
  f.tick = tick;
  for (uint32_t id = 0; id <= max_id; ++id) {
    if (rng.chance(density)) f.states.push_back(test::random_state(rng, id));
  }
  return f;
}

TEST(SnapshotDeltaRecordBits, EveryCodedRecordIsLoggedAndItsBitsAddUpToTheSections) {
  const ReplicaKinds kinds = ReplicaKinds::defaults();
  Rng rng(11);
  const ReplicaFrame baseline = frame_of(rng, 100, 400, 0.5);
  ReplicaFrame current = frame_of(rng, 106, 400, 0.5);
  for (std::size_t k = 0; k < current.states.size(); k += 3) {  // some kept as they were
    for (const ReplicaState& b : baseline.states) {
      if (b.id == current.states[k].id) current.states[k] = b;
    }
  }
  std::vector<uint8_t> plain, logged;
  const auto without = encode_snapshot_delta(current, {&baseline, nullptr}, kinds, plain);
  ASSERT_TRUE(without.ok());
  RecordBitsLog log;
  log.add({});  // a leftover: each body starts the log afresh
  DeltaRefs refs{&baseline, nullptr};
  refs.record_bits = &log;
  const auto with = encode_snapshot_delta(current, refs, kinds, logged);
  ASSERT_TRUE(with.ok());
  EXPECT_EQ(logged, plain) << "logging changes no byte";
  const DeltaBodyStats& s = with.value();
  EXPECT_EQ(log.records.size(), s.added + s.changed + s.removed);
  EXPECT_EQ(log.past_cap, 0u);
  std::size_t entity = 0, object = 0, removal = 0;
  uint32_t added = 0, changed = 0, removed = 0;
  for (std::size_t k = 0; k < log.records.size(); ++k) {
    const RecordBits& r = log.records[k];
    if (k > 0) {
      EXPECT_LT(log.records[k - 1].id, r.id) << "in the body's order";
    }
    if (r.coding == RecordCoding::removed) {
      removal += r.bits;
      ++removed;
    } else {
      (r.object_form ? object : entity) += r.bits;
      ++(r.coding == RecordCoding::added ? added : changed);
      EXPECT_GT(r.bits, 0u);
    }
  }
  EXPECT_EQ(entity, s.entity_bits);
  EXPECT_EQ(object, s.object_bits);
  EXPECT_EQ(removal, s.removal_bits);
  EXPECT_EQ(added, s.added);
  EXPECT_EQ(changed, s.changed);
  EXPECT_EQ(removed, s.removed);
  EXPECT_GT(added, 0u);
  EXPECT_GT(changed, 0u);
  EXPECT_GT(removed, 0u);
}

TEST(SnapshotDeltaRecordBits, TheLogIsCappedAndCountsWhatItLeftOut) {
  const ReplicaKinds kinds = ReplicaKinds::defaults();
  Rng rng(12);
  const ReplicaFrame baseline = frame_of(rng, 5, RecordBitsLog::kMaxRecords + 500, 1.0);
  ReplicaFrame current;  // every record removed: a few bits each, so the body stays under its cap
  current.tick = 6;
  RecordBitsLog log;
  DeltaRefs refs{&baseline, nullptr};
  refs.record_bits = &log;
  std::vector<uint8_t> body;
  ASSERT_TRUE(encode_snapshot_delta(current, refs, kinds, body).ok());
  EXPECT_EQ(log.records.size(), RecordBitsLog::kMaxRecords);
  EXPECT_EQ(log.records.size() + log.past_cap, baseline.states.size());
}

}  // namespace
}  // namespace tickwire
