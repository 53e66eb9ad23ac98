// The v0 shapes and sample values. Only used to (re)write the frozen v0 fixtures and to check
// that the checked-in v0 schema text still matches them.
#include "legacy_v0.h"

#include <cstring>
#include <optional>
#include <variant>

#include "tickwire/protocol/fixed_frame.h"
#include "tickwire/wire/codec.h"
#include "tickwire/wire/message_registry.h"

namespace tickwire::test {
namespace {

using wire::Direction;

struct Vec3 {
  static constexpr std::string_view wire_name = "Vec3";
  float x = 0, y = 0, z = 0;
  template <class W>
  void fields(W& w) {
    w.f32("x", x);
    w.f32("y", y);
    w.f32("z", z);
  }
};

// Unchanged since v0 but for its id (9 then, 10 now).
struct Ping {
  static constexpr std::string_view wire_name = "Ping";
  static constexpr std::string_view message_name = "ping";
  static constexpr uint8_t wire_id = 9;
  static constexpr Direction wire_direction = Direction::both;
  uint32_t sequence = 0;
  uint64_t sent_at_us = 0;
  bool is_reply = false;
  template <class W>
  void fields(W& w) {
    w.u32("sequence", sequence);
    w.u64("sentAtUs", sent_at_us);
    w.boolean("isReply", is_reply);
  }
};

// v0 numbered the regions differently and had no asia; region was an enum8, motd a str8, the
// features a flags8 with the bits in another order; it had a `legacyPort` since removed and no
// build label (the tail today's reader stops at).
inline constexpr wire::NamedValue kRegionMembers[] = {{"europe", 5}, {"northAmerica", 6}, {"local", 7}};
inline constexpr wire::EnumDef kRegionDef{"Region", kRegionMembers};
inline constexpr wire::NamedValue kFeatureBits[] = {{"spectators", 0}, {"restTable", 1}};
inline constexpr wire::FlagsDef kFeaturesDef{"ServerFeatures", kFeatureBits};

struct ServerInfo {
  static constexpr std::string_view wire_name = "ServerInfo";
  static constexpr std::string_view message_name = "serverInfo";
  static constexpr uint8_t wire_id = 11;
  static constexpr Direction wire_direction = Direction::server_to_client;
  wire::Guid server_id;
  uint8_t max_clients = 0;  // moved: v0 wrote it second
  std::string motd;
  uint8_t region = 7;
  uint8_t features = 0;
  uint16_t legacy_port = 0;
  uint32_t uptime_ticks = 0;  // u32 then, varu64 now
  template <class W>
  void fields(W& w) {
    w.guid("serverId", server_id);
    w.u8("maxClients", max_clients);
    w.str8("motd", motd, 200);
    w.enum8("region", region, kRegionDef);
    w.flags8("features", features, kFeaturesDef);
    w.u16("legacyPort", legacy_port);
    w.u32("uptimeTicks", uptime_ticks);
  }
};

// v0's claim had no placement epoch and its inputs list was a list16.
struct InputCmd {
  static constexpr std::string_view wire_name = "InputCmd";
  uint32_t buttons = 0;
  float move_x = 0, move_y = 0, yaw = 0, pitch = 0;
  bool crouch = false;
  template <class W>
  void fields(W& w) {
    w.bits("packed", [&](auto& b) {
      b.ubits("buttons", buttons, 8);
      b.quant("moveX", move_x, wire::QuantSpec{-1.0, 1.0, 1.0 / 127.0});
      b.quant("moveY", move_y, wire::QuantSpec{-1.0, 1.0, 1.0 / 127.0});
      b.quant("yaw", yaw, wire::QuantSpec{0.0, 360.0, 360.0 / 65535.0});
      b.quant("pitch", pitch, wire::QuantSpec{-90.0, 90.0, 180.0 / 16383.0});
      b.bit("crouch", crouch);
    });
  }
};
inline constexpr wire::NamedValue kClaimFlagBits[] = {{"grounded", 0}, {"crouched", 1}};
inline constexpr wire::FlagsDef kClaimFlagsDef{"ClaimFlags", kClaimFlagBits};
struct Claim {
  static constexpr std::string_view wire_name = "Claim";
  Vec3 position, velocity;
  float stance_height = 0, eye_height = 0;
  uint8_t flags = 0;
  template <class W>
  void fields(W& w) {
    w.shape("position", position);
    w.shape("velocity", velocity);
    w.f32("stanceHeight", stance_height);
    w.f32("eyeHeight", eye_height);
    w.flags8("flags", flags, kClaimFlagsDef);
  }
};
struct InputFrame {
  static constexpr std::string_view wire_name = "InputFrame";
  static constexpr std::string_view message_name = "inputFrame";
  static constexpr uint8_t wire_id = 12;
  static constexpr Direction wire_direction = Direction::client_to_server;
  uint32_t first_sequence = 0;
  std::vector<InputCmd> inputs;
  std::optional<Claim> claim;
  template <class W>
  void fields(W& w) {
    w.u32("firstSequence", first_sequence);
    w.list16("inputs", inputs, 1, 16);
    w.optional("claim", claim);
  }
};

// v0 records: an entity record with a since-removed `health`, no eye height; a component section
// whose sparse members came in another order; and a `marker` union case today's build lacks.
inline constexpr wire::NamedValue kNetKindMembers[] = {{"playerPawn", 1}, {"prop", 2}, {"light", 5}};
inline constexpr wire::EnumDef kNetKindDef{"NetKind", kNetKindMembers};
inline constexpr wire::NamedValue kEntityFlagBits[] = {{"grounded", 0}, {"crouched", 1}};
inline constexpr wire::FlagsDef kEntityFlagsDef{"EntityFlags", kEntityFlagBits};
inline constexpr wire::NamedValue kObjectFlagBits[] = {{"enabled", 0}};
inline constexpr wire::FlagsDef kObjectFlagsDef{"ObjectFlags", kObjectFlagBits};
inline constexpr wire::QuantSpec kAngleSpec{0.0, 360.0, 360.0 / 4095.0};

struct KindChannel {
  static constexpr std::string_view wire_name = "KindChannel";
  float value = 0;
  template <class W>
  void fields(W& w) {
    w.f32("value", value);
  }
};
struct KindPayload {
  static constexpr std::string_view wire_name = "KindPayload";
  std::vector<KindChannel> channels;
  uint8_t bits = 0;
  template <class W>
  void fields(W& w) {
    w.list8("channels", channels, 0, 4);
    w.u8("bits", bits);
  }
};
struct EntityRecord {
  static constexpr std::string_view wire_name = "EntityRecord";
  uint8_t kind = 1;
  uint16_t health = 100;
  Vec3 position;
  float yaw = 0, pitch = 0;
  uint8_t flags = 0;
  KindPayload payload;
  template <class W>
  void fields(W& w) {
    w.enum8("kind", kind, kNetKindDef);
    w.u16("health", health);
    w.shape("position", position);
    w.bits("look", [&](auto& b) {
      b.quant("yaw", yaw, kAngleSpec);
      b.quant("pitch", pitch, kAngleSpec);
    });
    w.flags8("flags", flags, kEntityFlagsDef);
    w.shape("payload", payload);
  }
};
struct ComponentSection {
  static constexpr std::string_view wire_name = "ComponentSection";
  uint8_t wire_id = 0;
  uint8_t dirty = 0;
  uint8_t bits = 0, channel_count = 0;
  float channel[4] = {0, 0, 0, 0};
  template <class W>
  void fields(W& w) {
    w.u8("wireId", wire_id);
    w.sparse("dirty", dirty, [&](auto& s) {
      s.u8("bits", bits);
      s.u8("channelCount", channel_count);
      s.f32("channel0", channel[0]);
      s.f32("channel1", channel[1]);
      s.f32("channel2", channel[2]);
      s.f32("channel3", channel[3]);
    });
  }
};
struct ObjectRecord {
  static constexpr std::string_view wire_name = "ObjectRecord";
  uint32_t object_index = 0;
  uint8_t flags = 0;
  std::vector<ComponentSection> sections;
  template <class W>
  void fields(W& w) {
    w.varu32("objectIndex", object_index);
    w.flags8("flags", flags, kObjectFlagsDef);
    w.list8("sections", sections, 0, 4);
  }
};
struct MarkerRecord {
  static constexpr std::string_view wire_name = "MarkerRecord";
  Vec3 at;
  template <class W>
  void fields(W& w) {
    w.shape("at", at);
  }
};
inline constexpr wire::UnionCase kRecordBodyCases[] = {{1, "entity"}, {2, "object"}, {3, "marker"}};
inline constexpr wire::UnionDef kRecordBodyDef{"RecordBody", kRecordBodyCases};
struct Record {
  static constexpr std::string_view wire_name = "Record";
  uint32_t entity_id = 0;
  std::variant<EntityRecord, ObjectRecord, MarkerRecord> body;
  template <class W>
  void fields(W& w) {
    w.varu32("entityId", entity_id);
    w.variant("body", body, kRecordBodyDef);
  }
};
struct RecordBatch {
  static constexpr std::string_view wire_name = "RecordBatch";
  static constexpr std::string_view message_name = "recordBatch";
  static constexpr uint8_t wire_id = 13;
  static constexpr Direction wire_direction = Direction::server_to_client;
  uint32_t tick = 0;
  wire::Hash16 contract_hash;
  uint8_t record_count = 0;  // u8 then
  std::vector<Record> records;
  template <class W>
  void fields(W& w) {
    w.u32("tick", tick);
    w.hash16("contractHash", contract_hash);
    w.u8("recordCount", record_count);
    w.counted("records", records, "recordCount", record_count, 255);
  }
};

// v0's material table: another order, a token since dropped, sky.exposure still a u32.
inline constexpr wire::TokenRow kMaterialRows[] = {
    {"fog.density", wire::TokenKind::f32},   {"water.legacyTint", wire::TokenKind::u32},
    {"sky.exposure", wire::TokenKind::u32},  {"water.foamColor", wire::TokenKind::u32},
    {"fog.enabled", wire::TokenKind::boolean}, {"water.roughness", wire::TokenKind::f32},
};
inline constexpr wire::TokenTableDef kMaterialTable{"Material", kMaterialRows};
struct MaterialSet {
  static constexpr std::string_view wire_name = "MaterialSet";
  static constexpr std::string_view message_name = "materialSet";
  static constexpr uint8_t wire_id = 14;
  static constexpr Direction wire_direction = Direction::server_to_client;
  uint32_t revision = 0;
  std::vector<wire::TokenPair> values;
  template <class W>
  void fields(W& w) {
    w.u32("revision", revision);
    w.tokens("values", values, kMaterialTable, 256);
  }
};

const wire::WireMessages& v0_messages() {
  static const wire::WireMessages messages =
      wire::WireMessages::of<protocol::ConnectRequest, protocol::SchemaRequest, protocol::SchemaText, Ping, ServerInfo,
                             InputFrame, RecordBatch, MaterialSet>();
  return messages;
}

}  // namespace

std::string legacy_v0_schema_text() { return v0_messages().schema_text(); }

std::vector<WireSample> legacy_v0_samples() {
  std::vector<WireSample> out;
  protocol::ConnectRequest connect;
  connect.schema_hash = v0_messages().schema_hash();
  connect.build_name = "tickwire-v0";
  out.push_back(make_wire_sample("connectRequest.bin", connect));
  out.push_back(make_wire_sample("schemaRequest.bin", protocol::SchemaRequest{connect.schema_hash}));
  out.push_back(make_wire_sample("ping.bin", Ping{5, 99, true}));

  ServerInfo info;
  info.server_id.bytes.fill(0x5a);
  info.max_clients = 64;
  info.motd = "old world";
  info.region = 5;  // europe in v0's numbering
  info.features = 0b11;
  info.legacy_port = 27015;
  info.uptime_ticks = 3600;
  out.push_back(make_wire_sample("serverInfo.bin", info));

  InputFrame frame;
  frame.first_sequence = 77;
  frame.inputs = {InputCmd{0x0f, 1.0f, 0.0f, 180.0f, 0.0f, true}};
  frame.claim = Claim{{1, 2, 3}, {0, 0, 0}, 1.8f, 1.6f, 1};
  out.push_back(make_wire_sample("inputFrame-claim.bin", frame));

  RecordBatch batch;
  batch.tick = 500;
  EntityRecord light;
  light.kind = 5;
  light.health = 7;
  light.position = {4, 5, 6};
  light.yaw = 90;
  light.flags = 2;
  light.payload.channels = {KindChannel{0.75f}};
  light.payload.bits = 1;
  ObjectRecord door;
  door.object_index = 12;
  door.flags = 1;
  ComponentSection section;
  section.wire_id = 2;
  section.dirty = 0b000110;  // channelCount and channel0 in v0's bit order
  section.channel_count = 1;
  section.channel[0] = 0.5f;
  door.sections = {section};
  batch.records = {Record{1, light}, Record{2, MarkerRecord{{9, 9, 9}}}, Record{3, door}};
  batch.record_count = 3;
  out.push_back(make_wire_sample("recordBatch.bin", batch));

  MaterialSet materials;
  materials.revision = 3;
  materials.values = {{0, float_bits(0.02f)}, {1, 0x123456u}, {2, 7u}, {3, 0xff00ff00u}, {4, 1}};
  out.push_back(make_wire_sample("materialSet.bin", materials));
  return out;
}

namespace {
template <class M>
LegacyMessage legacy_message(const M& message) {
  const WireSample sample = make_wire_sample("", message);  // the id byte, then the body
  return LegacyMessage{M::wire_id, std::vector<uint8_t>(sample.packet.begin() + 1, sample.packet.end())};
}
}  // namespace

LegacyMessage legacy_v0_input_frame(uint32_t first_sequence, const std::vector<uint8_t>& buttons) {
  InputFrame frame;
  frame.first_sequence = first_sequence;
  for (uint8_t b : buttons) frame.inputs.push_back(InputCmd{b, 1.0f, 0.0f, 0.0f, 0.0f, false});
  return legacy_message(frame);
}

LegacyMessage legacy_v0_ping(uint32_t sequence, uint64_t sent_at_us) {
  return legacy_message(Ping{sequence, sent_at_us, false});
}

bool legacy_v0_read_ping(std::span<const uint8_t> body, uint32_t& sequence, bool& is_reply) {
  Ping ping;
  if (!wire::decode(body, ping).ok()) return false;
  sequence = ping.sequence;
  is_reply = ping.is_reply;
  return true;
}

}  // namespace tickwire::test
