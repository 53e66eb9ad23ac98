// The C API's plain values and the engine's types they stand for, converted in one place each way
// (a vector, an input, a pawn state), and the caps the header restates checked against the
// library's own, so the two can never drift.
#pragma once

#include <algorithm>
#include <cstddef>

#include "tickwire/client/prediction_model.h"
#include "tickwire/protocol/constants.h"
#include "tickwire/protocol/input_frame.h"
#include "tickwire/protocol/vec3.h"
#include "tickwire/protocol/vocabulary.h"
#include "tickwire/tickwire_c.h"
#include "tickwire/transport/netcode_constants.h"

namespace tickwire::capi {

static_assert(TW_KEY_BYTES == netcode::kKeyBytes);
static_assert(TW_CONNECT_TOKEN_BYTES == netcode::kConnectTokenBytes);
static_assert(TW_MAX_PAWN_VALUES == protocol::MaxPawnValues);
static_assert(TW_MAX_KIND_CHANNELS == protocol::MaxKindChannels);
static_assert(TW_MAX_COMPONENT_SECTIONS == protocol::MaxComponentSections);
static_assert(TW_MAX_RECORDS_PER_TICK == protocol::MaxRecordsPerSnapshot);
static_assert(TW_VOCABULARY_MAX_NAME_BYTES == kVocabularyMaxNameBytes);

inline protocol::Vec3 to_engine(const tw_vec3& v) { return {v.x, v.y, v.z}; }
inline tw_vec3 to_c(const protocol::Vec3& v) { return {v.x, v.y, v.z}; }

inline protocol::InputCmd to_engine(const tw_input& in) {
  protocol::InputCmd cmd;
  cmd.buttons = in.buttons;
  cmd.move_x = in.move_x;
  cmd.move_y = in.move_y;
  cmd.yaw_deg = in.yaw_deg;
  cmd.pitch_deg = in.pitch_deg;
  return cmd;
}

inline tw_input to_c(const protocol::InputCmd& cmd) {
  return tw_input{cmd.buttons, cmd.move_x, cmd.move_y, cmd.yaw_deg, cmd.pitch_deg};
}

// A C pawn state's values beyond its count (or the cap) are not read.
inline PredictedState to_engine(const tw_pawn_state& s) {
  PredictedState state;
  state.position = to_engine(s.position);
  state.velocity_mps = to_engine(s.velocity_mps);
  const std::size_t count = std::min<std::size_t>(s.value_count, TW_MAX_PAWN_VALUES);
  for (std::size_t i = 0; i < count; ++i) state.values.push_back(protocol::PawnValue{s.values[i]});
  state.flags = s.flags;
  state.placement_epoch = s.placement_epoch;
  return state;
}

inline tw_pawn_state to_c(const PredictedState& state) {
  tw_pawn_state s{};
  s.position = to_c(state.position);
  s.velocity_mps = to_c(state.velocity_mps);
  s.value_count = static_cast<uint8_t>(std::min<std::size_t>(state.values.size(), TW_MAX_PAWN_VALUES));
  for (std::size_t i = 0; i < s.value_count; ++i) s.values[i] = state.values[i].value;
  s.flags = state.flags;
  s.placement_epoch = state.placement_epoch;
  return s;
}

// A forgiveness claim as the C simulation reads it: a pawn state like any other.
inline tw_pawn_state to_c(const protocol::Claim& claim) {
  PredictedState state;
  state.position = claim.position;
  state.velocity_mps = claim.velocity;
  state.values = claim.values;
  state.flags = claim.flags;
  state.placement_epoch = claim.placement_epoch;
  return to_c(state);
}

}  // namespace tickwire::capi
