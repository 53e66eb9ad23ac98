// Conversions between the predicted pawn and the two wire shapes that carry it: the owner detail
// (the server's answer) and the claim (the client's, with the server-owned flags stripped).
#include "tickwire/client/prediction_model.h"

#include <array>

#include "tickwire/core/assert.h"
#include "tickwire/wire/codec.h"

namespace tickwire {

PredictedState predicted_from_detail(const protocol::PawnDetail& detail) {
  PredictedState s;
  s.position = detail.position;
  s.velocity_mps = detail.velocity;
  s.values = detail.values;
  s.flags = detail.flags;
  s.placement_epoch = detail.placement_epoch;
  return s;
}

protocol::PawnDetail detail_from_predicted(const PredictedState& state, uint64_t pawn_ref) {
  protocol::PawnDetail d;
  d.pawn_ref = pawn_ref;
  d.position = state.position;
  d.velocity = state.velocity_mps;
  d.values = state.values;
  d.flags = state.flags;
  d.placement_epoch = state.placement_epoch;
  return d;
}

protocol::Claim claim_from_predicted(const PredictedState& state, uint8_t claimable_flags) {
  protocol::Claim c;
  c.position = state.position;
  c.velocity = state.velocity_mps;
  c.values = state.values;
  c.flags = static_cast<uint8_t>(state.flags & claimable_flags);
  c.placement_epoch = state.placement_epoch;
  return c;
}

protocol::InputCmd as_sent(const protocol::InputCmd& cmd) {
  std::array<uint8_t, 32> bytes{};  // an InputCmd is a handful of bit-packed bytes
  const auto written = wire::encode(cmd, bytes);
  TW_ASSERT(written.ok(), "an InputCmd always fits 32 bytes");
  protocol::InputCmd read;
  const Status status = wire::decode(std::span<const uint8_t>(bytes.data(), *written), read);
  TW_ASSERT(status.ok(), "an encoded InputCmd decodes");
  return read;
}

}  // namespace tickwire
