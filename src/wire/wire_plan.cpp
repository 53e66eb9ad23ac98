// The plan's front: parse both texts, build the pairing tables, and translate a message by
// walking the peer's bytes into a tree, rewriting the tree into ours, and encoding it (or, for a
// message whose layout did not move, walking it and copying its bytes).
#include "tickwire/wire/wire_plan.h"

#include "plan_tables.h"
#include "tickwire/wire/message_registry.h"
#include "tickwire/wire/schema_walker.h"

namespace tickwire::wire {

WirePlan::WirePlan(std::unique_ptr<const Schema> peer, std::unique_ptr<const Schema> ours, const PlanOptions& options)
    : peer_(std::move(peer)),
      ours_(std::move(ours)),
      options_(options),
      peer_tree_(options.node_budget),
      our_tree_(options.node_budget) {}

WirePlan::WirePlan(WirePlan&&) noexcept = default;
WirePlan& WirePlan::operator=(WirePlan&&) noexcept = default;
WirePlan::~WirePlan() = default;

Result<WirePlan> WirePlan::build(std::string_view peer_text, std::string_view our_text, const PlanOptions& options,
                                 SchemaDiagnostic* diagnostic) {
  auto peer = parse_schema(peer_text, diagnostic);
  if (!peer) return peer.error();
  auto ours = parse_schema(our_text, diagnostic);
  if (!ours) return ours.error();
  WirePlan plan(std::make_unique<const Schema>(std::move(*peer)), std::make_unique<const Schema>(std::move(*ours)),
                options);
  auto tables = detail::build_plan_tables(*plan.peer_, *plan.ours_, options.our_defaults);
  if (!tables) {
    if (diagnostic) *diagnostic = SchemaDiagnostic{tables.error(), 0, "the peer's schema pairs with ours past the plan's caps"};
    return tables.error();
  }
  plan.tables_ = std::make_unique<detail::PlanTables>(std::move(*tables));
  return plan;
}

bool WirePlan::copies(std::string_view peer_message_name) const {
  const SchemaMessage* m = peer_->find_message(peer_message_name);
  return m && options_.copy_unchanged && tables_->message_copies[static_cast<std::size_t>(m - peer_->messages.data())];
}

Result<TranslatedMessage> WirePlan::translate(uint8_t peer_id, Direction direction, std::span<const uint8_t> body,
                                              std::vector<uint8_t>& out) {
  const SchemaMessage* pm = peer_->find_message(peer_id, direction);
  if (!pm) return Error::unknown_message;
  const auto index = static_cast<std::size_t>(pm - peer_->messages.data());
  const uint32_t our_index = tables_->message_to_ours[index];
  if (our_index == kNoIndex || !direction_allows(ours_->messages[our_index].direction, direction))
    return Error::unknown_message;
  const SchemaMessage& om = ours_->messages[our_index];

  const Status walked = decode_message(*peer_, *pm, body, peer_tree_);
  if (!walked) return walked.error();
  const std::size_t start = out.size();
  if (options_.copy_unchanged && tables_->message_copies[index]) {
    if (body.size() > options_.encode.max_bytes) return Error::buffer_full;
    out.insert(out.end(), body.begin(), body.end());
    counters_.add(PlanEvent::message_copied);
    return TranslatedMessage{om.id, &om, body.size()};
  }
  our_tree_.reset(*ours_);
  const Status converted = detail::convert_message(*tables_, tables_->message_plans[index], peer_tree_, our_tree_, counters_);
  if (!converted) return converted.error();
  const Status encoded = encode_dynamic(our_tree_.root(), out, options_.encode);
  if (!encoded) return encoded.error();
  return TranslatedMessage{om.id, &om, out.size() - start};
}

}  // namespace tickwire::wire
