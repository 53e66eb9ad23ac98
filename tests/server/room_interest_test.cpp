// RoomInterest: entity records within the radius of the viewer, every map object, the tick's
// order kept; entities leave the world when they leave the tick, and a full world counts overflow.
#include <gtest/gtest.h>

#include <vector>

#include "tickwire/server/room_interest.h"

namespace tickwire {
namespace {

// An entity record at (x, z) metres at the default quantum (1/512 m).
ReplicaState entity_at(uint32_t id, float x_m, float z_m) {
  ReplicaState s;
  s.id = id;
  s.form = ReplicaForm::entity;
  s.kind = 1;
  s.position = {static_cast<int32_t>(x_m * 512.0f), 0, static_cast<int32_t>(z_m * 512.0f)};
  return s;
}

ReplicaState object_at(uint32_t id) {
  ReplicaState s;
  s.id = id;
  s.form = ReplicaForm::object;
  s.object_index = id;
  return s;
}

std::vector<uint32_t> ids(const std::vector<ReplicaState>& states) {
  std::vector<uint32_t> out;
  for (const ReplicaState& s : states) out.push_back(s.id);
  return out;
}

TEST(RoomInterest, EntitiesWithinTheRadiusAndEveryObject) {
  RoomInterestConfig config;
  config.radius_m = 100.0f;
  RoomInterest interest(config);
  const ReplicaKinds kinds = ReplicaKinds::defaults();
  const std::vector<ReplicaState> tick = {entity_at(1, 0, 0), entity_at(2, 50, 50), entity_at(3, 300, 0),
                                          object_at(10), entity_at(11, -400, -400), object_at(12)};
  interest.update(tick, kinds);
  std::vector<ReplicaState> out;
  interest.select(0, 0, tick, out);
  EXPECT_EQ(ids(out), (std::vector<uint32_t>{1, 2, 10, 12})) << "near entities and every object, in order";
  interest.select(300, 0, tick, out);
  EXPECT_EQ(ids(out), (std::vector<uint32_t>{3, 10, 12}));
  interest.select(-400, -400, tick, out);
  EXPECT_EQ(ids(out), (std::vector<uint32_t>{10, 11, 12}));
}

TEST(RoomInterest, EntitiesMoveLeaveAndComeBack) {
  RoomInterest interest(RoomInterestConfig{});
  const ReplicaKinds kinds = ReplicaKinds::defaults();
  std::vector<ReplicaState> out;
  std::vector<ReplicaState> tick = {entity_at(1, 0, 0), entity_at(2, 500, 0)};
  interest.update(tick, kinds);
  interest.select(0, 0, tick, out);
  EXPECT_EQ(ids(out), (std::vector<uint32_t>{1}));
  tick = {entity_at(1, 0, 0), entity_at(2, 20, 0)};  // 2 walked into view
  interest.update(tick, kinds);
  interest.select(0, 0, tick, out);
  EXPECT_EQ(ids(out), (std::vector<uint32_t>{1, 2}));
  tick = {entity_at(1, 0, 0)};  // 2 despawned: it leaves the world
  interest.update(tick, kinds);
  interest.select(0, 0, tick, out);
  EXPECT_EQ(ids(out), (std::vector<uint32_t>{1}));
  tick = {entity_at(1, 0, 0), entity_at(2, 10, 0)};  // and a new 2 files again
  interest.update(tick, kinds);
  interest.select(0, 0, tick, out);
  EXPECT_EQ(ids(out), (std::vector<uint32_t>{1, 2}));
}

TEST(RoomInterest, AFullWorldCountsWhatItCouldNotFile) {
  RoomInterestConfig config;
  config.max_entities = 4;
  RoomInterest interest(config);
  const ReplicaKinds kinds = ReplicaKinds::defaults();
  std::vector<ReplicaState> tick;
  for (uint32_t id = 1; id <= 6; ++id) tick.push_back(entity_at(id, static_cast<float>(id), 0));
  interest.update(tick, kinds);
  EXPECT_EQ(interest.overflowed(), 2u);
  std::vector<ReplicaState> out;
  interest.select(0, 0, tick, out);
  EXPECT_EQ(out.size(), 4u) << "what was not filed is seen by nobody";
  tick.resize(3);  // three left: room again for all of them
  interest.update(tick, kinds);
  interest.select(0, 0, tick, out);
  EXPECT_EQ(ids(out), (std::vector<uint32_t>{1, 2, 3}));
}

}  // namespace
}  // namespace tickwire
