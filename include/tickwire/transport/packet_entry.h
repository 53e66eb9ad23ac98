// The entries that follow a packet header until the payload ends: a keep-alive ping, a reliable
// or unreliable message, or one fragment of a large reliable block. One tag byte names the kind
// and the channel; the reader checks every length against what is left and never trusts a count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "tickwire/core/status.h"
#include "tickwire/transport/byte_cursor.h"

namespace tickwire {

enum class EntryKind : uint8_t { ping = 0, reliable = 1, unreliable = 2, fragment = 3 };

inline constexpr std::size_t kPingEntryBytes = 1;
inline constexpr std::size_t kMessageEntryOverheadBytes = 5;    // tag, u16 id, u16 length
inline constexpr std::size_t kFragmentEntryOverheadBytes = 17;  // tag, id, index, count, size, offset, length

struct FragmentHeader {
  uint16_t fragment_index = 0;
  uint16_t fragment_count = 0;
  uint32_t block_bytes = 0;  // the whole block's size, the same in every fragment of the set
  uint32_t offset = 0;       // where this fragment's bytes go in the block
  friend bool operator==(const FragmentHeader&, const FragmentHeader&) = default;
};

struct EntryView {
  EntryKind kind = EntryKind::ping;
  uint8_t channel = 0;
  uint16_t message_id = 0;
  FragmentHeader fragment;         // fragment entries only
  std::span<const uint8_t> bytes;  // message or fragment bytes (a view into the packet)
};

// Writes the part of an entry before its bytes; the caller then writes exactly `length` bytes.
void write_ping_entry(ByteWriter& w);
void write_message_entry_head(ByteWriter& w, EntryKind kind, uint8_t channel, uint16_t message_id, uint16_t length);
void write_fragment_entry_head(ByteWriter& w, uint8_t channel, uint16_t message_id, const FragmentHeader& fragment,
                               uint16_t length);

// Reads one entry; truncated, unknown_union_tag (kind) or unknown_flag_bits (reserved tag bits).
Status read_entry(ByteReader& r, EntryView& out);

}  // namespace tickwire
