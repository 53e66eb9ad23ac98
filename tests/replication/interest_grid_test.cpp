// The cell grid against a brute-force scan: seeded random worlds (positions inside and outside the
// covered area, several cell sizes and radii), random inserts, moves and removes, and every query,
// over the cell lists or the compacted layout, must return exactly the entities a scan of all
// positions finds.
#include "tickwire/replication/interest/interest_grid.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "support.h"
#include "tickwire/core/rng.h"

namespace tickwire {
namespace {

struct Shadow {  // the truth the grid is checked against
  std::vector<bool> present;
  std::vector<float> x_m, z_m;
};

float uniform(Rng& rng, float lo, float hi) { return lo + static_cast<float>(rng.unit()) * (hi - lo); }

std::vector<uint32_t> brute_force(const Shadow& s, float x_m, float z_m, float radius_m) {
  std::vector<uint32_t> hits;
  for (uint32_t e = 0; e < s.present.size(); ++e) {
    if (!s.present[e]) continue;
    const float dx = s.x_m[e] - x_m;  // the grid's own distance formula, so rounding agrees
    const float dz = s.z_m[e] - z_m;
    if (dx * dx + dz * dz <= radius_m * radius_m) hits.push_back(e);
  }
  return hits;
}

std::vector<uint32_t> grid_query(const InterestGrid& grid, float x_m, float z_m, float radius_m) {
  std::vector<uint32_t> out(grid.max_entities());
  const uint32_t found = grid.query(x_m, z_m, radius_m, out);
  EXPECT_LE(found, out.size());
  out.resize(found);
  std::sort(out.begin(), out.end());
  return out;
}

// One random world: `ops` random operations, a query after every few.
void run_world(Rng& rng, const InterestGridConfig& config, uint32_t ops) {
  InterestGrid grid(config);
  Shadow s{std::vector<bool>(config.max_entities), std::vector<float>(config.max_entities),
           std::vector<float>(config.max_entities)};
  // A tenth of positions fall up to 20% outside the covered area.
  const auto random_x = [&] { return uniform(rng, config.min_x_m - 0.2f * config.size_x_m, config.min_x_m + 1.2f * config.size_x_m); };
  const auto random_z = [&] { return uniform(rng, config.min_z_m - 0.2f * config.size_z_m, config.min_z_m + 1.2f * config.size_z_m); };
  const auto inside_x = [&] { return uniform(rng, config.min_x_m, config.min_x_m + config.size_x_m); };
  const auto inside_z = [&] { return uniform(rng, config.min_z_m, config.min_z_m + config.size_z_m); };
  for (uint32_t op = 0; op < ops; ++op) {
    const auto e = static_cast<uint32_t>(rng.below(config.max_entities));
    const bool outside = rng.chance(0.1);
    float x = outside ? random_x() : inside_x();
    float z = outside ? random_z() : inside_z();
    if (!s.present[e]) {
      grid.insert(e, x, z);
      s.present[e] = true;
    } else if (rng.chance(0.15)) {
      grid.remove(e);
      s.present[e] = false;
    } else {
      if (rng.chance(0.5)) {  // a short step, mostly within a cell
        x = s.x_m[e] + uniform(rng, -3.0f, 3.0f);
        z = s.z_m[e] + uniform(rng, -3.0f, 3.0f);
      }
      grid.move(e, x, z);
    }
    s.x_m[e] = x;
    s.z_m[e] = z;
    ASSERT_FALSE(grid.compacted()) << "an insert, move or remove undoes the compacted layout";
    if (op % 4 != 0) continue;
    if (rng.chance(0.5)) {  // half the queries scan the compacted layout, half the cell lists
      grid.compact();
      ASSERT_TRUE(grid.compacted());
    }
    const float qx = rng.chance(0.1) ? random_x() : inside_x();
    const float qz = rng.chance(0.1) ? random_z() : inside_z();
    const float radius = rng.chance(0.05) ? 0.0f : uniform(rng, 0.0f, 0.4f * config.size_x_m);
    ASSERT_EQ(grid_query(grid, qx, qz, radius), brute_force(s, qx, qz, radius))
        << "query (" << qx << ", " << qz << ") r=" << radius << " after op " << op;
  }
  const auto present = static_cast<uint32_t>(std::count(s.present.begin(), s.present.end(), true));
  EXPECT_EQ(grid.size(), present);
}

TEST(InterestGrid, QueriesEqualABruteForceScanOverRandomWorlds) {
  const uint64_t seed = test::test_seed(0x1e7e'a001);
  Rng rng(seed);
  const float cell_sizes_m[] = {7.0f, 25.0f, 100.0f, 1500.0f};  // fine, typical, coarse, one cell
  for (int world = 0; world < 24; ++world) {
    InterestGridConfig config;
    config.min_x_m = uniform(rng, -600.0f, 100.0f);
    config.min_z_m = uniform(rng, -600.0f, 100.0f);
    config.size_x_m = uniform(rng, 50.0f, 1000.0f);
    config.size_z_m = uniform(rng, 50.0f, 1000.0f);
    config.cell_size_m = cell_sizes_m[world % 4];
    config.max_entities = static_cast<uint32_t>(rng.between(1, 600));
    SCOPED_TRACE(testing::Message() << "world " << world << " cell " << config.cell_size_m);
    run_world(rng, config, 3000);
    if (testing::Test::HasFatalFailure()) return;
  }
}

TEST(InterestGrid, BoundaryDistancesAreInclusive) {
  InterestGrid grid(InterestGridConfig{0.0f, 0.0f, 100.0f, 100.0f, 10.0f, 8});
  grid.insert(0, 50.0f, 50.0f);
  grid.insert(1, 60.0f, 50.0f);  // exactly 10 m away, across a cell border
  grid.insert(2, 50.0f, 60.01f);
  EXPECT_EQ(grid_query(grid, 50.0f, 50.0f, 10.0f), (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(grid_query(grid, 50.0f, 50.0f, 0.0f), (std::vector<uint32_t>{0}));
}

TEST(InterestGrid, PositionsFarOutsideTheAreaStayExact) {
  InterestGrid grid(InterestGridConfig{0.0f, 0.0f, 100.0f, 100.0f, 10.0f, 8});
  grid.insert(0, -5000.0f, 20.0f);
  grid.insert(1, -5030.0f, 20.0f);
  grid.insert(2, 5.0f, 5.0f);
  EXPECT_EQ(grid_query(grid, -5010.0f, 20.0f, 15.0f), (std::vector<uint32_t>{0}));
  EXPECT_EQ(grid_query(grid, -5010.0f, 20.0f, 25.0f), (std::vector<uint32_t>{0, 1}));
  grid.move(0, 5.0f, 6.0f);
  EXPECT_EQ(grid_query(grid, 0.0f, 0.0f, 10.0f), (std::vector<uint32_t>{0, 2}));
  EXPECT_EQ(grid_query(grid, -5010.0f, 20.0f, 15.0f), (std::vector<uint32_t>{}));
}

TEST(InterestGrid, AShortOutputReportsTheFullCount) {
  InterestGrid grid(InterestGridConfig{0.0f, 0.0f, 100.0f, 100.0f, 10.0f, 16});
  for (uint32_t e = 0; e < 10; ++e) grid.insert(e, 50.0f + static_cast<float>(e), 50.0f);
  uint32_t out[4] = {};
  EXPECT_EQ(grid.query(50.0f, 50.0f, 20.0f, out), 10u);
  for (uint32_t e : out) EXPECT_LT(e, 10u);
}

TEST(InterestGrid, MisuseIsAProgrammerError) {
  test::ThrowOnAssert guard;
  InterestGrid grid(InterestGridConfig{0.0f, 0.0f, 100.0f, 100.0f, 10.0f, 4});
  grid.insert(1, 1.0f, 1.0f);
  EXPECT_THROW(grid.insert(1, 2.0f, 2.0f), test::AssertionFailure);
  EXPECT_THROW(grid.move(2, 2.0f, 2.0f), test::AssertionFailure);
  EXPECT_THROW(grid.remove(3), test::AssertionFailure);
  EXPECT_THROW(grid.insert(4, 0.0f, 0.0f), test::AssertionFailure);  // beyond max_entities
  EXPECT_THROW(grid.move(1, std::nanf(""), 0.0f), test::AssertionFailure);
  EXPECT_THROW(grid.for_each_within(0.0f, 0.0f, -1.0f, [](uint32_t) {}), test::AssertionFailure);
  EXPECT_THROW(InterestGrid(InterestGridConfig{0.0f, 0.0f, 1e6f, 1e6f, 0.5f, 4}), test::AssertionFailure);  // too many cells
}

}  // namespace
}  // namespace tickwire
