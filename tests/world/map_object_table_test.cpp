// The map object table: two loads of one map give the same table (one number names one object on
// every end), in authored order; the table is built once and served from the cache while the map
// keeps its shape, and rebuilt when the map in hand changes shape.
#include "tickwire/world/map_object_table.h"

#include <gtest/gtest.h>

#include "tickwire/world/map_loader.h"
#include "tickwire/world/reference_map.h"

namespace tickwire::world {
namespace {

Map load_reference() {
  auto loaded = load_map(reference_map_text());
  EXPECT_TRUE(loaded.ok());
  return std::move(loaded).value();
}

TEST(MapObjectTable, TwoLoadsOfOneMapGiveTheSameTableInAuthoredOrder) {
  const Map a = load_reference();
  const Map b = load_reference();
  const MapObjectTable ta = MapObjectTable::build(a);
  const MapObjectTable tb = MapObjectTable::build(b);
  EXPECT_EQ(ta, tb);
  ASSERT_EQ(ta.size(), 319u);
  EXPECT_EQ(ta.entity_count(), 319u);
  for (uint32_t i = 0; i < a.objects().size(); ++i) {
    EXPECT_EQ(ta.key_of(i), a.objects()[i].key) << "the map's entities in authored order";
    EXPECT_EQ(ta.index_of(a.objects()[i].key), i);
    EXPECT_EQ(tb.index_of(a.objects()[i].key), i);
  }
  EXPECT_EQ(ta.index_of("no.such.object"), std::nullopt);
}

TEST(MapObjectTable, BuiltOnceAndCachedAcrossManyLookups) {
  const Map map = load_reference();
  MapObjectTableCache cache;
  const MapObjectTable* first = &cache.of(map);
  for (int frame = 0; frame < 1000; ++frame) {
    for (const MapObject& object : map.objects()) {
      const MapObjectTable& table = cache.of(map);  // a reader asking once per object
      ASSERT_EQ(&table, first);
      ASSERT_TRUE(table.index_of(object.key).has_value());
    }
  }
  EXPECT_EQ(cache.builds(), 1u);
}

TEST(MapObjectTable, AChangedMapShapeRebuilds) {
  Map map = load_reference();
  MapObjectTableCache cache;
  EXPECT_EQ(cache.of(map).size(), 319u);
  // The map in hand is replaced by one with an object fewer (a map switch or hot reload).
  MapContent content = map.content();
  content.objects.pop_back();
  auto smaller = Map::build(std::move(content));
  ASSERT_TRUE(smaller.ok());
  map = std::move(smaller).value();
  EXPECT_EQ(cache.of(map).size(), 318u);
  EXPECT_EQ(cache.builds(), 2u);
  // Same length, one key renamed: the content hash moves, so the table is rebuilt too.
  MapContent renamed = map.content();
  renamed.objects[0].key = "renamed.object";
  auto renamed_map = Map::build(std::move(renamed));
  ASSERT_TRUE(renamed_map.ok());
  map = std::move(renamed_map).value();
  EXPECT_EQ(cache.of(map).key_of(0), "renamed.object");
  EXPECT_EQ(cache.builds(), 3u);
  // Another map entirely: its own table.
  const Map other = load_reference();
  EXPECT_EQ(cache.of(other).key_of(0), other.objects()[0].key);
  EXPECT_EQ(cache.builds(), 4u);
}

}  // namespace
}  // namespace tickwire::world
