// InputFrame: the client's inputs for its next ticks, sent unreliably and redundantly (each packet
// repeats the last un-acked inputs), with an optional forgiveness claim. The claim's trailing
// placement epoch sits after a tail, so a peer without it reads epoch 0.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "tickwire/protocol/constants.h"
#include "tickwire/protocol/pawn_values.h"
#include "tickwire/protocol/vec3.h"
#include "tickwire/wire/describe_walker.h"
#include "tickwire/wire/types.h"

namespace tickwire::protocol {

inline constexpr wire::QuantSpec kMoveAxisSpec{-1.0, 1.0, 1.0 / 127.0};
inline constexpr wire::QuantSpec kYawSpec{0.0, 360.0, 360.0 / 65535.0};
inline constexpr wire::QuantSpec kPitchSpec{-90.0, 90.0, 180.0 / 16383.0};

inline constexpr unsigned kInputButtonBits = 8;

// One tick's input: the engine's two movement axes and look angles, and eight button bits whose
// meaning is the game's, registered in GameVocabulary::buttons.
struct InputCmd {
  static constexpr std::string_view wire_name = "InputCmd";
  uint32_t buttons = 0;  // kInputButtonBits used
  float move_x = 0, move_y = 0;
  float yaw_deg = 0, pitch_deg = 0;

  template <class W>
  void fields(W& w) {
    w.bits("packed", [&](auto& b) {
      b.ubits("buttons", buttons, kInputButtonBits);
      b.quant("moveX", move_x, kMoveAxisSpec);
      b.quant("moveY", move_y, kMoveAxisSpec);
      b.quant("yaw", yaw_deg, kYawSpec);
      b.quant("pitch", pitch_deg, kPitchSpec);
    });
  }
};

// What the client says its pawn is after an input (forgiveness): the owner detail's fields, its
// flags limited to the claimable bits of the game's vocabulary.
struct Claim {
  static constexpr std::string_view wire_name = "Claim";
  Vec3 position, velocity;
  PawnValues values;
  uint8_t flags = 0;
  uint8_t placement_epoch = 0;

  template <class W>
  void fields(W& w) {
    w.shape("position", position);
    w.shape("velocity", velocity);
    w.list8("values", values, 0, MaxPawnValues);
    w.u8("flags", flags);
    w.tail();
    w.u8("placementEpoch", placement_epoch);
  }
};

// What snapshots the client holds, decoded, to serve as delta baselines: the newest snapshot tick,
// a mask of the 32 ticks before it (bit i: tick newest - 1 - i), and the rest table revision it
// holds complete (0: none). A packet's arrival is not a snapshot's application (a reordered
// message, an abandoned fragment set, a snapshot set aside), so the server codes only against
// what the client says it holds.
struct SnapshotsHeld {
  static constexpr std::string_view wire_name = "SnapshotsHeld";
  uint32_t newest_tick = 0;
  uint32_t held_mask = 0;
  uint32_t rest_revision = 0;
  template <class W>
  void fields(W& w) {
    w.u32("newestTick", newest_tick);
    w.u32("heldMask", held_mask);
    w.varu32("restRevision", rest_revision);
  }
};

struct InputFrame {
  static constexpr std::string_view wire_name = "InputFrame";
  static constexpr std::string_view message_name = "inputFrame";
  static constexpr uint8_t wire_id = 12;
  static constexpr wire::Direction wire_direction = wire::Direction::client_to_server;

  uint32_t first_sequence = 0;  // sequence of inputs[0]; the rest follow consecutively
  std::vector<InputCmd> inputs;
  std::optional<Claim> claim;
  std::optional<SnapshotsHeld> held;  // absent from a client that takes only full snapshots

  template <class W>
  void fields(W& w) {
    w.u32("firstSequence", first_sequence);
    w.list8("inputs", inputs, 1, MaxInputsPerPacket);
    w.optional("claim", claim);
    w.tail();
    w.optional("held", held);
  }
};

}  // namespace tickwire::protocol
