// The room's edit set: a gesture applied write by write through the rules, held as its state message.
#include "tickwire/world/scene_edit_set.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "tickwire/wire/codec.h"

namespace tickwire::world {
namespace {

using protocol::EditRefusal;
using protocol::ObjectNodeState;

bool empty(const ObjectNodeState& o) {
  return !o.hidden && !o.transform && o.name.empty() && o.components.empty() && o.field_states.empty() &&
         o.outputs.empty();
}

// Applies one gesture to a copy of the set's objects; the caller keeps it or throws it away whole.
class GestureApplier {
 public:
  GestureApplier(std::vector<ObjectNodeState> objects, const protocol::SceneEdit& gesture, const EditTargets& targets,
                 const ObjectNamed& named)
      : objects_(std::move(objects)), gesture_(gesture), targets_(targets), named_(named) {}

  void run(EditOutcome& out) {
    out_ = &out;
    for (const protocol::ObjectEdit& e : gesture_.object_edits) object_edit(e);
    for (const protocol::ComponentEdit& e : gesture_.component_edits) component_edit(e);
    for (const protocol::FieldEdit& e : gesture_.field_edits) field_edit(e);
    for (const protocol::WiringEdit& e : gesture_.wiring_edits) wiring_edit(e);
    std::erase_if(objects_, empty);
  }
  std::vector<ObjectNodeState>& objects() { return objects_; }

 private:
  void refuse(uint32_t object, uint8_t component, const std::string& key, EditRefusal reason) {
    out_->refusals.push_back(protocol::SceneEditRefused{gesture_.gesture, object, component, key, reason});
  }
  void touch(uint32_t object) {
    auto at = std::lower_bound(out_->touched.begin(), out_->touched.end(), object);
    if (at == out_->touched.end() || *at != object) out_->touched.insert(at, object);
  }
  // The object's entry (made when absent), or null when no such object stands.
  ObjectNodeState* entry(uint32_t object, EditTarget& target) {
    target = targets_(object);
    if (target.authored == nullptr) return nullptr;
    auto at = std::lower_bound(objects_.begin(), objects_.end(), object,
                               [](const ObjectNodeState& o, uint32_t index) { return o.object < index; });
    if (at == objects_.end() || at->object != object) at = objects_.insert(at, ObjectNodeState{object, false, {}, {}, {}, {}, {}});
    return &*at;
  }

  void object_edit(const protocol::ObjectEdit& e) {
    EditTarget target;
    ObjectNodeState* o = entry(e.object, target);
    if (o == nullptr) return refuse(e.object, 0, {}, EditRefusal::unknown_object);
    switch (e.verb) {
      case protocol::ObjectVerb::hide:
      case protocol::ObjectVerb::show: {
        const bool hide = e.verb == protocol::ObjectVerb::hide;
        if (o->hidden == hide) return refuse(e.object, 0, {}, EditRefusal::not_edited);
        o->hidden = hide;
        return touch(e.object);
      }
      case protocol::ObjectVerb::move:
        if (auto bad = SceneEditRules::check_transform(e.transform)) return refuse(e.object, 0, {}, *bad);
        if (!target.movable) return refuse(e.object, 0, {}, EditRefusal::not_movable);
        o->transform = e.transform;
        if (auto& q = o->transform->rotation) {  // stored unit length: what the records quantize
          const float n = std::sqrt(q->x * q->x + q->y * q->y + q->z * q->z + q->w * q->w);
          *q = protocol::EditRotation{q->x / n, q->y / n, q->z / n, q->w / n};
        }
        return touch(e.object);
      case protocol::ObjectVerb::unmove:
        if (!o->transform) return refuse(e.object, 0, {}, EditRefusal::not_edited);
        o->transform.reset();
        return touch(e.object);
      case protocol::ObjectVerb::rename:
        if (o->name == e.name) return refuse(e.object, 0, {}, EditRefusal::not_edited);
        o->name = e.name;
        return touch(e.object);
    }
  }

  void component_edit(const protocol::ComponentEdit& e) {
    EditTarget target;
    ObjectNodeState* o = entry(e.object, target);
    if (o == nullptr) return refuse(e.object, e.component, {}, EditRefusal::unknown_object);
    const WornComponents worn{target.authored->components, o->components};
    if (auto refusal = SceneEditRules::check_component(worn, e)) return refuse(e.object, e.component, {}, *refusal);
    auto& list = o->components;
    const auto standing = std::find_if(list.begin(), list.end(), [&](const auto& c) { return c.component == e.component; });
    if (e.op == protocol::ComponentOp::add && standing == list.end()) {
      list.insert(std::upper_bound(list.begin(), list.end(), e.component,
                                   [](uint8_t id, const protocol::ComponentState& c) { return id < c.component; }),
                  protocol::ComponentState{e.component, protocol::ComponentChange::added});
    } else if (e.op == protocol::ComponentOp::remove) {
      list.insert(std::upper_bound(list.begin(), list.end(), e.component,
                                   [](uint8_t id, const protocol::ComponentState& c) { return id < c.component; }),
                  protocol::ComponentState{e.component, protocol::ComponentChange::removed});
    } else {
      list.erase(standing);  // a revert, or an add over a removal: it wears what its map says again
    }
    // A component it no longer wears takes its field edits with it.
    const WornComponents now{target.authored->components, o->components};
    std::erase_if(o->field_states, [&](const protocol::FieldState& f) { return !now.wears(f.component); });
    touch(e.object);
  }

