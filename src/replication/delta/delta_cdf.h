// An adaptive distribution over 16 ordered symbols for the SnapshotDelta range coder: one coding
// step picks a symbol (an integer's length slot) where a chain of yes/no decisions took one each.
// Integer-only with a power-of-two total, so both ends compute identical tables on every platform.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace tickwire::delta {

inline constexpr unsigned kCdfBits = 15;
inline constexpr uint32_t kCdfTotal = 1u << kCdfBits;
inline constexpr std::size_t kCdfSymbols = 16;
// Every symbol keeps at least this frequency (of kCdfTotal), whatever came before: any symbol
// stays codable, at most log2(kCdfTotal / kCdfFloor) = 12 bits.
inline constexpr uint32_t kCdfFloor = 8;

// Bounds from relative weights (their sum nonzero and below 2^40): each symbol gets kCdfFloor and
// its share of the rest. For priors and tables built at compile time (it divides).
constexpr std::array<uint16_t, kCdfSymbols> cdf_bounds(const std::array<uint64_t, kCdfSymbols>& weight) {
  uint64_t total = 0;
  for (const uint64_t w : weight) total += w;
  std::array<uint16_t, kCdfSymbols> below{};
  uint64_t before = 0;
  for (std::size_t s = 1; s < kCdfSymbols; ++s) {
    before += weight[s - 1];
    below[s] = static_cast<uint16_t>(s * kCdfFloor + before * (kCdfTotal - kCdfSymbols * kCdfFloor) / total);
  }
  return below;
}

using CdfTargets = std::array<std::array<int16_t, kCdfSymbols>, kCdfSymbols>;

// What a coded symbol moves the bounds toward, for a table whose symbols are ordered by value:
// the bounds giving the symbol 10/16 of what the floors leave and each neighbour 3/16 (symbol 0
// keeps its missing neighbour's share), so a value makes its neighbours likelier too; for the wide
// residuals of tumbling bodies this learns faster than moving toward the symbol alone. The last
// symbol is a table's escape (every longer length), no neighbour of the one below: it moves
// toward itself alone, so an escape that always comes costs next to nothing.
inline constexpr uint64_t kCdfCenterSixteenths = 10;
constexpr CdfTargets cdf_targets(bool smooth) {
  constexpr uint64_t kSide = (16 - kCdfCenterSixteenths) / 2;
  CdfTargets targets{};
  for (std::size_t s = 0; s < kCdfSymbols; ++s) {
    std::array<uint64_t, kCdfSymbols> weight{};
    weight[s] = 16;
    if (smooth && s + 1 < kCdfSymbols) {
      weight[s + 1] = kSide;
      weight[s] -= kSide;
      if (s > 0) {
        weight[s - 1] = kSide;
        weight[s] -= kSide;
      }
    }
    const std::array<uint16_t, kCdfSymbols> bounds = cdf_bounds(weight);
    for (std::size_t i = 0; i < kCdfSymbols; ++i) targets[s][i] = static_cast<int16_t>(bounds[i]);
  }
  return targets;
}
inline constexpr CdfTargets kCdfSmoothTargets = cdf_targets(true);
// For a table whose symbols are not smooth in value: each symbol moves toward itself alone.
inline constexpr CdfTargets kCdfSharpTargets = cdf_targets(false);

// Eight 16-bit lanes (a GCC and clang vector extension; a target without SIMD gets scalar code
// with the same results). Bounds and targets are below 2^15, so their differences fit a lane.
using CdfLanes = int16_t __attribute__((vector_size(16)));
inline constexpr std::size_t kCdfLaneCount = 8;
static_assert(kCdfSymbols == 2 * kCdfLaneCount, "the update works on two vectors of lanes");

// below[s] is the total frequency of the symbols before s (below[0] = 0; the last symbol ends at
// kCdfTotal). Each coded symbol moves every bound 2^-shift of the way (rounding down) toward its
// target bounds (smooth or sharp); the shift grows with the symbols seen (fast start, then
// settle). Moving toward bounds whose gaps are all >= kCdfFloor keeps every gap >= kCdfFloor,
// rounding included.
struct AdaptiveCdf {
  std::array<uint16_t, kCdfSymbols> below = cdf_bounds({1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1});
  uint8_t seen = 0;
  bool sharp = false;  // kCdfSharpTargets instead of kCdfSmoothTargets

  static constexpr AdaptiveCdf with_weights(const std::array<uint64_t, kCdfSymbols>& weight, bool sharp = false) {
    AdaptiveCdf m;
    m.below = cdf_bounds(weight);
    m.sharp = sharp;
    return m;
  }

  // symbol < kCdfSymbols (the coder's callers guarantee it).
  void update(unsigned symbol) {
    // The shift by symbols seen (a nibble each): 2, then 3 five times, then 4 for good; a sharp
    // table, whose one symbol usually repeats (a record step, the changed groups), learns it faster:
    // 1, 1, 2, 2, 3, 3, then 4 (the bodies scene's first records paid about 14 bits a body more).
    constexpr uint32_t kShiftBySeen = 0x4333332u;
    constexpr uint32_t kSharpShiftBySeen = 0x4332211u;
    constexpr uint8_t kLastSeen = 6;
    const auto shift = static_cast<int16_t>(((sharp ? kSharpShiftBySeen : kShiftBySeen) >> (4u * seen)) & 0xFu);
    const CdfTargets& targets = sharp ? kCdfSharpTargets : kCdfSmoothTargets;
    seen = static_cast<uint8_t>(seen + (seen < kLastSeen ? 1 : 0));
    CdfLanes low, high, target_low, target_high;
    std::memcpy(&low, below.data(), sizeof low);
    std::memcpy(&high, below.data() + kCdfLaneCount, sizeof high);
    std::memcpy(&target_low, targets[symbol].data(), sizeof target_low);
    std::memcpy(&target_high, targets[symbol].data() + kCdfLaneCount, sizeof target_high);
    low += (target_low - low) >> shift;
    high += (target_high - high) >> shift;
    std::memcpy(below.data(), &low, sizeof low);
    std::memcpy(below.data() + kCdfLaneCount, &high, sizeof high);
  }
};

}  // namespace tickwire::delta
