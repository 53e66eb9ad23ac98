// The settings from the contract, their bounds, and the message sizes derived from them.
#include "tickwire/lockstep/lockstep_settings.h"

#include <algorithm>

#include "tickwire/protocol/netcode_contract.h"

namespace tickwire::lockstep {

LockstepSettings lockstep_settings(const NetcodeContract& contract) {
  return LockstepSettings{contract.cadence.tick_rate_hz, contract.mode.deterministic};
}

bool settings_valid(const LockstepSettings& s) {
  const DeterministicPolicy& p = s.policy;
  return s.logic_hz >= 1 && s.logic_hz <= kContractMaxTickRateHz && p.seats >= 1 && p.seats <= kContractMaxSeats &&
         p.input_bytes >= 1 && p.input_bytes <= kContractMaxInputBytes && p.rollback_window_frames >= 1 &&
         p.rollback_window_frames <= kContractMaxRollbackWindowFrames && p.input_delay_frames <= kContractMaxInputDelayFrames &&
         (p.lag_policy == LagPolicy::stall || p.lag_policy == LagPolicy::disconnect) && p.lag_limit_ms >= 1 &&
         p.lag_limit_ms <= kContractMaxLagLimitMs && p.max_catch_up_frames >= 1 &&
         p.max_catch_up_frames <= kContractMaxCatchUpFrames;
}

uint32_t LockstepSettings::relay_frames_per_seat() const {
  const uint32_t others = std::max<uint32_t>(1, policy.seats - 1);
  return std::clamp<uint32_t>(kInputRunBudgetBytes / (others * policy.input_bytes), 1, kMaxFramesPerMessage);
}

uint32_t LockstepSettings::peer_frames_per_message() const {
  return std::clamp<uint32_t>(kInputRunBudgetBytes / 2 / policy.input_bytes, 1, kMaxFramesPerMessage);  // room for checksums
}

}  // namespace tickwire::lockstep
