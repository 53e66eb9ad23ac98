// The schema as data: what a schema text says, resolved and type-checked, so the schema walker,
// the dynamic encoder and the plan can work from a peer's text alone, with no field table in the
// loop. parse_schema (schema_parser.h) builds one; print_schema gives the canonical text back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tickwire/wire/describe_walker.h"
#include "tickwire/wire/types.h"

namespace tickwire::wire {

// Every construct a schema line can spell. Blocks (sparse, section, bits) hold their members
// inline; `tail` is a marker, not a value; ubits/bit/quant/quat live only inside a bits block.
enum class FieldType : uint8_t {
  u8, u16, u32, u64, i8, i16, i32, i64, f32, f64, boolean, varu32, varu64,
  str8, str16, hash16, guid, enum8, enum32, flags8, flags16, flags32,
  shape, optional, list8, list16, counted, union_, tokens,
  sparse, section, bits, tail,
  ubits, bit, quant, quat,
};

inline constexpr uint32_t kNoIndex = 0xffffffffu;

// The caps a schema text must stay within (a peer's text is hostile input like any other).
inline constexpr std::size_t kMaxSchemaTextBytes = 256 * 1024;
inline constexpr std::size_t kMaxSchemaDefinitions = 1024;  // enums + flag sets + token tables + shapes + unions
inline constexpr std::size_t kMaxSchemaMessages = 512;
inline constexpr std::size_t kMaxShapeSlots = 256;          // named fields in one shape, blocks and members included
inline constexpr std::size_t kMaxSchemaFields = 16384;      // over all shapes
inline constexpr std::size_t kMaxEnumMembers = 1024;
inline constexpr std::size_t kMaxFlagBits = 32;
inline constexpr std::size_t kMaxUnionCases = 256;
inline constexpr std::size_t kMaxTokenRows = 16384;
inline constexpr unsigned kMaxBlockDepth = 8;               // sparse/section/bits blocks inside each other
inline constexpr std::size_t kMaxSchemaNameBytes = 128;
inline constexpr uint64_t kMaxCountedElements = 1u << 20;
inline constexpr unsigned kMaxQuatBits = 30;
inline constexpr unsigned kMaxQuantBits = 32;

struct SchemaField {
  std::string name;                 // empty for `tail`
  FieldType type = FieldType::u8;
  std::string ref_name;             // the enum/flags/shape/union/tokens definition the type names
  uint32_t ref = kNoIndex;          // its index in the Schema's vector of that kind
  uint64_t min = 0;                 // list8/list16: minimum count
  uint64_t max = 0;                 // str8/str16 bytes; list8/list16/counted/tokens count
  unsigned width_bits = 0;          // ubits: bits; quat: bits per component; sparseN: mask bits
  QuantSpec quant{0, 1, 1};         // quant
  std::string count_name;           // counted: the earlier integer field holding the count
  uint32_t count_slot = kNoIndex;   // counted: that field's slot
  uint32_t counted_slot = kNoIndex; // an integer field some counted list names: that list's slot
  uint32_t slot = kNoIndex;         // index in the shape's record, in visit order (blocks have one
                                    // too, before their members); for `tail`: the first slot after it
  uint32_t slot_end = kNoIndex;     // blocks: one past the last slot of their members
  std::vector<SchemaField> members; // sparse/section/bits
  uint32_t line = 0;
};

struct SchemaShape {
  std::string name;
  std::vector<SchemaField> fields;     // as written: blocks nest their members
  std::vector<const SchemaField*> slots;  // every named field (blocks and their members) in visit order
  uint32_t line = 0;
  // The slot of the field named `name`, or kNoIndex (names are unique within a shape).
  uint32_t find_slot(std::string_view name) const;
};

struct SchemaMember {
  std::string name;
  uint32_t value = 0;  // enum: the member's value; flags: the bit's index
};

struct SchemaEnum {
  std::string name;
  std::vector<SchemaMember> members;
  uint32_t line = 0;
  uint32_t find_value(uint32_t value) const;       // member index or kNoIndex
  uint32_t find_name(std::string_view name) const; // member index or kNoIndex
};

struct SchemaFlags {
  std::string name;
  std::vector<SchemaMember> bits;
  uint32_t line = 0;
  uint32_t mask() const;
  uint32_t find_name(std::string_view name) const;
};

struct SchemaCase {
  uint8_t tag = 0;
  std::string name;
  std::string shape_name;
  uint32_t shape = kNoIndex;
};

struct SchemaUnion {
  std::string name;
  std::vector<SchemaCase> cases;
  uint32_t line = 0;
  uint32_t find_tag(uint8_t tag) const;
  uint32_t find_name(std::string_view name) const;
};

struct SchemaToken {
  std::string token;
  TokenKind kind = TokenKind::u32;
};

struct SchemaTokenTable {
  std::string name;
  std::vector<SchemaToken> rows;
  uint32_t line = 0;
  uint32_t find_token(std::string_view token) const;
};

struct SchemaMessage {
  uint8_t id = 0;
  Direction direction = Direction::both;
  std::string name;
  std::string shape_name;
  uint32_t shape = kNoIndex;
  uint32_t line = 0;
};

// A parsed, resolved schema. Fields point into its own storage, so it moves but never copies.
class Schema {
 public:
  Schema() = default;
  Schema(Schema&&) = default;
  Schema& operator=(Schema&&) = default;
  Schema(const Schema&) = delete;
  Schema& operator=(const Schema&) = delete;

  uint32_t version = 1;
  std::vector<SchemaEnum> enums;
  std::vector<SchemaFlags> flag_sets;
  std::vector<SchemaTokenTable> token_tables;
  std::vector<SchemaShape> shapes;
  std::vector<SchemaUnion> unions;
  std::vector<SchemaMessage> messages;

  const SchemaMessage* find_message(std::string_view name) const;
  // The message with this id that may travel in `direction` (as WireMessages::find does).
  const SchemaMessage* find_message(uint8_t id, Direction direction) const;
  const SchemaShape& shape_of(const SchemaMessage& message) const { return shapes[message.shape]; }
};

// The keyword a field type is spelled with (`u8`, `list16`, `sparse`, `union`...).
std::string_view field_type_keyword(FieldType type);
// sparse, section, bits
inline bool is_block(FieldType type) {
  return type == FieldType::sparse || type == FieldType::section || type == FieldType::bits;
}
// ubits, bit, quant, quat
inline bool is_bit_field(FieldType type) {
  return type == FieldType::ubits || type == FieldType::bit || type == FieldType::quant || type == FieldType::quat;
}
// u8..u64, varu32, varu64, ubits: the types a counted list's count may live in
inline bool is_unsigned_integer(FieldType type) {
  return type == FieldType::u8 || type == FieldType::u16 || type == FieldType::u32 || type == FieldType::u64 ||
         type == FieldType::varu32 || type == FieldType::varu64 || type == FieldType::ubits;
}

}  // namespace tickwire::wire
