// Signals are events and boolean levels, never analog values: a level (a gate, a pressed latch, a
// counter sitting at its maximum) is held, and only its edges may fire an output. This is the one
// place that says what an edge is, so every behaviour fires on the same rule.
#pragma once

#include "tickwire/core/byte_record.h"

namespace tickwire {

class BooleanLevel {
 public:
  constexpr explicit BooleanLevel(bool initial = false) : value_(initial) {}
  constexpr bool value() const { return value_; }
  // Sets the level; true when it changed (an edge worth firing for), false when it already held it.
  constexpr bool set(bool value) {
    if (value == value_) return false;
    value_ = value;
    return true;
  }
  constexpr bool toggle() { return set(!value_); }

  // The level in a checkpoint, and back (false, the level as it was, when the byte does not read).
  void save(ByteRecordWriter& write) const { write.flag(value_); }
  bool restore(ByteRecordReader& read) {
    const bool value = read.flag();
    if (!read.ok()) return false;
    value_ = value;
    return true;
  }

 private:
  bool value_ = false;
};

}  // namespace tickwire
