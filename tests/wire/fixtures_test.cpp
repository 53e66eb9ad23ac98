// The golden packets: every codec is held to tests/fixtures/wire/v1/ byte for byte in both
// directions, and the checked-in schema text is this build's. TICKWIRE_WIRE_FIXTURES=write
// regenerates the files so a wire change shows in review.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>

#include "support.h"
#include "tickwire/core/hex.h"
#include "tickwire/protocol/wire_messages.h"
#include "wire_samples.h"

namespace tickwire {
namespace {

std::filesystem::path v1_dir() { return test::fixtures_dir() / "wire" / "v1"; }

bool writing() {
  const char* mode = std::getenv("TICKWIRE_WIRE_FIXTURES");
  return mode && std::string(mode) == "write";
}

TEST(WireFixtures, SchemaTextIsCheckedIn) {
  const std::string& text = protocol::protocol_messages().schema_text();
  const auto path = v1_dir() / "schema.txt";
  if (writing()) test::write_file_text(path, text);
  EXPECT_EQ(test::read_file_text(path), text)
      << "the schema changed: rerun with TICKWIRE_WIRE_FIXTURES=write and review the diff";
}

TEST(WireFixtures, EveryCodecMatchesItsPacketBothWays) {
  const auto samples = test::wire_samples();
  std::set<std::string> registered_seen;
  for (const auto& s : samples) {
    SCOPED_TRACE(s.file);
    const auto path = v1_dir() / s.file;
    if (writing()) test::write_file_bytes(path, s.packet);
    const auto golden = test::read_file_bytes(path);
    ASSERT_FALSE(golden.empty()) << "missing fixture " << path;
    // Encode direction: the typed codec writes exactly the checked-in bytes.
    EXPECT_EQ(to_hex(s.packet), to_hex(golden));
    // Decode direction: the checked-in bytes decode and re-encode to themselves.
    ASSERT_EQ(golden[0], s.message_id);
    std::vector<uint8_t> again;
    ASSERT_TRUE(s.reencode(std::span(golden).subspan(1), again).ok());
    EXPECT_EQ(to_hex(again), to_hex(golden));
    registered_seen.insert(s.message_name);
  }
  // One packet per registered message kind at least.
  for (const auto& entry : protocol::protocol_messages().all()) {
    EXPECT_TRUE(registered_seen.count(std::string(entry.name))) << "no fixture for " << entry.name;
  }
  // No stale files: every .bin in the directory is a sample.
  for (const auto& file : std::filesystem::directory_iterator(v1_dir())) {
    if (file.path().extension() != ".bin") continue;
    bool known = false;
    for (const auto& s : samples) known |= s.file == file.path().filename().string();
    EXPECT_TRUE(known) << "stale fixture " << file.path();
  }
}

}  // namespace
}  // namespace tickwire
