// Packet header and entry layouts: exact bytes (little-endian, as docs/reliability.md states them),
// round trips, and the named errors for truncated or malformed input.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "tickwire/protocol/constants.h"
#include "tickwire/transport/endpoint_config.h"
#include "tickwire/transport/packet_entry.h"
#include "tickwire/transport/packet_header.h"

namespace tickwire {
namespace {

// transport/ sits below protocol/, so it keeps its own copies of the two shared caps; they must agree.
static_assert(kMaxChannels == protocol::MaxChannels);
static_assert(kMaxPacketPayloadBytes == protocol::MaxPacketBytes);
// A schema text crosses the wire as one block on the default layout's reliable channel.
static_assert(protocol::MaxSchemaTextBytes <= 64 * 1024);

std::vector<uint8_t> bytes_of(const ByteWriter& w) { return {w.written().begin(), w.written().end()}; }

TEST(PacketHeader, LayoutWithAndWithoutAcks) {
  std::array<uint8_t, 16> buffer{};
  {
    ByteWriter w(buffer);
    PacketHeader{0x1234, false, 0, 0}.write(w);
    EXPECT_EQ(bytes_of(w), (std::vector<uint8_t>{0x00, 0x34, 0x12}));
  }
  ByteWriter w(buffer);
  const PacketHeader h{0x1234, true, 0xabcd, 0x80000001u};
  h.write(w);
  EXPECT_EQ(bytes_of(w), (std::vector<uint8_t>{0x01, 0x34, 0x12, 0xcd, 0xab, 0x01, 0x00, 0x00, 0x80}));
  EXPECT_EQ(w.size(), h.encoded_bytes());
  ByteReader r(w.written());
  PacketHeader back;
  ASSERT_TRUE(back.read(r).ok());
  EXPECT_EQ(back, h);
}

TEST(PacketHeader, RefusesUnknownFlagsAndTruncation) {
  const std::array<uint8_t, 3> flags = {0x02, 0, 0};
  ByteReader r1(flags);
  PacketHeader h;
  EXPECT_EQ(h.read(r1).error(), Error::unknown_flag_bits);
  const std::array<uint8_t, 5> short_ack = {0x01, 0, 0, 0, 0};
  ByteReader r2(short_ack);
  EXPECT_EQ(h.read(r2).error(), Error::truncated);
  ByteReader r3(std::span<const uint8_t>{});
  EXPECT_EQ(h.read(r3).error(), Error::truncated);
}

TEST(PacketEntry, MessageAndFragmentLayouts) {
  std::array<uint8_t, 64> buffer{};
  ByteWriter w(buffer);
  write_message_entry_head(w, EntryKind::reliable, 2, 0x0102, 3);
  const std::array<uint8_t, 3> body = {7, 8, 9};
  w.bytes(body);
  EXPECT_EQ(bytes_of(w), (std::vector<uint8_t>{0x06, 0x02, 0x01, 0x03, 0x00, 7, 8, 9}));

  ByteWriter f(buffer);
  write_fragment_entry_head(f, 1, 5, FragmentHeader{2, 3, 0x1000, 0x800}, 1);
  f.u8(0xee);
  EXPECT_EQ(bytes_of(f), (std::vector<uint8_t>{0x0d, 5, 0, 2, 0, 3, 0, 0x00, 0x10, 0, 0, 0x00, 0x08, 0, 0, 1, 0, 0xee}));
  EXPECT_EQ(f.size(), kFragmentEntryOverheadBytes + 1);

  ByteReader r(f.written());
  EntryView e;
  ASSERT_TRUE(read_entry(r, e).ok());
  EXPECT_EQ(e.kind, EntryKind::fragment);
  EXPECT_EQ(e.channel, 1);
  EXPECT_EQ(e.message_id, 5);
  EXPECT_EQ(e.fragment, (FragmentHeader{2, 3, 0x1000, 0x800}));
  ASSERT_EQ(e.bytes.size(), 1u);
  EXPECT_EQ(e.bytes[0], 0xee);
  EXPECT_TRUE(r.at_end());
}

TEST(PacketEntry, RoundTripsEveryKind) {
  std::array<uint8_t, 64> buffer{};
  ByteWriter w(buffer);
  write_ping_entry(w);
  write_message_entry_head(w, EntryKind::unreliable, 3, 65535, 0);
  write_message_entry_head(w, EntryKind::reliable, 0, 1, 2);
  w.u16(0xbeef);
  ByteReader r(w.written());
  EntryView e;
  ASSERT_TRUE(read_entry(r, e).ok());
  EXPECT_EQ(e.kind, EntryKind::ping);
  ASSERT_TRUE(read_entry(r, e).ok());
  EXPECT_EQ(e.kind, EntryKind::unreliable);
  EXPECT_EQ(e.channel, 3);
  EXPECT_EQ(e.message_id, 65535);
  EXPECT_TRUE(e.bytes.empty());
  ASSERT_TRUE(read_entry(r, e).ok());
  EXPECT_EQ(e.kind, EntryKind::reliable);
  EXPECT_EQ(e.bytes.size(), 2u);
  EXPECT_TRUE(r.at_end());
}

TEST(PacketEntry, NamedErrorsForBadInput) {
  EntryView e;
  const std::array<uint8_t, 1> reserved = {0x10};
  ByteReader r1(reserved);
  EXPECT_EQ(read_entry(r1, e).error(), Error::unknown_flag_bits);
  const std::array<uint8_t, 1> ping_on_channel = {0x01};
  ByteReader r2(ping_on_channel);
  EXPECT_EQ(read_entry(r2, e).error(), Error::unknown_flag_bits);
  const std::array<uint8_t, 6> past_end = {0x04, 0, 0, 5, 0, 1};  // claims 5 bytes, has 1
  ByteReader r3(past_end);
  EXPECT_EQ(read_entry(r3, e).error(), Error::length_past_end);
  const std::array<uint8_t, 8> short_fragment = {0x0c, 0, 0, 0, 0, 1, 0, 0};
  ByteReader r4(short_fragment);
  EXPECT_EQ(read_entry(r4, e).error(), Error::truncated);
}

}  // namespace
}  // namespace tickwire
