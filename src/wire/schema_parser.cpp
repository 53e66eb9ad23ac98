// The schema text's grammar, by recursive descent over the lexer's tokens. This half checks
// syntax, keywords, contexts and number ranges; schema_resolver.cpp resolves names afterwards.
//   schema := "tickwire-schema" 1 ";" item*
//   item   := enum|flags NAME "{" (NAME "=" INT ";")* "}" | tokens NAME "{" (TOKEN KIND ";")* "}"
//           | shape NAME "{" field* "}" | union NAME "{" (TAG NAME SHAPE ";")* "}"
//           | message ID c2s|s2c|both NAME SHAPE ";"
//   field  := "tail" ";" | NAME (sparseN|section|bits) "{" field* "}" | NAME type ";"
#include <charconv>
#include <cmath>

#include "schema_lexer.h"
#include "schema_resolver.h"
#include "tickwire/wire/schema_parser.h"

namespace tickwire::wire {
namespace {

using detail::LexKind;
using detail::LexToken;
using detail::SchemaLexer;

enum class Context : uint8_t { shape, sparse, bits };
enum class Args : uint8_t { none, length, ref, list, counted, tokens, width, quant };

struct TypeWord {
  std::string_view word;
  FieldType type;
  Args args;
  uint64_t max;  // the largest number the type's count/length/width argument may hold
};

constexpr TypeWord kTypeWords[] = {
    {"u8", FieldType::u8, Args::none, 0},          {"u16", FieldType::u16, Args::none, 0},
    {"u32", FieldType::u32, Args::none, 0},        {"u64", FieldType::u64, Args::none, 0},
    {"i8", FieldType::i8, Args::none, 0},          {"i16", FieldType::i16, Args::none, 0},
    {"i32", FieldType::i32, Args::none, 0},        {"i64", FieldType::i64, Args::none, 0},
    {"f32", FieldType::f32, Args::none, 0},        {"f64", FieldType::f64, Args::none, 0},
    {"bool", FieldType::boolean, Args::none, 0},   {"varu32", FieldType::varu32, Args::none, 0},
    {"varu64", FieldType::varu64, Args::none, 0},  {"hash16", FieldType::hash16, Args::none, 0},
    {"guid", FieldType::guid, Args::none, 0},      {"str8", FieldType::str8, Args::length, 0xff},
    {"str16", FieldType::str16, Args::length, 0xffff}, {"enum8", FieldType::enum8, Args::ref, 0},
    {"enum32", FieldType::enum32, Args::ref, 0},   {"flags8", FieldType::flags8, Args::ref, 0},
    {"flags16", FieldType::flags16, Args::ref, 0}, {"flags32", FieldType::flags32, Args::ref, 0},
    {"optional", FieldType::optional, Args::ref, 0}, {"union", FieldType::union_, Args::ref, 0},
    {"list8", FieldType::list8, Args::list, 0xff}, {"list16", FieldType::list16, Args::list, 0xffff},
    {"counted", FieldType::counted, Args::counted, kMaxCountedElements},
    {"tokens", FieldType::tokens, Args::tokens, 0xffff},
    {"ubits", FieldType::ubits, Args::width, 32},  {"bit", FieldType::bit, Args::none, 0},
    {"quant", FieldType::quant, Args::quant, 0},   {"quat", FieldType::quat, Args::width, kMaxQuatBits},
};

struct BlockWord {
  std::string_view word;
  FieldType type;
  unsigned mask_bits;
};
constexpr BlockWord kBlockWords[] = {{"sparse8", FieldType::sparse, 8},   {"sparse16", FieldType::sparse, 16},
                                     {"sparse32", FieldType::sparse, 32}, {"sparse64", FieldType::sparse, 64},
                                     {"section", FieldType::section, 0},  {"bits", FieldType::bits, 0}};

const TypeWord* find_type_word(std::string_view w) {
  for (const auto& t : kTypeWords)
    if (t.word == w) return &t;
  return nullptr;
}

const BlockWord* find_block_word(std::string_view w) {
  for (const auto& b : kBlockWords)
    if (b.word == w) return &b;
  return nullptr;
}

// Appends rather than `"'" + std::string(...)`: GCC 12 at -O3 reports a false -Wrestrict
// overlap inside the inlined string insert that operator+(const char*, string&&) uses (GCC bug 105651).
std::string quoted(std::string_view text) { return std::string(1, '\'').append(text.substr(0, 40)).append(1, '\''); }

class Parser {
 public:
  Parser(std::string_view text, SchemaDiagnostic& diagnostic) : lex_(text), diag_(diagnostic) {}

  bool run(Schema& schema) {
    if (!header(schema)) return false;
    while (lex_.peek().kind != LexKind::end)
      if (!item(schema)) return false;
    return true;
  }

