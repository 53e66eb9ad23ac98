// WirePlan: reading another build. Built once from the peer's schema text and ours, it rewrites
// every message the peer sends into our own shapes before anything dispatches it, so no handler
// reads through a plan or knows one exists. The peer's bytes are walked with its schema alone
// (schema_walker.h), paired with ours by NAME, never by position, and written with ours.
//
// What a plan covers:
//  - Messages pair by name; the peer's id is mapped to ours. A message we lack: unknown_message.
//  - Fields pair by name within a shape (blocks are transparent: a field may move into or out of
//    a section, sparse set or bits block). A field only the peer has is stepped over.
//  - A field only we have keeps the value its shape holds before a walk (seed 000): given our
//    registry's defaults (PlanOptions::our_defaults, from WireMessages::shape_defaults()), a
//    scalar is written as its default and a nested shape as its shape's defaults. Otherwise it
//    reads as its zero value (0, 0.0, false, "", zero bytes, the enum's first member, no flags, an
//    absent optional, a list of its minimum count of zero values, an empty counted list, the
//    first union case zeroed). A sparse member only we have keeps its mask bit clear, so our typed
//    reader keeps the value it had. When such fields sit after a tail with nothing the peer sent
//    after it and nothing but zeros to write, the bytes end at the tail instead, and our typed
//    reader keeps the value its shape set before visiting, as for an older writer's packet.
//  - A field that moved is read where the peer wrote it.
//  - A width change within a family is read at the peer's width and written at ours; a value that
//    does not fit ours (or our quantized range) reads as absent. Families: integers (u8..u64,
//    i8..i64, varu32, varu64, ubits), floats (f32, f64, quant), booleans (bool, bit), strings
//    (str8, str16; over our cap: absent), enums (enum8, enum32), flags (flags8/16/32), lists
//    (list8, list16, counted; outside our count bounds: absent), optionals, nested shapes,
//    unions, token lists, quaternions (any bits per component), hash16, guid, and each block kind
//    (a sparse set's mask may change width). A field retyped across families reads as absent.
//  - Enum members and flag bits pair by name: a member we lack reads absent; a bit we lack (or
//    beyond our width) is left out and the other bits keep their meaning.
//  - Union cases pair by name. A case we lack leaves its list entry out when the union sits in a
//    list element (at any depth below the element, short of a nested list); otherwise the field
//    reads absent.
//  - Token lists map through the tables by token: a token we lack, or whose kind changed, leaves
//    its pair out, so reordering or extending a table costs nothing.
//  - A counted list's count field is re-derived from the list as written; a sparse mask from the
//    members present; a section's length from its contents.
// What a plan cannot cover: a field whose MEANING changed under the same name. Give it a new name
// (the old one is then stepped over by new readers and defaulted by old ones).
// The fixed frame, which no plan can bridge and which alone moves the protocol version: the schema
// text's own spelling, the connect request, the two schema messages (request and text), and the
// envelope (one message id byte before the body).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "tickwire/core/reasons.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/core/status.h"
#include "tickwire/wire/dyn_encoder.h"
#include "tickwire/wire/dyn_value.h"
#include "tickwire/wire/schema.h"
#include "tickwire/wire/schema_parser.h"
#include "tickwire/wire/shape_defaults.h"

namespace tickwire::wire {

// What a plan did to the values it carried, counted across translations.
TW_REASONS(PlanEvent,
  peer_field_skipped,   // a field only the peer has, stepped over
  field_defaulted,      // a field only we have: our shape's default for it (or its zero value)
  value_did_not_fit,    // a value our field cannot hold (width, range, cap, count bounds): absent
  retyped_absent,       // a field retyped across families: absent
  enum_member_missing,  // an enum member we lack: absent
  flag_bit_dropped,     // a flag bit we lack, or beyond our width: left out
  union_entry_dropped,  // a union case we lack inside a list element: the entry left out
  union_case_absent,    // a union case we lack elsewhere: the field absent
  token_pair_dropped,   // a token we lack or whose kind changed: the pair left out
  message_copied       // a message whose layout did not move: walked, then copied byte for byte
)

struct PlanOptions {
  bool copy_unchanged = true;  // messages whose layout is identical are walked and copied
  std::size_t node_budget = kDefaultNodeBudget;  // per tree (peer's and ours)
  EncodeLimits encode{};
  // What our shapes hold before a walk (WireMessages::shape_defaults() of the registry `our_text`
  // came from); read while the plan is built. Null: fields only we have read as their zero.
  const ShapeDefaults* our_defaults = nullptr;
};

struct TranslatedMessage {
  uint8_t id = 0;                         // our message id
  const SchemaMessage* message = nullptr; // our message
  std::size_t body_bytes = 0;             // bytes appended to `out`
};

namespace detail {
struct PlanTables;
}

class WirePlan {
 public:
  // Parses both texts (diagnostic: the first refusal, of either) and pairs every message by name.
  static Result<WirePlan> build(std::string_view peer_text, std::string_view our_text, const PlanOptions& options = {},
                                SchemaDiagnostic* diagnostic = nullptr);

  WirePlan(WirePlan&&) noexcept;
  WirePlan& operator=(WirePlan&&) noexcept;
  ~WirePlan();

  // Rewrites one peer message body (id travelling in `direction`) into ours, appending our body
  // to `out` (left as it was on an error). Not reentrant: the plan keeps its scratch trees.
  Result<TranslatedMessage> translate(uint8_t peer_id, Direction direction, std::span<const uint8_t> body,
                                      std::vector<uint8_t>& out);

  const Schema& peer_schema() const { return *peer_; }
  const Schema& our_schema() const { return *ours_; }
  // Whether the peer message (by name) is carried by copying its bytes (its layout is ours).
  bool copies(std::string_view peer_message_name) const;
  const ReasonCounters<PlanEvent>& counters() const { return counters_; }

 private:
  WirePlan(std::unique_ptr<const Schema> peer, std::unique_ptr<const Schema> ours, const PlanOptions& options);

  std::unique_ptr<const Schema> peer_;
  std::unique_ptr<const Schema> ours_;
  std::unique_ptr<detail::PlanTables> tables_;
  PlanOptions options_;
  DynTree peer_tree_;
  DynTree our_tree_;
  ReasonCounters<PlanEvent> counters_;
};

}  // namespace tickwire::wire
