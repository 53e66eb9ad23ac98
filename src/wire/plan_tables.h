// The pairing tables a WirePlan is made of, computed once at build: for every peer shape that
// can reach one of ours, which peer slot feeds each of our slots and how its value converts; for
// every enum, flag set, union and token table met on the way, the peer's members mapped to ours.
// Internal to the plan; plan_builder.cpp fills them, plan_convert.cpp reads them.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "tickwire/core/reason_counters.h"
#include "tickwire/core/status.h"
#include "tickwire/wire/dyn_value.h"
#include "tickwire/wire/schema.h"
#include "tickwire/wire/shape_defaults.h"
#include "tickwire/wire/wire_plan.h"

namespace tickwire::wire::detail {

inline constexpr std::size_t kMaxPlanShapePairs = 4096;
inline constexpr std::size_t kMaxPlanEntries = std::size_t{1} << 20;  // slot, member, case and row maps, all told

// How a peer value becomes ours; `retyped` means the families differ (the field reads absent).
enum class Conv : uint8_t {
  retyped, integer, real, boolean, text, bytes16, enumeration, flags, shape, optional, list, union_, tokens, quat, block,
};

struct SlotPlan {
  uint32_t peer_slot = kNoIndex;  // the peer's field of the same name, or kNoIndex (ours only)
  Conv how = Conv::retyped;
  uint32_t sub = kNoIndex;        // the shape/enum/flags/union/tokens plan the conversion uses
};

struct ShapePlan {
  const SchemaShape* peer = nullptr;
  const SchemaShape* ours = nullptr;
  std::vector<SlotPlan> slots;  // one per our slot
  uint32_t peer_only = 0;       // peer value fields without a counterpart (stepped over)
  uint32_t ours_only = 0;       // our value fields without one (defaulted)
};

struct EnumPlan {
  std::vector<uint32_t> to_ours;  // by peer member index: our member index or kNoIndex
};

struct FlagsPlan {
  std::array<int8_t, 32> to_ours{};  // by peer bit index: our bit index or -1
};

struct UnionPlan {
  std::vector<uint32_t> to_ours;      // by peer case index: our case index or kNoIndex
  std::vector<uint32_t> shape_plans;  // by peer case index: the ShapePlan of the case (if paired)
};

struct TokensPlan {
  std::vector<uint32_t> to_ours;  // by peer row: our row, or kNoIndex (missing, or kind changed)
};

// A field of ours and the value our shape holds there before a walk, as a DynTree holds it.
struct SlotDefault {
  uint32_t slot = kNoIndex;
  DynKind kind = DynKind::absent;
  uint64_t bits = 0;
  uint32_t aux = 0;  // enum member index, quant grid index
  std::string text;  // text, bytes16
};

// One of our shapes' defaults, resolved against our schema: the scalar slots that hold one, and
// the slots of nested shapes (by value) that do. Members of a sparse set have none: a member the
// peer did not send keeps its mask bit clear, and with it the value it had.
struct ShapeDefaultsPlan {
  std::vector<SlotDefault> values;
  std::vector<uint32_t> nested;
};

struct PlanTables {
  std::vector<ShapePlan> shapes;
  std::vector<EnumPlan> enums;
  std::vector<FlagsPlan> flags;
  std::vector<UnionPlan> unions;
  std::vector<TokensPlan> tokens;
  std::vector<uint32_t> message_to_ours;  // by peer message index: our message index or kNoIndex
  std::vector<uint32_t> message_plans;    // by peer message index: its ShapePlan or kNoIndex
  std::vector<bool> message_copies;       // by peer message index: layout identical to ours
  std::vector<ShapeDefaultsPlan> our_defaults;  // by our shape index; empty: every default is zero
};

// `our_defaults` (optional): what our shapes hold before a walk (WireMessages::shape_defaults()).
Result<PlanTables> build_plan_tables(const Schema& peer, const Schema& ours, const ShapeDefaults* our_defaults);

// Our shapes' defaults resolved against our schema, by shape index (plan_defaults.cpp).
std::vector<ShapeDefaultsPlan> resolve_shape_defaults(const Schema& ours, const ShapeDefaults& defaults);

// Whether two shapes (of two schemas) lay out identical bytes: same fields, types, caps, and
// referenced definitions member for member. Names of the shapes themselves may differ.
bool same_layout(const Schema& a, uint32_t shape_a, const Schema& b, uint32_t shape_b);

// Rewrites the peer tree's root record through `plan` into a fresh root of `ours`.
Status convert_message(const PlanTables& tables, uint32_t plan, const DynTree& peer, DynTree& ours,
                       ReasonCounters<PlanEvent>& counters);

}  // namespace tickwire::wire::detail
