// Checked-in fuzz seeds: each seed test builds its inputs from the shapes they claim to exercise,
// and this holds the files under tests/fixtures/fuzz/ to them (TICKWIRE_FUZZ_SEEDS=write
// regenerates), so a seed never drifts from what it says it tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "support.h"
#include "tickwire/core/bytes.h"

namespace tickwire::test {

inline constexpr std::size_t kFuzzSeedMaxBytes = 4096;  // scripts/fuzz-all's -max_len

inline bool writing_fuzz_seeds() {
  const char* mode = std::getenv("TICKWIRE_FUZZ_SEEDS");
  return mode != nullptr && std::string(mode) == "write";
}

// The seed file `dir/name` holds exactly `fresh` (written first when regenerating).
inline void check_fuzz_seed(const std::filesystem::path& dir, const std::string& name, const std::vector<uint8_t>& fresh) {
  EXPECT_LE(fresh.size(), kFuzzSeedMaxBytes) << name << " must fit scripts/fuzz-all's -max_len";
  if (writing_fuzz_seeds()) write_file_bytes(dir / name, fresh);
  ASSERT_TRUE(std::filesystem::exists(dir / name)) << "missing seed " << name << " (TICKWIRE_FUZZ_SEEDS=write regenerates)";
  EXPECT_EQ(read_file_bytes(dir / name), fresh) << name;
}

// A stream of messages as the fuzz targets read them: each one behind its u16 little-endian length.
inline void append_length_prefixed(std::vector<uint8_t>& out, std::span<const uint8_t> body) {
  uint8_t length[2];
  store_le<uint16_t>(length, static_cast<uint16_t>(body.size()));
  out.insert(out.end(), length, length + 2);
  out.insert(out.end(), body.begin(), body.end());
}

}  // namespace tickwire::test
