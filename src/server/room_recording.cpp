// The room recording's layout, little-endian: "TWROOMRC", version u16, the contract (u32 length, its
// wire form), the room's entity capacity and pawn hold (u32 each), the first tick (i64), the save
// state (u32 length, bytes); then events, each [kind u8] and its body. A tick: [ticks since the
// previous one u32][sessions u16], each [owner u16][source u8, bit 7: a claim rides, bit 6: a
// repeated tick was guessed] and, when fresh, [sequence u32][buttons u32][move x, y, yaw, pitch f32]
// and the claim (u32 length, wire form); its witness: [checksum u64]. Every other event opens with the tick it takes effect at (i64) and its
// owner (u16, but world settings); a construct call and a scene edit ride in their wire form (u32
// length first), a shot and an input with their floats exact (the wire would quantise an input's).
#include "tickwire/server/room_recording.h"

#include <algorithm>
#include <cmath>

#include "tickwire/core/byte_record.h"
#include "tickwire/server/room.h"
#include "tickwire/wire/codec.h"

namespace tickwire {
namespace {

constexpr uint8_t kClaimBit = 0x80;    // fresh: a claim rides
constexpr uint8_t kGuessedBit = 0x40;  // repeated: the tick was the next sequence's, guessed
constexpr uint8_t kSourceMask = 0x03;

template <class T>
void put_shape(ByteRecordWriter& write, const T& value) {
  write.blob(wire::encode_bytes(value));
}

void put_cmd(ByteRecordWriter& write, const protocol::InputCmd& cmd) {
  write.u32(cmd.buttons);
  write.f32(cmd.move_x);
  write.f32(cmd.move_y);
  write.f32(cmd.yaw_deg);
  write.f32(cmd.pitch_deg);
}

void put_tick_inputs(ByteRecordWriter& write, const RoomEvent& event, Tick previous_tick) {
  write.u32(static_cast<uint32_t>(event.tick - previous_tick));
  write.u16(static_cast<uint16_t>(event.inputs.size()));
  for (const RecordedInput& in : event.inputs) {
    const bool fresh = in.source == TickInputSource::fresh;
    write.u16(in.owner);
    const bool guessed = in.source == TickInputSource::repeated && in.guessed;
    write.u8(static_cast<uint8_t>(static_cast<uint8_t>(in.source) | (fresh && in.claim ? kClaimBit : 0) |
                                  (guessed ? kGuessedBit : 0)));
    if (!fresh) continue;
    write.u32(in.sequence);
    put_cmd(write, in.cmd);
    if (in.claim) put_shape(write, *in.claim);
  }
}

void put_shot(ByteRecordWriter& write, const FireShot& shot) {
  write.u32(shot.shot);
  for (float v : {shot.eye.x, shot.eye.y, shot.eye.z, shot.aim.x, shot.aim.y, shot.aim.z}) write.f32(v);
  write.f64(shot.render_tick);
  write.flag(shot.rewind_clamped);
}

// --- reading --------------------------------------------------------------------------------------

// Where the walk stands: the tick the next event must name, and whether a tick is open (its inputs
// read, its witness not yet).
struct Walk {
  Tick tick;
  bool in_tick = false;
};

// An input as the wire could have carried it (its ranges), its floats exact.
bool valid_cmd(const protocol::InputCmd& cmd) {
  const auto within = [](float v, const wire::QuantSpec& spec) {
    return std::isfinite(v) && v >= spec.min && v <= spec.max;
  };
  return cmd.buttons < (1u << protocol::kInputButtonBits) && within(cmd.move_x, protocol::kMoveAxisSpec) &&
         within(cmd.move_y, protocol::kMoveAxisSpec) && within(cmd.yaw_deg, protocol::kYawSpec) &&
         within(cmd.pitch_deg, protocol::kPitchSpec);
}

using Refused = std::optional<RecordingRefusal>;

bool valid_owner(OwnerId owner) { return owner != kAuthorityOwner && owner <= kRoomMaxSessions; }

template <class T>
Refused read_shape(ByteRecordReader& read, T& out) {
  const std::span<const uint8_t> bytes = read.blob(kMaxRecordedMessageBytes);
  if (!read.ok()) return RecordingRefusal::truncated;
  out = T{};
  return wire::decode(bytes, out) ? Refused{} : RecordingRefusal::bad_message;
}

Refused read_input(ByteRecordReader& read, RecordedInput& in) {
  in.owner = read.u16();
  const uint8_t source = read.u8();
  if (!read.ok()) return RecordingRefusal::truncated;
  if (!valid_owner(in.owner) || (source & ~(kClaimBit | kGuessedBit | kSourceMask)) != 0 || (source & kSourceMask) > 2)
    return RecordingRefusal::value_out_of_range;
  in.source = static_cast<TickInputSource>(source & kSourceMask);
  in.guessed = (source & kGuessedBit) != 0;
  if (in.guessed && in.source != TickInputSource::repeated) return RecordingRefusal::value_out_of_range;
  in.claim.reset();
  const bool fresh = in.source == TickInputSource::fresh;
  if (!fresh) return (source & kClaimBit) != 0 ? Refused{RecordingRefusal::value_out_of_range} : Refused{};
  in.sequence = read.u32();
  in.cmd.buttons = read.u32();
  in.cmd.move_x = read.f32();
  in.cmd.move_y = read.f32();
  in.cmd.yaw_deg = read.f32();
  in.cmd.pitch_deg = read.f32();
  if (!read.ok()) return RecordingRefusal::truncated;
  if (!valid_cmd(in.cmd)) return RecordingRefusal::value_out_of_range;
  if ((source & kClaimBit) == 0) return std::nullopt;
  return read_shape(read, in.claim.emplace());
}

Refused read_tick(ByteRecordReader& read, Walk& walk, RoomEvent& event) {
  const uint32_t gap = read.u32();
  const uint16_t count = read.u16();
  if (!read.ok()) return RecordingRefusal::truncated;
  if (count > kRoomMaxSessions) return RecordingRefusal::count_over_cap;
  if (gap == 0 || gap > kMaxRecordedTickGap || walk.tick.value() + gap > kMaxRecordedTick)
    return RecordingRefusal::value_out_of_range;
  walk.tick += gap;
  event.tick = walk.tick;
  event.inputs.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    if (const Refused refused = read_input(read, event.inputs[i])) return refused;
    if (i > 0 && event.inputs[i - 1].owner >= event.inputs[i].owner) return RecordingRefusal::out_of_order;
  }
  walk.in_tick = true;
  return std::nullopt;
}

Refused read_session_change(ByteRecordReader& read, RoomEvent& event) {
  event.pawn = EntityRef::from_raw(read.u64());
  event.world_authority = read.flag();
  const uint8_t name_bytes = read.u8();
  if (!read.ok()) return RecordingRefusal::truncated;
  if (name_bytes > kMaxPlayerNameBytes) return RecordingRefusal::value_out_of_range;
  const std::span<const uint8_t> name = read.raw(name_bytes);
  if (!read.ok()) return RecordingRefusal::truncated;
  event.player.assign(name.begin(), name.end());
  return std::nullopt;
}

Refused read_shot(ByteRecordReader& read, FireShot& shot) {
  shot.shot = read.u32();
  shot.eye = protocol::Vec3{read.f32(), read.f32(), read.f32()};
  shot.aim = protocol::Vec3{read.f32(), read.f32(), read.f32()};
  shot.render_tick = read.f64();
  shot.rewind_clamped = read.flag();
  return read.ok() ? Refused{} : RecordingRefusal::truncated;
}

// A change's body after its tick and owner.
Refused read_change_body(ByteRecordReader& read, RoomEvent& event) {
  switch (event.kind) {
    case RoomEventKind::admit:
    case RoomEventKind::resume:
      return read_session_change(read, event);
    case RoomEventKind::leave:
    case RoomEventKind::depart:
      return std::nullopt;
    case RoomEventKind::world_settings:
      event.world.forgiveness = read.f32();
      event.world.time_scale = read.f32();
      if (!read.ok()) return RecordingRefusal::truncated;
      return protocol::valid_world_settings(event.world) ? Refused{} : RecordingRefusal::value_out_of_range;
    case RoomEventKind::interact:
      event.interact.target_ref = read.u64();
      event.interact.action = read.u8();
      return read.ok() ? Refused{} : RecordingRefusal::truncated;
    case RoomEventKind::construct_call:
      return read_shape(read, event.call);
    case RoomEventKind::fire:
      return read_shot(read, event.shot);
    case RoomEventKind::edit:
      return read_shape(read, event.edit);
    default:
      return RecordingRefusal::unknown_event;
  }
}

// A change (anything but a tick and its witness): its tick must be the walk's, and only a shot may
// stand inside a tick.
Refused read_change(ByteRecordReader& read, const Walk& walk, RoomEvent& event) {
  if (event.kind > RoomEventKind::edit) return RecordingRefusal::unknown_event;
  event.tick = Tick::from_value(read.i64());
  event.owner = event.kind == RoomEventKind::world_settings ? kAuthorityOwner : read.u16();
  if (!read.ok()) return RecordingRefusal::truncated;
  if (walk.in_tick && event.kind != RoomEventKind::fire) return RecordingRefusal::out_of_order;
  if (event.tick != walk.tick) return RecordingRefusal::out_of_order;
  if (event.kind != RoomEventKind::world_settings && !valid_owner(event.owner)) return RecordingRefusal::value_out_of_range;
  return read_change_body(read, event);
}

Refused read_event(ByteRecordReader& read, Walk& walk, RoomEvent& event) {
  const uint8_t kind = read.u8();
  if (!read.ok()) return RecordingRefusal::truncated;
  event.kind = static_cast<RoomEventKind>(kind);
  if (kind == 0 || kind > static_cast<uint8_t>(RoomEventKind::edit)) return RecordingRefusal::unknown_event;
  if (event.kind == RoomEventKind::tick) {
    if (walk.in_tick) return RecordingRefusal::out_of_order;
    return read_tick(read, walk, event);
  }
  if (event.kind == RoomEventKind::witness) {
    event.witness = read.u64();
    if (!read.ok()) return RecordingRefusal::truncated;
    if (!walk.in_tick) return RecordingRefusal::out_of_order;
    event.tick = walk.tick;
    walk.in_tick = false;
    return std::nullopt;
  }
  return read_change(read, walk, event);
}

RoomRecordingRead refuse(RecordingRefusal refusal, std::size_t at) {
  RoomRecordingRead out;
  out.refusal = refusal;
  out.refused_at = at;
  return out;
}

// The header up to the events; `recording` filled in.
Refused read_header(ByteRecordReader& read, RoomRecording& recording) {
  std::array<uint8_t, kRoomRecordingMagic.size()> magic{};
  const std::span<const uint8_t> head = read.raw(magic.size());
  if (!read.ok()) return RecordingRefusal::truncated;
  std::copy(head.begin(), head.end(), magic.begin());
  if (magic != kRoomRecordingMagic) return RecordingRefusal::bad_magic;
  const uint16_t version = read.u16();
  if (!read.ok()) return RecordingRefusal::truncated;
  if (version != kRoomRecordingVersion) return RecordingRefusal::wrong_version;
  const uint32_t contract_bytes = read.u32();
  if (!read.ok()) return RecordingRefusal::truncated;
  if (contract_bytes > kMaxRecordedContractBytes) return RecordingRefusal::count_over_cap;
  const std::span<const uint8_t> contract = read.raw(contract_bytes);
  recording.entity_capacity = read.u32();
  recording.pawn_hold_ticks = read.u32();
  recording.first_tick = Tick::from_value(read.i64());
  const uint32_t state_bytes = read.u32();
  if (!read.ok()) return RecordingRefusal::truncated;
  if (!wire::decode(contract, recording.contract) || !validate_netcode_contract(recording.contract).ok())
    return RecordingRefusal::bad_contract;
  if (recording.entity_capacity == 0 || recording.entity_capacity >= EntityNetHandle::kGameIndexBase ||
      recording.first_tick.value() < 0 || recording.first_tick.value() > kMaxRecordedTick)
    return RecordingRefusal::value_out_of_range;
  if (state_bytes > kMaxRecordedStateBytes) return RecordingRefusal::count_over_cap;
  recording.initial_state = read.raw(state_bytes);
  return read.ok() ? Refused{} : RecordingRefusal::truncated;
}

}  // namespace

