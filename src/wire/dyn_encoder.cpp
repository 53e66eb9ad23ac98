// Writing a DynTree as bytes, construct by construct as WriteWalker does. The one subtle part is
// the tail rule: "the rest of this scope is vacant" follows a chain of Rest links outward (the
// rest of this record, later list elements, the enclosing record...) up to the scope's end.
#include "tickwire/wire/dyn_encoder.h"

#include <bit>
#include <cstring>
#include <limits>

#include "tickwire/core/bit_writer.h"
#include "tickwire/core/bytes.h"
#include "tickwire/core/varint.h"
#include "tickwire/wire/quantize.h"

namespace tickwire::wire {
namespace {

// What follows the value being written, up to the end of its scope: children [from, to) of
// `parent` (a record's slots or a list's elements), then `outer`. nullptr: the scope ends.
struct Rest {
  const Rest* outer;
  uint32_t parent;
  uint32_t from;
  uint32_t to;
};

bool is_missing(DynKind kind) { return kind == DynKind::absent || kind == DynKind::unset; }

template <class T>
bool fits(uint64_t bits) {
  if constexpr (std::is_signed_v<T>) {
    const auto v = static_cast<int64_t>(bits);
    return v >= std::numeric_limits<T>::min() && v <= std::numeric_limits<T>::max();
  } else {
    return bits <= std::numeric_limits<T>::max();
  }
}

class Encoder {
 public:
  Encoder(const DynTree& tree, std::vector<uint8_t>& out, const EncodeLimits& limits)
      : tree_(tree), schema_(tree.schema()), out_(out), start_(out.size()), limits_(limits) {}

  void record(const SchemaShape& shape, uint32_t rec, const Rest* rest) {
    fields(shape.fields, present(rec), static_cast<uint32_t>(shape.slots.size()), rest);
  }
  Error error() const { return error_; }

 private:
  const DynNode& at(uint32_t index) const { return tree_.node(index); }
  uint32_t present(uint32_t index) const {
    return index == kNoIndex || is_missing(at(index).kind) ? kNoIndex : index;
  }
  uint32_t child(uint32_t parent, uint32_t i) const { return parent == kNoIndex ? kNoIndex : at(parent).first + i; }
  void fail(Error e) {
    if (error_ == Error::ok) error_ = e;
  }
  bool step() {
    if (++steps_ > limits_.step_budget) fail(Error::walk_budget_exceeded);
    return error_ == Error::ok;
  }

  bool vacant(uint32_t index) {
    if (!step()) return false;
    if (present(index) == kNoIndex) return true;
    const DynNode& n = at(index);
    if (n.kind != DynKind::record) return false;
    for (uint32_t i = 0; i < n.count; ++i)
      if (!vacant(n.first + i)) return false;
    return true;
  }
  bool rest_vacant(const Rest* rest) {
    for (; rest; rest = rest->outer)
      for (uint32_t i = rest->from; i < rest->to; ++i)
        if (!vacant(child(rest->parent, i))) return false;
    return error_ == Error::ok;
  }

  void fields(const std::vector<SchemaField>& list, uint32_t rec, uint32_t scope_end, const Rest* outer) {
    for (const SchemaField& f : list) {
      if (ended_ || error_ != Error::ok) return;
      if (f.type == FieldType::tail) {
        const Rest rest{outer, rec, f.slot, scope_end};
        if (rest_vacant(&rest)) ended_ = true;
        continue;
      }
      const Rest after{outer, rec, is_block(f.type) ? f.slot_end : f.slot + 1, scope_end};
      value(f, rec, present(child(rec, f.slot)), after);
    }
  }

