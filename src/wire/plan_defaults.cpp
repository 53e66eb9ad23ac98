// Our shapes' defaults (recorded by the describe walk, by shape and field name) resolved against
// our parsed schema into slot values a plan can write, so a field only we have keeps what its
// shape holds before a walk instead of the type's zero.
#include <algorithm>
#include <bit>

#include "plan_tables.h"
#include "tickwire/wire/quantize.h"

namespace tickwire::wire::detail {
namespace {

using Kind = FieldDefault::Kind;

// Slots that are members of a sparse set, at any depth of blocks.
void mark_sparse_members(const std::vector<SchemaField>& fields, bool inside, std::vector<bool>& sparse) {
  for (const SchemaField& f : fields) {
    if (f.type == FieldType::tail) continue;
    if (inside) sparse[f.slot] = true;
    if (is_block(f.type)) mark_sparse_members(f.members, inside || f.type == FieldType::sparse, sparse);
  }
}

bool is_signed_integer(FieldType type) {
  return type == FieldType::i8 || type == FieldType::i16 || type == FieldType::i32 || type == FieldType::i64;
}

// The default as our field holds it; false when the two disagree about the type (not the same
// build's default: left at its zero).
bool resolve(const Schema& ours, const SchemaField& f, const FieldDefault& d, SlotDefault& out) {
  out.slot = f.slot;
  out.bits = d.bits;
  const auto as = [&](Kind kind, DynKind dyn) {
    out.kind = dyn;
    return d.kind == kind;
  };
  if (is_unsigned_integer(f.type)) return as(Kind::unsigned_int, DynKind::unsigned_int);
  if (is_signed_integer(f.type)) return as(Kind::signed_int, DynKind::signed_int);
  switch (f.type) {
    case FieldType::f32: return as(Kind::real32, DynKind::real);
    case FieldType::f64: return as(Kind::real64, DynKind::real);
    case FieldType::quant: {
      const uint64_t grid = quantize(std::bit_cast<double>(d.bits), f.quant);
      out.bits = std::bit_cast<uint64_t>(dequantize(grid, f.quant));
      out.aux = static_cast<uint32_t>(grid);
      return as(Kind::real64, DynKind::real);
    }
    case FieldType::boolean:
    case FieldType::bit: return as(Kind::boolean, DynKind::boolean);
    case FieldType::str8:
    case FieldType::str16: out.text = d.bytes; return d.bytes.size() <= f.max && as(Kind::text, DynKind::text);
    case FieldType::hash16:
    case FieldType::guid: out.text = d.bytes; return d.bytes.size() == 16 && as(Kind::bytes16, DynKind::bytes16);
    case FieldType::enum8:
    case FieldType::enum32:
      out.aux = ours.enums[f.ref].find_value(static_cast<uint32_t>(d.bits));
      return out.aux != kNoIndex && as(Kind::enumeration, DynKind::enumeration);
    case FieldType::flags8:
    case FieldType::flags16:
    case FieldType::flags32: return as(Kind::flags, DynKind::flags);
    default: return false;
  }
}

}  // namespace

std::vector<ShapeDefaultsPlan> resolve_shape_defaults(const Schema& ours, const ShapeDefaults& defaults) {
  std::vector<ShapeDefaultsPlan> plans(ours.shapes.size());
  std::vector<std::vector<bool>> sparse(ours.shapes.size());
  for (std::size_t s = 0; s < ours.shapes.size(); ++s) {
    const SchemaShape& shape = ours.shapes[s];
    sparse[s].assign(shape.slots.size(), false);
    mark_sparse_members(shape.fields, false, sparse[s]);
    for (const FieldDefault& d : defaults.of(shape.name)) {
      const uint32_t slot = shape.find_slot(d.field);
      if (slot == kNoIndex || sparse[s][slot] || shape.slots[slot]->counted_slot != kNoIndex) continue;
      SlotDefault value;
      if (resolve(ours, *shape.slots[slot], d, value)) plans[s].values.push_back(std::move(value));
    }
  }
  // A nested shape (by value) holds a default when it, or one nested in it, holds one. Shapes
  // cannot hold themselves by value, so each pass settles at least one more level.
  for (std::size_t pass = 0; pass <= ours.shapes.size(); ++pass) {
    bool changed = false;
    for (std::size_t s = 0; s < ours.shapes.size(); ++s) {
      for (const SchemaField* f : ours.shapes[s].slots) {
        if (f->type != FieldType::shape || sparse[s][f->slot]) continue;
        const ShapeDefaultsPlan& inner = plans[f->ref];
        if (inner.values.empty() && inner.nested.empty()) continue;
        auto& nested = plans[s].nested;
        if (std::find(nested.begin(), nested.end(), f->slot) != nested.end()) continue;
        nested.push_back(f->slot);
        changed = true;
      }
    }
    if (!changed) break;
  }
  return plans;
}

}  // namespace tickwire::wire::detail
