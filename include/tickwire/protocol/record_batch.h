// RecordBatch: a tick's records, each an entity id then a tagged union of an entity record or an
// object record (seed 000, "Object records"). It pins the constructs the snapshot codec builds on:
// a counted list, a union, bit-packed angles and a quaternion, a sparse set of dirty fields, an
// optional, and a reserved section a later build may grow.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <variant>
#include <vector>

#include "tickwire/protocol/constants.h"
#include "tickwire/protocol/vec3.h"
#include "tickwire/wire/describe_walker.h"
#include "tickwire/wire/types.h"

namespace tickwire::protocol {

inline constexpr wire::QuantSpec kAngleSpec{0.0, 360.0, 360.0 / 4095.0};

struct KindChannel {
  static constexpr std::string_view wire_name = "KindChannel";
  float value = 0;
  template <class W>
  void fields(W& w) {
    w.f32("value", value);
  }
};

// Up to four float channels (lerped) and eight bits (snapped): 2 bytes empty, 18 full.
struct KindPayload {
  static constexpr std::string_view wire_name = "KindPayload";
  std::vector<KindChannel> channels;
  uint8_t bits = 0;
  template <class W>
  void fields(W& w) {
    w.list8("channels", channels, 0, MaxKindChannels);
    w.u8("bits", bits);
  }
};

struct Rotation {
  static constexpr std::string_view wire_name = "Rotation";
  wire::Quat q;
  template <class W>
  void fields(W& w) {
    w.bits("packed", [&](auto& b) { b.quat("q", q, 9); });
  }
};

// An entity's state. Its kind and the meaning of its flag bits and payload are the game's,
// registered in its GameVocabulary (part of the contract): the wire carries the values only.
struct EntityRecord {
  static constexpr std::string_view wire_name = "EntityRecord";
  uint8_t kind = 0;  // a KindDef id; a client ignores a kind its vocabulary lacks
  Vec3 position;
  float yaw_deg = 0, pitch_deg = 0;
  uint8_t flags = 0;  // FlagDef bits of GameVocabulary::entity_flags
  std::optional<Rotation> rotation;
  std::optional<Vec3> scale;  // stated only when somebody set one (absent: 1, 1, 1)
  KindPayload payload;

  template <class W>
  void fields(W& w) {
    w.u8("kind", kind);
    w.shape("position", position);
    w.bits("look", [&](auto& b) {
      b.quant("yaw", yaw_deg, kAngleSpec);
      b.quant("pitch", pitch_deg, kAngleSpec);
    });
    w.u8("flags", flags);
    w.optional("rotation", rotation);
    w.optional("scale", scale);
    w.shape("payload", payload);
  }
};

// One replicated component of a map object: its wire id (a ComponentDef), then the dirty fields only.
struct ComponentSection {
  static constexpr std::string_view wire_name = "ComponentSection";
  uint8_t wire_id = 0;
  uint8_t dirty = 0;  // bit i: the i-th field below is present
  float channel[4] = {0, 0, 0, 0};
  uint8_t channel_count = 0;
  uint8_t bits = 0;

  template <class W>
  void fields(W& w) {
    w.u8("wireId", wire_id);
    w.sparse("dirty", dirty, [&](auto& s) {
      s.f32("channel0", channel[0]);
      s.f32("channel1", channel[1]);
      s.f32("channel2", channel[2]);
      s.f32("channel3", channel[3]);
      s.u8("channelCount", channel_count);
      s.u8("bits", bits);
    });
  }
};

// Where a map object stands when it is not where its map put it (moved by logic, physics or an edit):
// a position, and a rotation and a scale only when it has them. Absent from a record: the object
// stands where the base (its rest entry, else the map) says.
struct ObjectTransform {
  static constexpr std::string_view wire_name = "ObjectTransform";
  Vec3 position;
  std::optional<Rotation> rotation;
  std::optional<Vec3> scale;

  template <class W>
  void fields(W& w) {
    w.shape("position", position);
    w.optional("rotation", rotation);
    w.optional("scale", scale);
  }
};

struct ObjectRecord {
  static constexpr std::string_view wire_name = "ObjectRecord";
  uint32_t object_index = 0;
  uint8_t flags = 0;  // FlagDef bits of GameVocabulary::object_flags
  std::optional<ObjectTransform> transform;
  std::vector<ComponentSection> sections;

  template <class W>
  void fields(W& w) {
    w.varu32("objectIndex", object_index);
    w.u8("flags", flags);
    w.optional("transform", transform);
    w.list8("sections", sections, 0, MaxComponentSections);
  }
};

inline constexpr wire::UnionCase kRecordBodyCases[] = {{1, "entity"}, {2, "object"}};
inline constexpr wire::UnionDef kRecordBodyDef{"RecordBody", kRecordBodyCases};

struct Record {
  static constexpr std::string_view wire_name = "Record";
  uint32_t entity_id = 0;
  std::variant<EntityRecord, ObjectRecord> body;

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
  static constexpr wire::Direction wire_direction = wire::Direction::server_to_client;

  uint32_t tick = 0;
  wire::Hash16 contract_hash;
  uint16_t record_count = 0;
  std::vector<Record> records;
  uint32_t rest_revision = 0;  // inside the reserved section

  template <class W>
  void fields(W& w) {
    w.u32("tick", tick);
    w.hash16("contractHash", contract_hash);
    w.u16("recordCount", record_count);
    w.counted("records", records, "recordCount", record_count, MaxRecordsPerSnapshot);
    w.section("extensions", [&](auto& s) { s.varu32("restRevision", rest_revision); });
  }
};

}  // namespace tickwire::protocol