 private:
  bool fail(Error error, uint32_t line, std::string message) {
    if (diag_.error == Error::ok) diag_ = SchemaDiagnostic{error, line, std::move(message)};
    return false;
  }
  bool fail_at(Error error, const LexToken& t, std::string_view expected) {
    const std::string got = t.kind == LexKind::end ? "the end of the text" : quoted(t.text);
    return fail(error, t.line, "expected " + std::string(expected) + ", found " + got);
  }

  bool expect(char punct) {
    const LexToken t = lex_.take();
    if (t.is(punct)) return true;
    return fail_at(Error::schema_malformed, t, std::string("'") + punct + "'");
  }

  bool name(std::string& out, std::string_view what) {
    const LexToken t = lex_.take();
    if (t.kind != LexKind::word) return fail_at(Error::schema_malformed, t, what);
    if (t.text.size() > kMaxSchemaNameBytes) return fail(Error::schema_over_limit, t.line, "a name over the length cap");
    out.assign(t.text);
    return true;
  }

  bool definition_name(std::string& out, std::string_view what) {
    const uint32_t line = lex_.peek().line;
    if (!name(out, what)) return false;
    if (find_type_word(out) || find_block_word(out) || out == "tail")
      return fail(Error::schema_malformed, line, "a definition may not be named after a keyword: " + quoted(out));
    return true;
  }

  bool integer(uint64_t& out, uint64_t max, std::string_view what) {
    const LexToken t = lex_.take();
    if (t.kind != LexKind::number) return fail_at(Error::schema_malformed, t, what);
    const char* end = t.text.data() + t.text.size();
    const auto r = std::from_chars(t.text.data(), end, out);
    if (r.ec != std::errc() || r.ptr != end || out > max)
      return fail(Error::schema_bad_number, t.line, std::string(what) + " out of range: " + quoted(t.text));
    return true;
  }

  bool real(double& out, std::string_view what) {
    const LexToken t = lex_.take();
    if (t.kind != LexKind::number) return fail_at(Error::schema_malformed, t, what);
    const char* end = t.text.data() + t.text.size();
    const auto r = std::from_chars(t.text.data(), end, out);
    if (r.ec != std::errc() || r.ptr != end || !std::isfinite(out))
      return fail(Error::schema_bad_number, t.line, std::string(what) + " is not a finite number: " + quoted(t.text));
    return true;
  }

  bool header(Schema& schema) {
    const LexToken t = lex_.take();
    if (!t.is_word("tickwire-schema")) return fail_at(Error::schema_malformed, t, "'tickwire-schema'");
    uint64_t version = 0;
    if (!integer(version, 0xffffffffu, "a schema version")) return false;
    if (version != 1) return fail(Error::schema_malformed, t.line, "unsupported schema version");
    schema.version = static_cast<uint32_t>(version);
    return expect(';');
  }

  bool count_definition(uint32_t line) {
    if (++definitions_ > kMaxSchemaDefinitions) return fail(Error::schema_over_limit, line, "too many definitions");
    return true;
  }

  bool item(Schema& schema) {
    const LexToken t = lex_.take();
    if (t.is_word("message")) return message(schema, t.line);
    if (!count_definition(t.line)) return false;
    if (t.is_word("enum")) {
      SchemaEnum& e = schema.enums.emplace_back();
      e.line = t.line;
      return definition_name(e.name, "an enum name") && members(e.members, 0xffffffffu, kMaxEnumMembers, "enum members");
    }
    if (t.is_word("flags")) {
      SchemaFlags& f = schema.flag_sets.emplace_back();
      f.line = t.line;
      return definition_name(f.name, "a flag set name") && members(f.bits, kMaxFlagBits - 1, kMaxFlagBits, "flag bits");
    }
    if (t.is_word("tokens")) return token_table(schema, t.line);
    if (t.is_word("shape")) return shape(schema, t.line);
    if (t.is_word("union")) return union_def(schema, t.line);
    return fail_at(Error::schema_malformed, t, "a definition (enum, flags, tokens, shape, union, message)");
  }

  bool members(std::vector<SchemaMember>& out, uint64_t max_value, std::size_t max_count, std::string_view what) {
    if (!expect('{')) return false;
    while (!lex_.peek().is('}')) {
      if (out.size() >= max_count) return fail(Error::schema_over_limit, lex_.peek().line, "too many " + std::string(what));
      SchemaMember& m = out.emplace_back();
      uint64_t value = 0;
      if (!name(m.name, "a member name") || !expect('=') || !integer(value, max_value, "a member value") || !expect(';'))
        return false;
      m.value = static_cast<uint32_t>(value);
    }
    return expect('}');
  }

