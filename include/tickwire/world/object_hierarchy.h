// ObjectHierarchy: which object carries which (seed 000, "A child follows its parent"). A carried
// child's key is its parent's key, a slash and its own (map records, docs/map-format.md), so the
// tree is read off the keys, folders and every kind alike. What moves on its own is one predicate (an
// object carrying a mover); every object under one is driven by its nearest such ancestor and is
// re-posed with it every tick (a plate in a folder on a lift rides the lift, a lamp on the plate
// too). A physics prop is neither carried nor carries: the solver owns its pose.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "tickwire/world/map.h"

namespace tickwire::world {

class ObjectHierarchy {
 public:
  // By object index (the objects in file order, the MapObjectTable's).
  static ObjectHierarchy build(const Map& map);

  // The predicate: an object that moves on its own account (it carries a mover).
  static bool moves_on_its_own(const MapObject& object);

  // The object whose key is this one's less its last "/part", if the map holds it.
  std::optional<uint32_t> parent(uint32_t object_index) const;
  // The object whose motion moves this one: itself when it moves on its own, else its nearest
  // ancestor that does; none for a physics prop, anything under one, and anything under no mover.
  std::optional<uint32_t> driver(uint32_t object_index) const;

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  std::vector<uint32_t> parent_;
  std::vector<uint32_t> driver_;
};

}  // namespace tickwire::world
