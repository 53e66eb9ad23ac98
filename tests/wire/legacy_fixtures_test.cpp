// The frozen v0 packets: they stay as the v0 build wrote them (TICKWIRE_WIRE_FIXTURES=write-v0
// rewrites them, which should never be needed), and today's build reads each one through a plan
// made from the v0 schema text alone.
#include <gtest/gtest.h>

#include <cstdlib>

#include "legacy_v0.h"
#include "support.h"
#include "tickwire/core/hex.h"
#include "tickwire/protocol/input_frame.h"
#include "tickwire/protocol/material_set.h"
#include "tickwire/protocol/record_batch.h"
#include "tickwire/protocol/server_info.h"
#include "tickwire/protocol/wire_messages.h"
#include "tickwire/wire/wire_plan.h"

namespace tickwire {
namespace {

std::filesystem::path v0_dir() { return test::fixtures_dir() / "wire" / "v0"; }

bool writing_v0() {
  const char* mode = std::getenv("TICKWIRE_WIRE_FIXTURES");
  return mode && std::string(mode) == "write-v0";
}

TEST(LegacyWireFixtures, V0SetIsFrozen) {
  const std::string text = test::legacy_v0_schema_text();
  if (writing_v0()) test::write_file_text(v0_dir() / "schema.txt", text);
  EXPECT_EQ(test::read_file_text(v0_dir() / "schema.txt"), text);
  for (const auto& s : test::legacy_v0_samples()) {
    SCOPED_TRACE(s.file);
    if (writing_v0()) test::write_file_bytes(v0_dir() / s.file, s.packet);
    const auto golden = test::read_file_bytes(v0_dir() / s.file);
    EXPECT_EQ(to_hex(golden), to_hex(s.packet));
  }
}

std::string v0_schema_text() { return test::read_file_text(v0_dir() / "schema.txt"); }

// The plan a session builds (SchemaCache): the v0 text alone on the peer's side, our registry's
// text and shape defaults on ours.
wire::PlanOptions session_plan_options(bool copy_unchanged) {
  wire::PlanOptions options;
  options.copy_unchanged = copy_unchanged;
  options.our_defaults = &protocol::protocol_messages().shape_defaults();
  return options;
}

// Reads one v0 packet through a session's plan, then decodes the result with today's typed codec.
template <class M>
M read_v0(const std::string& file, bool copy_unchanged = true) {
  const wire::PlanOptions options = session_plan_options(copy_unchanged);
  auto plan = wire::WirePlan::build(v0_schema_text(), protocol::protocol_messages().schema_text(), options);
  EXPECT_TRUE(plan.ok());
  const auto packet = test::read_file_bytes(v0_dir() / file);
  std::vector<uint8_t> out;
  auto translated = plan->translate(packet[0], M::wire_direction, std::span(packet).subspan(1), out);
  EXPECT_TRUE(translated.ok()) << file << ": " << reason_name(translated.error());
  M value{};
  if (translated.ok()) {
    EXPECT_EQ(translated->id, M::wire_id);
    EXPECT_TRUE(wire::decode(out, value).ok()) << file;
  }
  return value;
}

TEST(LegacyWireFixtures, EveryV0PacketReadsThroughAPlan) {
  for (bool copy_unchanged : {true, false}) {
    auto plan = wire::WirePlan::build(v0_schema_text(), protocol::protocol_messages().schema_text(),
                                      session_plan_options(copy_unchanged));
    ASSERT_TRUE(plan.ok());
    for (const auto& s : test::legacy_v0_samples()) {
      SCOPED_TRACE(s.file);
      const auto packet = test::read_file_bytes(v0_dir() / s.file);
      const auto direction = s.travelling;
      std::vector<uint8_t> out;
      auto translated = plan->translate(packet[0], direction, std::span(packet).subspan(1), out);
      ASSERT_TRUE(translated.ok()) << reason_name(translated.error());
      const auto* ours = protocol::protocol_messages().find(translated->id, direction);
      ASSERT_NE(ours, nullptr);
      EXPECT_EQ(ours->name, s.message_name);
      EXPECT_TRUE(ours->check(out).ok());
      // A message whose shape has not moved comes back byte for byte, whether copied or re-encoded.
      if (s.message_name == "ping" || s.message_name == "connectRequest" || s.message_name == "schemaRequest") {
        EXPECT_EQ(to_hex(out), to_hex(std::span(packet).subspan(1)));
      }
    }
  }
}

TEST(LegacyWireFixtures, V0ValuesPairByName) {
  const auto info = read_v0<protocol::ServerInfo>("serverInfo.bin");
  EXPECT_EQ(info.max_clients, 64);                      // moved
  EXPECT_EQ(info.motd, "old world");                    // str8 -> str16
  EXPECT_EQ(info.region, protocol::Region::europe);     // enum8 -> enum32, renumbered
  EXPECT_EQ(info.features, protocol::kFeatureSpectators | protocol::kFeatureRestTable);  // bits by name
  EXPECT_EQ(info.uptime_ticks, 3600u);                  // u32 -> varu64
  EXPECT_EQ(info.build_label, "");                      // only we have it: zero value

  const auto frame = read_v0<protocol::InputFrame>("inputFrame-claim.bin");
  ASSERT_EQ(frame.inputs.size(), 1u);                   // list16 -> list8
  EXPECT_EQ(frame.first_sequence, 77u);
  ASSERT_TRUE(frame.claim.has_value());
  EXPECT_EQ(frame.claim->placement_epoch, 0);           // the v0 claim predates the epoch
  EXPECT_TRUE(frame.claim->values.empty());          // v0's named heights: fields we no longer have

  const auto batch = read_v0<protocol::RecordBatch>("recordBatch.bin");
  ASSERT_EQ(batch.records.size(), 2u);                  // the marker case we lack is left out
  EXPECT_EQ(batch.record_count, 2u);                    // the count field is re-derived
  const auto& light = std::get<protocol::EntityRecord>(batch.records[0].body);
  EXPECT_EQ(light.kind, 0);                            // an enum in v0, a byte now: not carried
  EXPECT_FLOAT_EQ(light.position.z, 6.0f);
  EXPECT_EQ(light.flags, 0);                           // named flags in v0, a byte now: not carried
  const auto& door = std::get<protocol::ObjectRecord>(batch.records[1].body);
  EXPECT_EQ(door.object_index, 12u);
  ASSERT_EQ(door.sections.size(), 1u);
  EXPECT_EQ(door.sections[0].dirty, 0b010001);          // rebitted: channel0 and channelCount by name
  EXPECT_FLOAT_EQ(door.sections[0].channel[0], 0.5f);
  EXPECT_EQ(door.sections[0].channel_count, 1);

  const auto materials = read_v0<protocol::MaterialSet>("materialSet.bin");
  // fog.density, water.foamColor and fog.enabled survive at our rows; the token we lack and the
  // one whose kind changed are left out.
  ASSERT_EQ(materials.values.size(), 3u);
  EXPECT_EQ(materials.values[0].row, 5);
  EXPECT_EQ(materials.values[1].row, 0);
  EXPECT_EQ(materials.values[1].value_bits, 0xff00ff00u);
  EXPECT_EQ(materials.values[2].row, 4);
  EXPECT_EQ(materials.values[2].value_bits, 1u);
}

}  // namespace
}  // namespace tickwire
