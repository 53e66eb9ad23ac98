// Name resolution and the schema's rules: one name per namespace, every reference to a
// definition of the right kind, a counted list's count field an earlier unsigned integer of the
// same shape, and no shape that must contain itself or nest deeper than a reader may go.
#include "schema_resolver.h"

#include <map>
#include <set>

#include "tickwire/wire/message_registry.h"

namespace tickwire::wire::detail {
namespace {

using NameIndex = std::map<std::string_view, uint32_t, std::less<>>;

// Appends rather than `"'" + std::string(...)`: GCC 12 at -O3 reports a false -Wrestrict
// overlap inside the inlined string insert that operator+(const char*, string&&) uses (GCC bug 105651).
std::string quoted(std::string_view text) { return std::string(1, '\'').append(text).append(1, '\''); }

class Resolver {
 public:
  Resolver(Schema& schema, SchemaDiagnostic& diagnostic) : schema_(schema), diag_(diagnostic) {}

  bool run() {
    return index(schema_.enums, enums_, "enum") && index(schema_.flag_sets, flags_, "flag set") &&
           index(schema_.token_tables, tokens_, "token table") && index(schema_.shapes, shapes_, "shape") &&
           index(schema_.unions, unions_, "union") && check_enums() && check_flags() && check_tokens() &&
           check_unions() && check_shapes() && check_messages() && check_nesting();
  }

 private:
  bool fail(Error error, uint32_t line, std::string message) {
    if (diag_.error == Error::ok) diag_ = SchemaDiagnostic{error, line, std::move(message)};
    return false;
  }

  template <class Defs>
  bool index(const Defs& defs, NameIndex& out, std::string_view what) {
    for (std::size_t i = 0; i < defs.size(); ++i)
      if (!out.emplace(defs[i].name, static_cast<uint32_t>(i)).second)
        return fail(Error::schema_duplicate_name, defs[i].line, std::string(what) + " defined twice: " + quoted(defs[i].name));
    return true;
  }

  bool unique_members(const std::vector<SchemaMember>& members, uint32_t line, std::string_view owner) {
    std::set<std::string_view> names;
    std::set<uint32_t> values;
    for (const auto& m : members)
      if (!names.insert(m.name).second || !values.insert(m.value).second)
        return fail(Error::schema_duplicate_name, line, "a name or value repeated in " + quoted(owner));
    return true;
  }

  bool check_enums() {
    for (const auto& e : schema_.enums) {
      if (e.members.empty()) return fail(Error::schema_malformed, e.line, "an enum without members: " + quoted(e.name));
      if (!unique_members(e.members, e.line, e.name)) return false;
    }
    return true;
  }

  bool check_flags() {
    for (const auto& f : schema_.flag_sets)
      if (!unique_members(f.bits, f.line, f.name)) return false;
    return true;
  }

  bool check_tokens() {
    for (const auto& t : schema_.token_tables) {
      std::set<std::string_view> seen;
      for (const auto& row : t.rows)
        if (!seen.insert(row.token).second)
          return fail(Error::schema_duplicate_name, t.line, "a token repeated in " + quoted(t.name));
    }
    return true;
  }

  bool check_unions() {
    for (auto& u : schema_.unions) {
      if (u.cases.empty()) return fail(Error::schema_malformed, u.line, "a union without cases: " + quoted(u.name));
      std::set<std::string_view> names;
      std::set<uint8_t> tags;
      for (auto& c : u.cases) {
        if (!names.insert(c.name).second || !tags.insert(c.tag).second)
          return fail(Error::schema_duplicate_name, u.line, "a case name or tag repeated in " + quoted(u.name));
        if (!lookup(shapes_, c.shape_name, c.shape, u.line, "shape")) return false;
      }
    }
    return true;
  }

  bool lookup(const NameIndex& names, std::string_view name, uint32_t& out, uint32_t line, std::string_view what) {
    const auto it = names.find(name);
    if (it == names.end()) return fail(Error::schema_unknown_type, line, "unknown " + std::string(what) + " " + quoted(name));
    out = it->second;
    return true;
  }

  bool resolve_ref(SchemaField& f) {
    switch (f.type) {
      case FieldType::enum8:
      case FieldType::enum32: return lookup(enums_, f.ref_name, f.ref, f.line, "enum");
      case FieldType::flags8:
      case FieldType::flags16:
      case FieldType::flags32: return lookup(flags_, f.ref_name, f.ref, f.line, "flag set");
      case FieldType::shape:
      case FieldType::optional:
      case FieldType::list8:
      case FieldType::list16:
      case FieldType::counted: return lookup(shapes_, f.ref_name, f.ref, f.line, "shape");
      case FieldType::union_: return lookup(unions_, f.ref_name, f.ref, f.line, "union");
      case FieldType::tokens: return lookup(tokens_, f.ref_name, f.ref, f.line, "token table");
      default: return true;
    }
  }

  // Per-shape state while its fields are resolved.
  struct ShapeScope {
    SchemaShape& shape;
    std::vector<SchemaField*> slots;
    std::vector<bool> slot_in_sparse;
    std::set<std::string_view> names;
  };

