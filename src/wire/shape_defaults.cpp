// The defaults table the describe walk fills, shape by shape.
#include "tickwire/wire/shape_defaults.h"

namespace tickwire::wire {

void ShapeDefaults::add(std::string_view shape, FieldDefault value) {
  auto it = shapes_.find(shape);
  if (it == shapes_.end()) it = shapes_.emplace(std::string(shape), std::vector<FieldDefault>{}).first;
  it->second.push_back(std::move(value));
}

std::span<const FieldDefault> ShapeDefaults::of(std::string_view shape) const {
  const auto it = shapes_.find(shape);
  if (it == shapes_.end()) return {};
  return it->second;
}

}  // namespace tickwire::wire
