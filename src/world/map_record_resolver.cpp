// One record is a source plus one layer of overrides. A record whose source is itself a record
// rebases: the resolver walks to the root source and lays the layers over it outermost-last, so an
// instance of a variant of an object resolves once, here, while the file keeps every layer as
// written. Each source resolves once (memoised); every object it makes is counted against a cap
// before it is made, so no chain of short definitions can multiply into an unbounded tree.
#include "map_record_resolver.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "map_validate.h"
#include "tickwire/world/quat_math.h"

namespace tickwire::world::detail {
namespace {

using Found = std::optional<MapError>;

Found fail(MapErrorCode code, std::string path, std::string message) {
  return MapError{code, std::move(path), std::move(message)};
}

// A record resolved in its own frame (a child's transform is relative to its parent), with its
// carried children. `object.key` is unused; `key` is the child's key within its parent.
struct ResolvedRecord {
  std::string key;
  std::string origin;  // the JSON path of the outermost layer that stated this record
  MapObject object;
  std::vector<ResolvedRecord> children;
};

std::size_t tree_size(const ResolvedRecord& r) {
  std::size_t size = 1;
  for (const ResolvedRecord& child : r.children) size += tree_size(child);
  return size;
}

// Finds by name (or key) in a list of parts.
template <class List, class NameOf>
auto find_named(List& list, std::string_view name, NameOf name_of) {
  return std::find_if(list.begin(), list.end(), [&](const auto& entry) { return name_of(entry) == name; });
}

// Inserts or replaces `entry` in a name-sorted list.
template <class Entry>
void put_sorted(std::vector<Entry>& list, Entry entry) {
  auto at = std::lower_bound(list.begin(), list.end(), entry.name,
                             [](const Entry& e, const std::string& name) { return e.name < name; });
  if (at != list.end() && at->name == entry.name) {
    *at = std::move(entry);
  } else {
    list.insert(at, std::move(entry));
  }
}

Found lay_settings(const ComponentOverride& layer, const std::string& at, ObjectComponent& into) {
  for (const SettingOverride& s : layer.settings) {
    auto found = find_named(into.settings, s.setting.name, [](const ComponentSetting& c) { return c.name; });
    if (!s.removed) {
      put_sorted(into.settings, s.setting);
      continue;
    }
    if (found == into.settings.end())
      return fail(MapErrorCode::remove_missing, path_field(path_field(at, s.setting.name), "removed"),
                  "the source's \"" + into.name + "\" has no setting \"" + s.setting.name + "\"");
    into.settings.erase(found);
  }
  return std::nullopt;
}

// A component layer, field by field: what it states replaces, what it leaves out inherits.
Found lay_component(const ComponentOverride& layer, const std::string& at, ObjectComponent& into) {
  if (layer.channels) {
    into.channels = {};
    std::copy(layer.channels->begin(), layer.channels->end(), into.channels.begin());
    into.channel_count = static_cast<uint8_t>(layer.channels->size());
  }
  if (layer.bits) into.bits = *layer.bits;
  return lay_settings(layer, path_field(at, "settings"), into);
}

Found lay_components(const ObjectRecord& layer, const std::string& at, MapObject& into) {
  for (std::size_t k = 0; k < layer.components.size(); ++k) {
    const ComponentOverride& c = layer.components[k];
    const std::string path = path_index(path_field(at, "components"), k);
    auto found = find_named(into.components, c.name, [](const ObjectComponent& o) { return o.name; });
    if (c.removed) {
      if (found == into.components.end())
        return fail(MapErrorCode::remove_missing, path_field(path, "removed"), "the source has no component \"" + c.name + "\"");
      into.components.erase(found);
      continue;
    }
    if (found == into.components.end()) {
      into.components.push_back(ObjectComponent{c.name, {}, 0, 0, {}});
      found = into.components.end() - 1;
    }
    if (auto e = lay_component(c, path, *found)) return e;
  }
  return std::nullopt;
}

Found lay_outputs(const ObjectRecord& layer, const std::string& at, MapObject& into) {
  for (const OutputOverride& o : layer.outputs) {
    if (!o.removed) {
      put_sorted(into.outputs, MapOutput{o.name, o.actions});
      continue;
    }
    auto found = find_named(into.outputs, o.name, [](const MapOutput& out) { return out.name; });
    if (found == into.outputs.end())
      return fail(MapErrorCode::remove_missing, path_field(path_field(path_field(at, "outputs"), o.name), "removed"),
                  "the source has no output \"" + o.name + "\"");
    into.outputs.erase(found);
  }
  return std::nullopt;
}

class RecordResolver {
 public:
  explicit RecordResolver(const MapContent& content)
      : content_(content),
        memo_(content.sources.size()),
        state_(content.sources.size(), State::unvisited),
        depth_(content.sources.size(), 0) {}

