// The schema walker and the dynamic encoder against the typed codec: every registered message's
// samples are walked to their last byte with the schema alone, re-encoded byte for byte, and
// every truncation or corruption of them is refused with the error the typed reader names.
#include "tickwire/wire/schema_walker.h"

#include <gtest/gtest.h>

#include "protocol_samples.h"
#include "tickwire/protocol/wire_messages.h"
#include "tickwire/wire/dyn_encoder.h"
#include "tickwire/wire/schema_parser.h"

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

TEST(SchemaWalker, EveryRegisteredMessageHasSamples) {
  const auto samples = test::protocol_samples();
  for (const MessageEntry& e : protocol::protocol_messages().all()) {
    bool found = false;
    for (const auto& s : samples) found |= s.message == e.name;
    EXPECT_TRUE(found) << e.name;
  }
}

TEST(SchemaWalker, WalksEverySampleToItsLastByte) {
  for (const auto& sample : test::protocol_samples()) {
    ASSERT_TRUE(typed_check(sample.message, sample.body).ok()) << sample.message << "/" << sample.label;
    auto consumed = walk_message(our_schema(), sample.message, sample.body);
    ASSERT_TRUE(consumed.ok()) << sample.message << "/" << sample.label << ": " << error_name(consumed.error());
    EXPECT_EQ(*consumed, sample.body.size()) << sample.message << "/" << sample.label;
    // Stepping over leaves what follows for the caller.
    std::vector<uint8_t> longer = sample.body;
    longer.push_back(0xee);
    if (sample.label != "ends-at-tail") {
      EXPECT_EQ(*walk_message(our_schema(), sample.message, longer), sample.body.size());
    }
  }
}

TEST(SchemaWalker, DynamicEncoderMatchesTypedEncoder) {
  DynTree tree;
  for (const auto& sample : test::protocol_samples()) {
    const SchemaMessage* message = our_schema().find_message(sample.message);
    ASSERT_TRUE(decode_message(our_schema(), *message, sample.body, tree).ok()) << sample.label;
    std::vector<uint8_t> out;
    ASSERT_TRUE(encode_dynamic(tree.root(), out).ok()) << sample.message << "/" << sample.label;
    EXPECT_EQ(out, sample.body) << sample.message << "/" << sample.label;
  }
}

TEST(SchemaWalker, TreeHoldsNamedValues) {
  protocol::RecordBatch batch;
  batch.tick = 7;
  batch.records = {test::entity_record(5, true), test::object_record(6)};
  batch.record_count = 2;
  batch.rest_revision = 321;
  const auto bytes = test::typed_bytes(batch);
  DynTree tree;
  ASSERT_TRUE(decode_message(our_schema(), *our_schema().find_message("recordBatch"), bytes, tree).ok());
  const DynValue root = tree.root();
  EXPECT_EQ(root.field("tick").as_u64(), 7u);
  EXPECT_EQ(root.field("restRevision").as_u64(), 321u);
  const DynValue records = root.field("records");
  ASSERT_EQ(records.size(), 2u);
  const DynValue body0 = records[0].field("body");
  EXPECT_EQ(body0.case_name(), "entity");
  const DynValue entity = body0.case_value();
  EXPECT_EQ(entity.field("kind").member_name(), "door");
  EXPECT_TRUE(entity.field("flags").has_flag("frozen"));
  EXPECT_FALSE(entity.field("flags").has_flag("noclip"));
  EXPECT_NEAR(entity.field("yaw").as_f64(), 90.0, 0.1);
  EXPECT_NEAR(entity.field("position").field("y").as_f64(), -2.25, 1e-9);
  EXPECT_NEAR(entity.field("rotation").value().field("q").as_quat().y, 0.7071, 0.01);
  const DynValue object = records[1].field("body").case_value();
  EXPECT_EQ(records[1].field("body").case_name(), "object");
  const DynValue section0 = object.field("sections")[0];
  EXPECT_EQ(section0.field("channel0").as_f64(), 0.5);
  EXPECT_EQ(section0.field("channel1").kind(), DynKind::unset);
  EXPECT_EQ(section0.field("bits").as_u64(), 3u);

  const auto material_bytes = test::typed_bytes(protocol::MaterialSet{1, {{4, 1}, {1, 0x3f800000u}}, {}});
  ASSERT_TRUE(decode_message(our_schema(), *our_schema().find_message("materialSet"), material_bytes, tree).ok());
  const DynValue values = tree.root().field("values");
  ASSERT_EQ(values.size(), 2u);
  EXPECT_EQ(values[0].token(), "fog.enabled");
  EXPECT_EQ(values[1].token(), "water.roughness");
  EXPECT_EQ(values[1].token_kind(), TokenKind::f32);
}

