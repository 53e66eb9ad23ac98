// What a Use may reach, judged on the server's own state (seed 000, "Interaction channel"): an
// object within the contract's interaction range of the pawn's eye (2.5 m in the reference game's
// room policy) and inside its look cone (the unit look direction and the direction to the object at
// a dot of at least 0.9). A client's named target is only a hint; a Use press names none, and the
// server picks the best-aligned object in reach. Every refusal is counted by reason.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "tickwire/core/reasons.h"
#include "tickwire/world/pawn_state.h"
#include "tickwire/world/vec3.h"

namespace tickwire::world {

inline constexpr double kUseReachM = 2.5;        // the reference game's interaction range (its policy)
inline constexpr float kUseConeMinDot = 0.9f;    // the look-cone selection aid
inline constexpr uint32_t kUsesPerSecond = 10;     // a session's interactions per second (token bucket)

TW_REASONS(UseRefusal,
           no_pawn,          // the actor has no pawn
           unknown_target,   // the named target is not one of the map's objects
           not_interactive,  // a Use does nothing to that object
           out_of_reach,     // further than the interaction range from the eye (a press: nothing in reach)
           outside_cone,     // in reach, but not where the pawn looks
           rate_limited)     // Use presses past the contract's interactions per second

// The eye and the unit look direction of a pawn as the server holds it.
struct UseRay {
  Vec3 eye;
  Vec3 forward;
};
UseRay use_ray(const PawnState& pawn);

// Whether `ray` reaches the point `at` (nullopt) or why not (out_of_reach, outside_cone).
std::optional<UseRefusal> judge_use(const UseRay& ray, Vec3 at, double reach_m);
// The cosine between the look direction and the direction to `at` (1 when the eye is at `at`).
float use_alignment(const UseRay& ray, Vec3 at);

// The best object for a press: of the candidates (object index and position) in reach and in the
// cone, the best aligned (ties: the first). Nullopt with the refusal when none qualifies:
// outside_cone if something was in reach, out_of_reach otherwise.
struct UseCandidate {
  uint32_t object_index = 0;
  Vec3 position;
};
struct UsePick {
  std::optional<uint32_t> object_index;
  UseRefusal refusal = UseRefusal::out_of_reach;
};
UsePick pick_use_target(const UseRay& ray, std::span<const UseCandidate> candidates, double reach_m);

}  // namespace tickwire::world