  MapResult<ResolvedObjects> resolve() {
    // Every source resolves, placed or not, in name order: a cycle or a bad removal in a source
    // no placement names yet is still an error of the file.
    for (const SourceDefinition& source : content_.sources) {
      const ResolvedRecord* resolved = nullptr;
      if (auto e = resolve_source(source.name, path_field("sources", source.name), resolved)) return std::move(*e);
    }
    ResolvedObjects out;
    for (std::size_t i = 0; i < content_.placements.size(); ++i) {
      const ObjectRecord& placement = content_.placements[i];
      ResolvedRecord tree;
      if (auto e = resolve_record(placement, path_index("objects", i), "source", tree)) return std::move(*e);
      if (auto e = flatten(tree, placement.key, nullptr, out)) return std::move(*e);
    }
    return out;
  }

 private:
  enum class State : uint8_t { unvisited, resolving, resolved };

  // Objects made while resolving sources, or placed: each against its own cap, before it is made.
  Found charge(std::size_t objects, const std::string& at) {
    if (!sources_resolving_.empty()) {
      source_objects_ += objects;
      if (source_objects_ > kMaxSourceObjects)
        return fail(MapErrorCode::count_over_max, at,
                    "the sources resolve into more than " + std::to_string(kMaxSourceObjects) + " objects");
      return std::nullopt;
    }
    placed_objects_ += objects;
    if (placed_objects_ > kMaxMapObjects)
      return fail(MapErrorCode::count_over_max, "objects",
                  "the placements resolve into more than " + std::to_string(kMaxMapObjects) + " objects");
    return std::nullopt;
  }

  std::optional<std::size_t> source_index(std::string_view name) const {
    const auto& sources = content_.sources;
    auto it = std::lower_bound(sources.begin(), sources.end(), name,
                               [](const SourceDefinition& s, std::string_view n) { return s.name < n; });
    if (it == sources.end() || it->name != name) return std::nullopt;
    return static_cast<std::size_t>(it - sources.begin());
  }

  // "a -> b -> a": the sources being resolved from `index` on, closed by `index`.
  std::string cycle_text(std::size_t index) const {
    std::string text;
    auto from = std::find(sources_resolving_.begin(), sources_resolving_.end(), index);
    for (auto it = from; it != sources_resolving_.end(); ++it) text += content_.sources[*it].name + " -> ";
    return text + content_.sources[index].name;
  }

  // The source named at `at` resolved (once), or why it cannot be.
  Found resolve_source(const std::string& name, const std::string& at, const ResolvedRecord*& out) {
    const std::optional<std::size_t> index = source_index(name);
    if (!index) return fail(MapErrorCode::unknown_source, at, "no source is named \"" + name + "\"");
    if (state_[*index] == State::resolving)
      return fail(MapErrorCode::source_cycle, at, "sources name one another in a loop: " + cycle_text(*index));
    const std::string too_deep = "more than " + std::to_string(kMaxRecordDepth) + " sources laid over one another";
    if (state_[*index] == State::unvisited) {
      if (sources_resolving_.size() >= kMaxRecordDepth) return fail(MapErrorCode::record_too_deep, at, too_deep);
      state_[*index] = State::resolving;
      sources_resolving_.push_back(*index);
      deepest_named_.push_back(0);
      ResolvedRecord resolved;
      const SourceDefinition& source = content_.sources[*index];
      if (auto e = resolve_record(source.record, path_field("sources", source.name), "inherits", resolved)) return e;
      depth_[*index] = deepest_named_.back() + 1;
      deepest_named_.pop_back();
      sources_resolving_.pop_back();
      memo_[*index] = std::move(resolved);
      state_[*index] = State::resolved;
    }
    // A source that names this one is one deeper; the cap holds whichever order they resolve in.
    if (!deepest_named_.empty()) {
      if (depth_[*index] >= kMaxRecordDepth) return fail(MapErrorCode::record_too_deep, at, too_deep);
      deepest_named_.back() = std::max(deepest_named_.back(), depth_[*index]);
    }
    out = &*memo_[*index];
    return std::nullopt;
  }