TEST(SchemaWalker, FieldsAfterAnEndedTailAreAbsent) {
  for (const auto& sample : test::protocol_samples()) {
    if (sample.label != "ends-at-tail") continue;
    DynTree tree;
    ASSERT_TRUE(decode_message(our_schema(), *our_schema().find_message(sample.message), sample.body, tree).ok());
    EXPECT_EQ(tree.root().field("buildLabel").kind(), DynKind::absent);
    EXPECT_EQ(tree.root().field("maxClients").as_u64(), 64u);
  }
}

// Every prefix and many single-byte corruptions of every sample: the schema walker and the typed
// reader agree on ok-or-not and on the error's name.
TEST(SchemaWalker, SameErrorsAsTheTypedReader) {
  DynTree tree;
  std::size_t checked = 0;
  for (const auto& sample : test::protocol_samples()) {
    const SchemaMessage* message = our_schema().find_message(sample.message);
    auto agree = [&](std::span<const uint8_t> bytes, const std::string& what) {
      const Status typed = typed_check(sample.message, bytes);
      const Status dynamic = decode_message(our_schema(), *message, bytes, tree);
      EXPECT_EQ(error_name(dynamic.error()), error_name(typed.error())) << sample.message << "/" << sample.label << " " << what;
      ++checked;
    };
    for (std::size_t n = 0; n < sample.body.size(); ++n) agree(std::span(sample.body).first(n), "prefix " + std::to_string(n));
    for (std::size_t i = 0; i < sample.body.size(); ++i) {
      for (uint8_t v : {uint8_t{0x00}, uint8_t{0x01}, uint8_t{0x02}, uint8_t{0x7f}, uint8_t{0x80}, uint8_t{0xff},
                        static_cast<uint8_t>(sample.body[i] + 1)}) {
        std::vector<uint8_t> bent = sample.body;
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
  std::vector<uint8_t> bytes = test::typed_bytes(protocol::RecordBatch{});
  bytes[20] = 0xff;  // recordCount 65535 > 4096
  bytes[21] = 0xff;
  EXPECT_EQ(decode_message(our_schema(), batch, bytes, tree, &report).error(), Error::count_over_max);
  EXPECT_EQ(report.field, "records");
  bytes[20] = 1;  // one record, read from the section's bytes: entityId 1, then union tag 0
  bytes[21] = 0;
  EXPECT_EQ(decode_message(our_schema(), batch, bytes, tree, &report).error(), Error::unknown_union_tag);
  EXPECT_EQ(report.field, "body");

  std::vector<uint8_t> ping = test::typed_bytes(protocol::Ping{});
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
  for (uint32_t i = 0; i < 200; ++i) batch.records.push_back(test::entity_record(i, true));
  batch.record_count = 200;
  const auto bytes = test::typed_bytes(batch);
  DynTree small(1000);
  WalkReport report;
  EXPECT_EQ(decode_message(our_schema(), *our_schema().find_message("recordBatch"), bytes, small, &report).error(),
            Error::walk_budget_exceeded);
  EXPECT_LE(small.size(), 1000u);
  DynTree enough;
  EXPECT_TRUE(decode_message(our_schema(), *our_schema().find_message("recordBatch"), bytes, enough).ok());
}

struct Nested {
  static constexpr std::string_view wire_name = "N";
  std::vector<Nested> kids;
  template <class W>
  void fields(W& w) {
    w.list8("kids", kids, 0, 1);
  }
};

TEST(SchemaWalker, NestingCapMatchesTheTypedReader) {
  auto schema = parse_schema("tickwire-schema 1;\nshape N { kids list8(N, 0, 1); }\nmessage 1 both n N;\n");
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
