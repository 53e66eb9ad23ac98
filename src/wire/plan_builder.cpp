// Building a plan's tables: messages pair by name, then a worklist pairs every reachable
// (peer shape, our shape) couple field by field, classifying each pair into a conversion and
// memoizing the enum, flag, union and token maps it needs. Capped: a hostile peer text cannot
// make the pairing grow past kMaxPlanShapePairs.
#include <map>
#include <utility>

#include "plan_tables.h"

namespace tickwire::wire::detail {
namespace {

enum class Family : uint8_t {
  integer, real, boolean, text, hash16, guid, enumeration, flags, shape, optional, list, union_, tokens, quat,
  sparse, section, bits, tail,
};

Family family(FieldType type) {
  switch (type) {
    case FieldType::u8: case FieldType::u16: case FieldType::u32: case FieldType::u64:
    case FieldType::i8: case FieldType::i16: case FieldType::i32: case FieldType::i64:
    case FieldType::varu32: case FieldType::varu64: case FieldType::ubits: return Family::integer;
    case FieldType::f32: case FieldType::f64: case FieldType::quant: return Family::real;
    case FieldType::boolean: case FieldType::bit: return Family::boolean;
    case FieldType::str8: case FieldType::str16: return Family::text;
    case FieldType::hash16: return Family::hash16;
    case FieldType::guid: return Family::guid;
    case FieldType::enum8: case FieldType::enum32: return Family::enumeration;
    case FieldType::flags8: case FieldType::flags16: case FieldType::flags32: return Family::flags;
    case FieldType::shape: return Family::shape;
    case FieldType::optional: return Family::optional;
    case FieldType::list8: case FieldType::list16: case FieldType::counted: return Family::list;
    case FieldType::union_: return Family::union_;
    case FieldType::tokens: return Family::tokens;
    case FieldType::quat: return Family::quat;
    case FieldType::sparse: return Family::sparse;
    case FieldType::section: return Family::section;
    case FieldType::bits: return Family::bits;
    case FieldType::tail: return Family::tail;
  }
  return Family::tail;
}

using Key = std::pair<uint32_t, uint32_t>;

class Builder {
 public:
  Builder(const Schema& peer, const Schema& ours) : peer_(peer), ours_(ours) {}

  Result<PlanTables> run() {
    pair_messages();
    while (error_ == Error::ok && next_ < tables_.shapes.size()) fill_shape(next_++);
    if (error_ != Error::ok) return error_;
    return std::move(tables_);
  }

  // Every table entry counts against one cap, whatever shape a hostile peer text takes.
  bool spend(std::size_t entries) {
    entries_ += entries;
    if (entries_ > kMaxPlanEntries) error_ = Error::schema_over_limit;
    return error_ == Error::ok;
  }

 private:
  void pair_messages() {
    const std::size_t n = peer_.messages.size();
    tables_.message_to_ours.assign(n, kNoIndex);
    tables_.message_plans.assign(n, kNoIndex);
    tables_.message_copies.assign(n, false);
    for (std::size_t i = 0; i < n; ++i) {
      const SchemaMessage& pm = peer_.messages[i];
      const SchemaMessage* om = ours_.find_message(pm.name);
      if (!om) continue;
      tables_.message_to_ours[i] = static_cast<uint32_t>(om - ours_.messages.data());
      tables_.message_plans[i] = shape_plan(pm.shape, om->shape);
      tables_.message_copies[i] = same_layout(peer_, pm.shape, ours_, om->shape);
    }
  }

  uint32_t shape_plan(uint32_t peer_shape, uint32_t our_shape) {
    const auto [it, fresh] = shape_index_.emplace(Key{peer_shape, our_shape}, static_cast<uint32_t>(tables_.shapes.size()));
    if (!fresh) return it->second;
    if (tables_.shapes.size() >= kMaxPlanShapePairs) {
      error_ = Error::schema_over_limit;
      return 0;
    }
    ShapePlan& plan = tables_.shapes.emplace_back();
    plan.peer = &peer_.shapes[peer_shape];
    plan.ours = &ours_.shapes[our_shape];
    return it->second;  // filled later by the worklist
  }

  void fill_shape(std::size_t index) {
    const SchemaShape& peer = *tables_.shapes[index].peer;
    const SchemaShape& ours = *tables_.shapes[index].ours;
    if (!spend(ours.slots.size())) return;
    std::vector<SlotPlan> slots(ours.slots.size());
    uint32_t ours_only = 0, paired_values = 0;
    for (std::size_t i = 0; i < ours.slots.size(); ++i) {
      const SchemaField& of = *ours.slots[i];
      const uint32_t ps = peer.find_slot(of.name);
      if (ps == kNoIndex) {
        ours_only += is_block(of.type) ? 0 : 1;
        continue;
      }
      const SchemaField& pf = *peer.slots[ps];
      paired_values += is_block(pf.type) ? 0 : 1;
      slots[i] = classify(pf, of);
      slots[i].peer_slot = ps;
    }
    uint32_t peer_values = 0;
    for (const SchemaField* pf : peer.slots) peer_values += is_block(pf->type) ? 0 : 1;
    ShapePlan& plan = tables_.shapes[index];  // re-fetched: classify may have grown the vector
    plan.slots = std::move(slots);
    plan.ours_only = ours_only;
    plan.peer_only = peer_values - paired_values;
  }

