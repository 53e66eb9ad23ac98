// Whether a peer message's layout is exactly ours, so the plan can walk its bytes (to refuse
// malformed ones) and pass them on untouched: field for field, cap for cap, member for member.
// Recursive shapes compare coinductively (a pair under comparison is assumed equal).
#include <map>
#include <utility>

#include "plan_tables.h"

namespace tickwire::wire::detail {
namespace {

class LayoutCompare {
 public:
  LayoutCompare(const Schema& a, const Schema& b) : a_(a), b_(b) {}

  bool shapes(uint32_t x, uint32_t y) {
    const auto [it, fresh] = seen_.emplace(std::make_pair(x, y), true);
    if (!fresh) return it->second;
    if (depth_ >= kMaxCompareDepth) return it->second = false;  // too deep to bother: the general path carries it
    ++depth_;
    const bool equal = fields(a_.shapes[x].fields, b_.shapes[y].fields);
    --depth_;
    return it->second = equal;
  }

 private:
  bool fields(const std::vector<SchemaField>& xs, const std::vector<SchemaField>& ys) {
    if (xs.size() != ys.size()) return false;
    for (std::size_t i = 0; i < xs.size(); ++i)
      if (!field(xs[i], ys[i])) return false;
    return true;
  }

  bool field(const SchemaField& x, const SchemaField& y) {
    if (x.name != y.name || x.type != y.type || x.min != y.min || x.max != y.max || x.width_bits != y.width_bits ||
        x.count_name != y.count_name)
      return false;
    if (x.type == FieldType::quant &&
        (x.quant.min != y.quant.min || x.quant.max != y.quant.max || x.quant.resolution != y.quant.resolution))
      return false;
    if (!fields(x.members, y.members)) return false;
    return reference(x, y);
  }

  bool reference(const SchemaField& x, const SchemaField& y) {
    switch (x.type) {
      case FieldType::enum8:
      case FieldType::enum32: return members(a_.enums[x.ref].members, b_.enums[y.ref].members);
      case FieldType::flags8:
      case FieldType::flags16:
      case FieldType::flags32: return members(a_.flag_sets[x.ref].bits, b_.flag_sets[y.ref].bits);
      case FieldType::shape:
      case FieldType::optional:
      case FieldType::list8:
      case FieldType::list16:
      case FieldType::counted: return shapes(x.ref, y.ref);
      case FieldType::union_: return unions(a_.unions[x.ref], b_.unions[y.ref]);
      case FieldType::tokens: return tokens(a_.token_tables[x.ref], b_.token_tables[y.ref]);
      default: return true;
    }
  }

  static bool members(const std::vector<SchemaMember>& xs, const std::vector<SchemaMember>& ys) {
    if (xs.size() != ys.size()) return false;
    for (std::size_t i = 0; i < xs.size(); ++i)
      if (xs[i].name != ys[i].name || xs[i].value != ys[i].value) return false;
    return true;
  }

  bool unions(const SchemaUnion& x, const SchemaUnion& y) {
    if (x.cases.size() != y.cases.size()) return false;
    for (std::size_t i = 0; i < x.cases.size(); ++i)
      if (x.cases[i].tag != y.cases[i].tag || x.cases[i].name != y.cases[i].name ||
          !shapes(x.cases[i].shape, y.cases[i].shape))
        return false;
    return true;
  }

  static bool tokens(const SchemaTokenTable& x, const SchemaTokenTable& y) {
    if (x.rows.size() != y.rows.size()) return false;
    for (std::size_t i = 0; i < x.rows.size(); ++i)
      if (x.rows[i].token != y.rows[i].token || x.rows[i].kind != y.rows[i].kind) return false;
    return true;
  }

  static constexpr unsigned kMaxCompareDepth = 64;
  const Schema& a_;
  const Schema& b_;
  std::map<std::pair<uint32_t, uint32_t>, bool> seen_;
  unsigned depth_ = 0;
};

}  // namespace

bool same_layout(const Schema& a, uint32_t shape_a, const Schema& b, uint32_t shape_b) {
  return LayoutCompare(a, b).shapes(shape_a, shape_b);
}

}  // namespace tickwire::wire::detail
