// The schema parser: our own text parses and prints back byte for byte, whitespace does not
// matter, and every malformed or hostile text is refused with its named error and a line.
#include "tickwire/wire/schema_parser.h"

#include <gtest/gtest.h>

#include <string>

#include "tickwire/protocol/wire_messages.h"
#include "tickwire/wire/schema_hash.h"

namespace tickwire::wire {
namespace {

const std::string& our_text() { return protocol::protocol_messages().schema_text(); }

TEST(SchemaParser, OwnSchemaRoundTrips) {
  SchemaDiagnostic diag;
  auto schema = parse_schema(our_text(), &diag);
  ASSERT_TRUE(schema.ok()) << reason_name(diag.error) << " at line " << diag.line << ": " << diag.message;
  EXPECT_EQ(print_schema(*schema), our_text());
  EXPECT_EQ(hash_schema_text(print_schema(*schema)), protocol::protocol_messages().schema_hash());
}

TEST(SchemaParser, ModelHoldsWhatTheTextSays) {
  auto schema = parse_schema(our_text());
  ASSERT_TRUE(schema.ok());
  const SchemaMessage* batch = schema->find_message("recordBatch");
  ASSERT_NE(batch, nullptr);
  EXPECT_EQ(batch->id, 13);
  EXPECT_EQ(batch->direction, Direction::server_to_client);
  const SchemaShape& shape = schema->shape_of(*batch);
  EXPECT_EQ(shape.name, "RecordBatch");
  const uint32_t records = shape.find_slot("records");
  ASSERT_NE(records, kNoIndex);
  EXPECT_EQ(shape.slots[records]->type, FieldType::counted);
  EXPECT_EQ(shape.slots[shape.slots[records]->count_slot]->name, "recordCount");
  EXPECT_EQ(shape.slots[shape.find_slot("recordCount")]->counted_slot, records);
  EXPECT_NE(shape.find_slot("restRevision"), kNoIndex);  // a section's members are slots of the shape
  EXPECT_EQ(schema->find_message(10, Direction::server_to_client)->name, "ping");
  EXPECT_EQ(schema->find_message(12, Direction::server_to_client), nullptr);  // inputFrame is c2s
}

TEST(SchemaParser, WhitespaceDoesNotMatter) {
  std::string squeezed;
  for (char c : our_text()) {
    if (c == '\n' || c == ' ') {
      if (!squeezed.empty() && squeezed.back() != ' ') squeezed += c == '\n' ? "\n\t " : "  ";
      continue;
    }
    squeezed += c;
  }
  auto schema = parse_schema(squeezed);
  ASSERT_TRUE(schema.ok());
  EXPECT_EQ(print_schema(*schema), our_text());
}

TEST(SchemaParser, DefinitionsInAnyOrderPrintCanonically) {
  const std::string shuffled =
      "tickwire-schema 1;\n"
      "message 2 s2c b B;\n"
      "message 1 c2s a A;\n"
      "shape B { x u8; }\n"
      "enum E { z = 1; a = 0; }\n"
      "shape A { e enum8(E); b B; }\n";
  auto schema = parse_schema(shuffled);
  ASSERT_TRUE(schema.ok());
  EXPECT_EQ(print_schema(*schema),
            "tickwire-schema 1;\nenum E {\n  z = 1;\n  a = 0;\n}\nshape A {\n  e enum8(E);\n  b B;\n}\n"
            "shape B {\n  x u8;\n}\nmessage 1 c2s a A;\nmessage 2 s2c b B;\n");
}

struct BadText {
  const char* label;
  std::string text;
  Error error;
  uint32_t line;  // 0: any
};

// The texts below are built with append, not `"lit" + std::to_string(i)`: GCC 12 at -O3 reports a
// false -Wrestrict overlap inside the string insert that operator+ with an rvalue right side uses
// (GCC bug 105651).
std::string nested_blocks(int depth) {
  std::string s = "tickwire-schema 1;\nshape S {\n";
  for (int i = 0; i < depth; ++i) s.append("s").append(std::to_string(i)).append(" section {\n");
  s += "x u8;\n";
  for (int i = 0; i < depth; ++i) s += "}\n";
  return s + "}\n";
}

std::string nested_shapes(int depth) {
  std::string s = "tickwire-schema 1;\n";
  for (int i = 0; i < depth; ++i) {
    s.append("shape S").append(std::to_string(i)).append(" { inner S").append(std::to_string(i + 1)).append("; }\n");
  }
  return s.append("shape S").append(std::to_string(depth)).append(" { x u8; }\n");
}

std::vector<BadText> bad_texts() {
  const std::string h = "tickwire-schema 1;\n";
  return {
      {"empty", "", Error::schema_malformed, 1},
      {"no header", "shape A { x u8; }\n", Error::schema_malformed, 1},
      {"version 2", "tickwire-schema 2;\n", Error::schema_malformed, 1},
      {"unknown type", h + "shape A {\n  x u7;\n}\n", Error::schema_unknown_type, 3},
      {"unknown enum", h + "shape A { x enum8(Nope); }\n", Error::schema_unknown_type, 2},
      {"enum names a shape", h + "shape B { y u8; }\nshape A { x enum8(B); }\n", Error::schema_unknown_type, 3},
      {"bit field outside bits", h + "shape A { x ubits(3); }\n", Error::schema_unknown_type, 2},
      {"byte field inside bits", h + "shape A { b bits { x u8; } }\n", Error::schema_unknown_type, 2},
      {"unknown token kind", h + "tokens T { a f16; }\n", Error::schema_unknown_type, 2},
      {"unknown message shape", h + "message 1 c2s m Nope;\n", Error::schema_unknown_type, 2},
      {"counted names a later field", h + "shape E { v u8; }\nshape A { l counted(E, n, 4); n u8; }\n",
       Error::schema_bad_reference, 3},
      {"counted names a signed field", h + "shape E { v u8; }\nshape A { n i8; l counted(E, n, 4); }\n",
       Error::schema_bad_reference, 3},
      {"counted names a missing field", h + "shape E { v u8; }\nshape A { l counted(E, zz, 4); }\n",
       Error::schema_bad_reference, 3},
      {"counted count in a sparse set", h + "shape E { v u8; }\nshape A { s sparse8 { n u8; } l counted(E, n, 4); }\n",
       Error::schema_bad_reference, 3},
      {"duplicate shape", h + "shape A { x u8; }\nshape A { y u8; }\n", Error::schema_duplicate_name, 3},
      {"duplicate field", h + "shape A { x u8; s section { x u16; } }\n", Error::schema_duplicate_name, 2},
      {"duplicate enum value", h + "enum E { a = 1; b = 1; }\n", Error::schema_duplicate_name, 2},
      {"duplicate union tag", h + "shape B { }\nunion U { 1 a B; 1 b B; }\n", Error::schema_duplicate_name, 3},
      {"duplicate message id", h + "shape B { }\nmessage 1 both a B;\nmessage 1 c2s b B;\n", Error::schema_duplicate_name, 4},
      {"duplicate message name", h + "shape B { }\nmessage 1 c2s a B;\nmessage 2 s2c a B;\n", Error::schema_duplicate_name, 4},
      {"unbalanced open", h + "shape A { x u8;\n", Error::schema_malformed, 3},
      {"unbalanced close", h + "shape A { x u8; } }\n", Error::schema_malformed, 2},
      {"missing semicolon", h + "shape A { x u8 }\n", Error::schema_malformed, 2},
      {"stray character", h + "shape A { x u8; # }\n", Error::schema_malformed, 2},
      {"keyword as shape name", h + "shape u8 { x u8; }\n", Error::schema_malformed, 2},
      {"tail in sparse", h + "shape A { s sparse8 { tail; } }\n", Error::schema_malformed, 2},
      {"empty enum", h + "enum E { }\n", Error::schema_malformed, 2},
      {"empty union", h + "union U { }\n", Error::schema_malformed, 2},
      {"str8 cap too big", h + "shape A { s str8(256); }\n", Error::schema_bad_number, 2},
      {"list min above max", h + "shape B { }\nshape A { l list8(B, 5, 4); }\n", Error::schema_bad_number, 3},
      {"flag bit 32", h + "flags F { a = 32; }\n", Error::schema_bad_number, 2},
      {"enum value over u32", h + "enum E { a = 4294967296; }\n", Error::schema_bad_number, 2},
      {"union tag 256", h + "shape B { }\nunion U { 256 a B; }\n", Error::schema_bad_number, 3},
      {"message id 300", h + "shape B { }\nmessage 300 c2s a B;\n", Error::schema_bad_number, 3},
      {"number garbage", h + "shape A { s str8(12x); }\n", Error::schema_bad_number, 2},
      {"ubits 0", h + "shape A { b bits { x ubits(0); } }\n", Error::schema_bad_number, 2},
      {"ubits 33", h + "shape A { b bits { x ubits(33); } }\n", Error::schema_bad_number, 2},
      {"quat 31", h + "shape A { b bits { q quat(31); } }\n", Error::schema_bad_number, 2},
      {"quant max below min", h + "shape A { b bits { q quant(1, 0, 0.1); } }\n", Error::schema_bad_number, 2},
      {"quant zero resolution", h + "shape A { b bits { q quant(0, 1, 0); } }\n", Error::schema_bad_number, 2},
      {"quant 40 bits", h + "shape A { b bits { q quant(0, 1, 1e-12); } }\n", Error::schema_bad_number, 2},
      {"quant overflow", h + "shape A { b bits { q quant(-1e308, 1e308, 1); } }\n", Error::schema_bad_number, 2},
      {"self containing shape", h + "shape A { x u8; a A; }\n", Error::schema_recursive, 2},
      {"mutual containment via union", h + "shape A { u union(U); }\nunion U { 1 a A; }\n", Error::schema_recursive, 0},
      {"list with minimum of itself", h + "shape A { l list8(A, 1, 2); }\n", Error::schema_recursive, 2},
      {"blocks nested too deep", nested_blocks(kMaxBlockDepth + 1), Error::nesting_too_deep, 0},
      {"shapes nested too deep", nested_shapes(static_cast<int>(kMaxNestingDepth) + 1), Error::nesting_too_deep, 0},
      {"huge text", h + std::string(kMaxSchemaTextBytes, ' '), Error::schema_too_large, 0},
      {"long name", h + "shape " + std::string(kMaxSchemaNameBytes + 1, 'a') + " { }\n", Error::schema_over_limit, 2},
  };
}

TEST(SchemaParser, RefusesMalformedTextsByName) {
  for (const BadText& bad : bad_texts()) {
    SchemaDiagnostic diag;
    auto schema = parse_schema(bad.text, &diag);
    ASSERT_FALSE(schema.ok()) << bad.label;
    EXPECT_EQ(reason_name(schema.error()), reason_name(bad.error)) << bad.label << ": " << diag.message;
    EXPECT_EQ(diag.error, schema.error()) << bad.label;
    EXPECT_FALSE(diag.message.empty()) << bad.label;
    if (bad.line != 0) {
      EXPECT_EQ(diag.line, bad.line) << bad.label << ": " << diag.message;
    }
  }
}

TEST(SchemaParser, AcceptsWhatTheCapsAllow) {
  EXPECT_TRUE(parse_schema(nested_blocks(kMaxBlockDepth)).ok());
  EXPECT_TRUE(parse_schema(nested_shapes(static_cast<int>(kMaxNestingDepth))).ok());
  // Recursion through an optional, a list without a minimum or a later union case is fine.
  EXPECT_TRUE(parse_schema("tickwire-schema 1;\nshape A { o optional(A); l list8(A, 0, 2); u union(U); }\n"
                           "shape B { }\nunion U { 1 b B; 2 a A; }\n")
                  .ok());
}

// Appended piece by piece for GCC bug 105651 (see nested_blocks).
TEST(SchemaParser, CapsOnCounts) {
  std::string many = "tickwire-schema 1;\n";
  for (std::size_t i = 0; i <= kMaxSchemaDefinitions; ++i) many.append("shape S").append(std::to_string(i)).append(" { }\n");
  EXPECT_EQ(parse_schema(many).error(), Error::schema_over_limit);

  std::string wide = "tickwire-schema 1;\nshape W {\n";
  for (std::size_t i = 0; i <= kMaxShapeSlots; ++i) wide.append("f").append(std::to_string(i)).append(" u8;\n");
  EXPECT_EQ(parse_schema(wide + "}\n").error(), Error::schema_over_limit);

  std::string members = "tickwire-schema 1;\nenum E {\n";
  for (std::size_t i = 0; i <= kMaxEnumMembers; ++i) {
    members.append("m").append(std::to_string(i)).append(" = ").append(std::to_string(i)).append(";\n");
  }
  EXPECT_EQ(parse_schema(members + "}\n").error(), Error::schema_over_limit);
}

}  // namespace
}  // namespace tickwire::wire
