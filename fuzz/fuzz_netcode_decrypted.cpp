// libFuzzer target: the post-decryption reader with a known key. The input is
// [prefix byte][sequence u64 LE][body...]; the body is encrypted under a fixed key with the
// fuzzer's own prefix as additional data, so every mutation of type, sequence length and body
// reaches the header checks, decryption, the body decoder and the replay window.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "tickwire/core/bytes.h"
#include "tickwire/transport/netcode_packet.h"

using namespace tickwire::netcode;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  static const Key key = [] {
    Key k{};
    for (std::size_t i = 0; i < k.size(); ++i) k[i] = static_cast<uint8_t>(i ^ 0xa5);
    return k;
  }();
  static ReplayProtection replay;  // persists across inputs: exercises the window too
  if (size < 9) return 0;
  const uint8_t prefix = data[0];
  const uint64_t sequence = tickwire::load_le<uint64_t>(data + 1);
  const std::span<const uint8_t> body(data + 9, std::min<std::size_t>(size - 9, kMaxPayloadBytes + 16));

  std::array<uint8_t, 1 + 8 + kMaxPayloadBytes + 16 + kMacBytes> packet{};
  unsigned sequence_bytes = prefix >> 4;
  if (sequence_bytes > 8) sequence_bytes = 8;
  packet[0] = prefix;
  for (unsigned i = 0; i < sequence_bytes; ++i) packet[1 + i] = static_cast<uint8_t>(sequence >> (8 * i));
  const std::size_t header = 1 + sequence_bytes;
  const uint64_t written_sequence = sequence_bytes == 8 ? sequence : sequence & ((uint64_t{1} << (8 * sequence_bytes)) - 1);
  const auto ad = packet_additional_data(kDefaultProtocolId, prefix);
  if (!aead_encrypt(std::span<uint8_t>(packet).subspan(header), body, ad, written_sequence, key)) return 0;
  const std::span<const uint8_t> wire(packet.data(), header + body.size() + kMacBytes);

  for (const PacketTypeSet& allowed : {kServerAccepts, kClientAccepts}) {
    EncryptedHeader parsed;
    if (read_encrypted_header(wire, allowed, parsed) != Reject::ok) continue;
    DecodedPacket out;
    const Reject r = open_encrypted_packet(wire, parsed, kDefaultProtocolId, key, &replay, out);
    if (r == Reject::ok && out.type == PacketType::payload && out.payload_bytes != body.size()) __builtin_trap();
  }
  return 0;
}