  SlotPlan classify(const SchemaField& pf, const SchemaField& of) {
    SlotPlan s;
    const Family f = family(pf.type);
    if (f != family(of.type)) return s;  // retyped across families
    switch (f) {
      case Family::integer: s.how = Conv::integer; break;
      case Family::real: s.how = Conv::real; break;
      case Family::boolean: s.how = Conv::boolean; break;
      case Family::text: s.how = Conv::text; break;
      case Family::hash16:
      case Family::guid: s.how = Conv::bytes16; break;
      case Family::quat: s.how = Conv::quat; break;
      case Family::enumeration: s.how = Conv::enumeration, s.sub = enum_plan(pf.ref, of.ref); break;
      case Family::flags: s.how = Conv::flags, s.sub = flags_plan(pf.ref, of.ref); break;
      case Family::shape: s.how = Conv::shape, s.sub = shape_plan(pf.ref, of.ref); break;
      case Family::optional: s.how = Conv::optional, s.sub = shape_plan(pf.ref, of.ref); break;
      case Family::list: s.how = Conv::list, s.sub = shape_plan(pf.ref, of.ref); break;
      case Family::union_: s.how = Conv::union_, s.sub = union_plan(pf.ref, of.ref); break;
      case Family::tokens: s.how = Conv::tokens, s.sub = tokens_plan(pf.ref, of.ref); break;
      case Family::sparse:
      case Family::section:
      case Family::bits: s.how = Conv::block; break;
      case Family::tail: break;
    }
    return s;
  }

  uint32_t enum_plan(uint32_t p, uint32_t o) {
    const auto [it, fresh] = enum_index_.emplace(Key{p, o}, static_cast<uint32_t>(tables_.enums.size()));
    if (!fresh) return it->second;
    if (!spend(peer_.enums[p].members.size())) return 0;
    EnumPlan& plan = tables_.enums.emplace_back();
    for (const SchemaMember& m : peer_.enums[p].members) plan.to_ours.push_back(ours_.enums[o].find_name(m.name));
    return it->second;
  }

  uint32_t flags_plan(uint32_t p, uint32_t o) {
    const auto [it, fresh] = flags_index_.emplace(Key{p, o}, static_cast<uint32_t>(tables_.flags.size()));
    if (!fresh) return it->second;
    if (!spend(32)) return 0;
    FlagsPlan& plan = tables_.flags.emplace_back();
    plan.to_ours.fill(-1);
    for (const SchemaMember& m : peer_.flag_sets[p].bits) {
      const uint32_t ours = ours_.flag_sets[o].find_name(m.name);
      if (ours != kNoIndex) plan.to_ours[m.value] = static_cast<int8_t>(ours_.flag_sets[o].bits[ours].value);
    }
    return it->second;
  }

  uint32_t union_plan(uint32_t p, uint32_t o) {
    const auto [it, fresh] = union_index_.emplace(Key{p, o}, static_cast<uint32_t>(tables_.unions.size()));
    if (!fresh) return it->second;
    if (!spend(2 * peer_.unions[p].cases.size())) return 0;
    tables_.unions.emplace_back();
    std::vector<uint32_t> to_ours, shape_plans;
    for (const SchemaCase& c : peer_.unions[p].cases) {
      const uint32_t ours = ours_.unions[o].find_name(c.name);
      to_ours.push_back(ours);
      shape_plans.push_back(ours == kNoIndex ? kNoIndex : shape_plan(c.shape, ours_.unions[o].cases[ours].shape));
    }
    tables_.unions[it->second] = UnionPlan{std::move(to_ours), std::move(shape_plans)};
    return it->second;
  }

  uint32_t tokens_plan(uint32_t p, uint32_t o) {
    const auto [it, fresh] = tokens_index_.emplace(Key{p, o}, static_cast<uint32_t>(tables_.tokens.size()));
    if (!fresh) return it->second;
    if (!spend(peer_.token_tables[p].rows.size())) return 0;
    TokensPlan& plan = tables_.tokens.emplace_back();
    const SchemaTokenTable& ours = ours_.token_tables[o];
    for (const SchemaToken& row : peer_.token_tables[p].rows) {
      const uint32_t mine = ours.find_token(row.token);
      plan.to_ours.push_back(mine != kNoIndex && ours.rows[mine].kind == row.kind ? mine : kNoIndex);
    }
    return it->second;
  }

  const Schema& peer_;
  const Schema& ours_;
  PlanTables tables_;
  std::map<Key, uint32_t> shape_index_, enum_index_, flags_index_, union_index_, tokens_index_;
  std::size_t next_ = 0;
  std::size_t entries_ = 0;
  Error error_ = Error::ok;
};

}  // namespace

Result<PlanTables> build_plan_tables(const Schema& peer, const Schema& ours, const ShapeDefaults* our_defaults) {
  auto tables = Builder(peer, ours).run();
  if (tables && our_defaults) tables->our_defaults = resolve_shape_defaults(ours, *our_defaults);
  return tables;
}

}  // namespace tickwire::wire::detail
