// MaterialSet: material values keyed by a token table (seed 000's material rows). Rows pair by
// token across builds, so reordering or extending the table costs a peer nothing.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "tickwire/protocol/constants.h"
#include "tickwire/protocol/vec3.h"
#include "tickwire/wire/describe_walker.h"
#include "tickwire/wire/types.h"

namespace tickwire::protocol {

inline constexpr wire::TokenRow kMaterialRows[] = {
    {"water.foamColor", wire::TokenKind::u32}, {"water.roughness", wire::TokenKind::f32},
    {"sky.tint", wire::TokenKind::u32},        {"sky.exposure", wire::TokenKind::f32},
    {"fog.enabled", wire::TokenKind::boolean}, {"fog.density", wire::TokenKind::f32},
    {"grass.windBend", wire::TokenKind::i32},
};
inline constexpr wire::TokenTableDef kMaterialTable{"Material", kMaterialRows};

struct MaterialSet {
  static constexpr std::string_view wire_name = "MaterialSet";
  static constexpr std::string_view message_name = "materialSet";
  static constexpr uint8_t wire_id = 14;
  static constexpr wire::Direction wire_direction = wire::Direction::server_to_client;

  uint32_t revision = 0;
  std::vector<wire::TokenPair> values;
  std::vector<Vec3> probe_points;

  template <class W>
  void fields(W& w) {
    w.u32("revision", revision);
    w.tokens("values", values, kMaterialTable, MaxMaterialValues);
    w.list16("probePoints", probe_points, 0, 1024);
  }
};

}  // namespace tickwire::protocol