  bool token_table(Schema& schema, uint32_t line) {
    SchemaTokenTable& table = schema.token_tables.emplace_back();
    table.line = line;
    if (!definition_name(table.name, "a token table name") || !expect('{')) return false;
    while (!lex_.peek().is('}')) {
      if (table.rows.size() >= kMaxTokenRows) return fail(Error::schema_over_limit, lex_.peek().line, "too many tokens");
      SchemaToken& row = table.rows.emplace_back();
      if (!name(row.token, "a token")) return false;
      const LexToken kind = lex_.take();
      if (kind.is_word("f32")) row.kind = TokenKind::f32;
      else if (kind.is_word("u32")) row.kind = TokenKind::u32;
      else if (kind.is_word("i32")) row.kind = TokenKind::i32;
      else if (kind.is_word("bool")) row.kind = TokenKind::boolean;
      else return fail_at(Error::schema_unknown_type, kind, "a token kind (f32, u32, i32, bool)");
      if (!expect(';')) return false;
    }
    return expect('}');
  }

  bool union_def(Schema& schema, uint32_t line) {
    SchemaUnion& u = schema.unions.emplace_back();
    u.line = line;
    if (!definition_name(u.name, "a union name") || !expect('{')) return false;
    while (!lex_.peek().is('}')) {
      if (u.cases.size() >= kMaxUnionCases) return fail(Error::schema_over_limit, lex_.peek().line, "too many union cases");
      SchemaCase& c = u.cases.emplace_back();
      uint64_t tag = 0;
      if (!integer(tag, 0xff, "a union tag") || !name(c.name, "a case name") || !name(c.shape_name, "a case shape") ||
          !expect(';'))
        return false;
      c.tag = static_cast<uint8_t>(tag);
    }
    return expect('}');
  }

  bool message(Schema& schema, uint32_t line) {
    if (schema.messages.size() >= kMaxSchemaMessages) return fail(Error::schema_over_limit, line, "too many messages");
    SchemaMessage& m = schema.messages.emplace_back();
    m.line = line;
    uint64_t id = 0;
    if (!integer(id, 0xff, "a message id")) return false;
    m.id = static_cast<uint8_t>(id);
    const LexToken d = lex_.take();
    if (d.is_word("c2s")) m.direction = Direction::client_to_server;
    else if (d.is_word("s2c")) m.direction = Direction::server_to_client;
    else if (d.is_word("both")) m.direction = Direction::both;
    else return fail_at(Error::schema_malformed, d, "a direction (c2s, s2c, both)");
    return name(m.name, "a message name") && name(m.shape_name, "a message shape") && expect(';');
  }

  bool shape(Schema& schema, uint32_t line) {
    SchemaShape& s = schema.shapes.emplace_back();
    s.line = line;
    return definition_name(s.name, "a shape name") && expect('{') && fields(s.fields, Context::shape, 0);
  }

  // Fields up to and including the closing brace.
  bool fields(std::vector<SchemaField>& out, Context context, unsigned depth) {
    while (!lex_.peek().is('}')) {
      if (lex_.peek().kind == LexKind::end) return fail_at(Error::schema_malformed, lex_.peek(), "'}'");
      if (++fields_ > kMaxSchemaFields) return fail(Error::schema_over_limit, lex_.peek().line, "too many fields");
      if (!field(out, context, depth)) return false;
    }
    return expect('}');
  }

  bool field(std::vector<SchemaField>& out, Context context, unsigned depth) {
    SchemaField& f = out.emplace_back();
    f.line = lex_.peek().line;
    if (lex_.peek().is_word("tail") && lex_.peek2().is(';')) {
      lex_.take();
      lex_.take();
      f.type = FieldType::tail;
      if (context != Context::shape) return fail(Error::schema_malformed, f.line, "a tail inside a sparse or bits block");
      return true;
    }
    if (!name(f.name, "a field name")) return false;
    const BlockWord* block = lex_.peek().kind == LexKind::word ? find_block_word(lex_.peek().text) : nullptr;
    if (block && lex_.peek2().is('{')) {
      lex_.take();
      lex_.take();
      return block_field(f, *block, context, depth);
    }
    return type(f, context) && expect(';');
  }

  bool block_field(SchemaField& f, const BlockWord& block, Context context, unsigned depth) {
    f.type = block.type;
    f.width_bits = block.mask_bits;
    if (context == Context::bits) return fail(Error::schema_malformed, f.line, "a block inside a bits block");
    if (context == Context::sparse && block.type == FieldType::sparse)
      return fail(Error::schema_malformed, f.line, "a sparse set directly inside a sparse set");
    if (depth + 1 > kMaxBlockDepth) return fail(Error::nesting_too_deep, f.line, "blocks nested too deep");
    const Context inner = block.type == FieldType::sparse  ? Context::sparse
                          : block.type == FieldType::bits ? Context::bits
                                                           : Context::shape;
    return fields(f.members, inner, depth + 1);
  }

