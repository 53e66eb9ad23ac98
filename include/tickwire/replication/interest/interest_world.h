// InterestWorld: what interest and budget fitting need to know about each replicated entity, in one
// place: where it is (the cell grid), who owns it, whether it is always relevant or owner-private,
// how important it is, which parent it requires and which scene frame it belongs to. Entities are
// the server's dense replication indices [0, max_entities); each insert starts a new incarnation,
// so per-client state kept for an index can tell a reused index from the entity it remembers.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tickwire/replication/interest/interest_grid.h"

namespace tickwire {

inline constexpr uint32_t kNoEntity = UINT32_MAX;
inline constexpr uint16_t kNoOwnerClient = UINT16_MAX;  // owned by no client (the authority)
inline constexpr uint32_t kNoSceneFrame = 0;

// InterestEntity::flags bits.
inline constexpr uint8_t kInterestAlwaysRelevant = uint8_t{1} << 0;  // every client sees it, at any distance
inline constexpr uint8_t kInterestOwnerPrivate = uint8_t{1} << 1;    // only its owner client sees it
inline constexpr uint8_t kInterestImportant = uint8_t{1} << 2;       // rides the pose lane at any distance
inline constexpr uint8_t kInterestKnownFlags = kInterestAlwaysRelevant | kInterestOwnerPrivate | kInterestImportant;

struct InterestEntity {
  float x_m = 0.0f;  // ground-plane position (y is up and not used by interest)
  float z_m = 0.0f;
  uint16_t owner_client = kNoOwnerClient;
  uint8_t flags = 0;
  float importance = 1.0f;  // > 0: the priority floor every tick, wherever the entity is
};

struct InterestWorldConfig {
  InterestGridConfig grid;             // grid.max_entities is the world's capacity
  uint32_t max_always_relevant = 256;  // <= InterestWorld::kMaxAlwaysRelevant
  uint32_t max_scene_frames = 256;     // frame ids 1..this; <= InterestWorld::kMaxSceneFrames
};

class InterestWorld {
 public:
  static constexpr uint32_t kMaxAlwaysRelevant = 4096;
  static constexpr uint32_t kMaxSceneFrames = 65536;
  static constexpr uint32_t kMaxSceneFrameMembers = 64;  // a frame bigger than this is a programmer error
  static constexpr uint32_t kMaxParentDepth = 8;         // ancestors above an entity; deeper chains are never sent
  static constexpr float kMinImportance = 1e-3f;         // keeps every priority > 0, so nothing starves

  explicit InterestWorld(const InterestWorldConfig& config);

  // False (and nothing inserted) only when an always-relevant entity finds that list full.
  [[nodiscard]] bool insert(uint32_t entity, const InterestEntity& attributes);
  void move(uint32_t entity, float x_m, float z_m) { grid_.move(entity, x_m, z_m); }
  // Once a tick after the moves, before the clients' queries: InterestGrid::compact.
  void compact() { grid_.compact(); }
  // Also leaves its scene frame; links from its children go stale (they are never sent until
  // re-parented), and per-client state notices the next incarnation.
  void remove(uint32_t entity);
  // False only when setting kInterestAlwaysRelevant finds that list full (flags then unchanged).
  [[nodiscard]] bool set_flags(uint32_t entity, uint8_t flags);
  void set_owner(uint32_t entity, uint16_t owner_client);
  void set_importance(uint32_t entity, float importance);
  // `parent` must be sent before (and with) `entity`; kNoEntity clears. A link that would close a
  // cycle is a programmer error.
  void set_parent(uint32_t entity, uint32_t parent);
  // Joins frame id 1..max_scene_frames (leaving any earlier one); kNoSceneFrame leaves.
  void set_scene_frame(uint32_t entity, uint32_t frame);

  bool contains(uint32_t entity) const { return grid_.contains(entity); }
  uint32_t max_entities() const { return grid_.max_entities(); }
  uint32_t max_scene_frames() const { return max_scene_frames_; }
  uint32_t size() const { return grid_.size(); }
  const InterestGrid& grid() const { return grid_; }
  float x_m(uint32_t entity) const { return grid_.x_m(entity); }
  float z_m(uint32_t entity) const { return grid_.z_m(entity); }
  // Everything but the position, in one read (the hot paths take this rather than five accessors).
  struct Entry {
    uint32_t incarnation = 0;
    uint32_t parent = kNoEntity;  // as set: may be stale, parent() says whether it still holds
    uint32_t parent_incarnation = 0;
    uint32_t scene_frame = kNoSceneFrame;
    uint32_t always_slot = kNoEntity;  // position in always_relevant()
    float importance = 1.0f;
    uint16_t owner_client = kNoOwnerClient;
    uint8_t flags = 0;
    // Sent on its own: no parent link (live or stale) and no scene frame.
    bool solo() const { return parent == kNoEntity && scene_frame == kNoSceneFrame; }
  };
  const Entry& entry(uint32_t entity) const {
    TW_ASSERT(contains(entity), "interest world does not hold this entity");
    return info_[entity];
  }
  uint8_t flags(uint32_t entity) const { return entry(entity).flags; }
  uint16_t owner_client(uint32_t entity) const { return entry(entity).owner_client; }
  float importance(uint32_t entity) const { return entry(entity).importance; }
  uint32_t incarnation(uint32_t entity) const { return entry(entity).incarnation; }
  uint32_t scene_frame(uint32_t entity) const { return entry(entity).scene_frame; }
  // The live parent, or kNoEntity when there is none; `broken` is set when a parent was set but
  // has since been removed (the entity then must not be sent).
  uint32_t parent(uint32_t entity, bool* broken = nullptr) const {
    const Entry& in = entry(entity);
    if (in.parent != kNoEntity) return linked_parent(in, broken);
    if (broken != nullptr) *broken = false;
    return kNoEntity;  // the common case, inline
  }
  // Some entity has a parent link (live or stale): without one, no set needs parents pulled in and
  // no frame can hold an orphan.
  bool any_parent_links() const { return parent_links_ != 0; }
  std::span<const uint32_t> always_relevant() const { return always_relevant_; }
  std::span<const uint32_t> scene_frame_members(uint32_t frame) const;

 private:
  Entry& info(uint32_t entity) {
    TW_ASSERT(contains(entity), "interest world does not hold this entity");
    return info_[entity];
  }
  uint32_t linked_parent(const Entry& in, bool* broken) const;  // in.parent is set
  bool add_always_relevant(uint32_t entity);
  void drop_always_relevant(uint32_t entity);
  void leave_scene_frame(uint32_t entity);

  InterestGrid grid_;
  uint32_t parent_links_ = 0;  // entities whose Entry::parent is set
  uint32_t max_always_relevant_;
  uint32_t max_scene_frames_;
  std::vector<Entry> info_;
  std::vector<uint32_t> always_relevant_;     // capacity reserved once, never grown past the cap
  std::vector<uint32_t> frame_members_;       // kMaxSceneFrameMembers slots per frame
  std::vector<uint8_t> frame_member_counts_;  // per frame id (index 0 unused)
};

}  // namespace tickwire
