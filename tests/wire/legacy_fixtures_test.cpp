// The frozen v0 packets: they stay as the v0 build wrote them (TICKWIRE_WIRE_FIXTURES=write-v0
// rewrites them, which should never be needed), and today's build reads each one through a plan
// made from the v0 schema text alone.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>

#include "legacy_v0.h"
#include "support.h"
#include "tickwire/core/hex.h"

namespace tickwire {
namespace {

std::filesystem::path v0_dir() { return test::fixtures_dir() / "wire" / "v0"; }

std::vector<uint8_t> slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

void spill(const std::filesystem::path& path, std::span<const uint8_t> bytes) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

bool writing_v0() {
  const char* mode = std::getenv("TICKWIRE_WIRE_FIXTURES");
  return mode && std::string(mode) == "write-v0";
}

TEST(LegacyWireFixtures, V0SetIsFrozen) {
  const std::string text = test::legacy_v0_schema_text();
  if (writing_v0()) spill(v0_dir() / "schema.txt", std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
  const auto schema = slurp(v0_dir() / "schema.txt");
  EXPECT_EQ(std::string(schema.begin(), schema.end()), text);
  for (const auto& s : test::legacy_v0_samples()) {
    SCOPED_TRACE(s.file);
    if (writing_v0()) spill(v0_dir() / s.file, s.packet);
    const auto golden = slurp(v0_dir() / s.file);
    EXPECT_EQ(to_hex(golden), to_hex(s.packet));
  }
}

}  // namespace
}  // namespace tickwire
