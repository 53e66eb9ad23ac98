// Printing a Schema back to canonical text, in SchemaBuilder's order and spelling, so a text
// parsed and printed is byte for byte the text (and hash) the build that wrote it produced.
#include <algorithm>
#include <string>
#include <vector>

#include "tickwire/wire/schema_parser.h"

namespace tickwire::wire {
namespace {

std::string indentation(int indent) { return std::string(static_cast<std::size_t>(indent) * 2, ' '); }

std::string type_text(const SchemaField& f) {
  const std::string keyword(field_type_keyword(f.type));
  switch (f.type) {
    case FieldType::str8:
    case FieldType::str16: return keyword + "(" + std::to_string(f.max) + ")";
    case FieldType::enum8:
    case FieldType::enum32:
    case FieldType::flags8:
    case FieldType::flags16:
    case FieldType::flags32:
    case FieldType::optional:
    case FieldType::union_: return keyword + "(" + f.ref_name + ")";
    case FieldType::shape: return f.ref_name;
    case FieldType::list8:
    case FieldType::list16:
      return keyword + "(" + f.ref_name + ", " + std::to_string(f.min) + ", " + std::to_string(f.max) + ")";
    case FieldType::counted: return keyword + "(" + f.ref_name + ", " + f.count_name + ", " + std::to_string(f.max) + ")";
    case FieldType::tokens: return keyword + "(" + f.ref_name + ", " + std::to_string(f.max) + ")";
    case FieldType::ubits:
    case FieldType::quat: return keyword + "(" + std::to_string(f.width_bits) + ")";
    case FieldType::quant:
      return keyword + "(" + format_number(f.quant.min) + ", " + format_number(f.quant.max) + ", " +
             format_number(f.quant.resolution) + ")";
    default: return keyword;
  }
}

void print_fields(const std::vector<SchemaField>& fields, int indent, std::string& out) {
  for (const auto& f : fields) {
    out += indentation(indent);
    if (f.type == FieldType::tail) {
      out += "tail;\n";
    } else if (is_block(f.type)) {
      out += f.name + " " + std::string(field_type_keyword(f.type));
      if (f.type == FieldType::sparse) out += std::to_string(f.width_bits);
      out += " {\n";
      print_fields(f.members, indent + 1, out);
      out += indentation(indent) + "}\n";
    } else {
      out += f.name + " " + type_text(f) + ";\n";
    }
  }
}

// Indices of `defs` in the byte order of their names (SchemaBuilder keeps them in a std::map).
template <class Defs>
std::vector<std::size_t> by_name(const Defs& defs) {
  std::vector<std::size_t> order(defs.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return defs[a].name < defs[b].name; });
  return order;
}

void print_members(std::string_view keyword, const std::string& name, const std::vector<SchemaMember>& members,
                   std::string& out) {
  out += std::string(keyword) + " " + name + " {\n";
  for (const auto& m : members) out += "  " + m.name + " = " + std::to_string(m.value) + ";\n";
  out += "}\n";
}

void print_messages(const Schema& schema, std::string& out) {
  std::vector<const SchemaMessage*> order;
  for (const auto& m : schema.messages) order.push_back(&m);
  std::sort(order.begin(), order.end(), [](const SchemaMessage* a, const SchemaMessage* b) {
    return std::make_pair(a->id, a->direction) < std::make_pair(b->id, b->direction);
  });
  for (const SchemaMessage* m : order) {
    out += "message " + std::to_string(m->id) + " " + std::string(direction_name(m->direction)) + " " + m->name + " " +
           m->shape_name + ";\n";
  }
}

}  // namespace

std::string print_schema(const Schema& schema) {
  std::string out = "tickwire-schema " + std::to_string(schema.version) + ";\n";
  for (std::size_t i : by_name(schema.enums)) print_members("enum", schema.enums[i].name, schema.enums[i].members, out);
  for (std::size_t i : by_name(schema.flag_sets))
    print_members("flags", schema.flag_sets[i].name, schema.flag_sets[i].bits, out);
  for (std::size_t i : by_name(schema.token_tables)) {
    const auto& t = schema.token_tables[i];
    out += "tokens " + t.name + " {\n";
    for (const auto& row : t.rows) out += "  " + row.token + " " + std::string(token_kind_name(row.kind)) + ";\n";
    out += "}\n";
  }
  for (std::size_t i : by_name(schema.shapes)) {
    out += "shape " + schema.shapes[i].name + " {\n";
    print_fields(schema.shapes[i].fields, 1, out);
    out += "}\n";
  }
  for (std::size_t i : by_name(schema.unions)) {
    const auto& u = schema.unions[i];
    out += "union " + u.name + " {\n";
    for (const auto& c : u.cases) out += "  " + std::to_string(c.tag) + " " + c.name + " " + c.shape_name + ";\n";
    out += "}\n";
  }
  print_messages(schema, out);
  return out;
}

}  // namespace tickwire::wire
