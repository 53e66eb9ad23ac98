// The `fire` bot's aim and its tally of what its shots struck.
#include "tickwire/world/bot_gunner.h"

#include <cmath>
#include <numbers>

namespace tickwire::world {

namespace {

std::optional<Vec3> nearest_chest(const BotView& view, Vec3 eye) {
  std::optional<Vec3> best;
  float best_m = kBotFireRangeM;
  for (const Vec3& feet : view.others) {
    const Vec3 chest = feet + Vec3{0, kBotChestAboveFeetM, 0};
    const float d = (chest - eye).length();
    if (d < best_m && d > 0.01f) {
      best_m = d;
      best = chest;
    }
  }
  return best;
}

Vec3 eye_of(const BotView& view) { return view.feet + Vec3{0, view.eye_height_m, 0}; }

}  // namespace

void BotFireTally::merge(const BotFireTally& other) {
  shots += other.shots;
  for (std::size_t k = 0; k < hits_by_kind.size(); ++k) hits_by_kind[k] += other.hits_by_kind[k];
  pawn_hits += other.pawn_hits;
}

std::optional<float> BotGunner::facing(const BotView& view) const {
  const Vec3 eye = eye_of(view);
  const std::optional<Vec3> chest = nearest_chest(view, eye);
  if (!chest) return std::nullopt;
  const Vec3 d = *chest - eye;
  const double yaw = std::atan2(d.x, d.z) * 180.0 / std::numbers::pi;  // 0 faces +z, 90 faces +x
  return static_cast<float>(yaw < 0 ? yaw + 360.0 : yaw);
}

std::optional<BotGunner::Aim> BotGunner::next(uint32_t sequence, const BotView& view) {
  if (sequence % kBotFireEveryTicks != 0) return std::nullopt;
  const Vec3 eye = eye_of(view);
  const std::optional<Vec3> chest = nearest_chest(view, eye);
  if (!chest) return std::nullopt;
  const Vec3 d = *chest - eye;
  return Aim{eye, d * (1.0f / d.length())};
}

void BotGunner::fired(uint32_t shot, const Aim& aim) {
  fired_[shot % kBotShotMemory] = Fired{shot, aim.eye};
  ++tally_.shots;
}

std::optional<BotHit> BotGunner::heard(const protocol::HitEvent& hit, uint32_t own_id) {
  if (hit.shooter_id != own_id) return std::nullopt;
  const Fired& fired = fired_[hit.shot % kBotShotMemory];
  const Vec3 point = Vec3::from_wire(hit.point);
  BotHit out{hit.shot, hit.kind, hit.body, point, fired.shot == hit.shot ? (point - fired.eye).length() : 0.0f, hit.impact};
  const auto kind = static_cast<std::size_t>(hit.kind);
  if (kind < tally_.hits_by_kind.size()) ++tally_.hits_by_kind[kind];
  if (hit.body == protocol::HitBody::pawn) ++tally_.pawn_hits;
  return out;
}

}  // namespace tickwire::world
