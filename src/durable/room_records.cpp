// The journal entry and checkpoint payloads: a version byte, then fixed-width little-endian fields
// and length-prefixed blobs (ByteRecord), each length checked against its cap and against what is
// left before anything is read or reserved. A checkpoint's state is the rest of its record.
#include "tickwire/durable/room_records.h"

#include "tickwire/core/assert.h"
#include "tickwire/core/byte_record.h"

namespace tickwire::durable {
namespace {

constexpr uint8_t kFactBatchVersion = 1;
constexpr uint8_t kCheckpointVersion = 1;

}  // namespace

std::vector<uint8_t> encode_fact_batch(Tick tick, std::span<const DurableFact> facts) {
  TW_ASSERT(facts.size() <= kMaxFactsPerJournalEntry, "a batch holds one take's facts");
  std::vector<uint8_t> out;
  ByteRecordWriter write(out);
  write.u8(kFactBatchVersion);
  write.i64(tick.value());
  write.u32(static_cast<uint32_t>(facts.size()));
  for (const DurableFact& fact : facts) {
    TW_ASSERT(fact.payload.size() <= kMaxDurableFactBytes, "a fact past kMaxDurableFactBytes");
    write.u32(fact.kind);
    write.blob(fact.payload);
  }
  return out;
}

std::optional<FactBatch> decode_fact_batch(std::span<const uint8_t> bytes) {
  ByteRecordReader read(bytes);
  if (read.u8() != kFactBatchVersion) return std::nullopt;
  FactBatch batch;
  batch.tick = Tick::from_value(read.i64());
  const uint32_t count = read.u32();
  constexpr std::size_t kFactHeadBytes = 4 + 4;  // its kind and its payload's length
  if (!read.ok() || count > kMaxFactsPerJournalEntry || count > read.left() / kFactHeadBytes) return std::nullopt;
  batch.facts.reserve(count);
  for (uint32_t i = 0; i < count && read.ok(); ++i) {
    DurableFact fact;
    fact.kind = read.u32();
    const std::span<const uint8_t> payload = read.blob(kMaxDurableFactBytes);
    fact.payload.assign(payload.begin(), payload.end());
    batch.facts.push_back(std::move(fact));
  }
  if (!read.done()) return std::nullopt;
  return batch;
}

void write_checkpoint_head(std::vector<uint8_t>& out, Tick tick, WallTime taken_at) {
  ByteRecordWriter write(out);
  write.u8(kCheckpointVersion);
  write.i64(tick.value());
  write.i64(taken_at.ns());
}

std::optional<CheckpointRecord> decode_checkpoint_record(std::span<const uint8_t> bytes) {
  ByteRecordReader read(bytes);
  if (read.u8() != kCheckpointVersion) return std::nullopt;
  CheckpointRecord record;
  record.tick = Tick::from_value(read.i64());
  record.taken_at = WallTime::from_ns(read.i64());
  if (!read.ok()) return std::nullopt;
  record.state = read.raw(read.left());
  return record;
}

}  // namespace tickwire::durable
