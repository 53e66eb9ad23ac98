// One sample value per registered message and per branch worth pinning. The golden packets under
// tests/fixtures/wire/v1/ are these samples encoded; the fixture, schema-walk and plan tests and
// the fuzz seeds all start from them.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "tickwire/core/status.h"

namespace tickwire::test {

struct WireSample {
  std::string file;            // fixture file name, e.g. "inputFrame-claim.bin"
  uint8_t message_id;          // the envelope byte
  std::string message_name;    // the schema's message name
  std::vector<uint8_t> packet; // envelope byte + body, from the typed codec
  // Decodes a packet's body with the typed codec and re-encodes it into `out` (envelope included).
  std::function<Status(std::span<const uint8_t> body, std::vector<uint8_t>& out)> reencode;
};

std::vector<WireSample> wire_samples();

}  // namespace tickwire::test
