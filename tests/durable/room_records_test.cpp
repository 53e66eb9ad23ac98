// The journal entry and checkpoint payloads: what is written reads back the same, and bytes that are
// not one whole record (cut short at every length, a wrong version, a count or length past its cap
// or past what the bytes hold, bytes left over) are refused whole.
#include <gtest/gtest.h>

#include <initializer_list>

#include "tickwire/core/byte_record.h"
#include "tickwire/durable/room_records.h"

namespace tickwire::durable {
namespace {

std::vector<DurableFact> some_facts() {
  return {DurableFact{1, {1, 2, 3}}, DurableFact{2, {}}, DurableFact{7, std::vector<uint8_t>(300, 9)}};
}

TEST(RoomRecords, AFactBatchReadsBackAndEveryCutIsRefused) {
  const std::vector<uint8_t> bytes = encode_fact_batch(Tick::from_value(4711), some_facts());
  const std::optional<FactBatch> batch = decode_fact_batch(bytes);
  ASSERT_TRUE(batch.has_value());
  EXPECT_EQ(batch->tick, Tick::from_value(4711));
  EXPECT_EQ(batch->facts, some_facts());
  for (std::size_t cut = 0; cut < bytes.size(); ++cut)
    EXPECT_FALSE(decode_fact_batch(std::span(bytes).first(cut)).has_value()) << "cut at " << cut;
  std::vector<uint8_t> longer = bytes;
  longer.push_back(0);
  EXPECT_FALSE(decode_fact_batch(longer).has_value()) << "a byte left over";
  std::vector<uint8_t> version = bytes;
  version[0] = 9;
  EXPECT_FALSE(decode_fact_batch(version).has_value());
}

// A fact batch's head (version 1, tick 1) claiming `count` facts, then `rest` as u32s.
std::vector<uint8_t> batch_head(uint32_t count, std::initializer_list<uint32_t> rest = {}) {
  std::vector<uint8_t> bytes;
  ByteRecordWriter write(bytes);
  write.u8(1);
  write.i64(1);
  write.u32(count);
  for (uint32_t v : rest) write.u32(v);
  return bytes;
}

TEST(RoomRecords, CountsAndLengthsPastTheirCapsAreRefusedBeforeAnythingIsReserved) {
  EXPECT_FALSE(decode_fact_batch(batch_head(static_cast<uint32_t>(kMaxFactsPerJournalEntry + 1))).has_value());
  // One fact, kind 5, its payload's length past the cap.
  EXPECT_FALSE(decode_fact_batch(batch_head(1, {5, static_cast<uint32_t>(kMaxDurableFactBytes + 1)})).has_value());
  // Within the cap, but the bytes hold no fact at all.
  EXPECT_FALSE(decode_fact_batch(batch_head(static_cast<uint32_t>(kMaxFactsPerJournalEntry))).has_value());
}

TEST(RoomRecords, ACheckpointReadsBackAndEveryCutOfItsHeadIsRefused) {
  const std::vector<uint8_t> state{5, 6, 7, 8};
  std::vector<uint8_t> bytes;
  write_checkpoint_head(bytes, Tick::from_value(99), WallTime::from_ns(123456789));
  const std::size_t head = bytes.size();
  bytes.insert(bytes.end(), state.begin(), state.end());
  const std::optional<CheckpointRecord> record = decode_checkpoint_record(bytes);
  ASSERT_TRUE(record.has_value());
  EXPECT_EQ(record->tick, Tick::from_value(99));
  EXPECT_EQ(record->taken_at, WallTime::from_ns(123456789));
  EXPECT_EQ(std::vector<uint8_t>(record->state.begin(), record->state.end()), state);
  for (std::size_t cut = 0; cut < head; ++cut)
    EXPECT_FALSE(decode_checkpoint_record(std::span(bytes).first(cut)).has_value()) << "cut at " << cut;
  const std::optional<CheckpointRecord> bare = decode_checkpoint_record(std::span(bytes).first(head));
  ASSERT_TRUE(bare.has_value()) << "a head alone: a game that keeps nothing";
  EXPECT_TRUE(bare->state.empty());
  std::vector<uint8_t> version = bytes;
  version[0] = 9;
  EXPECT_FALSE(decode_checkpoint_record(version).has_value());
}

}  // namespace
}  // namespace tickwire::durable
