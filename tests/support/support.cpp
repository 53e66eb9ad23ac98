// Implementation of the shared test helpers.
#include "support.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
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
std::vector<uint8_t> read_file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

std::string read_file_text(const std::filesystem::path& path) {
  const auto bytes = read_file_bytes(path);
  return std::string(bytes.begin(), bytes.end());
}

void write_file_bytes(const std::filesystem::path& path, std::span<const uint8_t> bytes) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

void write_file_text(const std::filesystem::path& path, const std::string& text) {
  write_file_bytes(path, std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

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
