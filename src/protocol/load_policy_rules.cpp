// The load ladders' rules between fields: each ladder lists every rung once, in its fixed order;
// each rung's enter threshold lies above the rung below's and its release threshold below its own
// enter threshold (the hysteresis), for every signal; no shard rung engages at or past the kill
// threshold, so the ladder has shed all it can before the shard would be killed.
#include <fmt/format.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "contract_rules.h"

namespace tickwire::detail {
namespace {

std::string rung_path(std::string_view ladder, std::size_t index, std::string_view field) {
  return fmt::format("load.{}.rungs[{}].{}", ladder, index, field);
}

// Element i is rung i + 1 (calm is never listed), and every rung is there.
template <class Names>
ContractIssue check_rung_order(const std::vector<RungThresholds<Names>>& rungs, std::size_t rung_count,
                               std::string_view ladder) {
  for (std::size_t i = 0; i < rungs.size(); ++i) {
    if (static_cast<std::size_t>(rungs[i].rung) != i + 1)
      return ContractIssue{ContractError::ladder_rung_misplaced, rung_path(ladder, i, "rung")};
  }
  if (rungs.size() != rung_count)
    return ContractIssue{ContractError::ladder_incomplete, fmt::format("load.{}.rungs", ladder)};
  return {};
}

// One signal's thresholds at one rung, named as the wire names them.
struct SignalThresholds {
  uint16_t enter = 0;
  uint16_t release = 0;
  uint16_t enter_below = 0;  // the rung beneath's enter threshold (0 under the first rung)
  std::string_view enter_name;
  std::string_view release_name;
};

ContractIssue check_signal(std::string_view ladder, std::size_t index, const SignalThresholds& s) {
  if (s.release >= s.enter)
    return ContractIssue{ContractError::ladder_release_not_below_enter, rung_path(ladder, index, s.release_name)};
  if (s.enter <= s.enter_below)
    return ContractIssue{ContractError::ladder_enter_unordered, rung_path(ladder, index, s.enter_name)};
  return {};
}

template <class Names>
ContractIssue check_ladder(const std::vector<RungThresholds<Names>>& rungs, std::size_t rung_count,
                           std::string_view ladder) {
  ContractIssue issue = check_rung_order(rungs, rung_count, ladder);
  for (std::size_t i = 0; i < rungs.size() && issue.ok(); ++i) {
    const RungThresholds<Names>& rung = rungs[i];
    const RungThresholds<Names> beneath = i > 0 ? rungs[i - 1] : RungThresholds<Names>{};
    issue = check_signal(ladder, i,
                         {rung.enter_percent, rung.release_percent, beneath.enter_percent, Names::enter_percent,
                          Names::release_percent});
    if (issue.ok()) {
      issue = check_signal(
          ladder, i,
          {rung.enter_lag_ticks, rung.release_lag_ticks, beneath.enter_lag_ticks, "enterLagTicks", "releaseLagTicks"});
    }
  }
  return issue;
}

// The kill threshold is never relaxed to make room: every rung engages strictly below it.
ContractIssue check_kill_threshold(const ShardLadderPolicy& shard) {
  for (std::size_t i = 0; i < shard.rungs.size(); ++i) {
    if (shard.rungs[i].enter_lag_ticks >= shard.kill_lag_ticks)
      return ContractIssue{ContractError::ladder_reaches_kill_threshold, rung_path("shard", i, "enterLagTicks")};
  }
  return {};
}

}  // namespace

ContractIssue check_load_policy(const LoadPolicy& load) {
  ContractIssue issue = check_ladder(load.room.rungs, kRoomLadderRungs, "room");
  if (issue.ok()) issue = check_ladder(load.shard.rungs, kShardLadderRungs, "shard");
  if (issue.ok()) issue = check_kill_threshold(load.shard);
  return issue;
}

}  // namespace tickwire::detail
