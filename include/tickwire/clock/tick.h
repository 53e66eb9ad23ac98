// Tick: the number of a fixed simulation step, a strong type of its own. A tick is not a time and
// not a plain integer: it does not convert from MonoTime, WallTime or int, so a slot number cannot
// be passed where a timestamp is expected (or the reverse). Arithmetic is in whole ticks only.
#pragma once

#include <compare>
#include <cstdint>

namespace tickwire {

class Tick {
 public:
  constexpr Tick() = default;
  // The only way in from an integer: named, so a call site says it means a tick number.
  static constexpr Tick from_value(int64_t value) { return Tick(value); }
  constexpr int64_t value() const { return value_; }
  // The low 32 bits, the width a tick number has on the wire.
  constexpr uint32_t wire_u32() const { return static_cast<uint32_t>(value_); }

  constexpr Tick operator+(int64_t ticks) const { return Tick(value_ + ticks); }
  constexpr Tick operator-(int64_t ticks) const { return Tick(value_ - ticks); }
  // The distance between two ticks, in ticks.
  constexpr int64_t operator-(Tick other) const { return value_ - other.value_; }
  constexpr Tick& operator+=(int64_t ticks) {
    value_ += ticks;
    return *this;
  }
  constexpr Tick& operator-=(int64_t ticks) {
    value_ -= ticks;
    return *this;
  }
  constexpr Tick& operator++() {
    ++value_;
    return *this;
  }
  constexpr Tick operator++(int) {
    Tick before = *this;
    ++value_;
    return before;
  }
  constexpr auto operator<=>(const Tick&) const = default;

 private:
  constexpr explicit Tick(int64_t value) : value_(value) {}
  int64_t value_ = 0;
};

}  // namespace tickwire