  bool type(SchemaField& f, Context context) {
    const LexToken t = lex_.take();
    if (t.kind != LexKind::word) return fail_at(Error::schema_malformed, t, "a type");
    const TypeWord* word = find_type_word(t.text);
    const bool bit_context = context == Context::bits;
    if (!word) {
      if (bit_context) return fail(Error::schema_unknown_type, t.line, "not a bit field type: " + quoted(t.text));
      if (t.text.size() > kMaxSchemaNameBytes) return fail(Error::schema_over_limit, t.line, "a name over the length cap");
      f.type = FieldType::shape;
      f.ref_name.assign(t.text);
      return true;
    }
    if (is_bit_field(word->type) != bit_context)
      return fail(Error::schema_unknown_type, t.line,
                  quoted(t.text) + (bit_context ? " inside a bits block" : " outside a bits block"));
    if (word->type == FieldType::counted && context == Context::sparse)
      return fail(Error::schema_malformed, t.line, "a counted list inside a sparse set");
    f.type = word->type;
    return arguments(f, *word);
  }

  bool arguments(SchemaField& f, const TypeWord& word) {
    switch (word.args) {
      case Args::none: return true;
      case Args::length: return expect('(') && integer(f.max, word.max, "a length cap") && expect(')');
      case Args::ref: return expect('(') && name(f.ref_name, "a type name") && expect(')');
      case Args::list: return list_arguments(f, word.max);
      case Args::counted:
        return expect('(') && name(f.ref_name, "a shape name") && expect(',') && name(f.count_name, "a count field") &&
               expect(',') && integer(f.max, word.max, "a count cap") && expect(')');
      case Args::tokens:
        return expect('(') && name(f.ref_name, "a token table name") && expect(',') &&
               integer(f.max, word.max, "a count cap") && expect(')');
      case Args::width: return width_argument(f, word.max);
      case Args::quant: return quant_arguments(f);
    }
    return false;
  }

  bool list_arguments(SchemaField& f, uint64_t max) {
    if (!expect('(') || !name(f.ref_name, "a shape name") || !expect(',')) return false;
    const uint32_t line = lex_.peek().line;
    if (!integer(f.min, max, "a list minimum") || !expect(',') || !integer(f.max, max, "a list maximum")) return false;
    if (f.min > f.max) return fail(Error::schema_bad_number, line, "a list minimum above its maximum");
    return expect(')');
  }

  bool width_argument(SchemaField& f, uint64_t max) {
    uint64_t bits = 0;
    const uint32_t line = lex_.peek().line;
    if (!expect('(') || !integer(bits, max, "a bit width") || !expect(')')) return false;
    if (bits == 0) return fail(Error::schema_bad_number, line, "a bit width of zero");
    f.width_bits = static_cast<unsigned>(bits);
    return true;
  }

  bool quant_arguments(SchemaField& f) {
    const uint32_t line = lex_.peek().line;
    double min = 0, max = 0, resolution = 0;
    if (!expect('(') || !real(min, "a quant minimum") || !expect(',') || !real(max, "a quant maximum") ||
        !expect(',') || !real(resolution, "a quant resolution") || !expect(')'))
      return false;
    const double span = max - min;
    const double steps = span / resolution;
    if (!(max > min) || !(resolution > 0) || !std::isfinite(span) || !std::isfinite(steps) ||
        steps + 0.5 >= static_cast<double>(uint64_t{1} << kMaxQuantBits))
      return fail(Error::schema_bad_number, line, "a quant range needs min < max, a positive resolution, <= 32 bits");
    f.quant = QuantSpec(min, max, resolution);  // steps and bits are computed here, from checked numbers
    return true;
  }

  SchemaLexer lex_;
  SchemaDiagnostic& diag_;
  std::size_t definitions_ = 0;
  std::size_t fields_ = 0;
};

}  // namespace

Result<Schema> parse_schema(std::string_view text, SchemaDiagnostic* diagnostic) {
  SchemaDiagnostic local;
  SchemaDiagnostic& diag = diagnostic ? *diagnostic : local;
  diag = SchemaDiagnostic{};
  if (text.size() > kMaxSchemaTextBytes) {
    diag = SchemaDiagnostic{Error::schema_too_large, 0, "a schema text over " + std::to_string(kMaxSchemaTextBytes) + " bytes"};
    return Error::schema_too_large;
  }
  Schema schema;
  Parser parser(text, diag);
  if (!parser.run(schema) || !detail::resolve_schema(schema, diag)) return diag.error;
  return schema;
}

}  // namespace tickwire::wire
