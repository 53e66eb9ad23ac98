// The reach and look-cone rules of a Use, from the pawn's eye and its own yaw and pitch.
#include "tickwire/world/use_reach.h"

#include "tickwire/world/look_frame.h"

namespace tickwire::world {

UseRay use_ray(const PawnState& pawn) {
  return {pawn.feet + Vec3{0, pawn.eye_height_m, 0}, look_frame(pawn.yaw_deg, pawn.pitch_deg).forward};
}

float use_alignment(const UseRay& ray, Vec3 at) {
  const Vec3 to = at - ray.eye;
  const float length = to.length();
  return length > 0 ? ray.forward.dot(to) / length : 1.0f;
}

std::optional<UseRefusal> judge_use(const UseRay& ray, Vec3 at, double reach_m) {
  if (static_cast<double>((at - ray.eye).length()) > reach_m) return UseRefusal::out_of_reach;
  if (use_alignment(ray, at) < kUseConeMinDot) return UseRefusal::outside_cone;
  return std::nullopt;
}

UsePick pick_use_target(const UseRay& ray, std::span<const UseCandidate> candidates, double reach_m) {
  UsePick pick;
  float best = 0;
  for (const UseCandidate& c : candidates) {
    const std::optional<UseRefusal> refusal = judge_use(ray, c.position, reach_m);
    if (refusal == UseRefusal::out_of_reach) continue;
    if (refusal) {
      pick.refusal = *refusal;
      continue;
    }
    const float alignment = use_alignment(ray, c.position);
    if (!pick.object_index || alignment > best) {
      pick.object_index = c.object_index;
      best = alignment;
    }
  }
  return pick;
}

}  // namespace tickwire::world