bool is_room_recording(std::span<const uint8_t> bytes) {
  return bytes.size() >= kRoomRecordingMagic.size() &&
         std::equal(kRoomRecordingMagic.begin(), kRoomRecordingMagic.end(), bytes.begin());
}

RoomRecordingRead read_room_recording(std::span<const uint8_t> bytes) {
  if (bytes.size() > kMaxRoomRecordingBytes) return refuse(RecordingRefusal::count_over_cap, 0);
  ByteRecordReader read(bytes);
  RoomRecording recording;
  if (const Refused refused = read_header(read, recording)) return refuse(*refused, bytes.size() - read.left());
  const std::size_t events_at = bytes.size() - read.left();
  recording.events = bytes.subspan(events_at);
  Walk walk{recording.first_tick, false};
  RoomEvent event;
  while (read.left() > 0) {
    const std::size_t at = bytes.size() - read.left();
    if (const Refused refused = read_event(read, walk, event)) return refuse(*refused, at);
    ++recording.event_count;
    if (event.kind == RoomEventKind::witness) ++recording.ticks;
  }
  if (walk.in_tick) return refuse(RecordingRefusal::truncated, bytes.size());  // a tick with no witness
  recording.last_tick = walk.tick;
  RoomRecordingRead out;
  out.recording = std::move(recording);
  return out;
}

