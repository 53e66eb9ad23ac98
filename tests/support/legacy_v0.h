// The v0 build: an earlier protocol frozen under tests/fixtures/wire/v0/ with its own schema. Its
// shapes differ from today's the way two builds would (ids moved, fields added, removed, moved and
// widened, an enum renumbered, a sparse set rebitted, a union case we no longer have, a token
// table reordered), so the legacy test can read every v0 packet through a plan made from the v0
// schema text alone.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "wire_samples.h"

namespace tickwire::test {

// The v0 schema text (as the v0 build printed it).
std::string legacy_v0_schema_text();
// One packet per v0 message kind and branch, encoded by the v0 shapes.
std::vector<WireSample> legacy_v0_samples();

// A v0 client's messages, for whole-system tests of a peer whose build differs: the v0 wire id
// and the v0 body of an input frame (its inputs a list16) and of a ping.
struct LegacyMessage {
  uint8_t id = 0;
  std::vector<uint8_t> body;
};
// Each input carries only its buttons (the caller's marker) and a forward move.
LegacyMessage legacy_v0_input_frame(uint32_t first_sequence, const std::vector<uint8_t>& buttons);
LegacyMessage legacy_v0_ping(uint32_t sequence, uint64_t sent_at_us);
// Reads a v0 ping body; false when it does not decode.
bool legacy_v0_read_ping(std::span<const uint8_t> body, uint32_t& sequence, bool& is_reply);

}  // namespace tickwire::test
