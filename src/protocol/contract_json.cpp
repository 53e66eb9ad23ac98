// The contract's canonical JSON, its hash, and the revision key. Each policy part renders through
// one function used by both the contract and the revision key, so the two cannot drift apart; the
// bookkeeping part has no renderer at all.
#include <string_view>

#include "tickwire/protocol/canonical_json.h"
#include "tickwire/protocol/netcode_contract.h"

namespace tickwire {
namespace {

// Domain tag of the revision key's JSON, so a key can never equal a contract hash by construction.
constexpr std::string_view kRevisionKeyDomain = "tickwire.netcode_contract.revision_key.v1";

CanonicalJsonObject render(const RoomIdentity& id) {
  CanonicalJsonObject o;
  o.string("room_id", id.room_id);
  o.string("game", id.game);
  o.string("deployment", id.deployment);
  o.string("content_version", id.content_version);
  o.string("environment", id.environment);
  o.string("blueprint", id.blueprint);
  o.string("room_template", id.room_template);
  return o;
}

CanonicalJsonObject render(const CadencePolicy& c) {
  CanonicalJsonObject o;
  o.unsigned_integer("tick_rate_hz", c.tick_rate_hz);
  o.unsigned_integer("snapshot_rate_hz", c.snapshot_rate_hz);
  o.unsigned_integer("max_catch_up_ticks", c.max_catch_up_ticks);
  return o;
}

CanonicalJsonObject render(const InterpolationPolicy& i) {
  CanonicalJsonObject o;
  o.number("delay_snapshot_intervals", i.delay_snapshot_intervals);
  o.unsigned_integer("buffer_ticks", i.buffer_ticks);
  o.number("margin_growth_ticks", i.margin_growth_ticks);
  o.number("max_margin_ticks", i.max_margin_ticks);
  o.number("margin_decay_seconds", i.margin_decay_seconds);
  o.boolean("auto_margin", i.auto_margin);
  o.unsigned_integer("max_extrapolation_ms", i.max_extrapolation_ms);
  return o;
}

CanonicalJsonObject render(const InputPolicy& in) {
  CanonicalJsonObject o;
  o.unsigned_integer("queue_ticks", in.queue_ticks);
  o.unsigned_integer("starvation_ticks", in.starvation_ticks);
  o.number("forgiveness", in.forgiveness);
  return o;
}

CanonicalJsonObject render(const ByteBudgets& b) {
  CanonicalJsonObject o;
  o.unsigned_integer("max_packet_bytes", b.max_packet_bytes);
  o.unsigned_integer("max_snapshot_fragments", b.max_snapshot_fragments);
  o.unsigned_integer("snapshot_budget_bytes", b.snapshot_budget_bytes);
  o.unsigned_integer("client_bytes_per_second", b.client_bytes_per_second);
  return o;
}

CanonicalJsonObject render(const InteractionLimits& l) {
  CanonicalJsonObject o;
  o.number("interaction_range_m", l.interaction_range_m);
  o.unsigned_integer("interactions_per_second", l.interactions_per_second);
  o.unsigned_integer("fire_per_second", l.fire_per_second);
  o.unsigned_integer("max_rewind_ms", l.max_rewind_ms);
  return o;
}

}  // namespace

std::string contract_canonical_json(const NetcodeContract& contract) {
  CanonicalJsonObject cadence = render(contract.cadence);
  cadence.unsigned_integer("ticks_per_snapshot", contract.ticks_per_snapshot);
  CanonicalJsonObject interpolation = render(contract.interpolation);
  interpolation.unsigned_integer("delay_ticks", contract.interp_delay_ticks);

  CanonicalJsonObject root;
  root.unsigned_integer("version", contract.version);
  root.object("identity", render(contract.identity));
  root.object("cadence", cadence);
  root.object("interpolation", interpolation);
  root.object("input", render(contract.input));
  root.object("budgets", render(contract.budgets));
  root.object("limits", render(contract.limits));
  return root.text();
}

ContractHash contract_hash(const NetcodeContract& contract) {
  return ContractHash::of(contract_canonical_json(contract));
}

std::string contract_revision_key_json(const RoomPolicy& policy) {
  CanonicalJsonObject root;
  root.string("domain", kRevisionKeyDomain);
  root.object("identity", render(policy.identity));
  root.object("cadence", render(policy.cadence));
  root.object("interpolation", render(policy.interpolation));
  root.object("input", render(policy.input));
  root.object("budgets", render(policy.budgets));
  root.object("limits", render(policy.limits));
  return root.text();
}

ContractHash contract_revision_key(const RoomPolicy& policy) {
  return ContractHash::of(contract_revision_key_json(policy));
}

}  // namespace tickwire
