// TickInterest under the ClientSnapshotBuilder, as the replication service drives them: a client's
// frame holds the entity records within its radius and every map object, in id order; entities leave
// the world when they leave the tick; a full world counts overflow; a pawn is its client's; the
// game's notes (private, always relevant, parent, scene frame) apply while written, and a note the
// service cannot honour is counted by name.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "tickwire/replication/builder/client_snapshot_builder.h"
#include "tickwire/replication/interest/tick_interest.h"

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

// The room's per-tick steps: file the tick, begin the builder's tick, cut a client's frame.
class RoomCut {
 public:
  explicit RoomCut(const TickInterestConfig& config)
      : interest_(config), builder_(interest_.world(), kinds_, ClientSnapshotBuilderConfig{}) {}

  void tick(const std::vector<ReplicaState>& states, const std::vector<InterestNote>& notes = {},
            const std::vector<PawnMark>& pawns = {}) {
    ++tick_;
    frame_.tick = static_cast<uint32_t>(tick_);
    interest_.update(states, kinds_, notes, pawns, frame_, entities_);
    builder_.begin_tick(WorldTickFrame{Tick::from_value(tick_), &frame_, entities_, &interest_.world()});
  }
  // The ids in the frame of a new client (nothing held) viewing from (x, z) with a 100 m radius.
  std::vector<uint32_t> seen_from(float x_m, float z_m, uint32_t pawn = kNoEntity) {
    ClientReplicationConfig config;
    config.max_entities = interest_.config().max_entities;
    clients_.push_back(std::make_unique<ClientReplicationState>(config));
    ClientView view;
    view.pawn = pawn;
    view.x_m = x_m;
    view.z_m = z_m;
    view.radius_m = 100.0f;
    std::vector<uint32_t> ids;
    for (const ReplicaState* s : builder_.compose(view, *clients_.back()).states) ids.push_back(s->id);
    return ids;
  }
  TickInterest& interest() { return interest_; }
  const std::vector<uint32_t>& entities() const { return entities_; }

 private:
  ReplicaKinds kinds_ = ReplicaKinds::defaults();
  TickInterest interest_;
  ClientSnapshotBuilder builder_;
  ReplicaFrame frame_;
  std::vector<uint32_t> entities_;
  std::vector<std::unique_ptr<ClientReplicationState>> clients_;
  int64_t tick_ = 0;
};

TEST(TickInterest, EntitiesWithinTheRadiusAndEveryObject) {
  RoomCut room(TickInterestConfig{});
  room.tick({entity_at(1, 0, 0), entity_at(2, 50, 50), entity_at(3, 300, 0), object_at(10), entity_at(11, -400, -400),
             object_at(12)});
  EXPECT_EQ(room.entities()[3], kNoEntity) << "a map object is shared, outside interest";
  EXPECT_EQ(room.seen_from(0, 0), (std::vector<uint32_t>{1, 2, 10, 12})) << "near entities and every object, in order";
  EXPECT_EQ(room.seen_from(300, 0), (std::vector<uint32_t>{3, 10, 12}));
  EXPECT_EQ(room.seen_from(-400, -400), (std::vector<uint32_t>{10, 11, 12}));
}

TEST(TickInterest, EntitiesMoveLeaveAndComeBack) {
  RoomCut room(TickInterestConfig{});
  room.tick({entity_at(1, 0, 0), entity_at(2, 500, 0)});
  EXPECT_EQ(room.seen_from(0, 0), (std::vector<uint32_t>{1}));
  room.tick({entity_at(1, 0, 0), entity_at(2, 20, 0)});  // 2 walked into view
  EXPECT_EQ(room.seen_from(0, 0), (std::vector<uint32_t>{1, 2}));
  room.tick({entity_at(1, 0, 0)});  // 2 despawned: it leaves the world
  EXPECT_EQ(room.interest().index_of(2), kNoEntity);
  EXPECT_EQ(room.seen_from(0, 0), (std::vector<uint32_t>{1}));
  room.tick({entity_at(1, 0, 0), entity_at(2, 10, 0)});  // and a new 2 files again
  EXPECT_EQ(room.seen_from(0, 0), (std::vector<uint32_t>{1, 2}));
}

