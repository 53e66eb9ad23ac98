// The byte cursors: little-endian layout, latched truncation on read and latched overflow on write.
#include "tickwire/transport/byte_cursor.h"

#include <gtest/gtest.h>

#include <array>
#include <vector>

namespace tickwire {
namespace {

TEST(ByteCursor, WritesLittleEndianAndReadsItBack) {
  std::array<uint8_t, 16> buffer{};
  ByteWriter w(buffer);
  w.u8(0x01);
  w.u16(0x0302);
  w.u32(0x07060504);
  const std::array<uint8_t, 2> tail = {0x08, 0x09};
  w.bytes(tail);
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w.size(), 9u);
  const std::vector<uint8_t> expected = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  EXPECT_EQ(std::vector<uint8_t>(w.written().begin(), w.written().end()), expected);

  ByteReader r(w.written());
  EXPECT_EQ(r.u8(), 0x01);
  EXPECT_EQ(r.u16(), 0x0302);
  EXPECT_EQ(r.u32(), 0x07060504u);
  const auto rest = r.bytes(2);
  EXPECT_EQ(rest[0], 8);
  EXPECT_EQ(rest[1], 9);
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(r.at_end());
}

TEST(ByteCursor, ReaderLatchesTruncationAndYieldsZeros) {
  const std::array<uint8_t, 3> bytes = {0xff, 0xff, 0xff};
  ByteReader r(bytes);
  EXPECT_EQ(r.u16(), 0xffff);
  EXPECT_EQ(r.u16(), 0);  // one byte left: truncated
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.error(), Error::truncated);
  EXPECT_EQ(r.u8(), 0);  // stays latched even though a byte remains
  EXPECT_TRUE(r.bytes(1).empty());
}

TEST(ByteCursor, WriterLatchesOverflowWithoutWritingPastItsSpan) {
  std::array<uint8_t, 8> buffer{};
  buffer.fill(0xaa);
  ByteWriter w(std::span<uint8_t>(buffer.data(), 3));
  w.u16(0x1234);
  w.u16(0x5678);  // does not fit
  EXPECT_EQ(w.error(), Error::buffer_full);
  w.u8(0x01);  // latched: nothing more written
  EXPECT_EQ(w.size(), 2u);
  EXPECT_EQ(buffer[2], 0xaa);
  EXPECT_TRUE(w.reserve(1).empty());
}

}  // namespace
}  // namespace tickwire
