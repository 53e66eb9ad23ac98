// The version 3 maps the record tests share: a physics prop source (the seed's crate), a variant of
// it, a lamp, and a cart that carries a lamp and a crate; and a map text around any sources and
// placements.
#pragma once

#include <string>

namespace tickwire::world::test_records {

inline const std::string kCrate =
    R"("crate": {"kind": "crate_prop", "components": [{"name": "physics_prop", "channels": [10], "bits": 1,)"
    R"( "settings": {"mass": 10, "size": [1, 1, 1], "material": 0}}]})";
inline const std::string kHeavyCrate =
    R"("heavy_crate": {"inherits": "crate", "components": [{"name": "physics_prop", "settings": {"mass": 80, "material": 1}}]})";
inline const std::string kLamp =
    R"("lamp": {"kind": "light", "components": [{"name": "light", "channels": [1, 0.9, 0.8, 400], "bits": 1}],)"
    R"( "outputs": {"onTurnedOn": [{"target": "door.1", "input": "open"}]}})";
inline const std::string kCart =
    R"("cart": {"kind": "cart", "position": [0, 0.5, 0], "components": [{"name": "mover", "channels": [0, 0]}],)"
    R"( "objects": [{"key": "lamp", "source": "lamp", "position": [0, 2, 1]},)"
    R"( {"key": "load", "source": "heavy_crate", "position": [1, 0, 0]}]})";
inline const std::string kAllSources = kCrate + ", " + kHeavyCrate + ", " + kLamp + ", " + kCart;

// A version 3 map: `sources` is the inside of the sources object (empty: no section).
inline std::string v3_map(const std::string& sources, const std::string& objects) {
  return R"({"format": "tickwire-map", "version": 3, "name": "records", "spawns": [{"position": [0, 0, 0], "yaw_deg": 0}],)" +
         (sources.empty() ? std::string() : R"( "sources": {)" + sources + "},") + R"( "objects": [)" + objects + "]}";
}

}  // namespace tickwire::world::test_records
