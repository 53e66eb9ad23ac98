// Map objects as clients draw them, through the whole system on the transatlantic profile: a client
// presses the south button (its door opens and its chain of lights toggles one by one); every
// client samples the door at its render time each frame and sees the open fraction ease up through
// values between the snapshots' (channels lerp), never back; every lamp it samples shows only states
// the server's lamp held (bits snap); each replica resolves against the catalog of the same map;
// and once the door settles, every client's sampled door equals the server's record of it.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <variant>
#include <vector>

#include "game_profiles.h"
#include "use_presser.h"
#include "tickwire/client/object_sample.h"
#include "tickwire/world/drawn_map_object.h"
#include "tickwire/world/object_catalog.h"
#include "tickwire/world/pawn_buttons.h"
#include "tickwire/world/reference_vocabulary.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

constexpr auto kMover = static_cast<uint8_t>(world::ComponentWireId::mover);
constexpr auto kLight = static_cast<uint8_t>(world::ComponentWireId::light);

// What one client saw of the objects, frame by frame.
struct ClientView {
  uint64_t door_frames = 0;          // frames the door was drawn
  uint64_t opening_frames = 0;       // frames it stood strictly between closed and open
  std::set<float> intermediate;      // the distinct open fractions drawn strictly between 0 and 1
  float last_fraction = 0.0f;
  uint64_t reversals = 0;            // a frame drew the door less open than the one before
  std::optional<MonoTime> first_moving, first_open;
  uint64_t lamp_samples = 0, lamp_flips = 0, lamp_foreign_bits = 0;
  std::vector<uint8_t> lamp_bits;    // the bits drawn last frame, by lamp
  world::ResolveCounters resolved;
};

bool close_to(const SectionSample& a, const SectionSample& b) {
  if (a.wire_id != b.wire_id || a.channel_count != b.channel_count || a.bits != b.bits) return false;
  for (uint8_t c = 0; c < a.channel_count; ++c)
    if (std::fabs(a.channels[c] - b.channels[c]) > 1e-3f) return false;
  return true;
}

// The client's sample against the server's whole record (each quantized once on the wire).
bool same_state(const ObjectSample& client, const ObjectSample& server) {
  if (client.flags != server.flags || client.section_count != server.section_count) return false;
  if (client.pose.has_value() != server.pose.has_value()) return false;
  if (client.pose) {
    const protocol::Vec3 a = client.pose->position, b = server.pose->position;
    if (std::fabs(a.x - b.x) > 1e-2f || std::fabs(a.y - b.y) > 1e-2f || std::fabs(a.z - b.z) > 1e-2f) return false;
  }
  for (uint8_t k = 0; k < client.section_count; ++k) {
    const SectionSample* s = server.section(client.sections[k].wire_id);
    if (s == nullptr || !close_to(client.sections[k], *s)) return false;
  }
  return true;
}