  uint8_t* grow(std::size_t n) {
    if (error_ != Error::ok) return nullptr;
    if (out_.size() - start_ + n > limits_.max_bytes) {
      fail(Error::buffer_full);
      return nullptr;
    }
    out_.resize(out_.size() + n);
    return out_.data() + out_.size() - n;
  }
  template <class T>
  void put(T v) {
    if (uint8_t* at = grow(sizeof(T))) store_le(at, v);
  }
  void put_bytes(const void* data, std::size_t n) {
    if (uint8_t* at = grow(n)) std::memcpy(at, data, n);
  }
  template <class T>
  void put_checked(uint64_t bits) {
    if (!fits<T>(bits)) return fail(Error::value_out_of_range);
    put(static_cast<T>(bits));
  }

  uint64_t count_for(const SchemaField& f, uint32_t rec) const {
    const uint32_t list = present(child(rec, f.counted_slot));
    return list == kNoIndex ? 0 : at(list).count;
  }
  uint64_t scalar(const SchemaField& f, uint32_t rec, uint32_t n) const {
    if (f.counted_slot != kNoIndex) return count_for(f, rec);
    return n == kNoIndex ? 0 : at(n).bits;
  }

  void value(const SchemaField& f, uint32_t rec, uint32_t n, const Rest& after) {
    if (!step()) return;
    switch (f.type) {
      case FieldType::u8: return put_checked<uint8_t>(scalar(f, rec, n));
      case FieldType::u16: return put_checked<uint16_t>(scalar(f, rec, n));
      case FieldType::u32: return put_checked<uint32_t>(scalar(f, rec, n));
      case FieldType::u64: return put_checked<uint64_t>(scalar(f, rec, n));
      case FieldType::i8: return put_checked<int8_t>(scalar(f, rec, n));
      case FieldType::i16: return put_checked<int16_t>(scalar(f, rec, n));
      case FieldType::i32: return put_checked<int32_t>(scalar(f, rec, n));
      case FieldType::i64: return put_checked<int64_t>(scalar(f, rec, n));
      case FieldType::f32: return put_checked<uint32_t>(scalar(f, rec, n));
      case FieldType::f64: return put_checked<uint64_t>(scalar(f, rec, n));
      case FieldType::boolean: return put_checked<uint8_t>(scalar(f, rec, n) ? 1 : 0);
      case FieldType::varu32: return varint(scalar(f, rec, n), 32);
      case FieldType::varu64: return varint(scalar(f, rec, n), 64);
      case FieldType::str8: return string<uint8_t>(f, n);
      case FieldType::str16: return string<uint16_t>(f, n);
      case FieldType::hash16:
      case FieldType::guid: return bytes16(n);
      case FieldType::enum8: return enumeration<uint8_t>(f, n);
      case FieldType::enum32: return enumeration<uint32_t>(f, n);
      case FieldType::flags8: return put_checked<uint8_t>(scalar(f, rec, n));
      case FieldType::flags16: return put_checked<uint16_t>(scalar(f, rec, n));
      case FieldType::flags32: return put_checked<uint32_t>(scalar(f, rec, n));
      case FieldType::shape: return record(schema_.shapes[f.ref], n, &after);
      case FieldType::optional: return optional(f, n, after);
      case FieldType::list8: return list<uint8_t>(f, n, after);
      case FieldType::list16: return list<uint16_t>(f, n, after);
      case FieldType::counted: return counted(f, rec, n, after);
      case FieldType::union_: return union_value(f, n, after);
      case FieldType::tokens: return tokens(f, n);
      case FieldType::sparse: return sparse(f, rec, after);
      case FieldType::section: return section(f, rec);
      case FieldType::bits: return bits(f, rec);
      default: TW_ASSERT(false, "a bit field or tail outside its place survived the parser");
    }
  }

