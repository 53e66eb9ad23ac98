// What makes a type a wire shape: a name the schema spells (`static constexpr wire_name`) and a
// field table, `template <class W> void fields(W& w)` as a member (or a free `fields(W&, T&)`).
// visit_fields() calls whichever the shape provides.
#pragma once

#include <concepts>
#include <string_view>

namespace tickwire::wire {

template <class T>
concept NamedShape = requires {
  { T::wire_name } -> std::convertible_to<std::string_view>;
};

template <class W, class T>
void visit_fields(W& w, T& value) {
  if constexpr (requires { value.fields(w); }) {
    value.fields(w);
  } else {
    fields(w, value);
  }
}

}  // namespace tickwire::wire