TEST(ObjectReplicasSim, EveryClientDrawsTheDoorEasingOpenAndTheLampsSnappingAndEndsOnTheServersState) {
  const uint64_t seed = 2417;
  const std::optional<LinkModel> link = link_profile("transatlantic");
  ASSERT_TRUE(link.has_value());
  const GameSimConfig config;
  GameSim sim(seed, config);
  const world::ObjectCatalog catalog = world::ObjectCatalog::build(sim.map, world::reference_vocabulary());
  const uint32_t door = *catalog.index_of("door.s");
  std::vector<uint32_t> lamps;
  for (uint32_t i = 0; i < catalog.size(); ++i)
    if (catalog.entry(i)->kind == world::kKindLight) lamps.push_back(i);

  // How long the door travels, from its authored mover settings: the frames a client draws during
  // it bound how many distinct fractions it can show (less a quarter for frame jitter and a render
  // clock that may run a little slow); one snapshot per tick alone could show at most travel_ticks - 1.
  const world::ObjectComponent* mover = sim.map.objects()[door].component("mover");
  ASSERT_NE(mover, nullptr);
  const double travel_s = mover->setting("distance_m")->values[0] / mover->setting("speed_mps")->values[0];
  const auto travel_ticks = static_cast<uint32_t>(std::ceil(travel_s * config.tick_rate_hz));
  const GameClientSetup defaults;
  const auto required = static_cast<std::size_t>(std::floor(0.75 * travel_s * defaults.frame_hz));
  ASSERT_GT(required, travel_ticks) << "the bound must prove lerping, not only sampling";

  // The lamps the south button's chain toggles (each flips once on every client).
  std::size_t chain_lamps = 0;
  for (const world::MapOutput& output : sim.map.objects()[*catalog.index_of("button.s")].outputs)
    for (const world::MapAction& action : output.actions)
      if (const auto* call = std::get_if<world::MapCall>(&action); call != nullptr && catalog.index_of(call->target) &&
                                                                   catalog.entry(*catalog.index_of(call->target))->kind == world::kKindLight)
        ++chain_lamps;
  ASSERT_GT(chain_lamps, 0u);

  // Standing still, facing -z (the south wall), pressing Use when told; two watchers.
  const std::shared_ptr<bool> pressing = add_presser_and_watchers(sim, *link, 180.0f);

  // The server: the door's newest whole record, when it first moved and first stood open, and every
  // state each lamp has held.
  std::optional<ObjectSample> server_door;
  std::optional<MonoTime> server_moving, server_open;
  std::vector<std::set<uint8_t>> server_lamp_bits(lamps.size());
  sim.watched.after_tick = [&](Tick tick) {
    TickRecords out;
    sim.game.write_records(tick, out);
    for (const protocol::Record& r : out.records)
      if (const auto* o = std::get_if<protocol::ObjectRecord>(&r.body); o != nullptr && o->object_index == door)
        server_door = object_sample(*o);
    const float fraction = sim.game.object_component(door, 0).channels[0];
    if (!server_moving && fraction > 0.0f) server_moving = sim.world.now;
    if (!server_open && fraction >= 1.0f) server_open = sim.world.now;
    for (std::size_t l = 0; l < lamps.size(); ++l) server_lamp_bits[l].insert(sim.game.object_component(lamps[l], 0).bits);
  };

  std::vector<ClientView> views(sim.clients.size());
  for (ClientView& v : views) v.lamp_bits.assign(lamps.size(), 0xFF);
  sim.after_frame = [&](SimGameClient& c) {
    std::size_t i = 0;
    while (sim.clients[i].get() != &c) ++i;
    ClientView& view = views[i];
    if (const std::optional<ObjectSample> d = c.facade->map_object(door)) {
      ++view.door_frames;
      (void)world::resolve(catalog, *d, view.resolved);
      const SectionSample* section = d->section(kMover);
      const float fraction = section != nullptr ? section->channels[0] : 0.0f;
      if (fraction < view.last_fraction) ++view.reversals;
      view.last_fraction = fraction;
      if (fraction > 0.0f && fraction < 1.0f) {
        ++view.opening_frames;
        view.intermediate.insert(fraction);
      }
      if (!view.first_moving && fraction > 0.0f) view.first_moving = sim.world.now;
      if (!view.first_open && fraction >= 1.0f) view.first_open = sim.world.now;
    }
    for (std::size_t l = 0; l < lamps.size(); ++l) {
      const std::optional<ObjectSample> lamp = c.facade->map_object(lamps[l]);
      if (!lamp) continue;
      (void)world::resolve(catalog, *lamp, view.resolved);
      const SectionSample* section = lamp->section(kLight);
      if (section == nullptr) continue;
      ++view.lamp_samples;
      if (!server_lamp_bits[l].contains(section->bits)) ++view.lamp_foreign_bits;
      if (view.lamp_bits[l] != 0xFF && view.lamp_bits[l] != section->bits) ++view.lamp_flips;
      view.lamp_bits[l] = section->bits;
    }
  };

  sim.run_for(Duration::seconds(3));
  ASSERT_TRUE(sim.all_welcomed()) << "seed " << seed;
  // Before the south button (x 1.75, 1.25 m up, at the wall), facing it.
  sim.game.place_pawn(sim.clients[0]->pawn(), world::Placement{{1.75f, 0, -30.25f}, {}, 180.0f, 0, false});
  sim.run_for(Duration::seconds(1));
  *pressing = true;
  sim.run_for(Duration::milliseconds(200));
  *pressing = false;
  sim.run_for(Duration::seconds(5));

  ASSERT_TRUE(server_moving.has_value() && server_open.has_value()) << "the server's door opened; seed " << seed;
  ASSERT_TRUE(server_door.has_value());
  ASSERT_NE(server_door->section(kMover), nullptr);
  EXPECT_EQ(server_door->section(kMover)->channels[0], 1.0f);
  std::printf("[ object replicas ] door.s travels %.2f s (%u ticks at %u Hz), its button toggles %zu lamps; clients draw at %.0f Hz: at least %zu distinct fractions required\n",
              travel_s, travel_ticks, config.tick_rate_hz, chain_lamps, defaults.frame_hz, required);
  for (std::size_t i = 0; i < sim.clients.size(); ++i) {
    SCOPED_TRACE("client " + std::to_string(i) + ", seed " + std::to_string(seed));
    const ClientView& view = views[i];
    ASSERT_TRUE(view.first_moving.has_value() && view.first_open.has_value()) << "the client drew the door open";
    EXPECT_GE(view.intermediate.size(), required) << "the open fraction eased between snapshots";
    EXPECT_EQ(view.reversals, 0u) << "the open fraction only ever rose";
    const double moving_ms = (*view.first_moving - *server_moving).milliseconds_f();
    const double open_ms = (*view.first_open - *server_open).milliseconds_f();
    // One way (50 +- 10 ms) plus the interpolation delay and a lost packet's cost.
    EXPECT_LT(moving_ms, 250.0);
    EXPECT_LT(open_ms, 250.0);
    EXPECT_GE(view.lamp_flips, chain_lamps) << "the chain's lamps toggled";
    EXPECT_EQ(view.lamp_foreign_bits, 0u) << "a lamp drew only states the server's held";
    EXPECT_EQ(view.resolved.kind_mismatch, 0u);
    EXPECT_EQ(view.resolved.unregistered_kind, 0u);
    EXPECT_EQ(view.resolved.unknown_object, 0u);
    const std::optional<ObjectSample> settled = sim.clients[i]->facade->map_object(door);
    ASSERT_TRUE(settled.has_value());
    EXPECT_TRUE(same_state(*settled, *server_door)) << "the settled door is the server's";
    const GameClient& game = sim.clients[i]->client;
    std::printf("[ object replicas ] client %zu: %llu door frames, %llu while opening, %zu distinct intermediate fractions, "
                "%llu reversals; drawn moving %.0f ms and open %.0f ms after the server; %llu lamp samples, %llu flips, "
                "%llu resolved; %llu objects appeared, %zu states held, %zu changing (the flickering lamps)\n",
                i, static_cast<unsigned long long>(view.door_frames), static_cast<unsigned long long>(view.opening_frames),
                view.intermediate.size(), static_cast<unsigned long long>(view.reversals), moving_ms, open_ms,
                static_cast<unsigned long long>(view.lamp_samples), static_cast<unsigned long long>(view.lamp_flips),
                static_cast<unsigned long long>(view.resolved.drawn),
                static_cast<unsigned long long>(game.objects().counters().appeared), game.objects().held_states(),
                game.objects().changing().size());
  }
  EXPECT_EQ(sim.invariants.total(), 0u);
}

}  // namespace
}  // namespace tickwire
