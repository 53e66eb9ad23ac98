// Hostile and malformed bytes: each is refused with a named error, nothing is read past a length,
// and no list is allocated past its declared maximum.
#include <gtest/gtest.h>

#include <optional>

#include "tickwire/protocol/input_frame.h"
#include "tickwire/protocol/material_set.h"
#include "tickwire/protocol/record_batch.h"
#include "tickwire/protocol/relay_refused.h"
#include "tickwire/protocol/server_info.h"
#include "tickwire/protocol/wire_messages.h"
#include "tickwire/wire/codec.h"
#include "wire_samples.h"

namespace tickwire {
namespace {

using namespace protocol;

template <class M>
Error decode_error(std::vector<uint8_t> bytes) {
  M value{};
  return wire::decode(bytes, value).error();
}

template <class M>
std::vector<uint8_t> body_of(const M& value) {
  std::vector<uint8_t> out(wire::measure(value));
  EXPECT_TRUE(wire::encode(value, out).ok());
  return out;
}

EntityRecord pawn() {
  EntityRecord r;
  r.position = {1, 2, 3};
  return r;
}

TEST(WireBadInput, EveryPrefixIsRefusedOrEndsAtATail) {
  for (const auto& s : test::wire_samples()) {
    SCOPED_TRACE(s.file);
    const std::span<const uint8_t> body = std::span(s.packet).subspan(1);
    for (std::size_t n = 0; n < body.size(); ++n) {
      std::vector<uint8_t> out;
      const Status st = s.reencode(body.first(n), out);
      if (st.ok()) {
        // Only a packet that ends exactly at a tail may be shorter; re-encoding gives a full packet.
        EXPECT_GT(out.size(), n + 1);
      } else {
        EXPECT_NE(st.error(), Error::ok);
      }
    }
  }
}

TEST(WireBadInput, ListCountsOutsideBounds) {
  InputFrame frame;
  frame.inputs.resize(1);
  auto bytes = body_of(frame);
  bytes[4] = 17;  // the inputs count, max 16
  EXPECT_EQ(decode_error<InputFrame>(bytes), Error::count_over_max);
  bytes[4] = 0;  // min 1
  EXPECT_EQ(decode_error<InputFrame>(bytes), Error::count_under_min);
  bytes[4] = 16;  // within bounds but the bytes are not there
  EXPECT_EQ(decode_error<InputFrame>(bytes), Error::truncated);
}

TEST(WireBadInput, CountedListOverCapAndPastEnd) {
  RecordBatch batch;
  auto bytes = body_of(batch);
  // recordCount sits after tick (4) and contractHash (16).
  bytes[20] = 0xff;
  bytes[21] = 0xff;  // 65535 > 4096
  EXPECT_EQ(decode_error<RecordBatch>(bytes), Error::count_over_max);
  bytes[20] = 10;
  bytes[21] = 0;  // ten records claimed, three bytes behind them: refused, whichever field runs out
  EXPECT_NE(decode_error<RecordBatch>(bytes), Error::ok);
}

TEST(WireBadInput, SectionLengthPastEnd) {
  RecordBatch batch;
  auto bytes = body_of(batch);
  bytes[22] = 50;  // the section's length, with 1 byte behind it
  EXPECT_EQ(decode_error<RecordBatch>(bytes), Error::length_past_end);
}

TEST(WireBadInput, SectionSkipsBytesANewerWriterAdded) {
  RecordBatch batch;
  batch.rest_revision = 5;
  auto bytes = body_of(batch);
  bytes[22] = 3;  // grow the section by two unknown bytes
  bytes.push_back(0xee);
  bytes.push_back(0xee);
  RecordBatch decoded;
  ASSERT_TRUE(wire::decode(bytes, decoded).ok());
  EXPECT_EQ(decoded.rest_revision, 5u);
}

TEST(WireBadInput, UnknownUnionTagAndEnumValue) {
  RecordBatch batch;
  batch.records = {Record{1, pawn()}};
  batch.record_count = 1;
  auto bytes = body_of(batch);
  // Record: entityId varu32 (1 byte) at 22, then the union tag at 23, then kind at 24.
  auto bad_tag = bytes;
  bad_tag[23] = 9;
  EXPECT_EQ(decode_error<RecordBatch>(bad_tag), Error::unknown_union_tag);
  // An enum8: RelayRefused's reason (target u16, messageType u16, then the reason).
  protocol::RelayRefused refused;
  auto bad_reason = body_of(refused);
  bad_reason[4] = 9;
  EXPECT_EQ(decode_error<protocol::RelayRefused>(bad_reason), Error::unknown_enum_value);
}

TEST(WireBadInput, FlagsAndPresenceAndSparseMask) {
  InputFrame frame;
  frame.inputs.resize(1);
  frame.claim = Claim{};
  auto bytes = body_of(frame);
  const std::size_t presence = 4 + 1 + 7;  // firstSequence, count, one packed InputCmd (54 bits -> 7 bytes)
  ASSERT_EQ(bytes[presence], 1);
  auto bad_presence = bytes;
  bad_presence[presence] = 2;
  EXPECT_EQ(decode_error<InputFrame>(bad_presence), Error::invalid_presence);
  // A flags16: ServerInfo's features (serverId 16, motd length 2 and 0 bytes, region 4).
  ServerInfo info;
  auto bad_flags = body_of(info);
  bad_flags[16 + 2 + 4 + 1] = 0x80;  // bit 15 is unnamed
  EXPECT_EQ(decode_error<ServerInfo>(bad_flags), Error::unknown_flag_bits);

  ObjectRecord lamp;
  lamp.sections.resize(1);
  RecordBatch batch;
  batch.records = {Record{1, lamp}};
  batch.record_count = 1;
  auto obj = body_of(batch);
  // entityId, tag, objectIndex, flags, transform presence, section count, wireId, then the sparse mask.
  obj[22 + 7] = 0x40;  // bit 6: there are only 6 members
  EXPECT_EQ(decode_error<RecordBatch>(obj), Error::unknown_flag_bits);
}

TEST(WireBadInput, StringsOverCapAndNotUtf8) {
  ServerInfo info;
  info.motd = "hi";
  auto bytes = body_of(info);
  auto over = bytes;
  over[16] = 0x01;
  over[17] = 0x04;  // motd length 1025 > 1024
  EXPECT_EQ(decode_error<ServerInfo>(over), Error::string_over_cap);
  auto bad_utf8 = bytes;
  bad_utf8[18] = 0xc0;  // overlong lead byte
  EXPECT_EQ(decode_error<ServerInfo>(bad_utf8), Error::invalid_utf8);
}

TEST(WireBadInput, TailLetsAnOlderPacketEndEarly) {
  ServerInfo info;
  info.build_label = "new";
  auto bytes = body_of(info);
  bytes.resize(bytes.size() - 4);  // drop buildLabel (length byte + 3)
  ServerInfo decoded;
  decoded.build_label = "kept";
  ASSERT_TRUE(wire::decode(bytes, decoded).ok());
  EXPECT_EQ(decoded.build_label, "kept");  // a field past the tail keeps the value set before the walk
  bytes.resize(bytes.size() - 1);        // but ending anywhere else is truncation
  EXPECT_EQ(decode_error<ServerInfo>(bytes), Error::truncated);
}

TEST(WireBadInput, TrailingBytes) {
  auto bytes = body_of(InputFrame{0, {InputCmd{}}, std::nullopt, std::nullopt});
  bytes.push_back(0);
  EXPECT_EQ(decode_error<InputFrame>(bytes), Error::trailing_bytes);
}

TEST(WireBadInput, QuantizedIndexOutOfRange) {
  // The pitch spec has 16383 steps in 14 bits: index 16383 is valid, but a yaw of 65535 steps in
  // 16 bits has no spare; use the entity look angles (4095 steps in 12 bits, none spare) instead:
  // KindChannel-free check through a hand-made InputCmd whose moveX index is 255 > 254 steps.
  InputFrame frame;
  frame.inputs.resize(1);
  auto bytes = body_of(frame);
  // InputCmd bits: buttons 8 bits (byte 5), then moveX 8 bits (byte 6).
  bytes[6] = 0xff;
  EXPECT_EQ(decode_error<InputFrame>(bytes), Error::value_out_of_range);
}

TEST(WireBadInput, TokenRowOutsideTable) {
  MaterialSet set;
  set.values = {{2, 7}};
  auto bytes = body_of(set);
  bytes[6] = 200;  // row index
  EXPECT_EQ(decode_error<MaterialSet>(bytes), Error::invalid_token);
}

struct Nest {

