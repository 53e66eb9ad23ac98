// Protocol constants in one place: every cap and size the wire and the engine agree on.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tickwire::protocol {

inline constexpr uint16_t kProtocolVersion = 1;     // moves only when the fixed frame changes
inline constexpr std::size_t MaxPacketBytes = 1200;  // one datagram's payload budget
inline constexpr std::size_t MaxSnapshotFragments = 16;
inline constexpr std::size_t MaxSnapshotBytes = MaxPacketBytes * MaxSnapshotFragments;
inline constexpr std::size_t InputQueueTicks = 12;
inline constexpr std::size_t StarvationRepeatTicks = 3;
inline constexpr std::size_t MaxCatchUpTicks = 4;
inline constexpr std::size_t RestTableChunkRecords = 512;
inline constexpr std::size_t MaxRestTableObjects = 65536;  // a map's objects a rest table names
inline constexpr std::size_t MaxRestTableChunks = MaxRestTableObjects / RestTableChunkRecords;
inline constexpr std::size_t MaxBaselineTicks = 32;  // a delta's baseline is at most this many ticks old
inline constexpr std::size_t MaxChannels = 4;
inline constexpr std::size_t MaxKindChannels = 4;        // KindPayload float channels
inline constexpr std::size_t MaxPawnValues = 4;          // the game's floats in a pawn detail or claim
inline constexpr std::size_t MaxComponentSections = 4;   // per object record
inline constexpr std::size_t MaxSchemaTextBytes = 60000; // a schema text crosses the wire once per hash
inline constexpr std::size_t MaxBuildNameBytes = 64;
inline constexpr std::size_t MaxInputsPerPacket = 16;    // redundant un-acked inputs per packet
inline constexpr std::size_t MaxRecordsPerSnapshot = 4096;
inline constexpr std::size_t MaxMaterialValues = 256;

}  // namespace tickwire::protocol