  // A record: its source resolved (or nothing), then its own layer over it.
  Found resolve_record(const ObjectRecord& r, const std::string& at, std::string_view source_field, ResolvedRecord& out) {
    if (!r.source.empty()) {
      const ResolvedRecord* source = nullptr;
      if (auto e = resolve_source(r.source, path_field(at, source_field), source)) return e;
      if (auto e = charge(tree_size(*source), at)) return e;
      out = *source;
    } else if (auto e = charge(1, at)) {
      return e;
    }
    out.key = r.key;
    return lay(r, at, out);
  }

  // One layer over a resolved record, outermost-last: every part it states replaces or merges,
  // every part it leaves out inherits.
  Found lay(const ObjectRecord& layer, const std::string& at, ResolvedRecord& into) {
    into.origin = at;
    MapObject& o = into.object;
    if (layer.kind) o.kind = *layer.kind;
    if (layer.position) o.position = *layer.position;
    if (layer.rotation) o.rotation = *layer.rotation;
    if (layer.scale) o.scale = *layer.scale;
    if (auto e = lay_components(layer, at, o)) return e;
    if (auto e = lay_outputs(layer, at, o)) return e;
    return lay_children(layer, at, into);
  }

  Found lay_children(const ObjectRecord& layer, const std::string& at, ResolvedRecord& into) {
    for (std::size_t k = 0; k < layer.objects.size(); ++k) {
      const ObjectRecord& child = layer.objects[k];
      const std::string path = path_index(path_field(at, "objects"), k);
      auto found = find_named(into.children, child.key, [](const ResolvedRecord& r) { return r.key; });
      if (child.removed) {
        if (found == into.children.end())
          return fail(MapErrorCode::remove_missing, path_field(path, "removed"), "the source carries no child \"" + child.key + "\"");
        into.children.erase(found);
        continue;
      }
      if (found != into.children.end()) {
        if (!child.source.empty())
          return fail(MapErrorCode::override_names_source, path_field(path, "source"),
                      "child \"" + child.key + "\" is inherited: its override names no source of its own");
        if (auto e = lay(child, path, *found)) return e;
        continue;
      }
      if (into.children.size() >= kMaxCarriedChildren)
        return fail(MapErrorCode::count_over_max, path,
                    "more than " + std::to_string(kMaxCarriedChildren) + " carried children");
      ResolvedRecord made;
      if (auto e = resolve_record(child, path, "source", made)) return e;
      into.children.push_back(std::move(made));
    }
    return std::nullopt;
  }

  // A placed tree into flat objects: the record, then each carried child (keyed parent/child), its
  // position turned by the parent's rotation and moved to the parent's position.
  Found flatten(const ResolvedRecord& r, const std::string& key, const MapObject* parent, ResolvedObjects& out) {
    MapObject o = r.object;
    o.key = key;
    if (o.kind.empty()) return fail(MapErrorCode::missing_field, path_field(r.origin, "kind"), "no layer of this record states its kind");
    if (parent != nullptr) {
      const Quat turn = parent->rotation.value_or(Quat{});
      o.position = rotate(turn, o.position) + parent->position;
      if (parent->rotation) o.rotation = normalized(multiply(turn, o.rotation.value_or(Quat{})));
    }
    out.objects.push_back(o);
    out.origins.push_back(r.origin);
    for (const ResolvedRecord& child : r.children)
      if (auto e = flatten(child, key + "/" + child.key, &o, out)) return e;
    return std::nullopt;
  }

  const MapContent& content_;
  std::vector<std::optional<ResolvedRecord>> memo_;
  std::vector<State> state_;
  std::vector<std::size_t> depth_;  // a resolved source's: 1 for a root, 1 + the deepest source it names
  std::vector<std::size_t> sources_resolving_;  // the chain being resolved, outermost first
  std::vector<std::size_t> deepest_named_;      // per source being resolved: the deepest source it named so far
  std::size_t source_objects_ = 0;
  std::size_t placed_objects_ = 0;
};

}  // namespace

MapResult<ResolvedObjects> resolve_map_records(const MapContent& content) { return RecordResolver(content).resolve(); }

}  // namespace tickwire::world::detail
