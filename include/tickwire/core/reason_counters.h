// "Count the reason": a fixed array of counters indexed by a reason enum (decode errors, reject
// reasons, drop causes). No allocation, readable at any time for stats and tests.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace tickwire {

template <class Reason, std::size_t N = static_cast<std::size_t>(Reason::count_)>
class ReasonCounters {
 public:
  void add(Reason reason, uint64_t n = 1) { counts_[index(reason)] += n; }
  uint64_t operator[](Reason reason) const { return counts_[index(reason)]; }
  uint64_t total() const {
    uint64_t sum = 0;
    for (uint64_t c : counts_) sum += c;
    return sum;
  }
  void reset() { counts_.fill(0); }
  // Adds every count of `other` (folding a closed connection's counters into a total).
  void merge(const ReasonCounters& other) {
    for (std::size_t i = 0; i < N; ++i) counts_[i] += other.counts_[i];
  }
  static constexpr std::size_t size() { return N; }

 private:
  static std::size_t index(Reason reason) {
    auto i = static_cast<std::size_t>(reason);
    return i < N ? i : N - 1;
  }
  std::array<uint64_t, N> counts_{};
};

// Calls `visit(reason, count)` for every nonzero counter, in the enum's order.
template <class Reason, std::size_t N, class Visit>
void visit_nonzero(const ReasonCounters<Reason, N>& counters, Visit&& visit) {
  for (std::size_t i = 0; i < N; ++i) {
    const auto reason = static_cast<Reason>(i);
    if (counters[reason] != 0) visit(reason, counters[reason]);
  }
}

}  // namespace tickwire
