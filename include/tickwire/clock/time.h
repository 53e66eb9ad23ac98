// Typed time. MonoTime (cadence: ticks, timeouts, resends) and WallTime (records, tokens) are
// distinct types so one cannot be passed for the other; the only conversion is through an explicit
// TimeAnchor. Duration is shared. Everything is integer nanoseconds: exact, and no float drift.
#pragma once

#include <compare>
#include <cstdint>

namespace tickwire {

class Duration {
 public:
  constexpr Duration() = default;
  static constexpr Duration nanoseconds(int64_t ns) { return Duration(ns); }
  static constexpr Duration microseconds(int64_t us) { return Duration(us * 1000); }
  static constexpr Duration milliseconds(int64_t ms) { return Duration(ms * 1000000); }
  static constexpr Duration seconds(int64_t s) { return Duration(s * 1000000000); }
  static constexpr Duration from_seconds(double s) { return Duration(static_cast<int64_t>(s * 1e9)); }
  static constexpr Duration from_milliseconds(double ms) { return Duration(static_cast<int64_t>(ms * 1e6)); }

  constexpr int64_t ns() const { return ns_; }
  constexpr double seconds_f() const { return static_cast<double>(ns_) * 1e-9; }
  constexpr double milliseconds_f() const { return static_cast<double>(ns_) * 1e-6; }

  constexpr Duration operator+(Duration o) const { return Duration(ns_ + o.ns_); }
  constexpr Duration operator-(Duration o) const { return Duration(ns_ - o.ns_); }
  constexpr Duration operator-() const { return Duration(-ns_); }
  constexpr Duration operator*(int64_t k) const { return Duration(ns_ * k); }
  constexpr Duration operator/(int64_t k) const { return Duration(ns_ / k); }
  constexpr Duration& operator+=(Duration o) {
    ns_ += o.ns_;
    return *this;
  }
  constexpr Duration& operator-=(Duration o) {
    ns_ -= o.ns_;
    return *this;
  }
  constexpr auto operator<=>(const Duration&) const = default;

 private:
  constexpr explicit Duration(int64_t ns) : ns_(ns) {}
  int64_t ns_ = 0;
};

// A point on one clock. Tag makes MonoTime and WallTime different types.
template <class Tag>
class TimePoint {
 public:
  constexpr TimePoint() = default;
  static constexpr TimePoint from_ns(int64_t ns) { return TimePoint(ns); }
  static constexpr TimePoint from_seconds(double s) { return TimePoint(static_cast<int64_t>(s * 1e9)); }
  constexpr int64_t ns() const { return ns_; }
  constexpr double seconds_f() const { return static_cast<double>(ns_) * 1e-9; }

  constexpr TimePoint operator+(Duration d) const { return TimePoint(ns_ + d.ns()); }
  constexpr TimePoint operator-(Duration d) const { return TimePoint(ns_ - d.ns()); }
  constexpr Duration operator-(TimePoint o) const { return Duration::nanoseconds(ns_ - o.ns_); }
  constexpr TimePoint& operator+=(Duration d) {
    ns_ += d.ns();
    return *this;
  }
  constexpr auto operator<=>(const TimePoint&) const = default;

 private:
  constexpr explicit TimePoint(int64_t ns) : ns_(ns) {}
  int64_t ns_ = 0;
};

struct MonoTag {};
struct WallTag {};
using MonoTime = TimePoint<MonoTag>;  // process-relative, monotonic: cadence only
using WallTime = TimePoint<WallTag>;  // nanoseconds since the Unix epoch: records and tokens

// The one sanctioned conversion: wall = anchor.wall + (mono - anchor.mono).
struct TimeAnchor {
  MonoTime mono;
  WallTime wall;
  constexpr WallTime to_wall(MonoTime t) const { return wall + (t - mono); }
  constexpr MonoTime to_mono(WallTime t) const { return mono + (t - wall); }
};

}  // namespace tickwire
