// Canonical schema text: the lines each field visit produces and the builder that orders them;
// beside it, the non-zero defaults of each shape's sample.
#include "tickwire/wire/describe_walker.h"

#include <charconv>

namespace tickwire::wire {
namespace {

std::string indentation(int indent) { return std::string(static_cast<std::size_t>(indent) * 2, ' '); }

}  // namespace

std::string_view direction_name(Direction d) {
  switch (d) {
    case Direction::client_to_server: return "c2s";
    case Direction::server_to_client: return "s2c";
    case Direction::both: return "both";
  }
  return "?";
}

std::string format_number(double v) {
  char buf[64];
  const auto result = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, result.ptr);
}

void DefaultsSink::keep(const char* field, Kind kind, uint64_t bits, bool even_zero) const {
  if (builder == nullptr || shape.empty() || (bits == 0 && !even_zero)) return;
  builder->defaults().add(shape, FieldDefault{field, kind, bits, {}});
}

void DefaultsSink::keep_bytes(const char* field, Kind kind, const void* data, std::size_t size) const {
  const auto* bytes = static_cast<const char*>(data);
  bool zero = true;
  for (std::size_t i = 0; i < size; ++i) zero = zero && bytes[i] == 0;
  if (builder == nullptr || shape.empty() || size == 0 || (kind == Kind::bytes16 && zero)) return;
  builder->defaults().add(shape, FieldDefault{field, kind, 0, std::string(bytes, size)});
}

void BitDescribeWalker::line(const char* name, const std::string& type) {
  out_ += indentation(indent_) + name + " " + type + ";\n";
}

void DescribeWalker::line(const char* name, const std::string& type) {
  out_ += indentation(indent_) + name + " " + type + ";\n";
}

void DescribeWalker::block(const char* name, const std::string& keyword, const std::string& inner) {
  out_ += indentation(indent_) + name + " " + keyword + " {\n" + inner + indentation(indent_) + "}\n";
}

void DescribeWalker::tail() { out_ += indentation(indent_) + "tail;\n"; }

std::string DescribeWalker::add_enum(const EnumDef& def) {
  const std::string name(def.name);
  if (builder_.begin(SchemaBuilder::Kind::enumeration, name)) {
    std::string text = "enum " + name + " {\n";
    for (const auto& m : def.members) text += "  " + std::string(m.name) + " = " + std::to_string(m.value) + ";\n";
    builder_.finish(SchemaBuilder::Kind::enumeration, name, text + "}\n");
  }
  return name;
}

std::string DescribeWalker::add_flags(const FlagsDef& def) {
  const std::string name(def.name);
  if (builder_.begin(SchemaBuilder::Kind::flags, name)) {
    std::string text = "flags " + name + " {\n";
    for (const auto& b : def.bits) text += "  " + std::string(b.name) + " = " + std::to_string(b.value) + ";\n";
    builder_.finish(SchemaBuilder::Kind::flags, name, text + "}\n");
  }
  return name;
}

std::string DescribeWalker::add_tokens(const TokenTableDef& def) {
  const std::string name(def.name);
  if (builder_.begin(SchemaBuilder::Kind::tokens, name)) {
    std::string text = "tokens " + name + " {\n";
    for (const auto& r : def.rows) text += "  " + std::string(r.token) + " " + std::string(token_kind_name(r.kind)) + ";\n";
    builder_.finish(SchemaBuilder::Kind::tokens, name, text + "}\n");
  }
  return name;
}

bool SchemaBuilder::begin(Kind kind, std::string_view name) {
  auto& defs = defs_[static_cast<int>(kind)];
  if (defs.find(name) != defs.end()) return false;
  defs.emplace(std::string(name), std::string());  // placeholder: a recursive visit sees it as defined
  return true;
}

void SchemaBuilder::finish(Kind kind, std::string_view name, std::string text) {
  auto& defs = defs_[static_cast<int>(kind)];
  auto it = defs.find(name);
  TW_ASSERT(it != defs.end() && it->second.empty(), "a definition finished twice");
  it->second = std::move(text);
}

void SchemaBuilder::add_message(uint8_t id, Direction direction, std::string_view name, std::string_view shape) {
  const auto key = std::make_pair(id, direction);
  TW_ASSERT(messages_.find(key) == messages_.end(), "two messages share an id and direction");
  messages_[key] = "message " + std::to_string(id) + " " + std::string(direction_name(direction)) + " " +
                   std::string(name) + " " + std::string(shape) + ";\n";
}

std::string SchemaBuilder::text() const {
  std::string out = "tickwire-schema 1;\n";
  for (const auto& defs : defs_) {
    for (const auto& [name, text] : defs) out += text;
  }
  for (const auto& [key, text] : messages_) out += text;
  return out;
}

}  // namespace tickwire::wire
