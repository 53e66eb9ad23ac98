// SnapshotFragment: one slice of a snapshot too large for one unreliable message (seed 000,
// "Snapshot budget and fragmentation"). The whole encoded snapshot, its message id byte included,
// is cut into at most MaxSnapshotFragments slices keyed by server tick and numbered N of M.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "tickwire/protocol/constants.h"
#include "tickwire/wire/describe_walker.h"

namespace tickwire::protocol {

// One byte of a slice. The wire has no raw-bytes field kind, so a slice is a list16 of these:
// on the wire exactly a u16 length and the bytes, as a byte blob would be.
struct SliceByte {
  static constexpr std::string_view wire_name = "SliceByte";
  uint8_t value = 0;
  template <class W>
  void fields(W& w) {
    w.u8("value", value);
  }
};

// Bytes a fragment message spends around its slice: id byte, index, count, tick, slice length.
inline constexpr std::size_t SnapshotFragmentHeaderBytes = 1 + 1 + 1 + 4 + 2;
// The longest slice the wire admits: a fragment message never exceeds one datagram's budget.
inline constexpr std::size_t MaxSnapshotSliceBytes = MaxPacketBytes - SnapshotFragmentHeaderBytes;

struct SnapshotFragment {
  static constexpr std::string_view wire_name = "SnapshotFragment";
  static constexpr std::string_view message_name = "snapshotFragment";
  static constexpr uint8_t wire_id = 16;
  static constexpr wire::Direction wire_direction = wire::Direction::server_to_client;

  // (Field order: index and count ahead of the tick. The other order trips a GCC 12 -O2
  // -Wstringop-overflow false positive inside the inlined write walk.)
  uint8_t fragment_index = 0;   // N, counted from 0
  uint8_t fragment_count = 0;   // M, 1..MaxSnapshotFragments
  uint32_t tick = 0;            // the server tick of the snapshot this slice belongs to
  std::vector<SliceByte> slice;

  template <class W>
  void fields(W& w) {
    w.u8("fragmentIndex", fragment_index);
    w.u8("fragmentCount", fragment_count);
    w.u32("tick", tick);
    w.list16("slice", slice, 1, MaxSnapshotSliceBytes);
  }
};

}  // namespace tickwire::protocol
