// The input of a fuzzer that splices into a valid file, shared by the save-state and room-recording
// fuzzers and their seed tests: mode byte 0, the input's rest as a whole file; mode 1, the valid bytes
// up to the rest's first two bytes (a u16 offset, modulo the valid length + 1) and the rest after them,
// so the fuzzer reaches past a layout's head.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace tickwire::world::rigs {

inline constexpr uint8_t kFuzzWhole = 0;
inline constexpr uint8_t kFuzzSpliced = 1;

// The bytes `input` names; `valid` (built on first use by its caller) is read only when spliced.
template <class ValidBytes>
std::vector<uint8_t> fuzz_spliced_bytes(std::span<const uint8_t> input, ValidBytes&& valid_bytes) {
  if (input.empty()) return {};
  const std::span<const uint8_t> rest = input.subspan(1);
  if (input[0] != kFuzzSpliced || rest.size() < 2) return {rest.begin(), rest.end()};
  const std::vector<uint8_t>& valid = valid_bytes();
  const std::size_t at = (std::size_t{rest[0]} | std::size_t{rest[1]} << 8) % (valid.size() + 1);
  std::vector<uint8_t> out(valid.begin(), valid.begin() + static_cast<std::ptrdiff_t>(at));
  out.insert(out.end(), rest.begin() + 2, rest.end());
  return out;
}

// The spliced input that names the valid bytes up to `at`, then `rest` (what a seed is built from).
inline std::vector<uint8_t> fuzz_splice_input(std::size_t at, const std::vector<uint8_t>& rest = {}) {
  std::vector<uint8_t> input{kFuzzSpliced, static_cast<uint8_t>(at), static_cast<uint8_t>(at >> 8)};
  input.insert(input.end(), rest.begin(), rest.end());
  return input;
}

}  // namespace tickwire::world::rigs
