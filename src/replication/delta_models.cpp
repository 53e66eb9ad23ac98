// The priors every SnapshotDelta body's models start from: most fields of a changed record stay
// as they were, residuals are small. Both ends must start from the same values; changing one
// changes the body format (docs/snapshot-delta.md).
#include "delta_frame.h"

namespace tickwire::delta {
namespace {

constexpr uint32_t kLikely = 3900;  // of 4096: "same" almost always
constexpr uint32_t kOften = 3000;

}  // namespace

RecordModels RecordModels::fresh() {
  RecordModels m;
  for (BitModel* b : {&m.head_same, &m.flags_same, &m.shape_same, &m.scale_same, &m.eye_same, &m.wire_same,
                      &m.count_same, &m.largest_predicted}) {
    *b = BitModel::with_p1(kLikely);
  }
  m.extras_same = BitModel::with_p1(3500);
  m.position_fitted = BitModel::with_p1(3500);
  m.rotation_fitted = BitModel::with_p1(3500);
  m.position_same = BitModel::with_p1(1000);
  m.rotation_same = BitModel::with_p1(1800);
  m.look_same = BitModel::with_p1(kOften);
  m.bits_same = BitModel::with_p1(kOften);
  m.payload_same.fill(BitModel::with_p1(kLikely));
  m.channel_same.fill(BitModel::with_p1(kOften));
  for (auto* axes : {&m.position, &m.rotation}) {
    for (auto& by_context : *axes) by_context.fill(UIntModel::with_continue(3200, 2048));
  }
  return m;
}

OwnerModels OwnerModels::fresh() {
  OwnerModels m;
  for (BitModel* b : {&m.ack_present, &m.ack_exact, &m.ref_same, &m.heights_same, &m.bits_same}) {
    *b = BitModel::with_p1(kLikely);
  }
  m.queue_same = BitModel::with_p1(3500);
  m.position_same = BitModel::with_p1(1500);
  m.velocity_same = BitModel::with_p1(kOften);
  // A pawn's float residuals are zero (on course) or many bits (a turn): one body, no adapting.
  m.position = UIntModel::with_continue(3600, 2048);
  m.velocity = UIntModel::with_continue(3600, 2048);
  return m;
}

const FrameModels& FrameModels::fresh() {
  static const FrameModels kFresh = [] {
    FrameModels m;
    m.owner_present = BitModel::with_p1(kLikely);
    m.keep[0] = BitModel::with_p1(kOften);
    m.keep[1] = BitModel::with_p1(4000);
    m.keep[2] = BitModel::with_p1(600);
    m.end = BitModel::with_p1(1024);
    m.fit = BitModel::with_p1(2048);
    m.fit_frame = BitModel::with_p1(kOften);
    for (auto& by_previous : m.op) {
      by_previous[0] = BitModel::with_p1(2048);
      by_previous[1] = BitModel::with_p1(1024);
    }
    m.record = RecordModels::fresh();
    m.owner = OwnerModels::fresh();
    return m;
  }();
  return kFresh;
}

}  // namespace tickwire::delta
