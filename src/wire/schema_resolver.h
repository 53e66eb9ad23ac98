// The second half of parsing: a syntactically whole schema has its names resolved and its rules
// checked (unique names, references of the right kind, counted lists' count fields, shapes that
// must not contain themselves). Internal to parse_schema.
#pragma once

#include "tickwire/wire/schema.h"
#include "tickwire/wire/schema_parser.h"

namespace tickwire::wire::detail {

// Fills every ref/slot/count index in `schema`; on a refusal fills `diagnostic` and returns false.
bool resolve_schema(Schema& schema, SchemaDiagnostic& diagnostic);

}  // namespace tickwire::wire::detail
