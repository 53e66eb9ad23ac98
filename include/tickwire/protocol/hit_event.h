// HitEvent (seed 000, "Hits"): what one shot struck, told reliably to every session in the world:
// the shooter's pawn (its entity id, as snapshots name it) and shot counter, the kind of hit, where
// and facing which way, what body (a map box, a map object by index, a pawn by entity id) and the
// struck material's impact set by name, so every client plays the same impact. A shot that crosses
// water before a solid raises two events, the water crossing first.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "tickwire/protocol/vec3.h"
#include "tickwire/wire/describe_walker.h"
#include "tickwire/wire/types.h"

namespace tickwire::protocol {

enum class HitKind : uint8_t { nothing = 0, surface = 1, water = 2 };
inline constexpr wire::NamedValue kHitKindMembers[] = {{"nothing", 0}, {"surface", 1}, {"water", 2}};
inline constexpr wire::EnumDef kHitKindDef{"HitKind", kHitKindMembers};

// What a hit struck: nothing, one of the map's boxes (by index), a map object (by index), a pawn
// (by entity id).
enum class HitBody : uint8_t { none = 0, map_box = 1, object = 2, pawn = 3 };
inline constexpr wire::NamedValue kHitBodyMembers[] = {{"none", 0}, {"mapBox", 1}, {"object", 2}, {"pawn", 3}};
inline constexpr wire::EnumDef kHitBodyDef{"HitBody", kHitBodyMembers};

inline constexpr std::size_t kMaxImpactNameBytes = 32;

struct HitEvent {
  static constexpr std::string_view wire_name = "HitEvent";
  static constexpr std::string_view message_name = "hitEvent";
  static constexpr uint8_t wire_id = 24;
  static constexpr wire::Direction wire_direction = wire::Direction::server_to_client;

  uint32_t shooter_id = 0;  // the shooter's pawn, as snapshots name it
  uint32_t shot = 0;        // the shooter's shot counter (FireRequest::shot)
  HitKind kind = HitKind::nothing;
  Vec3 point;               // where the ray struck (its far end for nothing)
  Vec3 normal;              // the struck face's outward normal (zero for nothing)
  HitBody body = HitBody::none;
  uint32_t body_id = 0;     // the map box or object index, or the pawn's entity id
  std::string impact;       // the struck material's impact set (empty for nothing)

  friend bool operator==(const HitEvent&, const HitEvent&) = default;

  template <class W>
  void fields(W& w) {
    w.varu32("shooterId", shooter_id);
    w.varu32("shot", shot);
    w.enum8("kind", kind, kHitKindDef);
    w.shape("point", point);
    w.shape("normal", normal);
    w.enum8("body", body, kHitBodyDef);
    w.varu32("bodyId", body_id);
    w.str8("impact", impact, kMaxImpactNameBytes);
  }
};

}  // namespace tickwire::protocol
