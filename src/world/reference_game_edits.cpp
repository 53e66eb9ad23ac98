// The reference game's scene edits (seed 000, "Scene edits"): a gesture judged write by write
// through the rules into the edit set, laid over the live objects (their settings), the records
// (hidden, moved), the bodies (hide drops one, move moves it) and the logic (a rewired output runs its
// new list from now on), each edited object out of the rest table until the table is next taken.
#include "tickwire/world/reference_game.h"
#include "tickwire/world/scene_overlay.h"
#include "tickwire/world/scene_wiring.h"
#include "tickwire/wire/codec.h"

namespace tickwire::world {

EditTarget ReferenceGame::edit_target(uint32_t object_index) const {
  if (!object_spawned(object_index)) return EditTarget{};
  return EditTarget{&map_->objects()[map_positions_[object_index]], !solids_.placed_by_motion(object_index)};
}

void ReferenceGame::edit(OwnerId editor, const protocol::SceneEdit& gesture, Tick) {
  ++edit_gestures_;
  EditOutcome outcome = scene_edits_.apply(
      gesture, [this](uint32_t index) { return edit_target(index); },
      [this](std::string_view key) { return map_->object_index(key).has_value(); });
  for (protocol::SceneEditRefused& refused : outcome.refusals) {
    edit_refused_.add(refused.reason);
    if (edit_refusals_.size() >= kMaxPendingEditRefusals) {
      ++edit_refusals_dropped_;
      continue;
    }
    edit_refusals_.push_back(EditRefusalOut{editor, std::move(refused)});
  }
  if (!outcome.changed) return;
  if (keeping_facts_) {
    note_voxel_facts();  // the facts keep the order they were made in
    keep_fact(DurableFact{kFactSceneEdit, wire::encode_bytes(gesture)});
  }
  edits_changed(outcome.touched);
}

void ReferenceGame::edits_changed(std::span<const uint32_t> touched) {
  for (uint32_t index : touched) {
    apply_object_edits(index);
    if (logic_) {
      (void)logic_->retune(index);  // its running behaviours read the edited settings
      (void)logic_->rewire(index);  // nothing happens unless its wiring changed
    }
  }
  refresh_usable();
  rebuild_edited_statics();
  refresh_solids();
  // Each edited object leaves the rest table: the retake this generation starts leaves it out, and
  // the next take (another edit, a spawn, a reinstall) brings it back as it stands then.
  ++map_generation_;
  for (uint32_t index : touched) rest_left_at_[index] = map_generation_;
}

void ReferenceGame::take_edit_refusals(std::vector<EditRefusalOut>& out) {
  out.insert(out.end(), std::make_move_iterator(edit_refusals_.begin()), std::make_move_iterator(edit_refusals_.end()));
  edit_refusals_.clear();
}

std::vector<MapOutput> ReferenceGame::live_outputs(uint32_t object_index) const {
  const MapObject& authored = map_->objects()[map_positions_[object_index]];
  const protocol::ObjectNodeState* edits = scene_edits_.object(object_index);
  return edits != nullptr ? wired_outputs(authored.outputs, edits->outputs) : authored.outputs;
}

bool ReferenceGame::left_rest_table(uint32_t object_index) const {
  return object_index < rest_left_at_.size() && rest_left_at_[object_index] != 0 &&
         rest_left_at_[object_index] == map_generation_;
}

bool ReferenceGame::object_hidden(uint32_t object_index) const {
  const protocol::ObjectNodeState* edits = scene_edits_.object(object_index);
  return edits != nullptr && edits->hidden;
}

// The live object takes its edited settings (what a shot's impact, a light's look read); its
// channels and bits stay the logic's. A hidden prop leaves the solver; shown again, it is put back.
void ReferenceGame::apply_object_edits(uint32_t object_index) {
  if (object_index >= objects_.size() || !objects_[object_index].spawned) return;
  const MapObject& authored = map_->objects()[map_positions_[object_index]];
  const MapObject edited = edited_object(authored, scene_edits_.object(object_index));
  for (std::size_t c = 0; c < objects_[object_index].components.size(); ++c) {
    ObjectComponent& live = objects_[object_index].components[c];
    const ObjectComponent* now = edited.component(live.name);
    live.settings = now != nullptr ? now->settings : authored.components[c].settings;
  }
  const int32_t slot = solids_.prop_slot(object_index);
  if (slot < 0) return;
  const auto prop = static_cast<uint32_t>(slot);
  if (object_hidden(object_index) && props_.spawned(prop)) props_.despawn(prop);
  if (!object_hidden(object_index) && !props_.spawned(prop)) props_.spawn(prop);
}

// The static body each edited object's edits leave it (none when hidden), where they stand it.
// (Object indices are the map's file order, as ObjectSolids' are: one function serves both ends.)
void ReferenceGame::rebuild_edited_statics() {
  edited_static_solids(*map_, solids_, scene_edits_.state(), edited_statics_);
}

void ReferenceGame::visit_statics(const std::function<void(const StaticSolid&)>& visit) const {
  for (const StaticSolid& s : solids_.statics())
    if (object_spawned(s.object_index) && scene_edits_.object(s.object_index) == nullptr) visit(s);
  for (const StaticSolid& s : edited_statics_)
    if (object_spawned(s.object_index)) visit(s);
}

void ReferenceGame::write_edits(uint32_t object_index, protocol::ObjectRecord& record) const {
  const protocol::ObjectNodeState* edits = scene_edits_.object(object_index);
  if (edits == nullptr) return;
  if (edits->hidden) record.flags = static_cast<uint8_t>(record.flags | kObjectHidden);
  if (!edits->transform) return;
  protocol::ObjectTransform& transform = record.transform.emplace();
  transform.position = edits->transform->position;
  if (const auto& q = edits->transform->rotation) transform.rotation = protocol::Rotation{wire::Quat{q->x, q->y, q->z, q->w}};
}

}  // namespace tickwire::world
