// Typed-encoded sample bodies of every registered message, several per message so each branch
// (optional present/absent, each union case, sparse members set and clear, a packet that ends at
// a tail) is covered. Shared by the schema walker, dynamic encoder and plan tests.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tickwire/protocol/fixed_frame.h"
#include "tickwire/protocol/input_frame.h"
#include "tickwire/protocol/material_set.h"
#include "tickwire/protocol/ping.h"
#include "tickwire/protocol/record_batch.h"
#include "tickwire/protocol/server_info.h"
#include "tickwire/wire/codec.h"

namespace tickwire::test {

struct MessageSample {
  std::string_view message;  // the message's schema name
  std::string label;
  std::vector<uint8_t> body;
};

template <class M>
std::vector<uint8_t> typed_bytes(const M& value) {
  std::vector<uint8_t> out(wire::measure(value));
  const auto written = wire::encode(value, out);
  TW_ASSERT(written.ok() && *written == out.size(), "a sample must encode to its measured size");
  return out;
}

inline wire::Hash16 sample_hash(uint8_t seed) {
  wire::Hash16 h;
  for (std::size_t i = 0; i < h.bytes.size(); ++i) h.bytes[i] = static_cast<uint8_t>(seed + i * 7);
  return h;
}

inline protocol::Record entity_record(uint32_t id, bool with_rotation) {
  protocol::EntityRecord e;
  e.kind = protocol::NetKind::door;
  e.position = {1.5f, -2.25f, 3.0f};
  e.yaw_deg = 90.0f;
  e.pitch_deg = 12.5f;
  e.eye_height = 1.62f;
  e.flags = 0b1011;
  if (with_rotation) e.rotation = protocol::Rotation{wire::Quat{0.0f, 0.70710677f, 0.0f, 0.70710677f}};
  e.payload.channels = {{0.25f}, {-1.0f}};
  e.payload.bits = 0x5a;
  return protocol::Record{id, e};
}

inline protocol::Record object_record(uint32_t id) {
  protocol::ObjectRecord o;
  o.object_index = 300;
  o.flags = 0b01;
  protocol::ComponentSection s;
  s.wire_id = 7;
  s.dirty = 0b100101;  // channel0, channel2, bits
  s.channel[0] = 0.5f;
  s.channel[2] = 2.0f;
  s.bits = 3;
  o.sections = {s, protocol::ComponentSection{}};
  return protocol::Record{id, o};
}

inline std::vector<MessageSample> protocol_samples() {
  std::vector<MessageSample> out;
  auto add = [&](std::string_view message, std::string label, std::vector<uint8_t> body) {
    out.push_back(MessageSample{message, std::move(label), std::move(body)});
  };
  add("connectRequest", "basic", typed_bytes(protocol::ConnectRequest{1, sample_hash(3), "tickwire-test"}));
  add("schemaRequest", "basic", typed_bytes(protocol::SchemaRequest{sample_hash(9)}));
  add("schemaText", "basic", typed_bytes(protocol::SchemaText{sample_hash(1), "tickwire-schema 1;\n"}));
  add("ping", "request", typed_bytes(protocol::Ping{77, 123456789012ull, false}));
  add("ping", "reply", typed_bytes(protocol::Ping{78, 5, true}));

  protocol::ServerInfo info;
  info.server_id = wire::Guid{sample_hash(5).bytes};
  info.motd = "welcome \xc3\xa9";
  info.region = protocol::Region::asia;
  info.features = protocol::kFeatureRestTable | protocol::kFeatureSpectators;
  info.uptime_ticks = 1u << 20;
  info.utc_offset_minutes = -300;
  info.time_skew_us = -42;
  info.epoch_offset_ns = -1234567890123ll;
  info.priority = -3;
  info.max_clients = 64;
  info.build_label = "nightly";
  add("serverInfo", "full", typed_bytes(info));
  info.build_label.clear();
  std::vector<uint8_t> older = typed_bytes(info);
  older.pop_back();  // an older writer's packet ends at the tail, before buildLabel
  add("serverInfo", "ends-at-tail", older);

  protocol::InputFrame frame;
  frame.first_sequence = 1000;
  frame.inputs = {protocol::InputCmd{0x81, 0.5f, -1.0f, 180.0f, -45.0f, true}, protocol::InputCmd{}};
  add("inputFrame", "no-claim", typed_bytes(frame));
  protocol::Claim claim;
  claim.position = {10, 0, -5};
  claim.velocity = {0, -9.8f, 0};
  claim.stance_height = 1.8f;
  claim.eye_height = 1.6f;
  claim.flags = protocol::kClaimGrounded;
  claim.placement_epoch = 4;
  frame.claim = claim;
  add("inputFrame", "claim", typed_bytes(frame));

  protocol::RecordBatch batch;
  batch.tick = 4242;
  batch.contract_hash = sample_hash(11);
  batch.records = {entity_record(1, true), object_record(2), entity_record(3, false)};
  batch.record_count = static_cast<uint16_t>(batch.records.size());
  batch.rest_revision = 99;
  add("recordBatch", "mixed", typed_bytes(batch));
  add("recordBatch", "empty", typed_bytes(protocol::RecordBatch{}));

  protocol::MaterialSet materials;
  materials.revision = 12;
  materials.values = {{0, 0xff00ffu}, {1, 0x3f000000u}, {4, 1}, {6, 0xfffffffeu}};
  materials.probe_points = {{1, 2, 3}};
  add("materialSet", "values", typed_bytes(materials));
  return out;
}

}  // namespace tickwire::test
