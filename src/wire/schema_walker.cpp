// Decoding any schema-described bytes into a DynTree. Every check and its order mirrors
// ReadWalker (read_walker.h) and BitReadWalker, so the typed reader and the schema walker refuse
// the same bytes with the same error; the node budget is the one addition.
#include "tickwire/wire/schema_walker.h"

#include <bit>

#include "tickwire/core/bit_reader.h"
#include "tickwire/core/bytes.h"
#include "tickwire/core/varint.h"
#include "tickwire/wire/quantize.h"
#include "tickwire/wire/sparse_view.h"
#include "tickwire/wire/utf8.h"

namespace tickwire::wire {
namespace {

class Decoder {
 public:
  Decoder(std::span<const uint8_t> in, DynTree& tree)
      : begin_(in.data()), pos_(in.data()), limit_(in.data() + in.size()), tree_(tree) {}

  void root(const SchemaShape& shape) {
    const uint32_t index = tree_.reserve(1);
    if (index == kNoIndex) return fail("<root>", Error::walk_budget_exceeded);
    tree_.set_root(index);
    record(index, shape, nullptr);
  }
  void fail(std::string_view field, Error e) {
    if (error_ != Error::ok) return;
    error_ = e;
    field_ = field;
  }
  Error error() const { return error_; }
  std::string_view error_field() const { return field_; }
  std::size_t consumed() const { return static_cast<std::size_t>(pos_ - begin_); }
  std::size_t remaining() const { return static_cast<std::size_t>(limit_ - pos_); }

 private:
  bool failed() const { return error_ != Error::ok; }
  bool stopped() const { return failed() || ended_; }
  DynNode& at(uint32_t index) { return tree_.node(index); }
  void set(uint32_t index, const SchemaField& f, DynKind kind, uint64_t bits, uint32_t aux = 0) {
    DynNode& n = at(index);
    n.field = &f;
    n.kind = kind;
    n.bits = bits;
    n.aux = aux;
  }
  uint32_t reserve(const SchemaField* f, std::size_t n) {
    const uint32_t first = tree_.reserve(n);
    if (first == kNoIndex) fail(f ? std::string_view(f->name) : "<root>", Error::walk_budget_exceeded);
    return first;
  }
  bool enter(const SchemaField& f) {
    if (++depth_ > kMaxNestingDepth) {
      --depth_;
      fail(f.name, Error::nesting_too_deep);
      return false;
    }
    return true;
  }

  template <class T>
  bool get(const SchemaField& f, T& v) {
    if (stopped()) return false;
    if (remaining() < sizeof(T)) {
      fail(f.name, Error::truncated);
      return false;
    }
    v = load_le<T>(pos_);
    pos_ += sizeof(T);
    return true;
  }

  // A shape's record at `index`: one child per slot, each knowing its field, then the fields.
  void record(uint32_t index, const SchemaShape& shape, const SchemaField* field) {
    const uint32_t first = reserve(field, shape.slots.size());
    if (first == kNoIndex) return;
    for (std::size_t i = 0; i < shape.slots.size(); ++i) at(first + static_cast<uint32_t>(i)).field = shape.slots[i];
    DynNode& n = at(index);
    n.kind = DynKind::record;
    n.field = field;
    n.shape = &shape;
    n.first = first;
    n.count = static_cast<uint32_t>(shape.slots.size());
    fields(shape.fields, first);
  }

  void fields(const std::vector<SchemaField>& list, uint32_t first) {
    for (const SchemaField& f : list) {
      if (failed()) return;
      if (f.type == FieldType::tail) {
        if (pos_ == limit_) ended_ = true;
        continue;
      }
      value(f, first + f.slot, first);
    }
  }

