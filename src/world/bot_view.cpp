// A bot's list of buttons and their doors, read once from the map's objects and wiring.
#include "tickwire/world/bot_view.h"

#include <optional>
#include <variant>

#include "tickwire/world/map_object_table.h"

namespace tickwire::world {
namespace {

// The first door a button's outputs call, as an object index.
std::optional<uint32_t> door_of(const MapObject& button, const Map& map, const MapObjectTable& table) {
  for (const MapOutput& output : button.outputs) {
    for (const MapAction& action : output.actions) {
      const auto* call = std::get_if<MapCall>(&action);
      if (call == nullptr) continue;
      const std::optional<uint32_t> target = table.index_of(call->target);
      if (target && map.objects()[*target].kind == "door") return target;
    }
  }
  return std::nullopt;
}

}  // namespace

std::vector<BotButton> bot_buttons(const Map& map) {
  const MapObjectTable table = MapObjectTable::build(map);
  const std::span<const MapObject> objects = map.objects();
  std::vector<BotButton> buttons;
  for (uint32_t i = 0; i < objects.size(); ++i) {
    if (objects[i].kind != "button") continue;
    const uint32_t door = door_of(objects[i], map, table).value_or(i);
    buttons.push_back(BotButton{i, objects[i].position, door, objects[door].position});
  }
  return buttons;
}

}  // namespace tickwire::world
