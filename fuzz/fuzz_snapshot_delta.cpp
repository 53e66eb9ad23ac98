// Fuzzing of the SnapshotDelta body decoder with real references present: hostile bodies decoded
// against a baseline (a snapshot's frame or the rest table's) and an older frame built from the
// input's seed. Whatever decodes must be a frame the codec could have sent: ids ascending, caps
// kept, and encoding it against the same references and decoding again gives it back exactly.
//
// Input (tests/replication/snapshot_delta_fuzz_input.h): flags byte (1 baseline, 2 older, 4 the
// baseline is the rest frame), u16 LE frame seed, u32 LE body tick, then the body.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "../tests/replication/snapshot_delta_fuzz_input.h"
#include "tickwire/core/assert.h"
#include "tickwire/core/bytes.h"
#include "tickwire/replication/delta/snapshot_delta_codec.h"

namespace {

using namespace tickwire;

void check_decoded(const ReplicaFrame& frame, DeltaRefs refs, const ReplicaKinds& kinds) {
  TW_ASSERT(frame.states.size() <= kMaxReplicaFrameStates, "a decoded frame past its cap");
  for (std::size_t k = 1; k < frame.states.size(); ++k) {
    TW_ASSERT(frame.states[k - 1].id < frame.states[k].id, "decoded ids must ascend");
  }
  for (const ReplicaState& s : frame.states) {
    TW_ASSERT(s.payload_count <= protocol::MaxComponentSections, "too many sections decoded");
    for (const ReplicaPayload& p : s.payloads) TW_ASSERT(p.channel_count <= protocol::MaxKindChannels, "too many channels");
  }
  if (refs.baseline && refs.baseline.tick() > frame.tick) refs = {};  // unused by the body
  static std::vector<uint8_t> body;
  static ReplicaFrame again;
  if (!encode_snapshot_delta(frame, refs, kinds, body).ok()) return;  // past MaxSnapshotBytes: not sendable
  TW_ASSERT(decode_snapshot_delta(body, frame.tick, refs, kinds, again).ok(), "a re-encoded frame was refused");
  TW_ASSERT(again == frame, "a re-encoded frame decoded differently");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size < test::kFuzzHeaderBytes) return 0;
  static test::FuzzReferences references;
  static ReplicaFrame out;
  static const ReplicaKinds kinds = test::fuzz_kinds();
  const uint8_t flags = data[0];
  test::build_fuzz_references(flags, load_le<uint16_t>(data + 1), references);
  const uint32_t tick = load_le<uint32_t>(data + 3);
  const std::span<const uint8_t> body(data + test::kFuzzHeaderBytes, size - test::kFuzzHeaderBytes);
  DeltaRefusal refusal{};
  if (decode_snapshot_delta(body, tick, references.refs, kinds, out, &refusal).ok()) {
    TW_ASSERT(out.tick == tick, "the decoded frame carries the body's tick");
    check_decoded(out, references.refs, kinds);
  } else {
    TW_ASSERT(refusal < DeltaRefusal::count_, "a refusal without a reason");
  }
  return 0;
}
