// Test-only: hand-built reliability-layer payloads (a header and any entries, valid or not) for
// feeding an endpoint exactly the bytes a hostile or broken peer would send.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "tickwire/transport/packet_entry.h"
#include "tickwire/transport/packet_header.h"

namespace tickwire::test {

class PayloadBuilder {
 public:
  explicit PayloadBuilder(uint16_t sequence) { PacketHeader{sequence, false, 0, 0}.write(w_); }

  PayloadBuilder& ping() {
    write_ping_entry(w_);
    return *this;
  }
  PayloadBuilder& message(EntryKind kind, uint8_t channel, uint16_t id, std::span<const uint8_t> bytes) {
    write_message_entry_head(w_, kind, channel, id, static_cast<uint16_t>(bytes.size()));
    w_.bytes(bytes);
    return *this;
  }
  PayloadBuilder& fragment(uint8_t channel, uint16_t id, const FragmentHeader& f, std::span<const uint8_t> bytes) {
    write_fragment_entry_head(w_, channel, id, f, static_cast<uint16_t>(bytes.size()));
    w_.bytes(bytes);
    return *this;
  }
  PayloadBuilder& raw(std::span<const uint8_t> bytes) {
    w_.bytes(bytes);
    return *this;
  }
  std::span<const uint8_t> bytes() const { return w_.written(); }

 private:
  std::array<uint8_t, 4096> buffer_{};
  ByteWriter w_{buffer_};
};

}  // namespace tickwire::test
