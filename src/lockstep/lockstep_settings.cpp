// The settings from the contract, their bounds, and the message sizes derived from them.
#include "tickwire/lockstep/lockstep_settings.h"

#include <algorithm>

#include "tickwire/protocol/contract_validation_walker.h"
#include "tickwire/protocol/netcode_contract.h"

namespace tickwire::lockstep {

LockstepSettings lockstep_settings(const NetcodeContract& contract) {
  return LockstepSettings{contract.cadence.tick_rate_hz, contract.mode.deterministic};
}

// The policy's ranges are its field table's (the contract's validation walks it); only the logic
// rate, the cadence's, is checked here.
bool settings_valid(const LockstepSettings& s) {
  return s.logic_hz >= 1 && s.logic_hz <= kContractMaxTickRateHz && check_contract_fields(s.policy).ok();
}

uint32_t LockstepSettings::relay_frames_per_seat() const {
  const uint32_t others = std::max<uint32_t>(1, policy.seats - 1);
  return std::clamp<uint32_t>(kInputRunBudgetBytes / (others * policy.input_bytes), 1, kMaxFramesPerMessage);
}

uint32_t LockstepSettings::peer_frames_per_message() const {
  return std::clamp<uint32_t>(kInputRunBudgetBytes / 2 / policy.input_bytes, 1, kMaxFramesPerMessage);  // room for checksums
}

}  // namespace tickwire::lockstep
