// A room of the reference game over the reference map, driven tick by tick without a network: the
// rig the save-state tests load, step side by side and compare. Each session's inputs go through
// the room's own receive path (so its input window is real), one per tick, some sent ahead.
#pragma once

#include <fmt/format.h>
#include <sodium.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <string>
#include <vector>

#include "game_rig.h"
#include "tickwire/core/byte_record.h"
#include "tickwire/server/room.h"
#include "tickwire/wire/codec.h"

namespace tickwire::world::rigs {

inline constexpr uint32_t kSaveRoomHoldTicks = 600;

inline RoomConfig save_room_config() {
  RoomConfig config;
  config.contract = rig_contract();
  config.origin = MonoTime::from_ns(1'000'000'000);
  config.pawn_hold_ticks = kSaveRoomHoldTicks;
  return config;
}

// A precondition of the rig's own (kept whatever TICKWIRE_ASSERTS says: the fuzz target uses it).
inline void require(bool holds, const char* what) {
  if (holds) return;
  std::fprintf(stderr, "save room: %s\n", what);
  std::abort();
}

struct NoTickObserver final : TickObserver {
  void on_tick_completed(Tick) override {}
};

struct SaveRoom {
  SaveRoom() : SaveRoom(load_rig_map(reference_map_text())) {}
  explicit SaveRoom(Map loaded) : map(std::move(loaded)), game(map), room(save_room_config(), game) {}

  // Queues `owner`'s next input (its sequence counted here), walking along yaw_deg or standing.
  void send(OwnerId owner, float yaw_deg, bool walk) {
    protocol::InputFrame frame;
    frame.first_sequence = next_sequence[owner]++;
    protocol::InputCmd cmd;
    cmd.yaw_deg = yaw_deg;
    cmd.move_y = walk ? 1.0f : 0.0f;
    frame.inputs.push_back(cmd);
    (void)room.receive_input(owner, frame);
  }
  // Runs exactly the next tick (its due time on the room's clock).
  void tick() {
    NoTickObserver observer;
    const RoomUpdate update = room.update(room.clock().due_time(room.last_tick() + 1), observer);
    TW_ASSERT(update.ticks_run == 1, "one tick per call");
  }
  uint32_t index(std::string_view key) const { return *map.object_index(key); }
  std::vector<uint8_t> save() {
    std::vector<uint8_t> out;
    require(!room.save_whole(out), "the reference game saves");
    return out;
  }

  Map map;
  ReferenceGame game;
  Room room;
  std::array<uint32_t, 256> next_sequence{};
};

inline constexpr float kSaveRoomWalkYaw = 0.0f;  // +z: from where ann stands into crate.1

// The room mid-game: ann shoving a crate, bob departed (his pawn held), button.s pressed 18 ticks
// ago (door.s halfway, its lights walking on a quarter second apart), ann's next 3 inputs queued.
inline void play_to_mid_game(SaveRoom& a) {
  require(a.room.admit(1, world_authority_grant(), "ann").has_value(), "ann joins");
  require(a.room.admit(2, {}, "bob").has_value(), "bob joins");
  a.game.place_pawn(a.room.session(1)->pawn, Placement{Vec3{-3, 0, 1.9f}, {}, kSaveRoomWalkYaw, 0, false});
  for (int t = 1; t <= 58; ++t) {
    a.send(1, kSaveRoomWalkYaw, true);
    if (t < 10) a.send(2, 90.0f, false);
    if (t == 10) a.room.depart(2);
    if (t == 40) require(a.game.logic()->use(a.index("button.s"), LogicActivator{1}), "button.s takes the press");
    a.tick();
  }
  for (int ahead = 0; ahead < 3; ++ahead) a.send(1, kSaveRoomWalkYaw, true);
}

// BLAKE2b of the bytes, folded to 64 bits: a save state's checksum.
inline uint64_t save_checksum(std::span<const uint8_t> bytes) {
  require(sodium_init() >= 0, "libsodium initialises");
  std::array<uint8_t, 8> hash{};
  crypto_generichash(hash.data(), hash.size(), bytes.data(), bytes.size(), nullptr, 0);
  uint64_t folded = 0;
  for (uint8_t b : hash) folded = folded << 8 | b;
  return folded;
}

// What the logic leaves in a room: each mover's, button's, light's and plate's channels and bits
// (exactly, as text of the floats' bits) and the logic host's whole state.
inline std::string logic_view(const SaveRoom& r) {
  std::string view;
  auto out = std::back_inserter(view);
  const auto objects = r.map.objects();
  for (uint32_t index = 0; index < objects.size(); ++index) {
    for (std::size_t c = 0; c < objects[index].components.size(); ++c) {
      const ObjectComponent& live = r.game.object_component(index, c);
      if (live.name != "mover" && live.name != "button" && live.name != "light" && live.name != "plate") continue;
      fmt::format_to(out, "{}.{} {}", objects[index].key, live.name, live.bits);
      for (float channel : live.active_channels()) fmt::format_to(out, " {:08x}", std::bit_cast<uint32_t>(channel));
      view += '\n';
    }
  }
  std::vector<uint8_t> logic;
  ByteRecordWriter write(logic);
  r.game.logic()->save_state(write);
  fmt::format_to(out, "logic {:02x}\n", fmt::join(logic, ""));
  return view;
}

// The records a client is sent for `tick` (what it sees of the world), each encoded, by id.
inline std::vector<std::vector<uint8_t>> records_view(const SaveRoom& r, Tick tick) {
  TickRecords records;
  r.game.write_records(tick, records);
  std::sort(records.records.begin(), records.records.end(),
            [](const protocol::Record& a, const protocol::Record& b) { return a.entity_id < b.entity_id; });
  std::vector<std::vector<uint8_t>> view;
  for (const protocol::Record& record : records.records) view.push_back(wire::encode_bytes(record));
  return view;
}

}  // namespace tickwire::world::rigs
