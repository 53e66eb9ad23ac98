// The v0 build: an earlier protocol frozen under tests/fixtures/wire/v0/ with its own schema. Its
// shapes differ from today's the way two builds would (ids moved, fields added, removed, moved and
// widened, an enum renumbered, a sparse set rebitted, a union case we no longer have, a token
// table reordered), so the legacy test can read every v0 packet through a plan made from the v0
// schema text alone.
#pragma once

#include <string>
#include <vector>

#include "wire_samples.h"

namespace tickwire::test {

// The v0 schema text (as the v0 build printed it).
std::string legacy_v0_schema_text();
// One packet per v0 message kind and branch, encoded by the v0 shapes.
std::vector<WireSample> legacy_v0_samples();

}  // namespace tickwire::test
