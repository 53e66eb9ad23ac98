// Rewriting a peer's value tree into ours through the plan tables, value by value: a value that
// cannot be carried is left absent (and counted), a field only we have takes our shape's default,
// a union case we lack inside a list element drops the whole entry, token pairs map row to row by
// token.
#include <bit>
#include <cmath>
#include <limits>

#include "plan_tables.h"
#include "tickwire/wire/quantize.h"

namespace tickwire::wire::detail {
namespace {

enum class Outcome : uint8_t { kept, drop_entry };

bool is_missing(DynKind kind) { return kind == DynKind::absent || kind == DynKind::unset; }

// Whether an integer (unsigned bits, or two's complement when `is_signed`) fits our field's type.
bool integer_fits(FieldType type, unsigned width_bits, uint64_t bits, bool is_signed) {
  const bool negative = is_signed && static_cast<int64_t>(bits) < 0;
  auto below = [&](uint64_t max) { return !negative && bits <= max; };
  auto within = [&](int64_t lo, int64_t hi) {
    if (!is_signed && bits > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return false;
    const auto v = static_cast<int64_t>(bits);
    return v >= lo && v <= hi;
  };
  switch (type) {
    case FieldType::u8: return below(0xff);
    case FieldType::u16: return below(0xffff);
    case FieldType::u32:
    case FieldType::varu32: return below(0xffffffffu);
    case FieldType::u64:
    case FieldType::varu64: return below(std::numeric_limits<uint64_t>::max());
    case FieldType::ubits: return below(width_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << width_bits) - 1);
    case FieldType::i8: return within(-128, 127);
    case FieldType::i16: return within(-32768, 32767);
    case FieldType::i32: return within(std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
    case FieldType::i64: return within(std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max());
    default: return false;
  }
}

bool is_signed_type(FieldType type) {
  return type == FieldType::i8 || type == FieldType::i16 || type == FieldType::i32 || type == FieldType::i64;
}

double real_value(const DynNode& n) {
  if (n.field->type == FieldType::f32) return std::bit_cast<float>(static_cast<uint32_t>(n.bits));
  return std::bit_cast<double>(n.bits);
}

bool same_spec(const QuantSpec& a, const QuantSpec& b) {
  return a.min == b.min && a.max == b.max && a.resolution == b.resolution;
}

class Converter {
 public:
  Converter(const PlanTables& tables, const DynTree& peer, DynTree& ours, ReasonCounters<PlanEvent>& counters)
      : t_(tables), peer_(peer), ours_(ours), counters_(counters) {}

  Error run(uint32_t plan) {
    const uint32_t root = reserve(1);
    if (root == kNoIndex) return error_;
    ours_.set_root(root);
    record(plan, peer_.root().index(), root, nullptr, false);
    return error_;
  }

 private:
  const DynNode& peer(uint32_t index) const { return peer_.node(index); }
  DynNode& our(uint32_t index) { return ours_.node(index); }
  const Schema& our_schema() const { return ours_.schema(); }
  uint32_t reserve(std::size_t n) {
    const uint32_t first = ours_.reserve(n);
    if (first == kNoIndex && error_ == Error::ok) error_ = Error::walk_budget_exceeded;
    return first;
  }
  void set(uint32_t index, DynKind kind, uint64_t bits, uint32_t aux = 0) {
    DynNode& n = our(index);
    n.kind = kind;
    n.bits = bits;
    n.aux = aux;
  }
  Outcome drop(PlanEvent event) {
    counters_.add(event);
    return Outcome::kept;  // the node stays absent
  }

  // Our record at `index` for the peer record `peer_rec`; on drop_entry its list entry goes.
  Outcome record(uint32_t plan, uint32_t peer_rec, uint32_t index, const SchemaField* field, bool in_element) {
    const ShapePlan& sp = t_.shapes[plan];
    const auto slots = static_cast<uint32_t>(sp.ours->slots.size());
    const uint32_t first = reserve(slots);
    if (first == kNoIndex) return Outcome::kept;
    for (uint32_t i = 0; i < slots; ++i) our(first + i) = DynNode{sp.ours->slots[i], nullptr, 0, 0, 0, 0, DynKind::absent};
    our(index) = DynNode{field, sp.ours, 0, first, slots, 0, DynKind::record};
    if (sp.peer_only) counters_.add(PlanEvent::peer_field_skipped, sp.peer_only);
    if (sp.ours_only) counters_.add(PlanEvent::field_defaulted, sp.ours_only);
    const uint32_t peer_first = peer(peer_rec).first;
    for (uint32_t i = 0; i < slots && error_ == Error::ok; ++i) {
      const SlotPlan& m = sp.slots[i];
      if (m.peer_slot == kNoIndex) continue;
      if (value(m, peer_first + m.peer_slot, first + i, in_element) == Outcome::drop_entry) return Outcome::drop_entry;
    }
    if (sp.ours_only) default_unpaired(sp, first);
    present_unpaired_blocks(sp, first);
    return Outcome::kept;
  }

  // Fields only we have keep what our shape holds before a walk, as a typed reader keeps them.
  void default_unpaired(const ShapePlan& sp, uint32_t first) {
    if (t_.our_defaults.empty()) return;
    const ShapeDefaultsPlan& d = t_.our_defaults[static_cast<std::size_t>(sp.ours - our_schema().shapes.data())];
    for (const SlotDefault& v : d.values)
      if (sp.slots[v.slot].peer_slot == kNoIndex) set_default(v, first + v.slot);
    for (const uint32_t slot : d.nested)
      if (sp.slots[slot].peer_slot == kNoIndex) default_record(first + slot, 0);
  }

  // A nested shape only we have: a record of its shape's defaults (zero where it has none).
  void default_record(uint32_t index, unsigned depth) {
    if (depth >= kMaxNestingDepth || error_ != Error::ok) return;
    const SchemaField& field = *our(index).field;
    const SchemaShape& shape = our_schema().shapes[field.ref];
    const auto slots = static_cast<uint32_t>(shape.slots.size());
    const uint32_t first = reserve(slots);
    if (first == kNoIndex) return;
    for (uint32_t i = 0; i < slots; ++i) our(first + i) = DynNode{shape.slots[i], nullptr, 0, 0, 0, 0, DynKind::absent};
    our(index) = DynNode{&field, &shape, 0, first, slots, 0, DynKind::record};
    const ShapeDefaultsPlan& d = t_.our_defaults[field.ref];
    for (const SlotDefault& v : d.values) set_default(v, first + v.slot);
    for (const uint32_t slot : d.nested) default_record(first + slot, depth + 1);
  }

  void set_default(const SlotDefault& v, uint32_t index) {
    set(index, v.kind, v.bits, v.aux);
    if (v.kind != DynKind::text && v.kind != DynKind::bytes16) return;
    const uint32_t offset = ours_.add_text(v.text);
    if (offset == kNoIndex) {
      error_ = Error::walk_budget_exceeded;
      return;
    }
    our(index).first = offset;
    our(index).count = static_cast<uint32_t>(v.text.size());
  }

  // A block of ours the peer does not have is on the wire when any member it holds is.
  void present_unpaired_blocks(const ShapePlan& sp, uint32_t first) {
    for (uint32_t i = 0; i < sp.slots.size(); ++i) {
      const SchemaField& f = *sp.ours->slots[i];
      if (!is_block(f.type) || sp.slots[i].peer_slot != kNoIndex) continue;
      for (uint32_t s = f.slot + 1; s < f.slot_end; ++s)
        if (!is_missing(our(first + s).kind)) {
          set(first + i, DynKind::block, 0);
          break;
        }
    }
  }

  Outcome value(const SlotPlan& m, uint32_t pn, uint32_t on, bool in_element) {
    const DynNode& p = peer(pn);
    if (is_missing(p.kind)) {
      our(on).kind = p.kind;
      return Outcome::kept;
    }
    const SchemaField& of = *our(on).field;
    switch (m.how) {
      case Conv::retyped: return drop(PlanEvent::retyped_absent);
      case Conv::integer: return integer(p, of, on);
      case Conv::real: return real(p, of, on);
      case Conv::boolean: set(on, DynKind::boolean, p.bits ? 1 : 0); return Outcome::kept;
      case Conv::text: return text(p, of, on, DynKind::text);
      case Conv::bytes16: return text(p, of, on, DynKind::bytes16);
      case Conv::enumeration: return enumeration(m, p, of, on);
      case Conv::flags: return flags(m, p, of, on);
      case Conv::shape: return record(m.sub, pn, on, &of, in_element);
      case Conv::optional: return optional(m, pn, of, on, in_element);
      case Conv::list: return list(m, pn, of, on);
      case Conv::union_: return union_value(m, pn, of, on, in_element);
      case Conv::tokens: return tokens(m, pn, of, on);
      case Conv::quat: return quat(p, of, on);
      case Conv::block: set(on, DynKind::block, 0); return Outcome::kept;
    }
    return Outcome::kept;
  }

  Outcome integer(const DynNode& p, const SchemaField& of, uint32_t on) {
    if (!integer_fits(of.type, of.width_bits, p.bits, p.kind == DynKind::signed_int))
      return drop(PlanEvent::value_did_not_fit);
    set(on, is_signed_type(of.type) ? DynKind::signed_int : DynKind::unsigned_int, p.bits);
    return Outcome::kept;
  }

  Outcome real(const DynNode& p, const SchemaField& of, uint32_t on) {
    const FieldType from = p.field->type;
    const double v = real_value(p);
    if (of.type == FieldType::quant) {
      if (from == FieldType::quant && same_spec(p.field->quant, of.quant)) {
        set(on, DynKind::real, p.bits, p.aux);
        return Outcome::kept;
      }
      if (!(v >= of.quant.min && v <= of.quant.max)) return drop(PlanEvent::value_did_not_fit);
      const uint64_t grid = quantize(v, of.quant);
      set(on, DynKind::real, std::bit_cast<uint64_t>(dequantize(grid, of.quant)), static_cast<uint32_t>(grid));
    } else if (of.type == FieldType::f32) {
      if (from == FieldType::f32) return set(on, DynKind::real, p.bits), Outcome::kept;
      if (std::isfinite(v) && std::fabs(v) > static_cast<double>(std::numeric_limits<float>::max()))
        return drop(PlanEvent::value_did_not_fit);
      set(on, DynKind::real, std::bit_cast<uint32_t>(static_cast<float>(v)));
    } else {
      set(on, DynKind::real, from == FieldType::f64 ? p.bits : std::bit_cast<uint64_t>(v));
    }
    return Outcome::kept;
  }

  Outcome text(const DynNode& p, const SchemaField& of, uint32_t on, DynKind kind) {
    const uint32_t length = kind == DynKind::bytes16 ? 16 : p.count;
    if (kind == DynKind::text && length > of.max) return drop(PlanEvent::value_did_not_fit);
    const uint32_t offset = ours_.add_text(peer_.text(p.first, length));
    if (offset == kNoIndex) {
      error_ = Error::walk_budget_exceeded;
      return Outcome::kept;
    }
    set(on, kind, 0);
    our(on).first = offset;
    our(on).count = length;
    return Outcome::kept;
  }

  Outcome enumeration(const SlotPlan& m, const DynNode& p, const SchemaField& of, uint32_t on) {
    const uint32_t member = t_.enums[m.sub].to_ours[p.aux];
    if (member == kNoIndex) return drop(PlanEvent::enum_member_missing);
    const uint32_t value = our_schema().enums[of.ref].members[member].value;
    if (of.type == FieldType::enum8 && value > 0xff) return drop(PlanEvent::value_did_not_fit);
    set(on, DynKind::enumeration, value, member);
    return Outcome::kept;
  }

  Outcome flags(const SlotPlan& m, const DynNode& p, const SchemaField& of, uint32_t on) {
    const unsigned width = of.type == FieldType::flags8 ? 8 : of.type == FieldType::flags16 ? 16 : 32;
    uint64_t bits = 0;
    for (unsigned b = 0; b < 32; ++b) {
      if (((p.bits >> b) & 1u) == 0) continue;
      const int8_t to = t_.flags[m.sub].to_ours[b];
      if (to < 0 || static_cast<unsigned>(to) >= width) {
        counters_.add(PlanEvent::flag_bit_dropped);
        continue;
      }
      bits |= uint64_t{1} << to;
    }
    set(on, DynKind::flags, bits);
    return Outcome::kept;
  }

  Outcome optional(const SlotPlan& m, uint32_t pn, const SchemaField& of, uint32_t on, bool in_element) {
    const bool has = peer(pn).count == 1;
    set(on, DynKind::optional, has ? 1 : 0);
    if (!has) return Outcome::kept;
    const uint32_t child = reserve(1);
    if (child == kNoIndex) return Outcome::kept;
    our(on).first = child;
    our(on).count = 1;
    return record(m.sub, peer(pn).first, child, &of, in_element);
  }

  Outcome list(const SlotPlan& m, uint32_t pn, const SchemaField& of, uint32_t on) {
    const uint32_t count = peer(pn).count, peer_first = peer(pn).first;
    const uint32_t first = reserve(count);
    if (first == kNoIndex) return Outcome::kept;
    uint32_t kept = 0;
    for (uint32_t i = 0; i < count && error_ == Error::ok; ++i) {
      if (record(m.sub, peer_first + i, first + kept, &of, true) == Outcome::drop_entry) {
        counters_.add(PlanEvent::union_entry_dropped);
      } else {
        ++kept;
      }
    }
    if (kept < of.min || kept > of.max) return drop(PlanEvent::value_did_not_fit);
    set(on, DynKind::list, kept);
    our(on).first = first;
    our(on).count = kept;
    return Outcome::kept;
  }

  Outcome union_value(const SlotPlan& m, uint32_t pn, const SchemaField& of, uint32_t on, bool in_element) {
    const UnionPlan& up = t_.unions[m.sub];
    const uint32_t peer_case = peer(pn).aux;
    const uint32_t which = up.to_ours[peer_case];
    if (which == kNoIndex) return in_element ? Outcome::drop_entry : drop(PlanEvent::union_case_absent);
    const uint32_t child = reserve(1);
    if (child == kNoIndex) return Outcome::kept;
    set(on, DynKind::union_value, our_schema().unions[of.ref].cases[which].tag, which);
    our(on).first = child;
    our(on).count = 1;
    return record(up.shape_plans[peer_case], peer(pn).first, child, &of, in_element);
  }

  Outcome tokens(const SlotPlan& m, uint32_t pn, const SchemaField& of, uint32_t on) {
    const uint32_t count = peer(pn).count, peer_first = peer(pn).first;
    const uint32_t first = reserve(count);
    if (first == kNoIndex) return Outcome::kept;
    uint32_t kept = 0;
    for (uint32_t i = 0; i < count; ++i) {
      const DynNode& pair = peer(peer_first + i);
      const uint32_t row = t_.tokens[m.sub].to_ours[pair.aux];
      if (row == kNoIndex) {
        counters_.add(PlanEvent::token_pair_dropped);
        continue;
      }
      our(first + kept++) = DynNode{&of, nullptr, pair.bits, 0, 0, row, DynKind::token_pair};
    }
    if (kept > of.max) return drop(PlanEvent::value_did_not_fit);
    set(on, DynKind::tokens, kept);
    our(on).first = first;
    our(on).count = kept;
    return Outcome::kept;
  }

  Outcome quat(const DynNode& p, const SchemaField& of, uint32_t on) {
    PackedQuat packed{p.count, static_cast<uint32_t>(p.bits), static_cast<uint32_t>(p.bits >> 32), p.first};
    if (p.field->width_bits != of.width_bits) packed = pack_quat(unpack_quat(packed, p.field->width_bits), of.width_bits);
    set(on, DynKind::quat, packed.a | (uint64_t{packed.b} << 32));
    our(on).first = packed.c;
    our(on).count = packed.largest;
    return Outcome::kept;
  }

  const PlanTables& t_;
  const DynTree& peer_;
  DynTree& ours_;
  ReasonCounters<PlanEvent>& counters_;
  Error error_ = Error::ok;
};

}  // namespace

Status convert_message(const PlanTables& tables, uint32_t plan, const DynTree& peer, DynTree& ours,
                       ReasonCounters<PlanEvent>& counters) {
  return Converter(tables, peer, ours, counters).run(plan);
}

}  // namespace tickwire::wire::detail
