// The sample values behind the golden packets.
#include "wire_samples.h"

#include <cstring>

#include "tickwire/protocol/admission_place.h"
#include "tickwire/protocol/construct_call.h"
#include "tickwire/protocol/entity_event.h"
#include "tickwire/protocol/fire_request.h"
#include "tickwire/protocol/fixed_frame.h"
#include "tickwire/protocol/hit_event.h"
#include "tickwire/protocol/input_frame.h"
#include "tickwire/protocol/interact_request.h"
#include "tickwire/protocol/material_set.h"
#include "tickwire/protocol/ping.h"
#include "tickwire/protocol/relay_refused.h"
#include "tickwire/protocol/record_batch.h"
#include "tickwire/protocol/room_welcome.h"
#include "tickwire/protocol/scene_edit.h"
#include "tickwire/protocol/resume_ticket.h"
#include "tickwire/protocol/scene_edit_refused.h"
#include "tickwire/protocol/scene_node_state.h"
#include "tickwire/protocol/server_info.h"
#include "tickwire/protocol/rest_table_chunk.h"
#include "tickwire/protocol/snapshot.h"
#include "tickwire/protocol/snapshot_delta.h"
#include "tickwire/protocol/snapshot_fragment.h"
#include "tickwire/protocol/timed_input_frame.h"
#include "tickwire/protocol/wire_messages.h"
#include "tickwire/protocol/netcode_contract.h"
#include "tickwire/wire/codec.h"