  void value(const SchemaField& f, uint32_t index, uint32_t first) {
    if (stopped()) return;
    switch (f.type) {
      case FieldType::u8: return integer<uint8_t>(f, index);
      case FieldType::u16: return integer<uint16_t>(f, index);
      case FieldType::u32: return integer<uint32_t>(f, index);
      case FieldType::u64: return integer<uint64_t>(f, index);
      case FieldType::i8: return integer<int8_t>(f, index);
      case FieldType::i16: return integer<int16_t>(f, index);
      case FieldType::i32: return integer<int32_t>(f, index);
      case FieldType::i64: return integer<int64_t>(f, index);
      case FieldType::f32: return real<uint32_t>(f, index);
      case FieldType::f64: return real<uint64_t>(f, index);
      case FieldType::boolean: return boolean(f, index);
      case FieldType::varu32: return varint(f, index, 32);
      case FieldType::varu64: return varint(f, index, 64);
      case FieldType::str8: return string<uint8_t>(f, index);
      case FieldType::str16: return string<uint16_t>(f, index);
      case FieldType::hash16:
      case FieldType::guid: return bytes16(f, index);
      case FieldType::enum8: return enumeration<uint8_t>(f, index);
      case FieldType::enum32: return enumeration<uint32_t>(f, index);
      case FieldType::flags8: return flags<uint8_t>(f, index);
      case FieldType::flags16: return flags<uint16_t>(f, index);
      case FieldType::flags32: return flags<uint32_t>(f, index);
      case FieldType::shape: return nested(f, index);
      case FieldType::optional: return optional(f, index);
      case FieldType::list8: return list<uint8_t>(f, index);
      case FieldType::list16: return list<uint16_t>(f, index);
      case FieldType::counted: return counted(f, index, first);
      case FieldType::union_: return union_value(f, index);
      case FieldType::tokens: return tokens(f, index);
      case FieldType::sparse: return sparse(f, index, first);
      case FieldType::section: return section(f, index, first);
      case FieldType::bits: return bits(f, index, first);
      default: TW_ASSERT(false, "a bit field or tail outside its place survived the parser");
    }
  }

  template <class T>
  void integer(const SchemaField& f, uint32_t index) {
    T v{};
    if (!get(f, v)) return;
    if constexpr (std::is_signed_v<T>) {
      set(index, f, DynKind::signed_int, static_cast<uint64_t>(static_cast<int64_t>(v)));
    } else {
      set(index, f, DynKind::unsigned_int, v);
    }
  }
  template <class Raw>
  void real(const SchemaField& f, uint32_t index) {
    Raw v{};
    if (get(f, v)) set(index, f, DynKind::real, v);
  }
  void boolean(const SchemaField& f, uint32_t index) {
    uint8_t raw = 0;
    if (!get(f, raw)) return;
    if (raw > 1) return fail(f.name, Error::invalid_presence);
    set(index, f, DynKind::boolean, raw);
  }
  void varint(const SchemaField& f, uint32_t index, unsigned max_bits) {
    uint64_t v = 0;
    std::size_t used = 0;
    const Status s = varint_read(std::span<const uint8_t>(pos_, remaining()), max_bits, v, used);
    if (!s) return fail(f.name, s.error());
    pos_ += used;
    set(index, f, DynKind::unsigned_int, v);
  }
  template <class Len>
  void string(const SchemaField& f, uint32_t index) {
    Len length = 0;
    if (!get(f, length)) return;
    if (length > f.max) return fail(f.name, Error::string_over_cap);
    if (length > remaining()) return fail(f.name, Error::truncated);
    const std::string_view chars(reinterpret_cast<const char*>(pos_), length);
    if (!is_valid_utf8(chars)) return fail(f.name, Error::invalid_utf8);
    text(f, index, chars, DynKind::text);
  }
  void bytes16(const SchemaField& f, uint32_t index) {
    if (remaining() < 16) return fail(f.name, Error::truncated);
    text(f, index, std::string_view(reinterpret_cast<const char*>(pos_), 16), DynKind::bytes16);
  }
  void text(const SchemaField& f, uint32_t index, std::string_view chars, DynKind kind) {
    const uint32_t offset = tree_.add_text(chars);
    if (offset == kNoIndex) return fail(f.name, Error::walk_budget_exceeded);
    pos_ += chars.size();
    set(index, f, kind, 0);
    at(index).first = offset;
    at(index).count = static_cast<uint32_t>(chars.size());
  }
  template <class Raw>
  void enumeration(const SchemaField& f, uint32_t index) {
    Raw raw = 0;
    if (!get(f, raw)) return;
    const uint32_t member = tree_.schema().enums[f.ref].find_value(raw);
    if (member == kNoIndex) return fail(f.name, Error::unknown_enum_value);
    set(index, f, DynKind::enumeration, raw, member);
  }
  template <class Raw>
  void flags(const SchemaField& f, uint32_t index) {
    Raw raw = 0;
    if (!get(f, raw)) return;
    if ((static_cast<uint32_t>(raw) & ~tree_.schema().flag_sets[f.ref].mask()) != 0)
      return fail(f.name, Error::unknown_flag_bits);
    set(index, f, DynKind::flags, raw);
  }

