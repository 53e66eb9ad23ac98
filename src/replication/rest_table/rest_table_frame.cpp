// A rest table as the delta codec's reference: its records quantized at the game's precision into
// a tick-0 frame. Kept apart from the table's bookkeeping so each end builds the frame only when
// the codec asks for it, once per revision.
#include "tickwire/core/assert.h"
#include "tickwire/replication/rest_table/map_rest_table.h"
#include "tickwire/replication/rest_table/rest_table_assembler.h"
#include "tickwire/replication/delta/snapshot_delta_codec.h"

namespace tickwire {
namespace {

void refresh_frame(const RestTable& table, const ReplicaKinds& kinds, ReplicaFrame& frame, uint32_t& built_for) {
  if (built_for == table.revision()) return;
  frame.tick = 0;
  frame.owner.reset();
  frame.states.clear();
  quantize_records(table.records(), kinds, frame.states);
  built_for = table.revision();
}

}  // namespace

const ReplicaFrame& MapRestTable::frame() const {
  TW_ASSERT(taken(), "the rest table's frame before its first take");
  refresh_frame(table_, *kinds_, frame_, frame_revision_);
  return frame_;
}

const ReplicaFrame& RestTableAssembler::frame() const {
  refresh_frame(current_, *kinds_, frame_, frame_revision_);
  return frame_;
}

}  // namespace tickwire