  bool check_shapes() {
    for (auto& shape : schema_.shapes) {
      ShapeScope scope{shape, {}, {}, {}};
      if (!resolve_fields(scope, shape.fields, false)) return false;
      shape.slots.assign(scope.slots.begin(), scope.slots.end());
    }
    return true;
  }

  bool resolve_fields(ShapeScope& scope, std::vector<SchemaField>& fields, bool in_sparse) {
    for (auto& f : fields) {
      if (f.type == FieldType::tail) {
        f.slot = static_cast<uint32_t>(scope.slots.size());
        continue;
      }
      if (!scope.names.insert(f.name).second)
        return fail(Error::schema_duplicate_name, f.line, "a field name repeated in shape " + quoted(scope.shape.name));
      if (scope.slots.size() >= kMaxShapeSlots)
        return fail(Error::schema_over_limit, f.line, "too many fields in shape " + quoted(scope.shape.name));
      if (!resolve_ref(f) || (f.type == FieldType::counted && !resolve_count(scope, f))) return false;
      f.slot = static_cast<uint32_t>(scope.slots.size());
      scope.slots.push_back(&f);
      scope.slot_in_sparse.push_back(in_sparse);
      if (is_block(f.type)) {
        if (!resolve_fields(scope, f.members, in_sparse || f.type == FieldType::sparse)) return false;
        f.slot_end = static_cast<uint32_t>(scope.slots.size());
      }
    }
    return true;
  }

  bool resolve_count(ShapeScope& scope, SchemaField& list) {
    for (std::size_t i = 0; i < scope.slots.size(); ++i) {
      SchemaField& count = *scope.slots[i];
      if (count.name != list.count_name) continue;
      if (!is_unsigned_integer(count.type) || scope.slot_in_sparse[i])
        return fail(Error::schema_bad_reference, list.line,
                    "a counted list's count field must be an unsigned integer outside a sparse set: " + quoted(count.name));
      list.count_slot = static_cast<uint32_t>(i);
      if (count.counted_slot == kNoIndex) count.counted_slot = static_cast<uint32_t>(scope.slots.size());
      return true;
    }
    return fail(Error::schema_bad_reference, list.line,
                "a counted list's count field must be an earlier field of the same shape: " + quoted(list.count_name));
  }

  bool check_messages() {
    auto& messages = schema_.messages;
    for (std::size_t i = 0; i < messages.size(); ++i) {
      if (!lookup(shapes_, messages[i].shape_name, messages[i].shape, messages[i].line, "shape")) return false;
      for (std::size_t k = 0; k < i; ++k) {
        const bool clash = messages[k].id == messages[i].id && direction_allows(messages[k].direction, messages[i].direction);
        if (clash || messages[k].name == messages[i].name)
          return fail(Error::schema_duplicate_name, messages[i].line, "a message id or name used twice: " + quoted(messages[i].name));
      }
    }
    return true;
  }

  // Shapes a zero value of `fields` must contain: plain nested shapes, lists with a minimum,
  // a union's first case. Sparse members and optionals may be absent, counted lists empty.
  template <class Fn>
  void for_each_mandatory_child(const std::vector<SchemaField>& fields, Fn&& fn) const {
    for (const auto& f : fields) {
      switch (f.type) {
        case FieldType::shape: fn(f.ref, f.line); break;
        case FieldType::list8:
        case FieldType::list16:
          if (f.min > 0) fn(f.ref, f.line);
          break;
        case FieldType::union_: fn(schema_.unions[f.ref].cases.front().shape, f.line); break;
        case FieldType::section: for_each_mandatory_child(f.members, fn); break;
        default: break;
      }
    }
  }

  bool check_nesting() {
    state_.assign(schema_.shapes.size(), 0);
    height_.assign(schema_.shapes.size(), 0);
    for (uint32_t s = 0; s < schema_.shapes.size(); ++s)
      if (!visit(s, 0, schema_.shapes[s].line)) return false;
    return true;
  }

  // depth: nesting levels between the shape a walk started at and `s`.
  bool visit(uint32_t s, unsigned depth, uint32_t line) {
    enum : uint8_t { unvisited = 0, on_path = 1, done = 2 };
    if (state_[s] == on_path) return fail(Error::schema_recursive, line, "shape " + quoted(schema_.shapes[s].name) + " must contain itself");
    if (depth + (state_[s] == done ? height_[s] : 0) > kMaxNestingDepth)
      return fail(Error::nesting_too_deep, line, "shapes nested deeper than a reader may go");
    if (state_[s] == done) return true;
    state_[s] = on_path;
    bool ok = true;
    unsigned height = 0;
    for_each_mandatory_child(schema_.shapes[s].fields, [&](uint32_t child, uint32_t child_line) {
      if (!ok) return;
      ok = visit(child, depth + 1, child_line);
      if (ok && height_[child] + 1 > height) height = height_[child] + 1;
    });
    if (!ok) return false;
    height_[s] = height;
    state_[s] = done;
    return true;
  }

  Schema& schema_;
  SchemaDiagnostic& diag_;
  NameIndex enums_, flags_, tokens_, shapes_, unions_;
  std::vector<uint8_t> state_;
  std::vector<unsigned> height_;
};

}  // namespace

bool resolve_schema(Schema& schema, SchemaDiagnostic& diagnostic) { return Resolver(schema, diagnostic).run(); }

}  // namespace tickwire::wire::detail
