// A message's value as data, for code that has only a schema: the schema walker decodes into it,
// the dynamic encoder writes from it, and a plan rewrites one build's tree into another's. Nodes
// live in one arena with a hard node and byte budget, so a hostile packet cannot grow it.
// A tree refers to its Schema's fields: keep the schema alive while the tree is read.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tickwire/wire/schema.h"
#include "tickwire/wire/types.h"

namespace tickwire::wire {

enum class DynKind : uint8_t {
  absent,        // not on the wire: an older writer's packet (or section) ended at a tail before it;
                 // after a plan, also a field the peer lacks or whose value could not be carried
  unset,         // a sparse member whose mask bit is clear
  unsigned_int,  // u8..u64, varu32, varu64, ubits
  signed_int,    // i8..i64
  real,          // f32, f64, quant (quant: the dequantized value; the grid index is kept too)
  boolean,       // bool, bit
  text,          // str8, str16
  bytes16,       // hash16, guid
  enumeration,   // enum8, enum32: the member
  flags,         // flags8/16/32: the raw bits, each named by the flag set
  quat,          // quat: the smallest-three packed form
  record,        // a shape: one child per slot of the shape
  optional,      // no child (not present) or one record
  list,          // list8, list16, counted: element records
  union_value,   // one child: the case's record
  tokens,        // token_pair children
  token_pair,    // one (row, value) of a token table
  block,         // a sparse/section/bits block that was on the wire (its members are slots of their own)
};
std::string_view dyn_kind_name(DynKind kind);

inline constexpr std::size_t kDefaultNodeBudget = std::size_t{1} << 17;
inline constexpr std::size_t kDefaultTextBudgetBytes = std::size_t{1} << 20;

struct DynNode {
  const SchemaField* field = nullptr;  // the field this is a value of (a list element: the list)
  const SchemaShape* shape = nullptr;  // records: their shape
  uint64_t bits = 0;   // integers (signed as two's complement), f32/f64 IEEE bits, quant: double bits,
                       // bool, enum/flags raw value, token value bits, quat: a | b << 32, sparse mask
  uint32_t first = 0;  // children / text offset / quat: c
  uint32_t count = 0;  // children / text length / quat: index of the largest component
  uint32_t aux = 0;    // enum member index, union case index, quant grid index, token row
  DynKind kind = DynKind::absent;
};

class DynValue;

class DynTree {
 public:
  explicit DynTree(std::size_t node_budget = kDefaultNodeBudget, std::size_t text_budget_bytes = kDefaultTextBudgetBytes);

  // Empties the tree for a walk against `schema`; keeps the arena's capacity.
  void reset(const Schema& schema);
  const Schema& schema() const { return *schema_; }
  DynValue root() const;
  void set_root(uint32_t index) { root_ = index; }

  // Appends n absent nodes; returns the first index, or kNoIndex when the budget would be passed.
  uint32_t reserve(std::size_t n);
  // Appends bytes to the text pool; returns the offset, or kNoIndex over budget.
  uint32_t add_text(std::string_view text);
  DynNode& node(uint32_t index) { return nodes_[index]; }
  const DynNode& node(uint32_t index) const { return nodes_[index]; }
  std::size_t size() const { return nodes_.size(); }
  std::string_view text(uint32_t offset, uint32_t length) const { return std::string_view(text_).substr(offset, length); }

 private:
  const Schema* schema_ = nullptr;
  std::vector<DynNode> nodes_;
  std::string text_;
  std::size_t node_budget_;
  std::size_t text_budget_bytes_;
  uint32_t root_ = kNoIndex;
};

// A read-only view of one node. Accessors of the wrong kind assert (a programmer error).
class DynValue {
 public:
  DynValue() = default;
  DynValue(const DynTree* tree, uint32_t index) : tree_(tree), index_(index) {}

  bool valid() const { return tree_ != nullptr && index_ != kNoIndex; }
  DynKind kind() const { return valid() ? node().kind : DynKind::absent; }
  bool present() const { return kind() != DynKind::absent && kind() != DynKind::unset; }
  const SchemaField* field() const { return node().field; }
  const SchemaShape* shape() const { return node().shape; }  // records
  const DynTree* tree() const { return tree_; }
  uint32_t index() const { return index_; }

  uint64_t as_u64() const;
  int64_t as_i64() const;
  double as_f64() const;   // real; also integers
  bool as_bool() const;
  std::string_view text() const;
  std::array<uint8_t, 16> bytes16() const;
  Quat as_quat() const;
  uint64_t raw() const { return node().bits; }  // enum value, flag bits, token value bits, sparse mask

  std::string_view member_name() const;  // enumeration
  bool has_flag(std::string_view bit) const;
  std::vector<std::string_view> flag_names() const;

  std::size_t size() const;  // children: record slots, list elements, token pairs, 0/1 for optional
  DynValue operator[](std::size_t i) const;
  DynValue field(std::string_view name) const;  // a record's field by name; invalid when unknown
  std::string_view case_name() const;           // union_value
  DynValue case_value() const;                  // union_value: the case's record
  DynValue value() const;                       // optional: the record (invalid when not present)
  std::string_view token() const;               // token_pair
  TokenKind token_kind() const;                 // token_pair

 private:
  const DynNode& node() const { return tree_->node(index_); }
  const DynTree* tree_ = nullptr;
  uint32_t index_ = kNoIndex;
};

}  // namespace tickwire::wire
