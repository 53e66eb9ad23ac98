// Shared test helpers: a scoped assertion handler that throws (so a test can expect a programmer
// error without dying), the source-tree path for fixtures, and a seed banner for simulation tests.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>
#include <stdexcept>
#include <string>

#include "tickwire/core/assert.h"

namespace tickwire::test {

struct AssertionFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// While alive, TW_ASSERT throws AssertionFailure instead of aborting.
class ThrowOnAssert {
 public:
  ThrowOnAssert();
  ~ThrowOnAssert();
  ThrowOnAssert(const ThrowOnAssert&) = delete;
  ThrowOnAssert& operator=(const ThrowOnAssert&) = delete;

 private:
  AssertHandler previous_;
};

std::filesystem::path source_dir();
// Whole-file reads and writes for fixtures and seeds (an unreadable file reads as empty; a write
// creates the parent folders).
std::vector<uint8_t> read_file_bytes(const std::filesystem::path& path);
std::string read_file_text(const std::filesystem::path& path);
void write_file_bytes(const std::filesystem::path& path, std::span<const uint8_t> bytes);
void write_file_text(const std::filesystem::path& path, const std::string& text);
std::filesystem::path fixtures_dir();

// A seed for a simulation test: TICKWIRE_SEED from the environment, else `fallback`.
// Records it so a failing test prints "seed=N" (reproduce with TICKWIRE_SEED=N).
uint64_t test_seed(uint64_t fallback);

}  // namespace tickwire::test
