// A logic node is one map object, named by a stable id the host chooses (the object's index in the
// installed map), so the host addresses a node without a lookup and an object that spawns back
// takes its old id. What tells the old node from the new one is the runtime's generation, not the id.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>

namespace tickwire {

struct LogicNodeId {
  uint32_t value = 0;
  constexpr auto operator<=>(const LogicNodeId&) const = default;
};

}  // namespace tickwire

template <>
struct std::hash<tickwire::LogicNodeId> {
  std::size_t operator()(tickwire::LogicNodeId id) const noexcept { return std::hash<uint32_t>{}(id.value); }
};
