// Fuzzes the schema text parser with arbitrary text (a peer's schema is hostile input). Any text
// must parse or be refused by name; a text that parses must print to a canonical text that
// parses again and prints to itself. Bytes after a NUL are then walked against the fuzzed schema's
// first messages and carried through a plan from that schema to itself, so the walker, the
// dynamic encoder and the plan meet schemas no build of ours would write.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tickwire/wire/dyn_encoder.h"
#include "tickwire/wire/schema_parser.h"
#include "tickwire/wire/schema_walker.h"
#include "tickwire/wire/wire_plan.h"

namespace {

constexpr std::size_t kMessagesTried = 4;
constexpr std::size_t kNodeBudget = 1 << 14;

bool resource_error(tickwire::Error e) {
  return e == tickwire::Error::walk_budget_exceeded || e == tickwire::Error::buffer_full;
}

// Bytes the walker accepts re-encode to bytes it accepts again, and that re-encode to themselves.
void walk_and_reencode(const tickwire::wire::Schema& schema, const tickwire::wire::SchemaMessage& m,
                       std::span<const uint8_t> bytes) {
  using namespace tickwire;
  wire::DynTree tree(kNodeBudget);
  if (!wire::decode_shape(schema, schema.shape_of(m), bytes, tree, wire::WalkEnd::step_over).ok()) return;
  std::vector<uint8_t> first, second;
  const wire::EncodeLimits limits{1 << 16, 1 << 18};
  const Status encoded = wire::encode_dynamic(tree.root(), first, limits);
  if (!encoded) {
    if (!resource_error(encoded.error())) __builtin_trap();
    return;
  }
  if (!wire::decode_message(schema, m, first, tree).ok()) __builtin_trap();
  if (!wire::encode_dynamic(tree.root(), second, limits).ok() || second != first) __builtin_trap();
}

void translate_to_itself(std::string_view text, const tickwire::wire::Schema& schema, std::span<const uint8_t> bytes) {
  using namespace tickwire;
  wire::PlanOptions options;
  options.copy_unchanged = false;
  options.node_budget = kNodeBudget;
  options.encode = wire::EncodeLimits{1 << 16, 1 << 18};
  auto plan = wire::WirePlan::build(text, text, options);
  if (!plan) {
    if (plan.error() != Error::schema_over_limit) __builtin_trap();
    return;
  }
  wire::DynTree tree(kNodeBudget);
  for (std::size_t i = 0; i < std::min(kMessagesTried, schema.messages.size()); ++i) {
    const wire::SchemaMessage& m = schema.messages[i];
    std::vector<uint8_t> out;
    auto translated = plan->translate(m.id, m.direction, bytes, out);
    if (!translated) continue;
    if (translated->id != m.id || !wire::decode_message(schema, m, out, tree).ok()) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tickwire;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = std::min(input.find('\0'), input.size());
  const std::string_view text = input.substr(0, nul);
  const std::span<const uint8_t> bytes(data + std::min(nul + 1, size), size - std::min(nul + 1, size));
  wire::SchemaDiagnostic diag;
  auto schema = wire::parse_schema(text, &diag);
  if (!schema) {
    if (diag.error != schema.error() || diag.error == Error::ok) __builtin_trap();
    return 0;
  }
  const std::string canonical = wire::print_schema(*schema);
  auto again = wire::parse_schema(canonical);
  if (!again || wire::print_schema(*again) != canonical) __builtin_trap();
  for (std::size_t i = 0; i < std::min(kMessagesTried, schema->messages.size()); ++i)
    walk_and_reencode(*schema, schema->messages[i], bytes);
  translate_to_itself(text, *schema, bytes);
  return 0;
}