  std::vector<Nest> children;
  template <class W>
  void fields(W& w) {
    w.list8("children", children, 0, 1);
  }
};

TEST(WireBadInput, NestingDeeperThanTheCap) {
  std::vector<uint8_t> bytes(64, 1);  // each level says "one child"
  bytes.push_back(0);
  Nest nest;
  EXPECT_EQ(wire::decode(bytes, nest).error(), Error::nesting_too_deep);
  std::vector<uint8_t> shallow(8, 1);
  shallow.push_back(0);
  EXPECT_TRUE(wire::decode(shallow, nest).ok());
}

TEST(WireBadInput, RefusalsAreCountedByError) {
  const auto& registry = protocol_messages();
  wire::DecodeErrorCounters counters;
  for (const auto& s : test::wire_samples()) {
    const auto direction = s.travelling;
    EXPECT_TRUE(registry.check_packet(s.packet, direction, counters).ok()) << s.file;
    const std::vector<uint8_t> cut(s.packet.begin(), s.packet.begin() + 2);
    (void)registry.check_packet(cut, direction, counters);
  }
  const std::vector<uint8_t> unknown = {200, 1, 2, 3};
  EXPECT_EQ(registry.check_packet(unknown, wire::Direction::server_to_client, counters).error(), Error::unknown_message);
  // inputFrame travelling server to client is not a message of that direction.
  for (const auto& s : test::wire_samples()) {
    if (s.file != "inputFrame.bin") continue;
    EXPECT_EQ(registry.check_packet(s.packet, wire::Direction::server_to_client, counters).error(), Error::unknown_message);
  }
  EXPECT_EQ(counters[Error::unknown_message], 2u);
  EXPECT_GE(counters[Error::truncated], 8u);
  RecordBatch batch;
  batch.records = {Record{1, pawn()}};
  batch.record_count = 1;
  auto bytes = body_of(batch);
  bytes[23] = 9;
  RecordBatch decoded;
  wire::DecodeErrorCounters local;
  EXPECT_FALSE(wire::decode_counted(bytes, decoded, local).ok());
  EXPECT_EQ(local[Error::unknown_union_tag], 1u);
  EXPECT_EQ(local.total(), 1u);
}

TEST(WireBadInput, WriterReportsAFullBuffer) {
  ServerInfo info;
  info.motd = std::string(500, 'x');
  std::vector<uint8_t> small(100);
  EXPECT_EQ(wire::encode(info, small).error(), Error::buffer_full);
}

}  // namespace
}  // namespace tickwire
