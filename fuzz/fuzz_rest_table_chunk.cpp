// Stateful fuzzing of the client's rest-table assembler: the input is a sequence of mapRestTable
// bodies read through the message's field table and fed to one assembler, checked against what it
// must keep true: every chunk is stored or refused with a reason, a whole table always obeys the
// table's rules and its header, revisions complete in increasing order, nothing grows past a cap.
//
// Input: records of u16 length (LE) and `length` body bytes (a RestTableChunk body).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "tickwire/core/assert.h"
#include "tickwire/protocol/rest_table_chunk.h"
#include "tickwire/replication/rest_table/rest_table_assembler.h"
#include "tickwire/transport/byte_cursor.h"
#include "tickwire/wire/codec.h"

namespace {

using namespace tickwire;

constexpr std::size_t kMaxChunks = 4096;

void check(const RestTableAssembler& assembler, const protocol::RestTableChunk& chunk, const RestChunkVerdict& v,
           uint32_t& last_completed) {
  TW_ASSERT(v.revision == chunk.revision, "a verdict names another revision");
  TW_ASSERT(assembler.partial_records() <= protocol::MaxRestTableObjects, "a partial table past the cap");
  if (v.outcome == RestChunkOutcome::refused) {
    TW_ASSERT(v.reason != RestTableRefusal::count_, "a refusal without a reason");
    TW_ASSERT(!assembler.in_progress() || assembler.partial_revision() != chunk.revision,
              "a refused chunk left its table in progress");
    return;
  }
  TW_ASSERT(chunk.revision != 0 && chunk.chunk_index < chunk.chunk_count, "a malformed header was taken");
  if (v.outcome == RestChunkOutcome::stored) {
    TW_ASSERT(assembler.in_progress() && assembler.partial_revision() == chunk.revision, "stored but not in progress");
    return;
  }
  const RestTable& table = assembler.current();
  TW_ASSERT(table.revision() == chunk.revision && assembler.holds(chunk.revision), "completed but not current");
  TW_ASSERT(chunk.revision > last_completed, "tables complete in increasing revision order");
  TW_ASSERT(table.size() == chunk.object_count && table.size() <= protocol::MaxRestTableObjects,
            "a whole table disagrees with its object count");
  TW_ASSERT(chunk.chunk_index + 1u == chunk.chunk_count && table.chunk_count() == chunk.chunk_count,
            "a table completed before its last chunk");
  TW_ASSERT(!rest_records_fault(table.records()).has_value(), "a whole table breaks the table's rules");
  TW_ASSERT(!assembler.in_progress(), "a table still in progress after completing");
  last_completed = chunk.revision;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  ByteReader reader(std::span<const uint8_t>(data, size));
  const ReplicaKinds kinds{};  // the frame is not built here: precision does not matter
  RestTableAssembler assembler(kinds);
  protocol::RestTableChunk chunk;
  uint64_t decoded = 0;
  uint32_t last_completed = 0;
  for (std::size_t record = 0; record < kMaxChunks && !reader.at_end(); ++record) {
    const uint16_t length = reader.u16();
    const std::span<const uint8_t> body = reader.bytes(std::min<std::size_t>(length, reader.remaining()));
    if (!reader.ok()) break;
    if (!wire::decode(body, chunk).ok()) continue;
    ++decoded;
    const RestChunkVerdict v = assembler.accept(chunk);
    check(assembler, chunk, v, last_completed);
  }
  TW_ASSERT(assembler.stored_chunks() + assembler.refusals().total() == decoded,
            "every chunk is either stored or refused with a reason");
  TW_ASSERT(assembler.completed_tables() <= assembler.stored_chunks(), "more tables than chunks");
  return 0;
}
