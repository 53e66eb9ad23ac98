// The fixed numbers of the netcode 1.02 standard in one place: sizes of every token and packet
// field, the version string, and the rates and caps the standard recommends. A conforming peer
// of any implementation agrees with these byte for byte.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "tickwire/clock/time.h"

namespace tickwire::netcode {

// "NETCODE 1.02" with its null terminator: 13 bytes, the first field of tokens and requests.
inline constexpr std::size_t kVersionInfoBytes = 13;
inline constexpr std::array<uint8_t, kVersionInfoBytes> kVersionInfo = {'N', 'E', 'T', 'C', 'O', 'D', 'E',
                                                                        ' ', '1', '.', '0', '2', '\0'};

inline constexpr std::size_t kKeyBytes = 32;
inline constexpr std::size_t kMacBytes = 16;
inline constexpr std::size_t kUserDataBytes = 256;
inline constexpr std::size_t kConnectTokenNonceBytes = 24;   // XChaCha20 nonce of the private part
inline constexpr std::size_t kPacketNonceBytes = 12;         // ChaCha20-Poly1305 IETF nonce
inline constexpr std::size_t kConnectTokenPrivateBytes = 1024;
inline constexpr std::size_t kConnectTokenBytes = 2048;
inline constexpr std::size_t kChallengeTokenBytes = 300;
inline constexpr uint32_t kMaxServersPerConnect = 32;
inline constexpr std::size_t kMaxPayloadBytes = 1200;
inline constexpr std::size_t kReplayBufferEntries = 256;

// The connection request on the wire: prefix 0, version, protocol id, expire timestamp, the
// 24-byte token nonce and the sealed private token. (The standard's prose still lists an 8-byte
// "sequence" and 1062 bytes; every 1.02 implementation sends the 24-byte nonce: 1078 bytes.)
inline constexpr std::size_t kConnectionRequestBytes =
    1 + kVersionInfoBytes + 8 + 8 + kConnectTokenNonceBytes + kConnectTokenPrivateBytes;
static_assert(kConnectionRequestBytes == 1078);

// Smallest possible encrypted packet: prefix, one sequence byte, empty body, MAC.
inline constexpr std::size_t kMinEncryptedPacketBytes = 1 + 1 + kMacBytes;
// Largest encrypted packet: a full payload behind an 8-byte sequence.
inline constexpr std::size_t kMaxEncryptedPacketBytes = 1 + 8 + kMaxPayloadBytes + kMacBytes;
// Largest datagram either side ever writes or accepts.
inline constexpr std::size_t kMaxPacketBytes =
    kMaxEncryptedPacketBytes > kConnectionRequestBytes ? kMaxEncryptedPacketBytes : kConnectionRequestBytes;

// Per-type plaintext body sizes (the reader's post-header size check).
inline constexpr std::size_t kChallengeBodyBytes = 8 + kChallengeTokenBytes;  // also the response
inline constexpr std::size_t kKeepAliveBodyBytes = 8;

// The standard's recommended behaviour, used by our client and server.
// Slots per server: the standard's wire carries the count as a u32 (its reference server stops at
// 256); ours stops at 1024, one past a room's client owner ids (core/owner_id.h).
inline constexpr uint32_t kMaxClientsLimit = 1024;
inline constexpr Duration kPacketSendInterval = Duration::milliseconds(100);  // 10 Hz requests and keep-alives
inline constexpr int kRedundantDisconnectPackets = 10;

// tickwire's default protocol id ("tickwire" in ASCII, little-endian): a game picks its own.
inline constexpr uint64_t kDefaultProtocolId = 0x657269776B636974ull;

}  // namespace tickwire::netcode
