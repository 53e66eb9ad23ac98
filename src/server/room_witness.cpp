// The witness: the tick's records sorted by id (a game may write them in any order), each hashed in
// its wire form, its interest note beside it; then the world settings and every session's owner
// detail in owner order. One BLAKE2b stream, its first 8 bytes little-endian.
#include "tickwire/server/room_witness.h"

#include <sodium.h>

#include <algorithm>
#include <array>

#include "tickwire/core/assert.h"
#include "tickwire/core/byte_record.h"
#include "tickwire/server/room.h"
#include "tickwire/wire/codec.h"

namespace tickwire {
namespace {

class Hasher {
 public:
  Hasher() {
    const int rc = crypto_generichash_init(&state_, nullptr, 0, 8);
    TW_ASSERT(rc == 0, "BLAKE2b initialises");
  }
  void add(std::span<const uint8_t> bytes) { (void)crypto_generichash_update(&state_, bytes.data(), bytes.size()); }
  template <class T>
  void add_shape(const T& value, std::vector<uint8_t>& scratch) {
    scratch.resize(wire::measure(value));
    const auto written = wire::encode(value, std::span<uint8_t>(scratch));
    TW_ASSERT(written && *written == scratch.size(), "a measured shape fits its measure");
    add(scratch);
  }
  uint64_t finish() {
    std::array<uint8_t, 8> digest{};
    (void)crypto_generichash_final(&state_, digest.data(), digest.size());
    return load_le<uint64_t>(digest.data());
  }

 private:
  crypto_generichash_state state_{};
};

void add_notes(Hasher& hash, const TickRecords& records, std::vector<uint8_t>& scratch) {
  scratch.clear();
  ByteRecordWriter write(scratch);
  for (const InterestNote& note : records.notes) {
    write.u32(note.record_id);
    write.u16(note.interest.private_to);
    write.flag(note.interest.always_relevant);
    write.flag(note.interest.important);
    write.u32(note.interest.parent_id);
    write.u32(note.interest.scene_frame);
  }
  hash.add(scratch);
}

// Each session's truth as its client would be told it (less the depth byte).
void add_owners(Hasher& hash, const Room& room, std::vector<uint8_t>& scratch) {
  room.for_each_session([&](const RoomSession& session) {
    const OwnerInputReport& report = session.inputs.report();
    scratch.clear();
    ByteRecordWriter write(scratch);
    write.u16(session.owner);
    write.u64(session.pawn.raw());
    write.flag(report.ack_sequence.has_value());
    write.u32(report.ack_sequence.value_or(0));
    write.u8(static_cast<uint8_t>(room.simulation().claim_outcome(session.pawn)));
    hash.add(scratch);
    hash.add_shape(room.simulation().pawn_detail(session.pawn), scratch);
  });
}

}  // namespace

uint64_t room_witness(const Room& room, Tick tick, WitnessScratch& scratch) {
  scratch.records.clear();
  room.simulation().write_records(tick, scratch.records);
  const std::vector<protocol::Record>& records = scratch.records.records;
  scratch.order.resize(records.size());
  for (uint32_t i = 0; i < scratch.order.size(); ++i) scratch.order[i] = i;
  std::sort(scratch.order.begin(), scratch.order.end(),
            [&](uint32_t a, uint32_t b) { return records[a].entity_id < records[b].entity_id; });
  std::sort(scratch.records.notes.begin(), scratch.records.notes.end(),
            [](const InterestNote& a, const InterestNote& b) { return a.record_id < b.record_id; });
  Hasher hash;
  std::array<uint8_t, 24> head{};
  store_le<int64_t>(head.data(), tick.value());
  store_le<uint64_t>(head.data() + 8, records.size());
  store_le<float>(head.data() + 16, room.world_settings().forgiveness);
  store_le<float>(head.data() + 20, room.world_settings().time_scale);
  hash.add(head);
  for (uint32_t i : scratch.order) hash.add_shape(records[i], scratch.bytes);
  add_notes(hash, scratch.records, scratch.bytes);
  add_owners(hash, room, scratch.bytes);
  return hash.finish();
}

}  // namespace tickwire