  void varint(uint64_t v, unsigned max_bits) {
    if (max_bits < 64 && (v >> max_bits) != 0) return fail(Error::value_out_of_range);
    if (uint8_t* at = grow(varint_size(v))) varint_write(v, at);
  }
  template <class Len>
  void string(const SchemaField& f, uint32_t n) {
    const std::string_view text = n == kNoIndex ? std::string_view() : tree_.text(at(n).first, at(n).count);
    if (text.size() > f.max) return fail(Error::string_over_cap);
    put(static_cast<Len>(text.size()));
    put_bytes(text.data(), text.size());
  }
  void bytes16(uint32_t n) {
    static constexpr uint8_t kZero[16] = {};
    put_bytes(n == kNoIndex ? static_cast<const void*>(kZero) : tree_.text(at(n).first, 16).data(), 16);
  }
  template <class Raw>
  void enumeration(const SchemaField& f, uint32_t n) {
    if (n != kNoIndex) return put_checked<Raw>(at(n).bits);
    for (const SchemaMember& m : schema_.enums[f.ref].members)
      if (fits<Raw>(m.value)) return put(static_cast<Raw>(m.value));
    fail(Error::value_out_of_range);
  }

  void optional(const SchemaField& f, uint32_t n, const Rest& after) {
    const bool has = n != kNoIndex && at(n).count == 1;
    put<uint8_t>(has ? 1 : 0);
    if (has) record(schema_.shapes[f.ref], at(n).first, &after);
  }
  template <class Len>
  void list(const SchemaField& f, uint32_t n, const Rest& after) {
    const uint64_t count = n == kNoIndex ? f.min : at(n).count;
    if (count < f.min || count > f.max) return fail(Error::value_out_of_range);
    put(static_cast<Len>(count));
    elements(f, n, count, after);
  }
  void counted(const SchemaField& f, uint32_t rec, uint32_t n, const Rest& after) {
    const uint64_t count = n == kNoIndex ? 0 : at(n).count;
    if (count > f.max) return fail(Error::count_over_max);
    // The count field was written as the size of the first list naming it; a second list naming
    // the same field must agree.
    const SchemaShape* shape = rec == kNoIndex ? nullptr : at(rec).shape;
    if (shape && count_for(*shape->slots[f.count_slot], rec) != count) return fail(Error::count_mismatch);
    elements(f, n, count, after);
  }
  void elements(const SchemaField& f, uint32_t n, uint64_t count, const Rest& after) {
    const SchemaShape& shape = schema_.shapes[f.ref];
    for (uint32_t i = 0; i < count && error_ == Error::ok; ++i) {
      const Rest rest{&after, n, i + 1, static_cast<uint32_t>(count)};
      record(shape, child(n, i), &rest);
    }
  }
  void union_value(const SchemaField& f, uint32_t n, const Rest& after) {
    const SchemaUnion& def = schema_.unions[f.ref];
    const SchemaCase& which = def.cases[n == kNoIndex ? 0 : at(n).aux];
    put(which.tag);
    record(schema_.shapes[which.shape], n == kNoIndex ? kNoIndex : at(n).first, &after);
  }
  void tokens(const SchemaField& f, uint32_t n) {
    const uint32_t count = n == kNoIndex ? 0 : at(n).count;
    if (count > f.max) return fail(Error::count_over_max);
    put(static_cast<uint16_t>(count));
    const SchemaTokenTable& table = schema_.token_tables[f.ref];
    for (uint32_t i = 0; i < count && error_ == Error::ok; ++i) {
      const DynNode& pair = at(at(n).first + i);
      if (pair.aux >= table.rows.size()) return fail(Error::invalid_token);
      put(static_cast<uint16_t>(pair.aux));
      if (table.rows[pair.aux].kind == TokenKind::boolean) {
        put<uint8_t>(pair.bits ? 1 : 0);
      } else {
        put_checked<uint32_t>(pair.bits);
      }
    }
  }

