// A small map with one of each logic object the lifecycle tests spawn and despawn: a button whose
// press toggles a door and, half a second later, a lamp; a usable-free door; a plate that lights a
// lamp while stood on; a timer that blinks a lamp every half second from load; a relay that opens
// the door a second after its trigger. It doubles as the "other" map of the map-switch tests.
#pragma once

#include <string_view>

namespace tickwire::test {

inline constexpr std::string_view kLifecycleMapText = R"({
  "format": "tickwire-map", "version": 2, "name": "lifecycle",
  "boxes": [{"tag": "floor", "material": "concrete", "min": [-8, -1, -8], "max": [8, 0, 8]}],
  "spawns": [{"position": [0, 0, -4], "yaw_deg": 0}, {"position": [2, 0, -4], "yaw_deg": 0}],
  "objects": [
    {"key": "button.1", "kind": "button", "position": [1.75, 1.25, 7.75], "components": [{"name": "button", "channels": [], "bits": 0, "settings": {"reset_s": 1}}],
     "outputs": {"onPressed": [{"target": "door.1", "input": "toggle"}, {"delay": 0.5}, {"target": "light.1", "input": "toggle"}]}},
    {"key": "door.1", "kind": "door", "position": [0, 0, 7.75], "components": [{"name": "mover", "channels": [0, 0], "bits": 0, "settings": {"axis": [1, 0, 0], "distance_m": 1.5, "speed_mps": 1.5}}]},
    {"key": "light.1", "kind": "light", "position": [0, 3, 0], "components": [{"name": "light", "channels": [1, 0.85, 0.7, 400], "bits": 0}]},
    {"key": "plate.1", "kind": "plate", "position": [-4, 0, 0], "components": [{"name": "plate", "channels": [], "bits": 0, "settings": {"half_extents": [0.75, 0.25, 0.75]}}],
     "outputs": {"onStartTouch": [{"target": "light.2", "input": "turnOn"}], "onEndTouch": [{"target": "light.2", "input": "turnOff"}]}},
    {"key": "light.2", "kind": "light", "position": [-4, 3, 0], "components": [{"name": "light", "channels": [1, 1, 1, 300], "bits": 0}]},
    {"key": "timer.1", "kind": "timer", "position": [0, 0, 0], "components": [{"name": "timer", "channels": [], "bits": 0, "settings": {"interval_s": 0.5, "refire": 1, "start_on": 1}}],
     "outputs": {"onTimer": [{"target": "light.3", "input": "toggle"}]}},
    {"key": "light.3", "kind": "light", "position": [4, 3, 0], "components": [{"name": "light", "channels": [1, 1, 1, 200], "bits": 0}]},
    {"key": "relay.1", "kind": "relay", "position": [0, 0, 0], "components": [{"name": "relay", "channels": [], "bits": 0, "settings": {"start_disabled": 0}}],
     "outputs": {"onTrigger": [{"delay": 1}, {"target": "door.1", "input": "open"}]}}
  ]
})";

}  // namespace tickwire::test
