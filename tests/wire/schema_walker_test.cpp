// The schema walker and the dynamic encoder against the typed codec: every registered message's
// samples are walked to their last byte with the schema alone, re-encoded byte for byte, and
// every truncation or corruption of them is refused with the error the typed reader names.
#include "tickwire/wire/schema_walker.h"

#include <gtest/gtest.h>

#include "tickwire/protocol/ping.h"
#include "tickwire/protocol/record_batch.h"
#include "tickwire/protocol/server_info.h"
#include "tickwire/protocol/wire_messages.h"
#include "tickwire/wire/dyn_encoder.h"
#include "tickwire/wire/schema_parser.h"
#include "wire_samples.h"

namespace tickwire::wire {
namespace {

const Schema& our_schema() {
  static const Schema schema = std::move(parse_schema(protocol::protocol_messages().schema_text()).value());
  return schema;
}

Status typed_check(std::string_view message, std::span<const uint8_t> body) {
  const MessageEntry* entry = protocol::protocol_messages().find(message);
  TW_ASSERT(entry != nullptr, "a sample names a registered message");
  return entry->check(body);
}

template <class M>
std::vector<uint8_t> typed_bytes(const M& value) {
  std::vector<uint8_t> out(measure(value));
  TW_ASSERT(encode(value, out).ok(), "a test value encodes");
  return out;
}

struct Body {
  std::string message;
  std::string label;
  std::vector<uint8_t> bytes;
};

// The golden samples' bodies, plus a serverInfo as an older writer sends it: ending at the tail.
std::vector<Body> bodies() {
  std::vector<Body> out;
  for (const auto& s : test::wire_samples())
    out.push_back(Body{s.message_name, s.file, std::vector<uint8_t>(s.packet.begin() + 1, s.packet.end())});
  protocol::ServerInfo info;
  info.motd = "older";
  info.max_clients = 8;
  std::vector<uint8_t> older = typed_bytes(info);
  older.pop_back();  // the empty buildLabel's length byte: the packet now ends at the tail
  out.push_back(Body{"serverInfo", "ends-at-tail", older});
  return out;
}

TEST(SchemaWalker, WalksEverySampleToItsLastByte) {
  for (const auto& b : bodies()) {
    SCOPED_TRACE(b.label);
    ASSERT_TRUE(typed_check(b.message, b.bytes).ok());
    auto consumed = walk_message(our_schema(), b.message, b.bytes);
    ASSERT_TRUE(consumed.ok()) << reason_name(consumed.error());
    EXPECT_EQ(*consumed, b.bytes.size());
    // Stepping over leaves what follows for the caller.
    std::vector<uint8_t> longer = b.bytes;
    longer.push_back(0xee);
    if (b.label != "ends-at-tail") {
      EXPECT_EQ(*walk_message(our_schema(), b.message, longer), b.bytes.size());
    }
  }
}

TEST(SchemaWalker, DynamicEncoderMatchesTypedEncoder) {
  DynTree tree;
  for (const auto& b : bodies()) {
    SCOPED_TRACE(b.label);
    ASSERT_TRUE(decode_message(our_schema(), *our_schema().find_message(b.message), b.bytes, tree).ok());
    std::vector<uint8_t> out;
    ASSERT_TRUE(encode_dynamic(tree.root(), out).ok());
    EXPECT_EQ(out, b.bytes);
  }
}

const Body& body_of(const std::vector<Body>& all, std::string_view label) {
  for (const auto& b : all)
    if (b.label == label) return b;
  TW_ASSERT(false, "a sample the test names");
  return all.front();
}

TEST(SchemaWalker, TreeHoldsNamedValues) {
  const auto all = bodies();
  DynTree tree;
  ASSERT_TRUE(decode_message(our_schema(), *our_schema().find_message("recordBatch"), body_of(all, "recordBatch.bin").bytes, tree).ok());
  const DynValue root = tree.root();
  EXPECT_EQ(root.field("tick").as_u64(), 123456u);
  EXPECT_EQ(root.field("restRevision").as_u64(), 42u);
  EXPECT_EQ(root.field("extensions").kind(), DynKind::block);
  const DynValue records = root.field("records");
  ASSERT_EQ(records.size(), 4u);
  EXPECT_EQ(root.field("recordCount").as_u64(), 4u);
  const DynValue pawn = records[0].field("body");
  EXPECT_EQ(pawn.case_name(), "entity");
  EXPECT_EQ(pawn.case_value().field("kind").as_u64(), 1u);  // the game's kind: a plain byte
  EXPECT_EQ(pawn.case_value().field("flags").as_u64(), 1u);
  EXPECT_NEAR(pawn.case_value().field("yaw").as_f64(), 90.0, 0.1);
  EXPECT_NEAR(pawn.case_value().field("position").field("y").as_f64(), -3.25, 1e-9);
  EXPECT_FALSE(pawn.case_value().field("rotation").value().valid());
  const DynValue crate = records[1].field("body").case_value();
  EXPECT_EQ(records[1].field("entityId").as_u64(), 300u);
  EXPECT_NEAR(crate.field("rotation").value().field("q").as_quat().z, 0.3827, 0.01);
  EXPECT_EQ(crate.field("payload").field("channels").size(), 2u);
  EXPECT_EQ(records[2].field("body").case_name(), "object");
  const DynValue mover = records[2].field("body").case_value().field("sections")[1];
  EXPECT_EQ(mover.field("dirty").raw(), 0b010011u);
  EXPECT_EQ(mover.field("channel1").as_f64(), static_cast<double>(0.01f));
  EXPECT_EQ(mover.field("channel2").kind(), DynKind::unset);
  EXPECT_EQ(mover.field("channelCount").as_u64(), 2u);
  EXPECT_NEAR(crate.field("scale").value().field("z").as_f64(), 2.0, 1e-9);
  const DynValue shoved = records[3].field("body").case_value();
  EXPECT_EQ(shoved.field("objectIndex").as_u64(), 20000u);  // a three-byte varu32
  EXPECT_NEAR(shoved.field("transform").value().field("position").field("x").as_f64(), 3.0, 1e-9);
  EXPECT_NEAR(shoved.field("transform").value().field("rotation").value().field("q").as_quat().y, 0.6, 0.01);

  ASSERT_TRUE(decode_message(our_schema(), *our_schema().find_message("serverInfo"), body_of(all, "serverInfo.bin").bytes, tree).ok());
  EXPECT_FALSE(tree.root().field("region").member_name().empty());  // enums and flags by name
  EXPECT_TRUE(tree.root().field("features").kind() == DynKind::flags);

  ASSERT_TRUE(decode_message(our_schema(), *our_schema().find_message("materialSet"), body_of(all, "materialSet.bin").bytes, tree).ok());
  const DynValue values = tree.root().field("values");
  ASSERT_EQ(values.size(), 4u);
  EXPECT_EQ(values[2].token(), "fog.enabled");
  EXPECT_EQ(values[1].token(), "water.roughness");
  EXPECT_EQ(values[1].token_kind(), TokenKind::f32);
}

TEST(SchemaWalker, FieldsAfterAnEndedTailAreAbsent) {
  DynTree tree;
  ASSERT_TRUE(decode_message(our_schema(), *our_schema().find_message("serverInfo"), body_of(bodies(), "ends-at-tail").bytes, tree).ok());
  EXPECT_EQ(tree.root().field("buildLabel").kind(), DynKind::absent);
  EXPECT_EQ(tree.root().field("maxClients").as_u64(), 8u);
  EXPECT_EQ(tree.root().field("motd").text(), "older");
}

TEST(SchemaWalker, SameErrorsAsTheTypedReader) {
  DynTree tree;
  std::size_t checked = 0;
  for (const auto& b : bodies()) {
    const SchemaMessage* message = our_schema().find_message(b.message);
    auto agree = [&](std::span<const uint8_t> bytes, const std::string& what) {
      const Status typed = typed_check(b.message, bytes);
      const Status dynamic = decode_message(our_schema(), *message, bytes, tree);
      EXPECT_EQ(reason_name(dynamic.error()), reason_name(typed.error())) << b.label << " " << what;
      ++checked;
    };
    for (std::size_t n = 0; n < b.bytes.size(); ++n) agree(std::span(b.bytes).first(n), "prefix " + std::to_string(n));
    for (std::size_t i = 0; i < b.bytes.size(); ++i) {
      for (uint8_t v : {uint8_t{0x00}, uint8_t{0x01}, uint8_t{0x02}, uint8_t{0x7f}, uint8_t{0x80}, uint8_t{0xff},
                        static_cast<uint8_t>(b.bytes[i] + 1)}) {
        std::vector<uint8_t> bent = b.bytes;
        bent[i] = v;
        agree(bent, "byte " + std::to_string(i) + "=" + std::to_string(v));
      }
    }
  }
  EXPECT_GT(checked, 1000u);
}

TEST(SchemaWalker, NamedErrors) {
  const SchemaMessage& batch = *our_schema().find_message("recordBatch");
  DynTree tree;
  WalkReport report;
  std::vector<uint8_t> bytes = typed_bytes(protocol::RecordBatch{});
  bytes[20] = 0xff;  // recordCount 65535 > 4096
  bytes[21] = 0xff;
  EXPECT_EQ(decode_message(our_schema(), batch, bytes, tree, &report).error(), Error::count_over_max);
  EXPECT_EQ(report.field, "records");
  bytes[20] = 1;  // one record, read from the section's bytes: entityId 1, then union tag 0
  bytes[21] = 0;
  EXPECT_EQ(decode_message(our_schema(), batch, bytes, tree, &report).error(), Error::unknown_union_tag);
  EXPECT_EQ(report.field, "body");

  std::vector<uint8_t> ping = typed_bytes(protocol::Ping{});
  EXPECT_EQ(decode_message(our_schema(), *our_schema().find_message("ping"), std::span(ping).first(ping.size() - 1), tree,
                           &report)
                .error(),
            Error::truncated);
  EXPECT_EQ(report.field, "isReply");
  ping.push_back(0);
  EXPECT_EQ(decode_message(our_schema(), *our_schema().find_message("ping"), ping, tree, &report).error(),
            Error::trailing_bytes);
  EXPECT_EQ(report.field, "<end>");
  EXPECT_EQ(walk_message(our_schema(), "nope", ping).error(), Error::unknown_message);
  EXPECT_EQ(walk_message(our_schema(), 12, Direction::server_to_client, ping).error(), Error::unknown_message);
}

TEST(SchemaWalker, NodeBudgetIsEnforced) {
  protocol::RecordBatch batch;
  protocol::EntityRecord entity;
  entity.rotation = protocol::Rotation{};
  entity.payload.channels.resize(4);
  for (uint32_t i = 0; i < 200; ++i) batch.records.push_back(protocol::Record{i, entity});
  batch.record_count = 200;
  const auto bytes = typed_bytes(batch);
  DynTree small(1000);
  WalkReport report;
  EXPECT_EQ(decode_message(our_schema(), *our_schema().find_message("recordBatch"), bytes, small, &report).error(),
            Error::walk_budget_exceeded);
  EXPECT_LE(small.size(), 1000u);
  DynTree enough;
  EXPECT_TRUE(decode_message(our_schema(), *our_schema().find_message("recordBatch"), bytes, enough).ok());
  EXPECT_GT(enough.size(), 1000u);
}

struct Nested {
  static constexpr std::string_view wire_name = "N";
  static constexpr std::string_view message_name = "n";
  static constexpr uint8_t wire_id = 1;
  static constexpr Direction wire_direction = Direction::both;
  std::vector<Nested> kids;
  template <class W>
  void fields(W& w) {
    w.list8("kids", kids, 0, 1);
  }
};

TEST(SchemaWalker, NestingCapMatchesTheTypedReader) {
  auto schema = parse_schema(WireMessages::of<Nested>().schema_text());
  ASSERT_TRUE(schema.ok());
  DynTree tree;
  // Each level is a count of 1, then the child; the innermost list is empty. Level k's list is
  // entered at depth k, so 16 lists are fine and the 17th is one too deep, for both readers.
  for (std::size_t lists : {std::size_t{15}, std::size_t{16}, std::size_t{17}, std::size_t{30}}) {
    std::vector<uint8_t> bytes(lists - 1, 1);
    bytes.push_back(0);
    Nested typed;
    const Status expected = decode(bytes, typed);
    EXPECT_EQ(expected.ok(), lists <= kMaxNestingDepth) << lists;
    EXPECT_EQ(decode_message(*schema, schema->messages[0], bytes, tree).error(), expected.error()) << lists;
  }
}

}  // namespace
}  // namespace tickwire::wire