namespace tickwire::test {
namespace {

using namespace protocol;

wire::Hash16 counting_hash(uint8_t start) {
  wire::Hash16 h;
  for (std::size_t i = 0; i < 16; ++i) h.bytes[i] = static_cast<uint8_t>(start + i);
  return h;
}

RecordBatch sample_records() {
  RecordBatch batch;
  batch.tick = 123456;
  batch.contract_hash = counting_hash(0xa0);
  EntityRecord pawn;
  pawn.kind = 1;
  pawn.position = {12.5f, -3.25f, 1.0f};
  pawn.yaw_deg = 90.0f;
  pawn.pitch_deg = 10.0f;
  pawn.flags = 0b0001;
  pawn.payload.channels = {KindChannel{1.6f}};  // a game's eye height
  EntityRecord crate = pawn;
  crate.kind = 2;
  crate.rotation = Rotation{wire::Quat{0.0f, 0.0f, 0.38268343f, 0.9238795f}};
  crate.payload.channels = {KindChannel{0.5f}, KindChannel{-1.0f}};
  crate.payload.bits = 0x81;
  crate.scale = Vec3{0.5f, 0.5f, 2.0f};
  ObjectRecord lamp;
  lamp.object_index = 1583;
  lamp.flags = 0b01;
  ComponentSection light;
  light.wire_id = 1;
  light.dirty = 0b100000;  // only the bits field
  light.bits = 1;
  ComponentSection mover;
  mover.wire_id = 2;
  mover.dirty = 0b010011;  // channels 0 and 1 and the channel count
  mover.channel[0] = 0.25f;
  mover.channel[1] = 0.01f;
  mover.channel_count = 2;
  lamp.sections = {light, mover};
  // An object a record moved, past index 16,383 (a three-byte varu32), with its transform section.
  ObjectRecord shoved;
  shoved.object_index = 20000;
  shoved.flags = 0b01;
  shoved.transform = ObjectTransform{Vec3{3.0f, 0.5f, -2.0f}, Rotation{wire::Quat{0.0f, 0.6f, 0.0f, 0.8f}},
                                     Vec3{1.0f, 2.0f, 1.0f}};
  batch.records = {Record{7, pawn}, Record{300, crate}, Record{100000, lamp}, Record{100001, shoved}};
  batch.record_count = static_cast<uint16_t>(batch.records.size());
  batch.rest_revision = 42;
  return batch;
}

RoomWelcome sample_welcome() {
  RoomPolicy policy;
  policy.identity = {"arena-7", "tickwire-test", "local", "content-12", "dev", "", ""};
  policy.vocabulary.kind(1, "pawn", KindPrecision{}, InterpProfile::standard, true)
      .kind(2, "crate", KindPrecision{1.0f / 256.0f, 11, 0, true}, InterpProfile::doubled)
      .entity_flag(0, "grounded", true)
      .object_flag(1, "hidden")
      .component(2, "mover", 2)
      .pawn_value("eyeHeight")
      .button(0, "jump");
  policy.prediction = {PawnBody::kinematic_controller, MovementAuthority::client_predicted};  // the pawn is predicted
  auto resolved = resolve_netcode_contract(policy);
  TW_ASSERT(resolved.ok(), "the sample policy resolves");
  RoomWelcome welcome;
  welcome.owner_id = 3;
  welcome.pawn_ref = 0x0000'0005'0001'0003ULL;
  welcome.server_tick = 4321;
  welcome.contract = *resolved.contract;
  welcome.contract_hash.bytes = contract_hash(welcome.contract).bytes();
  return welcome;
}

Snapshot sample_snapshot() {
  const RecordBatch batch = sample_records();
  Snapshot snapshot;
  snapshot.tick = batch.tick;
  snapshot.contract_hash = batch.contract_hash;
  OwnerDetail owner;
  owner.ack = InputAck{1002};
  owner.queue_depth = -2;
  owner.pawn.pawn_ref = 0x0000'0005'0001'0003ULL;
  owner.pawn.position = {12.5f, -3.25f, 1.0f};
  owner.pawn.velocity = {4.0f, 0.0f, 0.0f};
  owner.pawn.values = PawnValues{{1.8f}, {1.6f}};
  owner.pawn.flags = 0b0001;
  owner.pawn.placement_epoch = 255;
  owner.claim = ClaimOutcome::accepted;
  snapshot.owner = owner;
  snapshot.records = batch.records;
  snapshot.record_count = static_cast<uint16_t>(snapshot.records.size());
  return snapshot;
}

}  // namespace

std::vector<WireSample> wire_samples() {
  std::vector<WireSample> out;
  const auto& registry = protocol_messages();

  ConnectRequest connect;
  connect.schema_hash = registry.schema_hash();
  connect.build_name = "tickwire-test";
  out.push_back(make_wire_sample("connectRequest.bin", connect));
  out.push_back(make_wire_sample("schemaRequest.bin", SchemaRequest{counting_hash(1)}));
  SchemaText schema_text;
  schema_text.schema_hash = counting_hash(1);
  schema_text.text = "tickwire-schema 1;\nshape Ping {\n  sequence u32;\n}\nmessage 10 both ping Ping;\n";
  out.push_back(make_wire_sample("schemaText.bin", schema_text));

  out.push_back(make_wire_sample("ping.bin", Ping{77, 1234567890123ULL, false}));
  out.push_back(make_wire_sample("ping-reply.bin", Ping{77, 1234567890123ULL, true}));

  ServerInfo info;
  for (std::size_t i = 0; i < 16; ++i) info.server_id.bytes[i] = static_cast<uint8_t>(0xf0 ^ i);
  info.motd = "welcome to the arena \xe2\x9c\x93";
  info.region = Region::europe;
  info.features = kFeatureRestTable | kFeatureSpectators;
  info.uptime_ticks = 216000;
  info.utc_offset_minutes = -300;
  info.time_skew_us = -1500;
  info.epoch_offset_ns = -9000000000LL;
  info.priority = -3;
  info.max_clients = 255;
  info.build_label = "v1";
  out.push_back(make_wire_sample("serverInfo.bin", info));

  InputFrame frame;
  frame.first_sequence = 1000;
  for (int i = 0; i < 3; ++i) {
    InputCmd cmd;
    cmd.buttons = static_cast<uint32_t>(0x11 << i) & 0xff;
    cmd.move_x = 1.0f;
    cmd.move_y = -0.5f;
    cmd.yaw_deg = 45.0f + static_cast<float>(i);
    cmd.pitch_deg = -10.0f;
    frame.inputs.push_back(cmd);
  }
  out.push_back(make_wire_sample("inputFrame.bin", frame));
  Claim claim;
  claim.position = {1, 2, 3};
  claim.velocity = {4, 0, -9.8f};
  claim.values = PawnValues{{1.8f}, {1.6f}};
  claim.flags = 0b0001;
  claim.placement_epoch = 3;
  frame.claim = claim;
  out.push_back(make_wire_sample("inputFrame-claim.bin", frame));
  frame.held = SnapshotsHeld{123456, 0xfffffffdu, 3};
  out.push_back(make_wire_sample("inputFrame-held.bin", frame));

  out.push_back(make_wire_sample("recordBatch.bin", sample_records()));
  RecordBatch empty;
  empty.tick = 1;
  out.push_back(make_wire_sample("recordBatch-empty.bin", empty));

  MaterialSet materials;
  materials.revision = 9;
  materials.values = {{0, 0xff336699u}, {1, float_bits(0.35f)}, {4, 1}, {6, static_cast<uint32_t>(-12)}};
  materials.probe_points = {{0, 0, 0}, {10, 0, 2}};
  out.push_back(make_wire_sample("materialSet.bin", materials));

  out.push_back(make_wire_sample("roomWelcome.bin", sample_welcome()));
  out.push_back(make_wire_sample("snapshot.bin", sample_snapshot()));
  Snapshot spectator;
  spectator.tick = 7;
  spectator.contract_hash = counting_hash(0xa0);
  out.push_back(make_wire_sample("snapshot-spectator.bin", spectator));
  SnapshotFragment fragment;
  fragment.fragment_index = 2;
  fragment.fragment_count = 5;
  fragment.tick = 123456;
  for (int b : {0x11, 0x7b, 0x00, 0xff, 0x42}) fragment.slice.push_back(SliceByte{static_cast<uint8_t>(b)});
  out.push_back(make_wire_sample("snapshotFragment.bin", fragment));
  out.push_back(make_wire_sample("interactRequest.bin", InteractRequest{0x0000'0009'0002'0000ULL, 1}));
  ConstructCall call;
  call.target = 0x0001'0002u;  // the authority's construct 1, generation 2
  call.method = 7;
  for (int b : {0x01, 0xfe}) call.payload.push_back(SliceByte{static_cast<uint8_t>(b)});
  out.push_back(make_wire_sample("constructCall.bin", call));
  TimedInputFrame timed;
  timed.first_sequence = 4000;
  timed.newest_stamp_us = 12'345'678;
  timed.step_us = 6944;  // a 144 Hz client
  for (int i = 0; i < 2; ++i) {
    InputCmd cmd;
    cmd.buttons = 0x3u << i;
    cmd.move_x = 0.5f;
    cmd.yaw_deg = 90.0f + static_cast<float>(i);
    timed.inputs.push_back(cmd);
  }
  timed.held = SnapshotsHeld{700, 0x5u, 2};
  out.push_back(make_wire_sample("timedInputFrame.bin", timed));
  SnapshotDelta delta;
  delta.tick = 123456;
  delta.contract_tag = 0xa3a2a1a0u;
  delta.rest_revision = 3;
  delta.baseline_age = 6;
  delta.predict_age = 9;
  for (int b : {0x80, 0x01, 0xfe}) delta.body.push_back(SliceByte{static_cast<uint8_t>(b)});
  out.push_back(make_wire_sample("snapshotDelta.bin", delta));
  RestTableChunk chunk;
  chunk.revision = 3;
  chunk.object_count = 513;
  chunk.chunk_index = 1;
  chunk.chunk_count = 2;
  for (const Record& record : sample_records().records) {
    if (std::holds_alternative<ObjectRecord>(record.body)) chunk.records.push_back(record);
  }
  out.push_back(make_wire_sample("mapRestTable.bin", chunk));
  out.push_back(make_wire_sample("relayRefused.bin", RelayRefused{7, 300, RelayRefusal::rate_limited}));
  EntityEvent used;  // a Use taken: a door's object (past a 2-byte varu32), the state it left
  used.source_id = (uint32_t{1} << 23) + 20000;
  used.event_kind = 1;
  used.payload.channels = {KindChannel{0.25f}, KindChannel{0.01f}};
  out.push_back(make_wire_sample("entityEvent.bin", used));
  // A shot from a 1.6 m eye along +z at a render tick half past 123456, and what it struck.
  out.push_back(make_wire_sample("fireRequest.bin", FireRequest{300, Vec3{1.5f, 1.6f, -2}, Vec3{0, 0, 1}, 123456, 0x8000}));
  out.push_back(make_wire_sample("hitEvent.bin", HitEvent{(uint32_t{1} << 23) + 7, 300, HitKind::surface, Vec3{1.5f, 1.6f, 30.875f},
                                                          Vec3{0, 0, -1}, HitBody::map_box, 2, "brick"}));
  out.push_back(make_wire_sample("hitEvent-water.bin", HitEvent{(uint32_t{1} << 23) + 7, 301, HitKind::water, Vec3{0.25f, -0.125f, 9},
                                                                Vec3{0, 1, 0}, HitBody::none, 0, "water"}));
  // One gesture of each kind: the four value forms and a revert, a component removed over an inherited
  // one, a hide and a move, an output rewired (a call, a delay, a call with a number) and one reverted;
  // then the edit set it leaves and a refusal told to its sender.
  SceneEdit edit;
  edit.gesture = 41;
  edit.field_edits = {FieldEdit{130, 1, "intensity", edit_numbers({2.5f})},
                      FieldEdit{130, 1, "color", edit_numbers({1, 0.5f, 0.25f})},
                      FieldEdit{12, 10, "solid", edit_switch(false)},
                      FieldEdit{200, 5, "material", edit_word("metal")},
                      FieldEdit{130, 1, "layers", edit_words({"world", "props"})},
                      FieldEdit{7, 2, "speed_mps", std::nullopt}};
  edit.component_edits = {ComponentEdit{201, 5, ComponentOp::remove}};
  edit.object_edits = {ObjectEdit{12, ObjectVerb::hide, std::nullopt, ""},
                       ObjectEdit{200, ObjectVerb::move, EditTransform{Vec3{3, 0.5f, -4}, EditRotation{0, 0.70710677f, 0, 0.70710677f}}, ""}};
  const std::vector<WiringAction> rewired = {wiring_call("door.e", "toggle"), wiring_delay(0.5f), wiring_call("counter.a", "add", 2)};
  edit.wiring_edits = {WiringEdit{7, "onPressed", WiringOp::set, rewired}, WiringEdit{9, "onEndTouch", WiringOp::revert, {}}};
  out.push_back(make_wire_sample("sceneEdit.bin", edit));
  SceneNodeState state;
  state.revision = 9;
  state.objects = {ObjectNodeState{7, false, std::nullopt, "", {}, {}, {OutputState{"onPressed", rewired}}},
                   ObjectNodeState{12, true, std::nullopt, "", {}, {FieldState{10, "solid", edit_switch(false)}}, {}},
                   ObjectNodeState{130, false, std::nullopt, "lamp.brightened", {},
                                   {FieldState{1, "color", edit_numbers({1, 0.5f, 0.25f})},
                                    FieldState{1, "intensity", edit_numbers({2.5f})},
                                    FieldState{1, "layers", edit_words({"world", "props"})}},
                                   {}},
                   ObjectNodeState{201, false, EditTransform{Vec3{3, 0.5f, -4}, std::nullopt}, "",
                                   {ComponentState{5, ComponentChange::removed}}, {}, {}}};
  out.push_back(make_wire_sample("sceneNodeState.bin", state));
  out.push_back(make_wire_sample("sceneEditRefused.bin", SceneEditRefused{41, 130, 1, "intensity", EditRefusal::wrong_form}));
  out.push_back(make_wire_sample("sceneEditRefused-wiring.bin", SceneEditRefused{41, 7, 0, "onPressed", EditRefusal::unknown_target}));
  out.push_back(make_wire_sample("resumeTicket.bin", ResumeTicket{ResumeOutcome::resumed, ResumeRefusal::malformed, "01a2b3", 600}));
  out.push_back(make_wire_sample("resumeTicket-refused.bin", ResumeTicket{ResumeOutcome::refused, ResumeRefusal::pawn_gone, "", 0}));
  // A place in line past one varint byte (position 300 of 1,200, about four minutes), and a seat offered.
  out.push_back(make_wire_sample("admissionPlace.bin",
                                 AdmissionPlace{AdmissionStanding::waiting, 300, 1200, 245'000, 0, AdmissionRefusal::line_full}));
  out.push_back(make_wire_sample("admissionPlace-offered.bin",
                                 AdmissionPlace{AdmissionStanding::seat_offered, 0, 1199, 0, 20'000, AdmissionRefusal::line_full}));
  return out;
}

}  // namespace tickwire::test
