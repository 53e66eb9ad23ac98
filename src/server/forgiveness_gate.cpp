// The gate's checks, in the order a claim meets them: the policy (forgiveness 1 adopts nothing),
// well-formed numbers, the placement it was simulated under, the server-owned frozen flag, the
// mover's speed, the radius around the server's own answer, then the pawn's speed allowance.
#include "tickwire/server/forgiveness_gate.h"

#include <algorithm>
#include <cmath>

#include "tickwire/core/assert.h"
#include "tickwire/protocol/vocabulary.h"
#include "tickwire/protocol/vec3_math.h"

namespace tickwire {

namespace {

// Float rounding room on speed comparisons: a move the mover made exactly at its limit, measured
// again here, must not read as faster than the limit.
constexpr float kSpeedSlackMps = 1e-3f;
constexpr float kMoveSlackM = 1e-4f;

// Finite numbers, and the pawn values the server's own answer has (the vocabulary's count).
bool well_formed(const protocol::Claim& c, const protocol::PawnDetail& stepped) {
  if (!protocol::finite(c.position) || !protocol::finite(c.velocity) || c.values.size() != stepped.values.size()) {
    return false;
  }
  for (const protocol::PawnValue& v : c.values) {
    if (!std::isfinite(v.value)) return false;
  }
  return true;
}

bool values_within(const protocol::PawnValues& claimed, const protocol::PawnValues& server, float radius_m) {
  for (std::size_t i = 0; i < claimed.size(); ++i) {
    if (std::fabs(claimed[i].value - server[i].value) > radius_m) return false;
  }
  return true;
}

}  // namespace

ForgivenessGate::ForgivenessGate(const ForgivenessConfig& config) { set_config(config); }

void ForgivenessGate::set_config(const ForgivenessConfig& config) {
  TW_ASSERT(std::isfinite(config.forgiveness) && config.forgiveness >= 0.0 && config.forgiveness <= 1.0,
            "forgiveness must be within [0, 1]");
  TW_ASSERT(std::isfinite(config.radius_at_zero_m) && config.radius_at_zero_m >= 0, "the radius must be finite");
  config_ = config;
  radius_m_ = static_cast<float>(static_cast<double>(config.radius_at_zero_m) * (1.0 - config.forgiveness));
}

std::optional<ClaimRefusal> ForgivenessGate::refusal(const ClaimJudgement& j, const protocol::Claim& claim,
                                                     const ClaimLedger& ledger) const {
  if (config_.forgiveness >= 1.0) return ClaimRefusal::authoritative;
  if (!well_formed(claim, j.stepped)) return ClaimRefusal::malformed;
  if (claim.placement_epoch != j.stepped.placement_epoch) return ClaimRefusal::stale_epoch;
  if (j.frozen) return ClaimRefusal::frozen;
  if (config_.forgiveness <= 0.0) return std::nullopt;  // unconditional: the client's answer stands
  if (protocol::horizontal_length(claim.velocity) > j.limit.horizontal_mps + kSpeedSlackMps ||
      std::fabs(claim.velocity.y) > j.limit.vertical_mps + kSpeedSlackMps) {
    return ClaimRefusal::velocity_beyond_mover;
  }
  if (protocol::length(claim.position - j.stepped.position) > radius_m_) return ClaimRefusal::position_beyond_radius;
  if (!values_within(claim.values, j.stepped.values, radius_m_)) return ClaimRefusal::value_beyond_radius;
  const auto dt = static_cast<float>(j.dt_s);
  const protocol::Vec3 move = claim.position - j.before_position;
  if (protocol::horizontal_length(move) >
          j.limit.horizontal_mps * dt + ledger.horizontal_allowance_m + kMoveSlackM ||
      std::fabs(move.y) > j.limit.vertical_mps * dt + ledger.vertical_allowance_m + kMoveSlackM) {
    return ClaimRefusal::speed_beyond_mover;
  }
  return std::nullopt;
}

void ForgivenessGate::spend(const ClaimJudgement& j, const protocol::Vec3& moved_to, ClaimLedger& ledger) const {
  const auto dt = static_cast<float>(j.dt_s);
  const protocol::Vec3 move = moved_to - j.before_position;
  ledger.horizontal_allowance_m = std::clamp(
      ledger.horizontal_allowance_m + j.limit.horizontal_mps * dt - protocol::horizontal_length(move), 0.0f, radius_m_);
  ledger.vertical_allowance_m =
      std::clamp(ledger.vertical_allowance_m + j.limit.vertical_mps * dt - std::fabs(move.y), 0.0f, radius_m_);
}

ClaimVerdict ForgivenessGate::judge(const ClaimJudgement& j, const protocol::Claim& claim, ClaimLedger& ledger) {
  TW_ASSERT(std::isfinite(j.dt_s) && j.dt_s >= 0, "the tick length must be finite");
  if (!ledger.primed || ledger.placement_epoch != j.stepped.placement_epoch) {
    // A new placement is not motion: the allowance starts full.
    ledger = ClaimLedger{radius_m_, radius_m_, j.stepped.placement_epoch, true};
  }
  ClaimVerdict verdict;
  verdict.pawn = j.stepped;
  if (const auto refused = refusal(j, claim, ledger)) {
    verdict.refusal = *refused;
    refusals_.add(*refused);
    spend(j, j.stepped.position, ledger);
    return verdict;
  }
  verdict.adopted = true;
  verdict.pawn.position = claim.position;
  verdict.pawn.velocity = claim.velocity;
  verdict.pawn.values = claim.values;
  verdict.pawn.flags = merge_claimed_flags(j.stepped.flags, claim.flags, config_.claimable_flags);
  ++adopted_;
  spend(j, claim.position, ledger);
  return verdict;
}

}  // namespace tickwire
