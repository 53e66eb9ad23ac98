// Implementation of the shared test helpers.
#include "support.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace tickwire::test {
namespace {

[[noreturn]] void throwing_handler(const char* expression, const char* message, const AssertSite& where) {
  throw AssertionFailure(std::string(expression) + ": " + message + " at " + where.file + ":" +
                         std::to_string(where.line));
}

}  // namespace

ThrowOnAssert::ThrowOnAssert() : previous_(set_assert_handler(&throwing_handler)) {}
ThrowOnAssert::~ThrowOnAssert() { set_assert_handler(previous_); }

std::filesystem::path source_dir() { return TICKWIRE_SOURCE_DIR; }
std::filesystem::path fixtures_dir() { return source_dir() / "tests" / "fixtures"; }

uint64_t test_seed(uint64_t fallback) {
  uint64_t seed = fallback;
  if (const char* env = std::getenv("TICKWIRE_SEED")) seed = std::strtoull(env, nullptr, 10);
  ::testing::Test::RecordProperty("seed", std::to_string(seed));
  std::printf("[ seed ] %llu (reproduce with TICKWIRE_SEED=%llu)\n", static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(seed));
  return seed;
}

}  // namespace tickwire::test
