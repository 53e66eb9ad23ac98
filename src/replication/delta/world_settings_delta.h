// The world settings of a SnapshotDelta body, coded against the baseline's (the defaults without
// one, as in the rest table's frame): one decision while they stay, as in nearly every body (about
// 0.01 bit), else each setting as an exact float residual. A change is an operator's or a game's
// rare act; the settings travel in every snapshot at no cost while they hold.
#pragma once

#include "delta_coding.h"
#include "tickwire/protocol/world_settings.h"

namespace tickwire::delta {

struct WorldModels {
  BitModel same;
  UIntModel value;

  static WorldModels fresh();
};

template <class C>
void code_world(C& c, WorldModels& m, const protocol::WorldSettings& b, protocol::WorldSettings& s) {
  bool same = same_bits(s.forgiveness, b.forgiveness) && same_bits(s.time_scale, b.time_scale);
  c.bit(m.same, same);
  if (same) {
    if constexpr (C::kDecoding) s = b;
    return;
  }
  code_real(c, m.value, s.forgiveness, ordered_of(b.forgiveness));
  code_real(c, m.value, s.time_scale, ordered_of(b.time_scale));
  c.require(protocol::valid_world_settings(s), DeltaRefusal::value_out_of_range);  // never a NaN time scale
}

}  // namespace tickwire::delta
