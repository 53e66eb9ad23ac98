// The checked-in packets walked with the schema alone: for v1 and the frozen v0 set, each packet
// is stepped over, no codec in the loop, using only the schema text beside it, to its last byte.
#include <gtest/gtest.h>

#include "legacy_v0.h"
#include "support.h"
#include "wire_samples.h"
#include "tickwire/wire/schema_parser.h"
#include "tickwire/wire/schema_walker.h"

namespace tickwire {
namespace {

void walk_fixture_set(const std::string& version, std::size_t expected_packets) {
  const auto dir = test::fixtures_dir() / "wire" / version;
  auto schema = wire::parse_schema(test::read_file_text(dir / "schema.txt"));
  ASSERT_TRUE(schema.ok()) << reason_name(schema.error());
  std::size_t walked = 0;
  for (const auto& file : std::filesystem::directory_iterator(dir)) {
    if (file.path().extension() != ".bin") continue;
    SCOPED_TRACE(file.path().string());
    const auto packet = test::read_file_bytes(file.path());
    ASSERT_FALSE(packet.empty());
    const std::span<const uint8_t> body = std::span(packet).subspan(1);
    bool found = false;
    for (auto direction : {wire::Direction::client_to_server, wire::Direction::server_to_client}) {
      const auto* message = schema->find_message(packet[0], direction);
      if (!message) continue;
      found = true;
      auto consumed = wire::walk_message(*schema, *message, body);
      ASSERT_TRUE(consumed.ok()) << reason_name(consumed.error());
      EXPECT_EQ(*consumed, body.size()) << "the walk must end at the packet's last byte";
    }
    EXPECT_TRUE(found) << "the schema has no message with id " << int(packet[0]);
    ++walked;
  }
  EXPECT_EQ(walked, expected_packets);
}

TEST(SchemaFixtures, EveryV1PacketWalksToItsLastByte) { walk_fixture_set("v1", test::wire_samples().size()); }
TEST(SchemaFixtures, EveryV0PacketWalksToItsLastByte) { walk_fixture_set("v0", test::legacy_v0_samples().size()); }

}  // namespace
}  // namespace tickwire
