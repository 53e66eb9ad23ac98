// The reference game's shots: the eye re-check, the lag-compensated scene and the trace (seed 000,
// "Hits"), kept beside reference_game.cpp so the game's tick and its shots read apart.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <bit>

#include "tickwire/world/logic_components.h"
#include "tickwire/world/reference_game.h"

namespace tickwire::world {

// Where this tick left every pawn and every solid mover: the history a later shot rewinds into.
void ReferenceGame::record_rewind(Tick tick) {
  rewound_.clear();
  for (const auto& [raw, state] : pawns_) {
    const uint32_t id = EntityRef::from_raw(raw).handle().raw();
    rewound_.push_back(RewoundBox{RewoundBox::Kind::pawn, id, pawn_bounds(state, mover_.settings().radius_m)});
  }
  for (std::size_t i = 0; i < moving_boxes_.size(); ++i)  // where this tick left them (refresh_moving_boxes)
    rewound_.push_back(RewoundBox{RewoundBox::Kind::mover, moving_box_objects_[i], moving_boxes_[i].start});
  history_.record(tick, rewound_);
}

void ReferenceGame::gather_shot_scene(double render_tick, ShotScene& scene) {
  rewound_.clear();
  const double read_at = history_.at(render_tick, rewound_);
  shot_objects_.clear();
  visit_statics([this](const StaticSolid& s) { shot_objects_.push_back(ObjectTarget{s.object_index, s.box}); });
  shot_props_.clear();
  for (uint32_t slot = 0; slot < solids_.props().size(); ++slot) {
    if (!props_.spawned(slot)) continue;
    const PropSolid& prop = solids_.props()[slot];
    shot_props_.push_back(PropTarget{prop.object_index, props_.box(slot), kPropMaterials[prop.material]});
  }
  scene.map_boxes = map_->boxes();
  scene.map_surfaces = map_->box_surfaces();
  scene.objects = shot_objects_;
  scene.rewound = rewound_;
  scene.props = shot_props_;
  scene.voxels = &voxels_.colliders();
  scene.pools = pools_;
  // The waves as the shooter drew them: the world time at its render tick.
  scene.water_time_s = world_time_s_ - (static_cast<double>(history_.newest().value()) - read_at) * world_dt_s_;
}

// How far the claimed eye stands from the pawn's: from its eye now, or from the eye it held at any
// tick since the shooter's render time, whichever is nearer. The shooter fired from where its own
// pawn was then, and the request can reach the server well after (resent after a loss, or behind a
// stall whose inputs ran late); its render time is bounded by the contract's rewind before it is
// handed here, so the path is as long as the rewind a shot may already claim. The history keeps
// boxes, not eyes: a past eye stands as far below its box's top as the eye does now (the same for
// every stance of the reference settings: 0.2 m), so a crouch since moves nothing.
float ReferenceGame::eye_stray(EntityRef shooter_pawn, const PawnState& state, const Vec3& claimed, double render_tick) {
  float nearest = (claimed - (state.feet + Vec3{0, state.eye_height_m, 0})).length();
  const float below_top_m = state.stance_height_m - state.eye_height_m;
  shot_path_.clear();
  history_.path(RewoundBox::Kind::pawn, shooter_pawn.handle().raw(), render_tick, shot_path_);
  for (const Aabb& box : shot_path_) {
    const Vec3 eye{(box.min.x + box.max.x) * 0.5f, box.max.y - below_top_m, (box.min.z + box.max.z) * 0.5f};
    nearest = std::min(nearest, (claimed - eye).length());
  }
  return nearest;
}

void ReferenceGame::fire(EntityRef shooter_pawn, const FireShot& shot, Tick tick) {
  (void)tick;
  const PawnState* state = pawn(shooter_pawn);
  if (state == nullptr) {
    shot_drops_.add(ShotDrop::no_pawn);
    return;
  }
  const Vec3 claimed = Vec3::from_wire(shot.eye);
  const float strayed_m = eye_stray(shooter_pawn, *state, claimed, shot.render_tick);
  std::size_t band = 0;
  while (band < kEyeStrayBandsM.size() && strayed_m > kEyeStrayBandsM[band]) ++band;
  ++eye_strays_[band];
  if (strayed_m > fire_eye_tolerance_m_) {
    shot_drops_.add(ShotDrop::eye_strayed);
    const uint64_t dropped = shot_drops_[ShotDrop::eye_strayed];
    if (std::has_single_bit(dropped))  // the 1st, 2nd, 4th...: a flood is counted, not logged line by line
      spdlog::warn("shot {} dropped: its claimed eye is {:.2f} m from the pawn's (tolerance {:.2f} m; {} so far)",
                   shot.shot, strayed_m, fire_eye_tolerance_m_, dropped);
    return;
  }
  ShotScene scene;
  scene.shooter_id = shooter_pawn.handle().raw();
  gather_shot_scene(shot.render_tick, scene);
  last_shot_ = trace_shot(Ray{claimed, Vec3::from_wire(shot.aim)}, kShotRangeM, scene, shot.shot);
  ++shots_traced_;
  for (uint8_t i = 0; i < last_shot_.count; ++i) {
    ++hits_by_kind_[static_cast<uint8_t>(last_shot_.events[i].kind)];
    if (hits_.size() >= kMaxPendingHits) {
      shot_drops_.add(ShotDrop::events_overflow);
      continue;
    }
    hits_.push_back(last_shot_.events[i]);
  }
}

void ReferenceGame::take_hits(std::vector<protocol::HitEvent>& out) {
  out.insert(out.end(), std::make_move_iterator(hits_.begin()), std::make_move_iterator(hits_.end()));
  hits_.clear();
}

}  // namespace tickwire::world
