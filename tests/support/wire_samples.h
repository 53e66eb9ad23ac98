// One sample value per registered message and per branch worth pinning. The golden packets under
// tests/fixtures/wire/v1/ are these samples encoded; the fixture, schema-walk and plan tests and
// the fuzz seeds all start from them.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "tickwire/core/status.h"
#include "tickwire/wire/codec.h"
#include "tickwire/wire/describe_walker.h"

namespace tickwire::test {

struct WireSample {
  std::string file;            // fixture file name, e.g. "inputFrame-claim.bin"
  uint8_t message_id;          // the envelope byte
  std::string message_name;    // the schema's message name
  wire::Direction travelling;  // a direction the message may travel in (server to client for `both`)
  std::vector<uint8_t> packet; // envelope byte + body, from the typed codec
  // Decodes a packet's body with the typed codec and re-encodes it into `out` (envelope included).
  std::function<Status(std::span<const uint8_t> body, std::vector<uint8_t>& out)> reencode;
};

std::vector<WireSample> wire_samples();

// The IEEE bits of f, as a token pair carries an f32 row's value.
inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// A sample from a typed message value (any build's shapes: today's or a frozen one's).
template <class M>
WireSample make_wire_sample(std::string file, const M& value) {
  std::vector<uint8_t> packet(1 + wire::measure(value));
  auto written = wire::encode_message(value, packet);
  TW_ASSERT(written.ok() && *written == packet.size(), "a sample must encode to its measured size");
  auto reencode = [](std::span<const uint8_t> body, std::vector<uint8_t>& out) -> Status {
    M decoded{};
    if (Status s = wire::decode(body, decoded); !s) return s;
    out.assign(1 + wire::measure(decoded), 0);
    return wire::encode_message(decoded, out).status();
  };
  const wire::Direction travelling =
      M::wire_direction == wire::Direction::both ? wire::Direction::server_to_client : M::wire_direction;
  return WireSample{std::move(file), M::wire_id, std::string(M::message_name), travelling, std::move(packet), reencode};
}

}  // namespace tickwire::test
