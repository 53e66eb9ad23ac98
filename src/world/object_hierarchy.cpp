// The tree from the keys, then each object's driver by walking up from it: a mover drives itself;
// a physics prop stops the walk (its subtree rides nothing); a walk that reaches the root finds none.
#include "tickwire/world/object_hierarchy.h"

#include <string_view>

namespace tickwire::world {
namespace {

bool is_prop(const MapObject& object) { return object.component("physics_prop") != nullptr; }

}  // namespace

bool ObjectHierarchy::moves_on_its_own(const MapObject& object) { return object.component("mover") != nullptr; }

ObjectHierarchy ObjectHierarchy::build(const Map& map) {
  ObjectHierarchy h;
  const std::span<const MapObject> objects = map.objects();
  h.parent_.assign(objects.size(), kNone);
  h.driver_.assign(objects.size(), kNone);
  for (uint32_t i = 0; i < objects.size(); ++i) {
    const std::string_view key = objects[i].key;
    const std::size_t slash = key.rfind('/');
    if (slash == std::string_view::npos) continue;
    if (const std::optional<uint32_t> up = map.object_index(key.substr(0, slash))) h.parent_[i] = *up;
  }
  for (uint32_t i = 0; i < objects.size(); ++i) {
    // The key only ever shortens going up, so the walk ends.
    for (uint32_t at = i; at != kNone; at = h.parent_[at]) {
      if (is_prop(objects[at])) break;
      if (moves_on_its_own(objects[at])) {
        h.driver_[i] = at;
        break;
      }
    }
  }
  return h;
}

std::optional<uint32_t> ObjectHierarchy::parent(uint32_t object_index) const {
  if (object_index >= parent_.size() || parent_[object_index] == kNone) return std::nullopt;
  return parent_[object_index];
}

std::optional<uint32_t> ObjectHierarchy::driver(uint32_t object_index) const {
  if (object_index >= driver_.size() || driver_[object_index] == kNone) return std::nullopt;
  return driver_[object_index];
}

}  // namespace tickwire::world
