// A room recording (seed 002, "Replays" of the snapshot modes): the room's whole save state, then, in
// the order they happened, everything that changed it (each tick's applied inputs, sessions arriving
// and leaving, interactions, construct calls, shots, scene edits, world settings), and per tick a
// 64-bit witness of what the room would replicate (room_witness.h). The file is versioned, its magic
// distinct from deterministic mode's replays, and read with every count, length and order checked:
// a malformed recording is refused whole, by name, before anything replays it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tickwire/clock/tick.h"
#include "tickwire/core/reasons.h"
#include "tickwire/protocol/construct_call.h"
#include "tickwire/protocol/input_frame.h"
#include "tickwire/protocol/interact_request.h"
#include "tickwire/protocol/netcode_contract.h"
#include "tickwire/protocol/scene_edit.h"
#include "tickwire/protocol/world_settings.h"
#include "tickwire/replication/handles/entity_handle.h"
#include "tickwire/server/fire_shot.h"
#include "tickwire/server/tick_input.h"
#include "tickwire/transport/message_envelope.h"

namespace tickwire {

inline constexpr std::array<uint8_t, 8> kRoomRecordingMagic = {'T', 'W', 'R', 'O', 'O', 'M', 'R', 'C'};
// 2: owner ids and a tick's session count are u16, and a repeated tick says whether it was guessed.
inline constexpr uint16_t kRoomRecordingVersion = 2;
inline constexpr std::size_t kMaxRoomRecordingBytes = std::size_t{512} << 20;  // a writer stops taking ticks past it
inline constexpr std::size_t kMaxRecordedContractBytes = 64u << 10;
inline constexpr std::size_t kMaxRecordedStateBytes = std::size_t{80} << 20;   // the save state (game part: 64 MiB)
inline constexpr std::size_t kMaxRecordedMessageBytes = 1u << 20;               // one construct call or scene edit
inline constexpr uint32_t kMaxRecordedTickGap = 1u << 30;                      // ticks between two recorded ticks
// The last tick a recording may name: a replay's clock places its due time (a double of
// nanoseconds) within the clock's slot epsilon up to here; over a year of a room at 60 Hz.
inline constexpr int64_t kMaxRecordedTick = int64_t{1} << 31;

// Why a recording does not read (nothing of it is replayed).
TW_REASONS(RecordingRefusal,
           bad_magic,           // not a room recording
           wrong_version,       // a layout this build does not read
           truncated,           // the bytes ended inside the header, an event, or a tick (no witness)
           count_over_cap,      // a length past its cap (contract, state, message, recording)
           value_out_of_range,  // an owner, tick gap, input source, player name or setting no room holds
           bad_contract,        // a contract that does not decode or validate
           bad_message,         // a recorded claim, construct call or scene edit that does not decode
           unknown_event,       // an event kind this build does not know
           out_of_order)        // an event where none may stand: a tick's witness outside it, an
                                // owner twice or unsorted in a tick, an event naming another tick

enum class RoomEventKind : uint8_t {
  tick = 1,        // a tick runs: the input each session's pawn applied
  witness = 2,     // the tick is simulated: the checksum of what it replicates
  admit = 3,
  leave = 4,
  depart = 5,
  resume = 6,
  world_settings = 7,
  interact = 8,
  construct_call = 9,
  fire = 10,       // between ticks, or inside one (a shot that waited for its input)
  edit = 11,
};

// One session's applied input on a tick. A starved tick records only its source: the queue derives
// what it applies from the one before, in the replay as in the original.
struct RecordedInput {
  OwnerId owner = 0;
  TickInputSource source = TickInputSource::zeroed;
  bool guessed = false;   // repeated only: the tick ran the next sequence on the guess
  uint32_t sequence = 0;  // fresh only
  protocol::InputCmd cmd;  // fresh only
  std::optional<protocol::Claim> claim;  // fresh only
};

// One event as read (the fields its kind uses). `tick`: the tick it takes effect at: for a tick,
// the tick run; for a change between ticks, the room's last tick; for a shot, the tick it is traced on.
struct RoomEvent {
  RoomEventKind kind = RoomEventKind::tick;
  Tick tick;
  OwnerId owner = 0;
  std::vector<RecordedInput> inputs;  // tick
  uint64_t witness = 0;               // witness
  EntityRef pawn;                     // admit, resume
  std::string player;                 // admit, resume
  bool world_authority = false;       // admit, resume
  protocol::WorldSettings world;      // world_settings
  protocol::InteractRequest interact;
  protocol::ConstructCall call;
  FireShot shot;
  protocol::SceneEdit edit;
};

// What the header says and where the events are (a view into the bytes read).
struct RoomRecording {
  NetcodeContract contract;
  uint32_t entity_capacity = 0;
  uint32_t pawn_hold_ticks = 0;
  Tick first_tick;  // the save state's tick: the first recorded tick follows it
  std::span<const uint8_t> initial_state;
  std::span<const uint8_t> events;
  uint64_t ticks = 0;        // ticks recorded (each with its witness)
  uint64_t event_count = 0;  // every event, ticks and witnesses included
  Tick last_tick;
};

struct RoomRecordingRead {
  std::optional<RoomRecording> recording;
  RecordingRefusal refusal = RecordingRefusal::truncated;  // when there is none
  std::size_t refused_at = 0;                              // the byte offset the refusal was found at
  explicit operator bool() const { return recording.has_value(); }
};

// Whether `bytes` start with a room recording's magic (what `tickwire replay` tells kinds apart by).
bool is_room_recording(std::span<const uint8_t> bytes);

// Reads the header and checks every event (lengths, values, order) without replaying anything.
RoomRecordingRead read_room_recording(std::span<const uint8_t> bytes);

// Walks a read recording's events in order.
class RoomEventCursor {
 public:
  explicit RoomEventCursor(const RoomRecording& recording);
  // The next event into `out` (its buffers reused): false at the end (or, never for a recording
  // read_room_recording accepted, at an event that does not read).
  bool next(RoomEvent& out);

 private:
  std::span<const uint8_t> events_;
  std::size_t at_ = 0;
  Tick tick_;
  bool in_tick_ = false;
};

// The layout's writing side (the recording writer uses them; tests build malformed files with them).
void append_room_recording_header(std::vector<uint8_t>& out, const NetcodeContract& contract, uint32_t entity_capacity,
                                  uint32_t pawn_hold_ticks, Tick first_tick, std::span<const uint8_t> initial_state);
// An event after the previous one (`previous_tick`: the tick of the event before, or the first tick).
void append_room_event(std::vector<uint8_t>& out, const RoomEvent& event, Tick previous_tick);

}  // namespace tickwire
