// Reading a schema text (ours or a peer's) into a Schema, and printing one back. The grammar is
// exactly what DescribeWalker/SchemaBuilder print, whitespace-insensitive; a peer's text is
// hostile input, so the parser is strict, capped (schema.h), and every refusal has a name and a
// line. print_schema(parse_schema(t)) == t for every canonical text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "tickwire/core/status.h"
#include "tickwire/wire/schema.h"

namespace tickwire::wire {

// Where and why a text was refused, for humans (logs, the CLI). The error is also the Result's.
struct SchemaDiagnostic {
  Error error = Error::ok;
  uint32_t line = 0;
  std::string message;
};

Result<Schema> parse_schema(std::string_view text, SchemaDiagnostic* diagnostic = nullptr);

// The canonical text: header, enums, flag sets, token tables, shapes, unions (each by name),
// then messages by id and direction; the same bytes SchemaBuilder prints.
std::string print_schema(const Schema& schema);

}  // namespace tickwire::wire
