// The dynamic value tree's arena (budgeted) and its read-only accessors.
#include "tickwire/wire/dyn_value.h"

#include <bit>
#include <cstring>

#include "tickwire/core/assert.h"
#include "tickwire/wire/quantize.h"

namespace tickwire::wire {

std::string_view dyn_kind_name(DynKind kind) {
  switch (kind) {
    case DynKind::absent: return "absent";
    case DynKind::unset: return "unset";
    case DynKind::unsigned_int: return "unsigned_int";
    case DynKind::signed_int: return "signed_int";
    case DynKind::real: return "real";
    case DynKind::boolean: return "boolean";
    case DynKind::text: return "text";
    case DynKind::bytes16: return "bytes16";
    case DynKind::enumeration: return "enumeration";
    case DynKind::flags: return "flags";
    case DynKind::quat: return "quat";
    case DynKind::record: return "record";
    case DynKind::optional: return "optional";
    case DynKind::list: return "list";
    case DynKind::union_value: return "union_value";
    case DynKind::tokens: return "tokens";
    case DynKind::token_pair: return "token_pair";
    case DynKind::block: return "block";
  }
  return "?";
}

DynTree::DynTree(std::size_t node_budget, std::size_t text_budget_bytes)
    : node_budget_(node_budget), text_budget_bytes_(text_budget_bytes) {
  TW_ASSERT(node_budget < kNoIndex && text_budget_bytes < kNoIndex, "a tree's budgets must fit its 32-bit indices");
}

void DynTree::reset(const Schema& schema) {
  schema_ = &schema;
  nodes_.clear();
  text_.clear();
  root_ = kNoIndex;
}

DynValue DynTree::root() const { return DynValue(this, root_); }

uint32_t DynTree::reserve(std::size_t n) {
  if (n > node_budget_ - nodes_.size()) return kNoIndex;
  const auto first = static_cast<uint32_t>(nodes_.size());
  nodes_.resize(nodes_.size() + n);
  return first;
}

uint32_t DynTree::add_text(std::string_view text) {
  if (text.size() > text_budget_bytes_ - text_.size()) return kNoIndex;
  const auto offset = static_cast<uint32_t>(text_.size());
  text_.append(text);
  return offset;
}

uint64_t DynValue::as_u64() const {
  TW_ASSERT(kind() == DynKind::unsigned_int || kind() == DynKind::signed_int, "as_u64 of a non-integer");
  return node().bits;
}

int64_t DynValue::as_i64() const {
  TW_ASSERT(kind() == DynKind::unsigned_int || kind() == DynKind::signed_int, "as_i64 of a non-integer");
  return static_cast<int64_t>(node().bits);
}

double DynValue::as_f64() const {
  switch (kind()) {
    case DynKind::unsigned_int: return static_cast<double>(node().bits);
    case DynKind::signed_int: return static_cast<double>(static_cast<int64_t>(node().bits));
    case DynKind::real:
      if (field()->type == FieldType::f32) return std::bit_cast<float>(static_cast<uint32_t>(node().bits));
      return std::bit_cast<double>(node().bits);
    default: TW_ASSERT(false, "as_f64 of a non-number"); return 0;
  }
}

bool DynValue::as_bool() const {
  TW_ASSERT(kind() == DynKind::boolean, "as_bool of a non-boolean");
  return node().bits != 0;
}

std::string_view DynValue::text() const {
  TW_ASSERT(kind() == DynKind::text, "text of a non-string");
  return tree_->text(node().first, node().count);
}

std::array<uint8_t, 16> DynValue::bytes16() const {
  TW_ASSERT(kind() == DynKind::bytes16, "bytes16 of another kind");
  std::array<uint8_t, 16> out{};
  std::memcpy(out.data(), tree_->text(node().first, 16).data(), 16);
  return out;
}

Quat DynValue::as_quat() const {
  TW_ASSERT(kind() == DynKind::quat, "as_quat of another kind");
  const DynNode& n = node();
  const PackedQuat p{n.count, static_cast<uint32_t>(n.bits), static_cast<uint32_t>(n.bits >> 32), n.first};
  return unpack_quat(p, n.field->width_bits);
}

std::string_view DynValue::member_name() const {
  TW_ASSERT(kind() == DynKind::enumeration, "member_name of a non-enum");
  return tree_->schema().enums[field()->ref].members[node().aux].name;
}

bool DynValue::has_flag(std::string_view bit) const {
  TW_ASSERT(kind() == DynKind::flags, "has_flag of a non-flag set");
  const SchemaFlags& def = tree_->schema().flag_sets[field()->ref];
  const uint32_t i = def.find_name(bit);
  return i != kNoIndex && ((node().bits >> def.bits[i].value) & 1u) != 0;
}

std::vector<std::string_view> DynValue::flag_names() const {
  TW_ASSERT(kind() == DynKind::flags, "flag_names of a non-flag set");
  std::vector<std::string_view> names;
  for (const auto& b : tree_->schema().flag_sets[field()->ref].bits)
    if ((node().bits >> b.value) & 1u) names.push_back(b.name);
  return names;
}

std::size_t DynValue::size() const {
  switch (kind()) {
    case DynKind::record:
    case DynKind::optional:
    case DynKind::list:
    case DynKind::union_value:
    case DynKind::tokens: return node().count;
    default: return 0;
  }
}

DynValue DynValue::operator[](std::size_t i) const {
  TW_ASSERT(i < size(), "a child index past the end");
  return DynValue(tree_, node().first + static_cast<uint32_t>(i));
}

DynValue DynValue::field(std::string_view name) const {
  TW_ASSERT(kind() == DynKind::record, "field() of a non-record");
  const uint32_t slot = node().shape->find_slot(name);
  return slot == kNoIndex ? DynValue() : DynValue(tree_, node().first + slot);
}

std::string_view DynValue::case_name() const {
  TW_ASSERT(kind() == DynKind::union_value, "case_name of a non-union");
  return tree_->schema().unions[field()->ref].cases[node().aux].name;
}

DynValue DynValue::case_value() const {
  TW_ASSERT(kind() == DynKind::union_value, "case_value of a non-union");
  return DynValue(tree_, node().first);
}

DynValue DynValue::value() const {
  TW_ASSERT(kind() == DynKind::optional, "value() of a non-optional");
  return node().count == 0 ? DynValue() : DynValue(tree_, node().first);
}

std::string_view DynValue::token() const {
  TW_ASSERT(kind() == DynKind::token_pair, "token of a non-pair");
  return tree_->schema().token_tables[field()->ref].rows[node().aux].token;
}

TokenKind DynValue::token_kind() const {
  TW_ASSERT(kind() == DynKind::token_pair, "token_kind of a non-pair");
  return tree_->schema().token_tables[field()->ref].rows[node().aux].kind;
}

}  // namespace tickwire::wire
