// The priors every SnapshotDelta body's models start from: most fields of a changed record stay
// as they were, residuals are small. Both ends must start from the same values; changing one
// changes the body format (docs/snapshot-delta.md).
#include "delta_frame.h"

namespace tickwire::delta {
namespace {

constexpr uint32_t kLikely = 3900;  // of 4096: "same" almost always
constexpr uint32_t kOften = 3000;

// The field groups' prior: each group changes on its own, with these chances (of 256): extras
// seldom, a position mostly, the look now and then, and a rotation, for a record that has one,
// mostly (a moving body turns) and otherwise hardly ever (only with its shape).
constexpr AdaptiveCdf groups_prior(bool has_rotation) {
  const std::array<uint64_t, 4> changed = {69, has_rotation ? 144u : 8u, 194, 37};  // by bit: look, rotation, position, extras
  std::array<uint64_t, kCdfSymbols> weight{};
  for (std::size_t mask = 0; mask < kCdfSymbols; ++mask) {
    uint64_t w = 1;
    for (std::size_t g = 0; g < changed.size(); ++g) w *= ((mask >> g) & 1u) != 0 ? changed[g] : 256 - changed[g];
    weight[mask] = w;
  }
  return AdaptiveCdf::with_weights(weight, true);
}

// A record step's prior: kept with chance `kept` (of 4096); else changed half the time, added an
// eighth, removed three eighths. The other symbols are never coded (they keep the floor).
constexpr AdaptiveCdf step_prior(uint64_t kept) {
  std::array<uint64_t, kCdfSymbols> weight{};
  weight[static_cast<std::size_t>(RecordStep::kept)] = kept * 4096;
  weight[static_cast<std::size_t>(RecordStep::changed)] = (4096 - kept) * 3328;
  weight[static_cast<std::size_t>(RecordStep::added)] = (4096 - kept) * 256;
  weight[static_cast<std::size_t>(RecordStep::removed)] = (4096 - kept) * 512;
  return AdaptiveCdf::with_weights(weight, true);
}

}  // namespace

RecordModels RecordModels::fresh() {
  RecordModels m;
  for (BitModel* b : {&m.head_same, &m.flags_same, &m.shape_same, &m.scale_same, &m.wire_same,
                      &m.count_same, &m.largest_predicted}) {
    *b = BitModel::with_p1(kLikely);
  }
  m.groups = {groups_prior(false), groups_prior(true)};
  m.position_fitted = BitModel::with_p1(3500);
  m.added_like_previous = BitModel::with_p1(2048);
  m.rotation_fitted = BitModel::with_p1(3500);
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
  for (BitModel* b : {&m.ack_present, &m.ack_exact, &m.ref_same, &m.values_same, &m.bits_same}) {
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

WorldModels WorldModels::fresh() {
  WorldModels m;
  m.same = BitModel::with_p1(4064);  // the settings change a handful of times a session
  m.value = UIntModel::with_continue(3600, 2048);
  return m;
}

const FrameModels& FrameModels::fresh() {
  static const FrameModels kFresh = [] {
    FrameModels m;
    m.owner_present = BitModel::with_p1(kLikely);
    // By the keep context: no older frame, the record was still, it was changing.
    const std::array<uint64_t, 3> kept = {kOften, 4000, 600};
    for (std::size_t context = 0; context < kept.size(); ++context) m.step[context].fill(step_prior(kept[context]));
    m.end = BitModel::with_p1(512);
    m.fit = BitModel::with_p1(2048);
    m.fit_frame = BitModel::with_p1(3900);  // a held frame is named: most frames are held
    m.record = RecordModels::fresh();
    m.owner = OwnerModels::fresh();
    m.world = WorldModels::fresh();
    return m;
  }();
  return kFresh;
}

}  // namespace tickwire::delta