RoomEventCursor::RoomEventCursor(const RoomRecording& recording)
    : events_(recording.events), tick_(recording.first_tick) {}

bool RoomEventCursor::next(RoomEvent& out) {
  if (at_ >= events_.size()) return false;
  ByteRecordReader read(events_.subspan(at_));
  Walk walk{tick_, in_tick_};
  if (read_event(read, walk, out)) {
    at_ = events_.size();
    return false;
  }
  at_ = events_.size() - read.left();
  tick_ = walk.tick;
  in_tick_ = walk.in_tick;
  return true;
}

void append_room_recording_header(std::vector<uint8_t>& out, const NetcodeContract& contract, uint32_t entity_capacity,
                                  uint32_t pawn_hold_ticks, Tick first_tick, std::span<const uint8_t> initial_state) {
  ByteRecordWriter write(out);
  write.raw(kRoomRecordingMagic);
  write.u16(kRoomRecordingVersion);
  put_shape(write, contract);
  write.u32(entity_capacity);
  write.u32(pawn_hold_ticks);
  write.i64(first_tick.value());
  write.blob(initial_state);
}

void append_room_event(std::vector<uint8_t>& out, const RoomEvent& event, Tick previous_tick) {
  ByteRecordWriter write(out);
  write.u8(static_cast<uint8_t>(event.kind));
  if (event.kind == RoomEventKind::tick) return put_tick_inputs(write, event, previous_tick);
  if (event.kind == RoomEventKind::witness) return write.u64(event.witness);
  write.i64(event.tick.value());
  if (event.kind != RoomEventKind::world_settings) write.u16(event.owner);
  switch (event.kind) {
    case RoomEventKind::admit:
    case RoomEventKind::resume:
      write.u64(event.pawn.raw());
      write.flag(event.world_authority);
      write.name(event.player);
      return;
    case RoomEventKind::world_settings:
      write.f32(event.world.forgiveness);
      write.f32(event.world.time_scale);
      return;
    case RoomEventKind::interact:
      write.u64(event.interact.target_ref);
      write.u8(event.interact.action);
      return;
    case RoomEventKind::construct_call:
      return put_shape(write, event.call);
    case RoomEventKind::fire:
      return put_shot(write, event.shot);
    case RoomEventKind::edit:
      return put_shape(write, event.edit);
    default:
      return;  // leave, depart: the owner says it all
  }
}

}  // namespace tickwire
