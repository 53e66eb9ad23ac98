// The SnapshotFragment message on the wire (its bytes pinned one by one, its header size the one the
// budget assumes, hostile bodies refused by the decoder) and the budget figures of the default
// unreliable channel.
#include "tickwire/protocol/snapshot_fragment.h"

#include <gtest/gtest.h>

#include "snapshot_fragment_support.h"
#include "support.h"
#include "tickwire/core/bytes.h"
#include "tickwire/replication/fragments/snapshot_fragment_budget.h"
#include "tickwire/transport/message_envelope.h"
#include "tickwire/wire/describe_walker.h"

namespace tickwire {
namespace {

using protocol::SliceByte;
using protocol::SnapshotFragment;
using test::Bytes;

SnapshotFragment fragment_of(uint32_t tick, uint8_t index, uint8_t count, const Bytes& slice) {
  SnapshotFragment f;
  f.tick = tick;
  f.fragment_index = index;
  f.fragment_count = count;
  for (uint8_t b : slice) f.slice.push_back(SliceByte{b});
  return f;
}

TEST(SnapshotFragment, BytesAreIdIndexCountTickLengthThenTheSlice) {
  const SnapshotFragment f = fragment_of(0x01020304, 2, 5, Bytes{0xaa, 0xbb, 0xcc});
  Bytes out(64);
  const auto written = wire::encode_message(f, out);
  ASSERT_TRUE(written.ok());
  out.resize(*written);
  const Bytes expected{16, 2, 5, 0x04, 0x03, 0x02, 0x01, 3, 0, 0xaa, 0xbb, 0xcc};
  EXPECT_EQ(out, expected);
  EXPECT_EQ(wire::measure(f) + 1, protocol::SnapshotFragmentHeaderBytes + 3);
}

TEST(SnapshotFragment, ReadsBackAndRefusesHostileBodies) {
  const SnapshotFragment f = fragment_of(77, 0, 2, Bytes(100, 0x5a));
  Bytes out(200);
  const std::size_t n = *wire::encode(f, out);
  SnapshotFragment back;
  ASSERT_TRUE(wire::decode(std::span<const uint8_t>(out.data(), n), back).ok());
  EXPECT_EQ(back.tick, 77u);
  EXPECT_EQ(back.slice.size(), 100u);

  // An empty slice, a slice over the wire cap, a length past the end, trailing bytes.
  Bytes empty{0, 2, 77, 0, 0, 0, 0, 0};
  EXPECT_EQ(wire::decode(empty, back).error(), Error::count_under_min);
  Bytes over{0, 2, 77, 0, 0, 0, 0, 0};
  store_le<uint16_t>(over.data() + 6, static_cast<uint16_t>(protocol::MaxSnapshotSliceBytes + 1));
  EXPECT_EQ(wire::decode(over, back).error(), Error::count_over_max);
  Bytes truncated(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n - 1));
  EXPECT_EQ(wire::decode(truncated, back).error(), Error::truncated);
  Bytes trailing(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n));
  trailing.push_back(0);
  EXPECT_EQ(wire::decode(trailing, back).error(), Error::trailing_bytes);
}

TEST(SnapshotFragment, SchemaSpellsTheSliceAsAListOfBytes) {
  wire::SchemaBuilder builder;
  builder.add_message<SnapshotFragment>(SnapshotFragment::wire_id, SnapshotFragment::wire_direction,
                                        SnapshotFragment::message_name);
  const std::string text = builder.text();
  EXPECT_NE(text.find("slice list16(SliceByte, 1, 1191);"), std::string::npos) << text;
  EXPECT_NE(text.find("shape SliceByte {\n  value u8;\n}"), std::string::npos) << text;
}

TEST(SnapshotFragmentBudget, DefaultChannelFigures) {
  const SnapshotFragmentBudget b = test::default_budget();
  // 1100-byte transport messages carry a snapshot behind the 3-byte direct envelope, which holds
  // the type.
  EXPECT_EQ(b.message_cap_bytes, 1100 - kDirectEnvelopeBytes + 1);
  EXPECT_EQ(b.whole_max_bytes(), 1098u);
  EXPECT_EQ(b.max_slice_bytes(), 1089u);
  EXPECT_EQ(b.ceiling_bytes(), 16u * 1089u);
  EXPECT_LE(b.ceiling_bytes(), protocol::MaxSnapshotBytes);
  EXPECT_EQ(b.fragments_for(0), 1u);
  EXPECT_EQ(b.fragments_for(1098), 1u);
  EXPECT_EQ(b.fragments_for(1099), 2u);
  EXPECT_EQ(b.fragments_for(2 * 1089), 2u);
  EXPECT_EQ(b.fragments_for(2 * 1089 + 1), 3u);
  EXPECT_EQ(b.fragments_for(16 * 1089 + 1), 17u);
}

TEST(SnapshotFragmentBudget, BadBudgetsAreProgrammerErrors) {
  test::ThrowOnAssert guard;
  EXPECT_THROW(SnapshotFragmentBudget::of(protocol::SnapshotFragmentHeaderBytes), test::AssertionFailure);
  EXPECT_THROW(SnapshotFragmentBudget::of(protocol::MaxPacketBytes + 1), test::AssertionFailure);
  EXPECT_THROW(SnapshotFragmentBudget::for_channel(ChannelConfig::reliable()), test::AssertionFailure);
}

}  // namespace
}  // namespace tickwire