  // A child record under `index` (an optional's value, a union case): reserved, then filled.
  void child_record(const SchemaField& f, uint32_t index, const SchemaShape& shape) {
    const uint32_t child = reserve(&f, 1);
    if (child == kNoIndex) return;
    at(index).first = child;
    at(index).count = 1;
    record(child, shape, &f);
  }
  void nested(const SchemaField& f, uint32_t index) {
    if (!enter(f)) return;
    record(index, tree_.schema().shapes[f.ref], &f);
    --depth_;
  }
  void optional(const SchemaField& f, uint32_t index) {
    uint8_t present = 0;
    if (!get(f, present)) return;
    if (present > 1) return fail(f.name, Error::invalid_presence);
    set(index, f, DynKind::optional, present);
    if (present == 0 || !enter(f)) return;
    child_record(f, index, tree_.schema().shapes[f.ref]);
    --depth_;
  }
  template <class Len>
  void list(const SchemaField& f, uint32_t index) {
    Len count = 0;
    if (get(f, count)) elements(f, index, count, f.min);
  }
  void counted(const SchemaField& f, uint32_t index, uint32_t first) {
    const DynNode& count = at(first + f.count_slot);
    elements(f, index, count.kind == DynKind::unsigned_int ? count.bits : 0, 0);
  }
  void elements(const SchemaField& f, uint32_t index, uint64_t count, uint64_t min) {
    if (count > f.max) return fail(f.name, Error::count_over_max);
    if (count < min) return fail(f.name, Error::count_under_min);
    if (!enter(f)) return;
    const uint32_t first = reserve(&f, static_cast<std::size_t>(count));
    if (first != kNoIndex) {
      set(index, f, DynKind::list, count);
      at(index).first = first;
      at(index).count = static_cast<uint32_t>(count);
      const SchemaShape& shape = tree_.schema().shapes[f.ref];
      for (uint32_t i = 0; i < count && !failed(); ++i) record(first + i, shape, &f);
    }
    --depth_;
  }
  void union_value(const SchemaField& f, uint32_t index) {
    uint8_t tag = 0;
    if (!get(f, tag)) return;
    const SchemaUnion& def = tree_.schema().unions[f.ref];
    const uint32_t which = def.find_tag(tag);
    if (which == kNoIndex) return fail(f.name, Error::unknown_union_tag);
    if (!enter(f)) return;
    set(index, f, DynKind::union_value, tag, which);
    child_record(f, index, tree_.schema().shapes[def.cases[which].shape]);
    --depth_;
  }
  void tokens(const SchemaField& f, uint32_t index) {
    uint16_t count = 0;
    if (!get(f, count)) return;
    if (count > f.max) return fail(f.name, Error::count_over_max);
    if (count * std::size_t{3} > remaining()) return fail(f.name, Error::truncated);
    const uint32_t first = reserve(&f, count);
    if (first == kNoIndex) return;
    set(index, f, DynKind::tokens, count);
    at(index).first = first;
    at(index).count = count;
    for (uint32_t i = 0; i < count; ++i)
      if (!token_pair(f, first + i)) return;
  }
  bool token_pair(const SchemaField& f, uint32_t index) {
    uint16_t row = 0;
    if (!get(f, row)) return false;
    const SchemaTokenTable& table = tree_.schema().token_tables[f.ref];
    if (row >= table.rows.size()) {
      fail(f.name, Error::invalid_token);
      return false;
    }
    uint32_t value = 0;
    if (table.rows[row].kind == TokenKind::boolean) {
      uint8_t raw = 0;
      if (!get(f, raw)) return false;
      if (raw > 1) fail(f.name, Error::invalid_presence);
      value = raw;
    } else if (!get(f, value)) {
      return false;
    }
    set(index, f, DynKind::token_pair, value, row);
    return !failed();
  }