  void field_edit(const protocol::FieldEdit& e) {
    EditTarget target;
    ObjectNodeState* o = entry(e.object, target);
    if (o == nullptr) return refuse(e.object, e.component, e.key, EditRefusal::unknown_object);
    const WornComponents worn{target.authored->components, o->components};
    const FieldCheck check = e.value ? SceneEditRules::check_field(worn, e.component, e.key, *e.value)
                                     : SceneEditRules::check_field_revert(worn, e.component, e.key);
    if (check.refusal) return refuse(e.object, e.component, e.key, *check.refusal);
    auto& list = o->field_states;
    const auto at = std::lower_bound(list.begin(), list.end(), std::pair<uint8_t, std::string_view>(e.component, e.key),
                                     [](const protocol::FieldState& f, const std::pair<uint8_t, std::string_view>& k) {
                                       return std::pair<uint8_t, std::string_view>(f.component, f.key) < k;
                                     });
    const bool standing = at != list.end() && at->component == e.component && at->key == e.key;
    if (!e.value) {
      if (!standing) return refuse(e.object, e.component, e.key, EditRefusal::not_edited);
      list.erase(at);
    } else if (standing) {
      at->value = checked_value(check.write);
    } else {
      list.insert(at, protocol::FieldState{e.component, e.key, checked_value(check.write)});
    }
    touch(e.object);
  }

  // A wiring edit: the output's new list stands (or its standing one goes, on a revert).
  void wiring_edit(const protocol::WiringEdit& e) {
    EditTarget target;
    ObjectNodeState* o = entry(e.object, target);
    if (o == nullptr) return refuse(e.object, 0, e.output, EditRefusal::unknown_object);
    if (auto refusal = check_wiring(*target.authored, o->outputs, e, named_)) return refuse(e.object, 0, e.output, *refusal);
    auto& list = o->outputs;
    const auto at = std::lower_bound(list.begin(), list.end(), e.output,
                                     [](const protocol::OutputState& s, const std::string& name) { return s.output < name; });
    const bool standing = at != list.end() && at->output == e.output;
    if (e.op == protocol::WiringOp::revert) {
      list.erase(at);
    } else if (standing) {
      if (at->actions == e.actions) return refuse(e.object, 0, e.output, EditRefusal::not_edited);
      at->actions = e.actions;
    } else {
      list.insert(at, protocol::OutputState{e.output, e.actions});
    }
    touch(e.object);
  }

  std::vector<ObjectNodeState> objects_;
  const protocol::SceneEdit& gesture_;
  const EditTargets& targets_;
  const ObjectNamed& named_;
  EditOutcome* out_ = nullptr;
};

}  // namespace

EditOutcome SceneEditSet::apply(const protocol::SceneEdit& gesture, const EditTargets& targets, const ObjectNamed& named) {
  EditOutcome out;
  GestureApplier applier(state_.objects, gesture, targets, named);
  applier.run(out);
  if (out.touched.empty()) return out;
  protocol::SceneNodeState next{state_.revision + 1, std::move(applier.objects())};
  if (next.objects.size() > protocol::kMaxEditedObjects || wire::measure(next) > protocol::kMaxSceneNodeStateBytes) {
    out.refusals.assign(1, protocol::SceneEditRefused{gesture.gesture, 0, 0, {}, EditRefusal::edit_set_full});
    out.touched.clear();
    return out;
  }
  state_ = std::move(next);
  out.changed = true;
  return out;
}

void SceneEditSet::clear() {
  if (state_.objects.empty()) return;
  state_.objects.clear();
  ++state_.revision;
}

const protocol::ObjectNodeState* SceneEditSet::object(uint32_t object_index) const {
  const auto at = std::lower_bound(state_.objects.begin(), state_.objects.end(), object_index,
                                   [](const ObjectNodeState& o, uint32_t index) { return o.object < index; });
  return at != state_.objects.end() && at->object == object_index ? &*at : nullptr;
}

WornComponents worn_components(const MapObject& authored, const protocol::ObjectNodeState* edits) {
  return WornComponents{authored.components,
                        edits != nullptr ? std::span<const protocol::ComponentState>(edits->components)
                                         : std::span<const protocol::ComponentState>()};
}

}  // namespace tickwire::world
