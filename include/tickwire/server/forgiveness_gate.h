// ForgivenessGate: the server's whole policy for a client's claim about its own pawn. The server
// always steps the input itself; the gate then adopts the claim whole or keeps the server's answer,
// never a blend (a blend is a state neither side simulated). It owns the curve, the tolerances and
// what a claim may say: never the server-owned flags, never another placement, never more speed
// than the game's mover allows plus the tolerance.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "tickwire/core/reasons.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/protocol/input_frame.h"
#include "tickwire/protocol/snapshot.h"
#include "tickwire/protocol/vec3.h"

namespace tickwire {

// The tolerance law. forgiveness f in [0, 1] (the contract's input.forgiveness):
//   radius_m(f) = radius_at_zero_m * (1 - f)
// f = 1 adopts nothing (and a client sends no claim); 0 < f < 1 adopts a claim within the radius of
// the server's own answer. The same radius holds position (3-D distance) and each of the game's pawn
// values (a stance height, an eye height), and is the speed allowance below. f = 0 adopts
// unconditionally (seed 000: what a closed embedded host runs): only what a claim can never say is
// refused (malformed, a stale placement epoch, a frozen pawn), and noclip and frozen are still
// stripped; no radius, velocity or speed check applies.
struct ForgivenessConfig {
  double forgiveness = 1.0;
  float radius_at_zero_m = 0.5f;
  uint8_t claimable_flags = 0;  // the entity flag bits a claim may set (GameVocabulary), all others kept
};

// The game's mover limit for this pawn now (the engine cannot read the game's mover; the game
// passes what its mover clamps to, noclip and frozen included).
struct ClaimSpeedLimit {
  float horizontal_mps = 0;
  float vertical_mps = 0;  // up or down
};

// Per pawn, kept by the game beside the pawn: the distance the pawn may still travel beyond its
// mover's limit. Judged claims spend it by moving further than the limit allows in their tick and
// earn it back by moving less; it never holds more than the radius. Over ANY run of judged ticks
// the pawn's path is therefore no longer than limit x time + radius: a speed-hack stream gains
// one radius, once. A new placement epoch refills it.
struct ClaimLedger {
  float horizontal_allowance_m = 0;
  float vertical_allowance_m = 0;
  uint8_t placement_epoch = 0;
  bool primed = false;  // false until the first claim judged (it then starts full)
};

// Why a claim was not adopted (the server's answer stands; the client is corrected as always).
TW_REASONS(ClaimRefusal,
  authoritative,           // forgiveness 1.0: the server's answer always stands
  malformed,               // a non-finite number, or not the vocabulary's count of pawn values
  stale_epoch,             // simulated under another placement than the pawn's current one
  frozen,                  // the game froze the pawn: nothing a client says moves it
  velocity_beyond_mover,   // a velocity faster than the mover allows
  position_beyond_radius,  // further from the server's answer than the radius
  value_beyond_radius,     // a pawn value further from the server's than the radius
  speed_beyond_mover      // the move from the pre-step position exceeds the limit plus the allowance left
)

// What the gate was given for one input with a claim.
struct ClaimJudgement {
  protocol::Vec3 before_position;  // the pawn's feet before this tick's step
  protocol::PawnDetail stepped;    // the server's own answer for this input (the pawn's current epoch)
  ClaimSpeedLimit limit;
  double dt_s = 0;
  bool frozen = false;  // the game holds the pawn still (a server-owned state): no claim is adopted
};

struct ClaimVerdict {
  bool adopted = false;  // what ClaimAccepted reports to the owning client
  ClaimRefusal refusal = ClaimRefusal::authoritative;  // meaningful when not adopted
  // The pawn the server keeps: the claim whole (server-owned flags, epoch and ref kept from the
  // server's answer) or the server's answer untouched.
  protocol::PawnDetail pawn;
};

class ForgivenessGate {
 public:
  explicit ForgivenessGate(const ForgivenessConfig& config = {});

  // The policy changes with the contract (a new forgiveness applies from the next claim).
  void set_config(const ForgivenessConfig& config);
  const ForgivenessConfig& config() const { return config_; }
  float radius_m() const { return radius_m_; }

  // Adopts `claim` whole or keeps `j.stepped`, and updates the pawn's ledger either way.
  ClaimVerdict judge(const ClaimJudgement& j, const protocol::Claim& claim, ClaimLedger& ledger);

  uint64_t adopted() const { return adopted_; }
  const ReasonCounters<ClaimRefusal>& refusals() const { return refusals_; }

 private:
  std::optional<ClaimRefusal> refusal(const ClaimJudgement& j, const protocol::Claim& claim,
                                      const ClaimLedger& ledger) const;
  void spend(const ClaimJudgement& j, const protocol::Vec3& moved_to, ClaimLedger& ledger) const;

  ForgivenessConfig config_;
  float radius_m_ = 0;
  uint64_t adopted_ = 0;
  ReasonCounters<ClaimRefusal> refusals_;
};

// How a game's Simulation::step_pawn uses the gate (the room hands the claim with the input it rode
// on; world/ will carry this in its reference simulation):
//
//   void step_pawn(EntityRef ref, const TickInput& input, Tick, double dt_s) override {
//     Pawn& p = pawns_.at(ref);
//     const world::PawnState before = p.state;
//     p.state = mover_.step(before, input.cmd, static_cast<float>(dt_s), map_.static_boxes());
//     p.claim_accepted = false;
//     if (input.fresh() && input.claim) {
//       const world::MoverSpeedLimit limit = world::max_speed_mps(mover_.settings(), p.state);
//       const ClaimVerdict v = gate_.judge({before.feet.to_wire(), detail_of(p.state, ref),
//                                           {limit.horizontal_mps, limit.vertical_mps}, dt_s},
//                                          *input.claim, p.ledger);
//       if (v.adopted) p.state = adopt(p.state, v.pawn);  // position, velocity, heights, flags
//       p.claim_accepted = v.adopted;                      // -> the owner detail's ClaimAccepted
//     }
//   }

}  // namespace tickwire
