// PawnValues: the game's registered floats about a pawn (GameVocabulary::pawn_values: a stance
// height, an eye height...), as the owner detail and a forgiveness claim carry them, in
// registration order. Held in place: every owner detail copies them every tick.
#pragma once

#include <string_view>

#include "tickwire/core/inline_vector.h"
#include "tickwire/protocol/constants.h"

namespace tickwire::protocol {

struct PawnValue {
  static constexpr std::string_view wire_name = "PawnValue";
  float value = 0;
  template <class W>
  void fields(W& w) {
    w.f32("value", value);
  }
  friend bool operator==(const PawnValue&, const PawnValue&) = default;
};

using PawnValues = InlineVector<PawnValue, MaxPawnValues>;

}  // namespace tickwire::protocol
