// Lookups over a parsed schema and the keywords its field types are spelled with. Linear scans:
// a schema has at most a few hundred names, and plans resolve them once, at build time.
#include "tickwire/wire/schema.h"

#include "tickwire/wire/message_registry.h"

namespace tickwire::wire {
namespace {

template <class Range, class Pred>
uint32_t index_where(const Range& range, Pred pred) {
  for (std::size_t i = 0; i < range.size(); ++i)
    if (pred(range[i])) return static_cast<uint32_t>(i);
  return kNoIndex;
}

}  // namespace

uint32_t SchemaShape::find_slot(std::string_view field_name) const {
  return index_where(slots, [&](const SchemaField* f) { return f->name == field_name; });
}

uint32_t SchemaEnum::find_value(uint32_t value) const {
  return index_where(members, [&](const SchemaMember& m) { return m.value == value; });
}

uint32_t SchemaEnum::find_name(std::string_view member) const {
  return index_where(members, [&](const SchemaMember& m) { return m.name == member; });
}

uint32_t SchemaFlags::mask() const {
  uint32_t m = 0;
  for (const auto& b : bits) m |= 1u << b.value;
  return m;
}

uint32_t SchemaFlags::find_name(std::string_view bit) const {
  return index_where(bits, [&](const SchemaMember& m) { return m.name == bit; });
}

uint32_t SchemaUnion::find_tag(uint8_t tag) const {
  return index_where(cases, [&](const SchemaCase& c) { return c.tag == tag; });
}

uint32_t SchemaUnion::find_name(std::string_view case_name) const {
  return index_where(cases, [&](const SchemaCase& c) { return c.name == case_name; });
}

uint32_t SchemaTokenTable::find_token(std::string_view token) const {
  return index_where(rows, [&](const SchemaToken& r) { return r.token == token; });
}

const SchemaMessage* Schema::find_message(std::string_view message_name) const {
  const uint32_t i = index_where(messages, [&](const SchemaMessage& m) { return m.name == message_name; });
  return i == kNoIndex ? nullptr : &messages[i];
}

const SchemaMessage* Schema::find_message(uint8_t id, Direction direction) const {
  const uint32_t i = index_where(
      messages, [&](const SchemaMessage& m) { return m.id == id && direction_allows(m.direction, direction); });
  return i == kNoIndex ? nullptr : &messages[i];
}

std::string_view field_type_keyword(FieldType type) {
  switch (type) {
    case FieldType::u8: return "u8";
    case FieldType::u16: return "u16";
    case FieldType::u32: return "u32";
    case FieldType::u64: return "u64";
    case FieldType::i8: return "i8";
    case FieldType::i16: return "i16";
    case FieldType::i32: return "i32";
    case FieldType::i64: return "i64";
    case FieldType::f32: return "f32";
    case FieldType::f64: return "f64";
    case FieldType::boolean: return "bool";
    case FieldType::varu32: return "varu32";
    case FieldType::varu64: return "varu64";
    case FieldType::str8: return "str8";
    case FieldType::str16: return "str16";
    case FieldType::hash16: return "hash16";
    case FieldType::guid: return "guid";
    case FieldType::enum8: return "enum8";
    case FieldType::enum32: return "enum32";
    case FieldType::flags8: return "flags8";
    case FieldType::flags16: return "flags16";
    case FieldType::flags32: return "flags32";
    case FieldType::shape: return "shape";
    case FieldType::optional: return "optional";
    case FieldType::list8: return "list8";
    case FieldType::list16: return "list16";
    case FieldType::counted: return "counted";
    case FieldType::union_: return "union";
    case FieldType::tokens: return "tokens";
    case FieldType::sparse: return "sparse";
    case FieldType::section: return "section";
    case FieldType::bits: return "bits";
    case FieldType::tail: return "tail";
    case FieldType::ubits: return "ubits";
    case FieldType::bit: return "bit";
    case FieldType::quant: return "quant";
    case FieldType::quat: return "quat";
  }
  return "?";
}

}  // namespace tickwire::wire
