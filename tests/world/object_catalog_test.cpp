// The client's catalog of the map: built from the same map the server loaded, keyed by authored
// identity and indexed as the object table indexes; each record's kind comes from its sections by
// the seed's precedence (section_kind); a replica takes its shape from the catalog, and a record
// whose kind disagrees with its object, or whose kind the game does not register, draws nothing.
#include "tickwire/world/object_catalog.h"

#include <gtest/gtest.h>

#include <initializer_list>

#include "tickwire/world/drawn_map_object.h"
#include "tickwire/world/map_loader.h"
#include "tickwire/world/reference_game.h"
#include "tickwire/world/reference_map.h"
#include "tickwire/world/reference_vocabulary.h"
#include "tickwire/world/section_kinds.h"

namespace tickwire::world {
namespace {

constexpr auto id(ComponentWireId c) { return static_cast<uint8_t>(c); }

Map load_reference() {
  auto loaded = load_map(reference_map_text());
  EXPECT_TRUE(loaded.ok());
  return std::move(loaded).value();
}

ObjectSample sample_of(uint32_t index, std::initializer_list<ComponentWireId> components) {
  ObjectSample s;
  s.object_index = index;
  for (ComponentWireId c : components) s.sections[s.section_count++] = SectionSample{id(c), 1, {0.5f, 0, 0, 0}, 1};
  return s;
}

TEST(SectionKinds, ARecordsKindFollowsTheSeedsPrecedence) {
  const auto kind_of = [](std::initializer_list<ComponentWireId> components) {
    return section_kind(sample_of(0, components));
  };
  EXPECT_EQ(kind_of({ComponentWireId::mover, ComponentWireId::button}), kKindButton);  // a button that moves
  EXPECT_EQ(kind_of({ComponentWireId::light, ComponentWireId::mover}), kKindDoor);
  EXPECT_EQ(kind_of({ComponentWireId::pressure_plate, ComponentWireId::light}), kKindLight);
  EXPECT_EQ(kind_of({ComponentWireId::physics_prop, ComponentWireId::pressure_plate}), kKindPressurePlate);
  EXPECT_EQ(kind_of({ComponentWireId::physics_prop}), kKindProp);
  EXPECT_EQ(kind_of({ComponentWireId::trigger_volume, ComponentWireId::other}), 0u);
  EXPECT_EQ(kind_of({}), 0u);
  const uint8_t ids[] = {id(ComponentWireId::instance), id(ComponentWireId::button)};
  EXPECT_EQ(section_kind(ids), kKindButton);  // the wire ids alone, as the server holds them
}

TEST(ObjectCatalog, AuthoredKindsNameTheGamesNetKinds) {
  EXPECT_EQ(authored_kind("light"), kKindLight);
  EXPECT_EQ(authored_kind("door"), kKindDoor);
  EXPECT_EQ(authored_kind("mover"), kKindDoor);
  EXPECT_EQ(authored_kind("lift"), kKindDoor);
  EXPECT_EQ(authored_kind("button"), kKindButton);
  EXPECT_EQ(authored_kind("plate"), kKindPressurePlate);
  EXPECT_EQ(authored_kind("crate_prop"), kKindProp);
  EXPECT_EQ(authored_kind("physics_prop"), kKindProp);
  EXPECT_EQ(authored_kind("trigger"), 0u);
  EXPECT_EQ(authored_kind("folder"), 0u);
}

TEST(ObjectCatalog, EveryObjectOfTheMapByIndexWithItsKeyKindPoseAndComponents) {
  const Map map = load_reference();
  const ObjectCatalog catalog = ObjectCatalog::build(map, reference_vocabulary());
  ASSERT_EQ(catalog.size(), map.objects().size());
  EXPECT_EQ(catalog.map_hash(), map.content_hash());
  for (uint32_t i = 0; i < map.objects().size(); ++i) {
    ASSERT_NE(catalog.entry(i), nullptr);
    EXPECT_EQ(catalog.entry(i)->key, map.objects()[i].key);
    EXPECT_EQ(catalog.index_of(map.objects()[i].key), i);
  }
  EXPECT_EQ(catalog.entry(static_cast<uint32_t>(catalog.size())), nullptr);

  const CatalogEntry& door = *catalog.entry(*catalog.index_of("door.n"));
  EXPECT_EQ(door.kind, kKindDoor);
  EXPECT_EQ(door.pose.position, (protocol::Vec3{0, 1.25f, 31.75f})) << "the panel's centre";
  EXPECT_EQ(door.pose.rotation, (wire::Quat{0, 1, 0, 0}));
  EXPECT_FALSE(door.pose.scale.has_value());
  ASSERT_EQ(door.components().size(), 1u) << "its collider is map data: no component on the wire";
  EXPECT_EQ(door.components()[0], id(ComponentWireId::mover));
  EXPECT_EQ(catalog.entry(*catalog.index_of("button.n"))->kind, kKindButton);
  EXPECT_EQ(catalog.entry(*catalog.index_of("plate.lift.w"))->kind, kKindPressurePlate);
  EXPECT_EQ(catalog.entry(*catalog.index_of("plate.lift.w"))->components()[0], id(ComponentWireId::pressure_plate));
  EXPECT_EQ(catalog.entry(*catalog.index_of("prop.crate.1"))->kind, kKindProp);
  EXPECT_FALSE(catalog.entry(*catalog.index_of("prop.crate.1"))->pose.rotation.has_value());
  EXPECT_EQ(catalog.entry(*catalog.index_of("lift.w"))->kind, kKindDoor);
  EXPECT_EQ(catalog.entry(*catalog.index_of("trigger.lamp"))->kind, 0u);
  EXPECT_EQ(catalog.entry(*catalog.index_of("trigger.lamp"))->components()[0], id(ComponentWireId::trigger_volume));
  uint32_t lights = 0;
  for (uint32_t i = 0; i < catalog.size(); ++i) lights += catalog.entry(i)->kind == kKindLight ? 1u : 0u;
  EXPECT_EQ(lights, 301u);
}

// The server's own records through the same section_kind the client calls: every object the map
// gives a kind is written as a record of that kind, so a client of the same map draws every one.
TEST(ObjectCatalog, EveryRecordTheServerWritesHasTheKindItsObjectIsAuthoredAs) {
  const Map map = load_reference();
  const ObjectCatalog catalog = ObjectCatalog::build(map, reference_vocabulary());
  ReferenceGame game(map);
  std::vector<protocol::Record> rest;
  game.write_rest_records(rest);
  ASSERT_EQ(rest.size(), catalog.size());
  ResolveCounters counters;
  for (const protocol::Record& record : rest) {
    const auto* object = std::get_if<protocol::ObjectRecord>(&record.body);
    ASSERT_NE(object, nullptr);
    const ObjectSample sample = object_sample(*object);
    EXPECT_EQ(section_kind(sample), catalog.entry(object->object_index)->kind) << catalog.entry(object->object_index)->key;
    (void)resolve(catalog, sample, counters);
  }
  EXPECT_EQ(counters.kind_mismatch, 0u);
  EXPECT_EQ(counters.unknown_object, 0u);
  EXPECT_EQ(counters.unregistered_kind, 2u);  // the trigger volume and the pool: no kind, nothing a client draws
  EXPECT_EQ(counters.drawn, catalog.size() - 2);
}

TEST(ObjectCatalog, TwoLoadsOfOneMapGiveOneCatalog) {
  const Map a = load_reference();
  const Map b = load_reference();
  const ObjectCatalog ca = ObjectCatalog::build(a, reference_vocabulary());
  const ObjectCatalog cb = ObjectCatalog::build(b, reference_vocabulary());
  ASSERT_EQ(ca.size(), cb.size());
  EXPECT_EQ(ca.map_hash(), cb.map_hash());
  for (uint32_t i = 0; i < ca.size(); ++i) {
    EXPECT_EQ(ca.entry(i)->key, cb.entry(i)->key);
    EXPECT_EQ(ca.entry(i)->kind, cb.entry(i)->kind);
    EXPECT_EQ(ca.entry(i)->pose, cb.entry(i)->pose);
  }
}

TEST(DrawnMapObject, AReplicaTakesItsShapeFromTheCatalogSlidByItsMoverUnlessItsRecordMovedIt) {
  const Map map = load_reference();
  const ObjectCatalog catalog = ObjectCatalog::build(map, reference_vocabulary());
  ResolveCounters counters;
  const uint32_t door = *catalog.index_of("door.n");
  const std::optional<DrawnMapObject> resting = resolve(catalog, sample_of(door, {ComponentWireId::mover}), counters);
  ASSERT_TRUE(resting.has_value());
  EXPECT_EQ(resting->key, "door.n");
  EXPECT_EQ(resting->kind, kKindDoor);
  // Half open: slid along its axis (x, turned half a turn by its rotation: -x) by half its 1.5 m,
  // by MoverPose, the slide the server's body takes.
  EXPECT_EQ(resting->pose.position, (protocol::Vec3{-0.75f, 1.25f, 31.75f}));
  EXPECT_EQ(resting->pose.rotation, catalog.entry(door)->pose.rotation);
  EXPECT_FLOAT_EQ(resting->state.section(id(ComponentWireId::mover))->channels[0], 0.5f);

  ObjectSample moved = sample_of(door, {ComponentWireId::mover});
  moved.pose = ObjectPose{{1, 2, 3}, std::nullopt, protocol::Vec3{2, 2, 2}};
  const std::optional<DrawnMapObject> drawn = resolve(catalog, moved, counters);
  ASSERT_TRUE(drawn.has_value());
  EXPECT_EQ(drawn->pose.position, (protocol::Vec3{1, 2, 3}));
  EXPECT_EQ(drawn->pose.rotation, (wire::Quat{0, 1, 0, 0}));  // left out of the record: as authored
  EXPECT_EQ(drawn->pose.scale, (protocol::Vec3{2, 2, 2}));
  EXPECT_EQ(counters.drawn, 2u);
}

// The seed's example drawn: a lamp on a plate in a folder on a lift is drawn where the lift's
// sampled fraction has slid it; a prop on the lift is not carried (its records say where it is).
TEST(ObjectCatalog, EachEntryCarriesTheBodyItsLogicMakes) {
  const Map map = load_map(
      R"({"format": "tickwire-map", "version": 2, "name": "bodies", "boxes": [{"tag": "floor", "material": "concrete", "min": [-9, -1, -9], "max": [9, 0, 9]}],)"
      R"( "spawns": [{"position": [0, 0, -5], "yaw_deg": 0}], "objects": [)"
      R"({"key": "door", "kind": "door", "position": [0, 1.5, 4], "components": [{"name": "mover", "channels": [0, 0],)"
      R"( "settings": {"axis": [0, 1, 0], "distance_m": 3, "speed_mps": 2}}, {"name": "collider", "settings": {"half_extents": [1.5, 1.5, 0.1]}}]},)"
      R"({"key": "plate", "kind": "plate", "position": [2, 0.25, 0], "components": [{"name": "plate", "bits": 0}]},)"
      R"({"key": "lamp", "kind": "light", "position": [-2, 3, 0], "components": [{"name": "light", "channels": [1, 1, 1, 1]}]},)"
      R"({"key": "crate", "kind": "crate_prop", "position": [3, 0.5, 3], "components": [{"name": "physics_prop", "channels": [10]}]}]})")
                        .value();
  const ObjectCatalog catalog = ObjectCatalog::build(map, reference_vocabulary());
  for (uint32_t i = 0; i < catalog.size(); ++i) {
    const LogicBody expected = logic_body_of(map.objects()[i]);
    EXPECT_EQ(catalog.entry(i)->body.kind, expected.kind) << map.objects()[i].key;
    EXPECT_EQ(catalog.entry(i)->body.half_extents, expected.half_extents) << map.objects()[i].key;
  }
  EXPECT_EQ(catalog.entry(*catalog.index_of("door"))->body.kind, BodyKind::kinematic);
  EXPECT_EQ(catalog.entry(*catalog.index_of("door"))->body.half_extents, (Vec3{1.5f, 1.5f, 0.1f}));
  EXPECT_EQ(catalog.entry(*catalog.index_of("plate"))->body.kind, BodyKind::sensor);
  EXPECT_EQ(catalog.entry(*catalog.index_of("lamp"))->body.kind, BodyKind::none) << "no collider: no body";
  EXPECT_EQ(catalog.entry(*catalog.index_of("crate"))->body.kind, BodyKind::dynamic);
}

TEST(DrawnMapObject, ACarriedChildIsDrawnSlidByItsLiftsFraction) {
  const Map map = load_map(
      R"({"format": "tickwire-map", "version": 2, "name": "carried", "boxes": [{"tag": "floor", "material": "concrete", "min": [-9, -1, -9], "max": [9, 0, 9]}],)"
      R"( "spawns": [{"position": [0, 0, -5], "yaw_deg": 0}], "objects": [)"
      R"({"key": "lift", "kind": "door", "position": [0, 0.1, 0], "components": [{"name": "mover", "channels": [0.25, 0],)"
      R"( "settings": {"axis": [0, 1, 0], "distance_m": 4, "speed_mps": 1}}]},)"
      R"({"key": "lift/folder", "kind": "folder", "position": [0, 0.2, 0]},)"
      R"({"key": "lift/folder/plate", "kind": "plate", "position": [0.5, 0.25, 0.5], "components": [{"name": "plate", "bits": 0}]},)"
      R"({"key": "lift/folder/plate/lamp", "kind": "light", "position": [-1.5, 0.7, -1.5], "components": [{"name": "light", "channels": [1, 1, 1, 1]}]},)"
      R"({"key": "lift/crate", "kind": "crate_prop", "position": [1.5, 0.7, -1.5], "components": [{"name": "physics_prop", "channels": [10]}]}]})")
                        .value();
  const ObjectCatalog catalog = ObjectCatalog::build(map, reference_vocabulary());
  const uint32_t lift = *catalog.index_of("lift");
  const uint32_t lamp = *catalog.index_of("lift/folder/plate/lamp");
  ASSERT_TRUE(catalog.entry(lamp)->slide.has_value());
  EXPECT_EQ(catalog.entry(lamp)->slide->driver_index, lift);
  EXPECT_FALSE(catalog.entry(*catalog.index_of("lift/crate"))->slide.has_value()) << "a prop is not carried";
  ResolveCounters counters;
  ObjectSample lift_sample = sample_of(lift, {ComponentWireId::mover});  // channel 0 at 0.5: 2 m up
  const ObjectSample lamp_sample = sample_of(lamp, {ComponentWireId::light});
  const auto drawn = resolve(catalog, lamp_sample, counters, &lift_sample);
  ASSERT_TRUE(drawn.has_value());
  EXPECT_EQ(drawn->pose.position, (protocol::Vec3{-1.5f, 0.7f + 2.0f, -1.5f}));
  const auto unknown_driver = resolve(catalog, lamp_sample, counters);
  ASSERT_TRUE(unknown_driver.has_value());
  EXPECT_EQ(unknown_driver->pose.position, (protocol::Vec3{-1.5f, 0.7f + 1.0f, -1.5f})) << "the lift's authored 0.25";
  const auto lift_drawn = resolve(catalog, lift_sample, counters);
  ASSERT_TRUE(lift_drawn.has_value());
  EXPECT_EQ(lift_drawn->pose.position, (protocol::Vec3{0, 2.1f, 0})) << "the lift by its own sample";
}

TEST(DrawnMapObject, ARecordWhoseKindDisagreesWithItsObjectDrawsNothing) {
  const Map map = load_reference();
  const ObjectCatalog catalog = ObjectCatalog::build(map, reference_vocabulary());
  ResolveCounters counters;
  const uint32_t door = *catalog.index_of("door.n");
  EXPECT_FALSE(resolve(catalog, sample_of(door, {ComponentWireId::light}), counters).has_value());
  EXPECT_FALSE(resolve(catalog, sample_of(door, {ComponentWireId::mover, ComponentWireId::button}), counters).has_value());
  EXPECT_EQ(counters.kind_mismatch, 2u);
  EXPECT_EQ(counters.drawn, 0u);
}

TEST(DrawnMapObject, AnUnregisteredKindOrAnUnknownObjectIsIgnored) {
  const Map map = load_reference();
  ResolveCounters counters;
  {
    const ObjectCatalog catalog = ObjectCatalog::build(map, reference_vocabulary());
    const uint32_t trigger = *catalog.index_of("trigger.lamp");
    EXPECT_FALSE(resolve(catalog, sample_of(trigger, {ComponentWireId::trigger_volume}), counters).has_value());  // no kind
    EXPECT_FALSE(resolve(catalog, sample_of(trigger, {ComponentWireId::light}), counters).has_value());  // the catalog has none
    EXPECT_FALSE(resolve(catalog, sample_of(static_cast<uint32_t>(catalog.size()), {ComponentWireId::light}), counters)
                     .has_value());
  }
  // A game that registers no light visual: its lamps are ignored, never drawn as something else.
  GameVocabulary no_lights;
  no_lights.kind(kKindDoor, "door");
  const ObjectCatalog catalog = ObjectCatalog::build(map, no_lights);
  const uint32_t door = *catalog.index_of("door.n");
  ASSERT_EQ(catalog.entry(door)->kind, kKindDoor);
  EXPECT_TRUE(resolve(catalog, sample_of(door, {ComponentWireId::mover}), counters).has_value());
  for (uint32_t i = 0; i < catalog.size(); ++i) {
    if (authored_kind(map.objects()[i].kind) != kKindLight) continue;
    EXPECT_EQ(catalog.entry(i)->kind, 0u);
    EXPECT_FALSE(resolve(catalog, sample_of(i, {ComponentWireId::light}), counters).has_value());
    break;
  }
  EXPECT_EQ(counters.unregistered_kind, 3u);
  EXPECT_EQ(counters.unknown_object, 1u);
  EXPECT_EQ(counters.kind_mismatch, 0u);
  EXPECT_EQ(counters.drawn, 1u);
}

}  // namespace
}  // namespace tickwire::world
