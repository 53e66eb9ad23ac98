// InterestSet: which entities one client may see this tick, and InterestComposer, the one place
// that decides it: the entities within the client's radius, plus the always-relevant set and the
// client's own pawn, plus every required parent of those, minus the entities private to another
// owner. The subtraction comes last, so no union (not even always-relevant) can leak a private one.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tickwire/replication/interest/interest_marks.h"
#include "tickwire/replication/interest/interest_world.h"

namespace tickwire {

// Who is looking, from where.
struct InterestViewer {
  uint16_t client = 0;
  float x_m = 0.0f;
  float z_m = 0.0f;
  float radius_m = 100.0f;
  uint32_t pawn = kNoEntity;  // the client's own pawn: always in its set
};

class InterestSet {
 public:
  static constexpr uint32_t kMaxEntities = 16384;  // the most entities one client's set can hold

  explicit InterestSet(uint32_t capacity);

  std::span<const uint32_t> entities() const { return entities_; }
  uint32_t size() const { return static_cast<uint32_t>(entities_.size()); }
  uint32_t capacity() const { return capacity_; }
  // Entities the last composition left out because the set was full (pawn and always-relevant
  // entities go in first, so the overflow falls on radius matches, in grid order).
  uint32_t overflowed() const { return overflowed_; }

 private:
  friend class InterestComposer;
  bool add(uint32_t entity) {
    if (entities_.size() >= capacity_) {
      ++overflowed_;
      return false;
    }
    entities_.push_back(entity);
    return true;
  }

  uint32_t capacity_;
  uint32_t overflowed_ = 0;
  std::vector<uint32_t> entities_;  // reserved to capacity_ once
};

class InterestComposer {
 public:
  explicit InterestComposer(uint32_t max_entities) : seen_(max_entities) {}

  // Rewrites `out` for this viewer. Order: pawn, always-relevant, radius matches, then required
  // parents pulled in behind them; owner-private entities of other clients are removed last.
  void compose(const InterestWorld& world, const InterestViewer& viewer, InterestSet& out);

 private:
  void pull_in_parents(const InterestWorld& world, InterestSet& out);

  EntityMarks seen_;
};

}  // namespace tickwire