  void sparse(const SchemaField& f, uint32_t rec, const Rest& after) {
    uint64_t mask = 0;
    for (std::size_t i = 0; i < f.members.size(); ++i) {
      if (present(child(rec, f.members[i].slot)) == kNoIndex) continue;
      if (i >= f.width_bits) return fail(Error::value_out_of_range);
      mask |= uint64_t{1} << i;
    }
    switch (f.width_bits) {
      case 8: put(static_cast<uint8_t>(mask)); break;
      case 16: put(static_cast<uint16_t>(mask)); break;
      case 32: put(static_cast<uint32_t>(mask)); break;
      default: put(mask); break;
    }
    for (std::size_t i = 0; i < f.members.size() && !ended_; ++i) {
      const SchemaField& m = f.members[i];
      if ((mask >> i) & 1u) {
        const Rest rest{after.outer, rec, is_block(m.type) ? m.slot_end : m.slot + 1, after.to};
        value(m, rec, present(child(rec, m.slot)), rest);
      }
    }
  }
  void section(const SchemaField& f, uint32_t rec) {
    const std::size_t length_at = out_.size();
    put<uint16_t>(0);
    fields(f.members, rec, f.slot_end, nullptr);
    ended_ = false;  // a tail inside a section ends the section only
    const std::size_t length = out_.size() - length_at - 2;
    if (error_ != Error::ok) return;
    if (length > 0xffff) return fail(Error::value_out_of_range);
    store_le(out_.data() + length_at, static_cast<uint16_t>(length));
  }
  void bits(const SchemaField& f, uint32_t rec) {
    std::size_t total_bits = 0;
    for (const SchemaField& m : f.members)
      total_bits += m.type == FieldType::quat ? 2 + 3 * std::size_t{m.width_bits}
                    : m.type == FieldType::quant ? m.quant.bits()
                    : m.type == FieldType::ubits ? m.width_bits
                                                 : 1;
    uint8_t* at = grow((total_bits + 7) / 8);
    if (!at) return;
    BitWriter bw(std::span<uint8_t>(at, (total_bits + 7) / 8));
    for (const SchemaField& m : f.members) bit_field(m, rec, present(child(rec, m.slot)), bw);
    bw.align();
  }
  void bit_field(const SchemaField& m, uint32_t rec, uint32_t n, BitWriter& bw) {
    switch (m.type) {
      case FieldType::ubits: {
        const uint64_t v = scalar(m, rec, n);
        if (m.width_bits < 64 && (v >> m.width_bits) != 0) return fail(Error::value_out_of_range);
        return bw.write(v, m.width_bits);
      }
      case FieldType::bit: return bw.write_bool(n != kNoIndex && at(n).bits != 0);
      case FieldType::quant: {
        const uint64_t grid = n == kNoIndex ? quantize(0.0, m.quant) : at(n).aux;
        if (grid > m.quant.steps()) return fail(Error::value_out_of_range);
        return bw.write(grid, m.quant.bits());
      }
      case FieldType::quat: {
        const PackedQuat p = n == kNoIndex ? pack_quat(Quat{}, m.width_bits)
                                           : PackedQuat{at(n).count, static_cast<uint32_t>(at(n).bits),
                                                        static_cast<uint32_t>(at(n).bits >> 32), at(n).first};
        bw.write(p.largest, 2);
        bw.write(p.a, m.width_bits);
        bw.write(p.b, m.width_bits);
        return bw.write(p.c, m.width_bits);
      }
      default: TW_ASSERT(false, "a non-bit field inside a bits block survived the parser");
    }
  }

  const DynTree& tree_;
  const Schema& schema_;
  std::vector<uint8_t>& out_;
  std::size_t start_;
  EncodeLimits limits_;
  std::size_t steps_ = 0;
  Error error_ = Error::ok;
  bool ended_ = false;
};

}  // namespace

Status encode_dynamic(const DynValue& root, std::vector<uint8_t>& out, const EncodeLimits& limits) {
  TW_ASSERT(root.kind() == DynKind::record, "encode_dynamic takes a record");
  const std::size_t start = out.size();
  Encoder encoder(*root.tree(), out, limits);
  encoder.record(*root.shape(), root.index(), nullptr);
  if (encoder.error() != Error::ok) out.resize(start);
  return encoder.error();
}

}  // namespace tickwire::wire
