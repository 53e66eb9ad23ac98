// Varints, zigzag, and the bit writer/reader: exact layouts and refusal of bad encodings.
#include <gtest/gtest.h>

#include <array>

#include "tickwire/core/bit_reader.h"
#include "tickwire/core/bit_writer.h"
#include "tickwire/core/rng.h"
#include "tickwire/core/varint.h"

namespace tickwire {

TEST(Varint, SizesAndRoundTrip) {
  EXPECT_EQ(varint_size(0), 1u);
  EXPECT_EQ(varint_size(127), 1u);
  EXPECT_EQ(varint_size(128), 2u);
  EXPECT_EQ(varint_size(16383), 2u);
  EXPECT_EQ(varint_size(16384), 3u);
  EXPECT_EQ(varint_size(UINT64_MAX), 10u);
  Rng rng(1);
  for (int i = 0; i < 10000; ++i) {
    const uint64_t v = rng.next_u64() >> rng.below(64);
    uint8_t buf[10];
    const std::size_t n = varint_write(v, buf);
    uint64_t back = 0;
    std::size_t used = 0;
    ASSERT_TRUE(varint_read(std::span<const uint8_t>(buf, n), 64, back, used).ok());
    EXPECT_EQ(back, v);
    EXPECT_EQ(used, n);
  }
}

TEST(Varint, RefusesBadEncodings) {
  uint64_t v = 0;
  std::size_t used = 0;
  const uint8_t truncated[] = {0x80, 0x80};
  EXPECT_EQ(varint_read(truncated, 64, v, used).error(), Error::truncated);
  const uint8_t overlong[] = {0x80, 0x00};
  EXPECT_EQ(varint_read(overlong, 64, v, used).error(), Error::value_out_of_range);
  const uint8_t too_wide[] = {0xff, 0xff, 0xff, 0xff, 0x1f};  // 35 bits into a 32-bit field
  EXPECT_EQ(varint_read(too_wide, 32, v, used).error(), Error::value_out_of_range);
  const uint8_t max32[] = {0xff, 0xff, 0xff, 0xff, 0x0f};
  EXPECT_TRUE(varint_read(max32, 32, v, used).ok());
  EXPECT_EQ(v, 0xffffffffu);
}

TEST(Zigzag, Mapping) {
  EXPECT_EQ(zigzag_encode(0), 0u);
  EXPECT_EQ(zigzag_encode(-1), 1u);
  EXPECT_EQ(zigzag_encode(1), 2u);
  EXPECT_EQ(zigzag_encode(-2), 3u);
  for (int64_t v : {int64_t{0}, int64_t{-5}, int64_t{77}, INT64_MIN, INT64_MAX}) EXPECT_EQ(zigzag_decode(zigzag_encode(v)), v);
}

TEST(Bits, LayoutIsLsbFirst) {
  std::array<uint8_t, 4> buf{};
  BitWriter w(buf);
  w.write(1, 1);
  w.write(0b101, 3);
  w.write(0xff, 8);
  w.align();
  EXPECT_EQ(w.bytes_written(), 2u);
  EXPECT_EQ(buf[0], 0b11111011);
  EXPECT_EQ(buf[1], 0b00001111);
  BitReader r(std::span<const uint8_t>(buf.data(), 2));
  EXPECT_EQ(r.read(1), 1u);
  EXPECT_EQ(r.read(3), 0b101u);
  EXPECT_EQ(r.read(8), 0xffu);
  EXPECT_TRUE(r.align());
  EXPECT_FALSE(r.truncated());
}

TEST(Bits, BoundsLatch) {
  std::array<uint8_t, 1> buf{};
  BitWriter w(buf);
  w.write(0x3f, 6);
  w.write(0x7, 3);  // would cross the end
  EXPECT_TRUE(w.overflow());
  BitReader r(buf);
  r.read(6);
  EXPECT_EQ(r.read(3), 0u);
  EXPECT_TRUE(r.truncated());
}

TEST(Bits, RandomRoundTrip) {
  Rng rng(99);
  std::array<uint8_t, 512> buf{};
  std::vector<std::pair<uint64_t, unsigned>> values;
  BitWriter w(buf);
  for (int i = 0; i < 100; ++i) {
    const auto bits = static_cast<unsigned>(rng.between(1, 64));
    const uint64_t v = bits == 64 ? rng.next_u64() : rng.next_u64() & ((uint64_t{1} << bits) - 1);
    values.emplace_back(v, bits);
    w.write(v, bits);
  }
  ASSERT_FALSE(w.overflow());
  BitReader r(std::span<const uint8_t>(buf.data(), w.bytes_written()));
  for (auto [v, bits] : values) EXPECT_EQ(r.read(bits), v);
}

}  // namespace tickwire