TEST(TickInterest, AFullWorldCountsWhatItCouldNotFile) {
  TickInterestConfig config;
  config.max_entities = 4;
  RoomCut room(config);
  std::vector<ReplicaState> tick;
  for (uint32_t id = 1; id <= 6; ++id) tick.push_back(entity_at(id, static_cast<float>(id), 0));
  room.tick(tick);
  EXPECT_EQ(room.interest().overflowed(), 2u);
  EXPECT_EQ(room.entities().size(), 4u) << "what was not filed is in nobody's frame";
  EXPECT_EQ(room.seen_from(0, 0).size(), 4u);
  tick.resize(3);  // three left: room again for all of them
  room.tick(tick);
  EXPECT_EQ(room.seen_from(0, 0), (std::vector<uint32_t>{1, 2, 3}));
}

TEST(TickInterest, APawnIsSeenByItsClientAtAnyDistanceAndMarkedAsItsOwn) {
  RoomCut room(TickInterestConfig{});
  room.tick({entity_at(1, 0, 0), entity_at(7, 900, 900)}, {}, {PawnMark{7, 3}});
  const uint32_t pawn = room.interest().index_of(7);
  ASSERT_NE(pawn, kNoEntity);
  EXPECT_EQ(room.interest().world().owner_client(pawn), 3);
  EXPECT_NE(room.interest().world().flags(pawn) & kInterestImportant, 0);
  EXPECT_EQ(room.seen_from(0, 0, pawn), (std::vector<uint32_t>{7})) << "centred on the pawn, not the given point";
}

TEST(TickInterest, NotesApplyWhileWrittenAndGoWhenTheGameStopsWritingThem) {
  RoomCut room(TickInterestConfig{});
  const std::vector<ReplicaState> states = {entity_at(1, 0, 0), entity_at(2, 5, 5), entity_at(3, 4000, 4000),
                                            entity_at(4, 10, 10), entity_at(5, 3000, 0)};
  RecordInterest secret;
  secret.private_to = 9;
  RecordInterest everywhere;
  everywhere.always_relevant = true;
  RecordInterest child;
  child.parent_id = 5;
  room.tick(states, {{2, secret}, {3, everywhere}, {4, child}});
  const InterestWorld& world = room.interest().world();
  const uint32_t two = room.interest().index_of(2), three = room.interest().index_of(3), four = room.interest().index_of(4);
  EXPECT_EQ(world.owner_client(two), 9);
  EXPECT_NE(world.flags(two) & kInterestOwnerPrivate, 0);
  EXPECT_NE(world.flags(three) & kInterestAlwaysRelevant, 0);
  EXPECT_EQ(world.parent(four), room.interest().index_of(5));
  // A stranger sees the always-relevant 3 km away and the child with its far parent, not the secret.
  EXPECT_EQ(room.seen_from(0, 0), (std::vector<uint32_t>{1, 3, 4, 5}));
  // The next tick writes no notes: every attribute is back to public, spatial and solo.
  room.tick(states);
  EXPECT_EQ(world.flags(two), 0);
  EXPECT_EQ(world.owner_client(two), kNoOwnerClient);
  EXPECT_EQ(world.flags(three), 0);
  EXPECT_EQ(world.parent(four), kNoEntity);
  EXPECT_EQ(room.seen_from(0, 0), (std::vector<uint32_t>{1, 2, 4}));
}

TEST(TickInterest, NotesItCannotHonourAreCountedByName) {
  TickInterestConfig config;
  config.max_scene_frames = 4;
  RoomCut room(config);
  RecordInterest orphan;
  orphan.parent_id = 77;  // never written
  RecordInterest far_frame;
  far_frame.scene_frame = 9;  // past max_scene_frames
  room.tick({entity_at(1, 0, 0), entity_at(2, 1, 1)}, {{1, orphan}, {2, far_frame}, {404, RecordInterest{}}});
  const auto& refusals = room.interest().note_refusals();
  EXPECT_EQ(refusals[InterestNoteRefusal::unknown_parent], 1u);
  EXPECT_EQ(refusals[InterestNoteRefusal::scene_frame_range], 1u);
  EXPECT_EQ(refusals[InterestNoteRefusal::unknown_record], 1u);
  EXPECT_EQ(room.seen_from(0, 0), (std::vector<uint32_t>{1, 2})) << "the records themselves are still filed";
}

}  // namespace
}  // namespace tickwire
