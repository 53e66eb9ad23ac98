// The schema walker: the one reader that needs no field table. Given a parsed schema, a message
// (or shape) and bytes, it decodes into a DynTree with exactly ReadWalker's bounds checks, error
// names and nesting cap, plus the tree's node budget; stepping over a message is decoding it and
// reporting the bytes it took. Plans use it to read a peer's bytes; tests walk golden packets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "tickwire/core/status.h"
#include "tickwire/wire/dyn_value.h"
#include "tickwire/wire/schema.h"

namespace tickwire::wire {

struct WalkReport {
  Error error = Error::ok;
  std::string_view field;        // where the error was found ("<end>" for trailing bytes)
  std::size_t consumed_bytes = 0;
};

enum class WalkEnd : uint8_t {
  exact,       // the body must end where the shape does (trailing_bytes otherwise), as codec decode
  step_over,   // bytes after the shape are left for the caller
};

// Decodes `body` as `shape` into `tree` (reset first); tree.root() is the shape's record.
Status decode_shape(const Schema& schema, const SchemaShape& shape, std::span<const uint8_t> body, DynTree& tree,
                    WalkEnd end = WalkEnd::exact, WalkReport* report = nullptr);

inline Status decode_message(const Schema& schema, const SchemaMessage& message, std::span<const uint8_t> body,
                             DynTree& tree, WalkReport* report = nullptr) {
  return decode_shape(schema, schema.shape_of(message), body, tree, WalkEnd::exact, report);
}

// Steps over one message body: the number of bytes its shape takes. `scratch` (optional) is the
// tree to decode into; without one a tree with the default budgets is made for the call.
Result<std::size_t> walk_message(const Schema& schema, const SchemaMessage& message, std::span<const uint8_t> body,
                                 DynTree* scratch = nullptr);
// The same, naming the message (unknown_message when the schema has no such message).
Result<std::size_t> walk_message(const Schema& schema, std::string_view message_name, std::span<const uint8_t> body,
                                 DynTree* scratch = nullptr);
Result<std::size_t> walk_message(const Schema& schema, uint8_t id, Direction direction, std::span<const uint8_t> body,
                                 DynTree* scratch = nullptr);

}  // namespace tickwire::wire