  void sparse(const SchemaField& f, uint32_t index, uint32_t first) {
    uint64_t mask = 0;
    if (!sparse_mask(f, mask)) return;
    set(index, f, DynKind::block, mask);
    unsigned member = 0;
    for (const SchemaField& m : f.members) {
      const bool present = member < 64 && ((mask >> member) & 1u) != 0;
      ++member;
      if (present) {
        value(m, first + m.slot, first);
      } else {
        const uint32_t end = is_block(m.type) ? m.slot_end : m.slot + 1;
        for (uint32_t s = m.slot; s < end; ++s) at(first + s).kind = DynKind::unset;
      }
    }
    if (!sparse_mask_fits(mask, member)) fail(f.name, Error::unknown_flag_bits);
  }
  bool sparse_mask(const SchemaField& f, uint64_t& mask) {
    switch (f.width_bits) {
      case 8: return get_widened<uint8_t>(f, mask);
      case 16: return get_widened<uint16_t>(f, mask);
      case 32: return get_widened<uint32_t>(f, mask);
      default: return get(f, mask);
    }
  }
  template <class T>
  bool get_widened(const SchemaField& f, uint64_t& out) {
    T v = 0;
    if (!get(f, v)) return false;
    out = v;
    return true;
  }
  void section(const SchemaField& f, uint32_t index, uint32_t first) {
    uint16_t length = 0;
    if (!get(f, length)) return;
    if (length > remaining()) return fail(f.name, Error::length_past_end);
    set(index, f, DynKind::block, length);
    const uint8_t* outer_limit = limit_;
    const bool outer_ended = ended_;
    limit_ = pos_ + length;
    fields(f.members, first);
    if (!failed()) pos_ = limit_;  // bytes a newer writer added to the section are stepped over
    limit_ = outer_limit;
    ended_ = outer_ended;
  }
  void bits(const SchemaField& f, uint32_t index, uint32_t first) {
    BitReader br(std::span<const uint8_t>(pos_, remaining()));
    Error bit_error = Error::ok;
    for (const SchemaField& m : f.members) bit_field(m, first + m.slot, br, bit_error);
    if (br.truncated()) return fail(f.name, Error::truncated);
    if (bit_error != Error::ok) return fail(f.name, bit_error);
    if (!br.align()) return fail(f.name, Error::value_out_of_range);
    set(index, f, DynKind::block, 0);
    pos_ += br.bytes_read();
  }
  void bit_field(const SchemaField& m, uint32_t index, BitReader& br, Error& bit_error) {
    switch (m.type) {
      case FieldType::ubits: return set(index, m, DynKind::unsigned_int, br.read(m.width_bits));
      case FieldType::bit: return set(index, m, DynKind::boolean, br.read_bool() ? 1 : 0);
      case FieldType::quant: {
        const uint64_t grid = br.read(m.quant.bits());
        if (grid > m.quant.steps() && bit_error == Error::ok) bit_error = Error::value_out_of_range;
        return set(index, m, DynKind::real, std::bit_cast<uint64_t>(dequantize(grid, m.quant)), static_cast<uint32_t>(grid));
      }
      case FieldType::quat: {
        const uint64_t largest = br.read(2);
        const uint64_t a = br.read(m.width_bits), b = br.read(m.width_bits), c = br.read(m.width_bits);
        set(index, m, DynKind::quat, a | (b << 32));
        at(index).first = static_cast<uint32_t>(c);
        at(index).count = static_cast<uint32_t>(largest);
        return;
      }
      default: TW_ASSERT(false, "a non-bit field inside a bits block survived the parser");
    }
  }

  const uint8_t* begin_;
  const uint8_t* pos_;
  const uint8_t* limit_;
  DynTree& tree_;
  Error error_ = Error::ok;
  std::string_view field_;
  unsigned depth_ = 0;
  bool ended_ = false;
};

}  // namespace

Status decode_shape(const Schema& schema, const SchemaShape& shape, std::span<const uint8_t> body, DynTree& tree,
                    WalkEnd end, WalkReport* report) {
  tree.reset(schema);
  Decoder decoder(body, tree);
  decoder.root(shape);
  if (end == WalkEnd::exact && decoder.error() == Error::ok && decoder.remaining() != 0)
    decoder.fail("<end>", Error::trailing_bytes);
  if (report) *report = WalkReport{decoder.error(), decoder.error_field(), decoder.consumed()};
  return decoder.error();
}

Result<std::size_t> walk_message(const Schema& schema, const SchemaMessage& message, std::span<const uint8_t> body,
                                 DynTree* scratch) {
  DynTree local(scratch ? 0 : kDefaultNodeBudget, scratch ? 0 : kDefaultTextBudgetBytes);
  WalkReport report;
  const Status s = decode_shape(schema, schema.shape_of(message), body, scratch ? *scratch : local, WalkEnd::step_over, &report);
  if (!s) return s.error();
  return report.consumed_bytes;
}

Result<std::size_t> walk_message(const Schema& schema, std::string_view message_name, std::span<const uint8_t> body,
                                 DynTree* scratch) {
  const SchemaMessage* message = schema.find_message(message_name);
  if (!message) return Error::unknown_message;
  return walk_message(schema, *message, body, scratch);
}

Result<std::size_t> walk_message(const Schema& schema, uint8_t id, Direction direction, std::span<const uint8_t> body,
                                 DynTree* scratch) {
  const SchemaMessage* message = schema.find_message(id, direction);
  if (!message) return Error::unknown_message;
  return walk_message(schema, *message, body, scratch);
}

}  // namespace tickwire::wire
