// A reliable download beside the game: mid-game the server sends every client a 2 MB block (32
// game messages of the largest size, 64 KiB less the envelope, through Server::send and the clients' outboxes) on the broadband and
// transatlantic profiles. The block arrives whole, exactly once and in order, and the snapshots
// keep their 60 per second the whole time: the transport paces reliable and unreliable data
// together and the room's snapshot budget follows the link's estimate.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "game_profiles.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

constexpr MessageType kBlockPart = 0x4b1;
constexpr uint32_t kParts = 32;
constexpr std::size_t kPartBytes = kSessionMaxGameMessageBytes;  // the largest game message

std::vector<uint8_t> part_bytes(uint32_t part) {
  std::vector<uint8_t> bytes(kPartBytes);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>((i * 31 + part * 7) & 0xff);
  bytes[0] = static_cast<uint8_t>(part);
  return bytes;
}

struct Received {
  std::vector<uint32_t> parts;  // in arrival order
  uint64_t corrupt = 0;
  MonoTime done;
};

void run_block(std::string_view profile, uint64_t seed) {
  const std::optional<LinkModel> link = link_profile(profile);
  ASSERT_TRUE(link.has_value());
  GameSim sim(seed, GameSimConfig{});
  GameClientSetup setup;
  setup.up = setup.down = *link;
  setup.frame_hz = 120.0;
  for (int i = 0; i < 4; ++i) sim.add_client(setup);
  sim.run_for(Duration::seconds(3));
  ASSERT_TRUE(sim.all_welcomed()) << "seed " << seed;

  std::map<const SimGameClient*, Received> received;
  // Snapshots per client in half-second windows, from the send to the end.
  std::map<const SimGameClient*, std::vector<uint64_t>> windows;
  const MonoTime start = sim.world.now;
  sim.after_frame = [&](SimGameClient& c) {
    Received& r = received[&c];
    while (auto m = c.facade->receive_message()) {
      if (m->type != kBlockPart || m->from != kAuthorityOwner) continue;
      const uint32_t part = m->payload.empty() ? kParts : m->payload[0];
      if (part >= kParts || m->payload != part_bytes(part)) ++r.corrupt;
      r.parts.push_back(part);
      if (r.parts.size() == kParts) r.done = sim.world.now;
    }
    auto& w = windows[&c];
    const auto index = static_cast<std::size_t>((sim.world.now - start).seconds_f() / 0.5);
    if (w.size() <= index) w.resize(index + 1, c.client.counters().snapshots);
    w[index] = c.client.counters().snapshots;
  };
  // One byte past the largest game message is refused by name, and nothing is queued.
  EXPECT_FALSE(sim.facade->send(sim.clients[0]->client.session().welcome()->owner_id, kBlockPart,
                                std::vector<uint8_t>(kPartBytes + 1)));
  for (const auto& c : sim.clients) {
    for (uint32_t part = 0; part < kParts; ++part) {
      ASSERT_TRUE(sim.facade->send(c->client.session().welcome()->owner_id, kBlockPart, part_bytes(part)));
    }
  }
  // Until every client holds the whole block (15 s at most: on a 100 ms link the reliable channel's
  // one block in flight at a time makes 2 MB take about 6 s).
  const auto all_done = [&] {
    return std::all_of(sim.clients.begin(), sim.clients.end(),
                       [&](const auto& c) { return received[c.get()].parts.size() >= kParts; });
  };
  for (int i = 0; i < 30 && !all_done(); ++i) sim.run_for(Duration::milliseconds(500));
  sim.run_for(Duration::seconds(1));

  for (const auto& c : sim.clients) {
    const Received& r = received[c.get()];
    ASSERT_EQ(r.parts.size(), kParts) << profile << " seed " << seed;
    for (uint32_t i = 0; i < kParts; ++i) EXPECT_EQ(r.parts[i], i) << "in order, exactly once";
    EXPECT_EQ(r.corrupt, 0u);
    std::printf("[ block ] %s: 2 MB in %.2f s\n", std::string(profile).c_str(), (r.done - start).seconds_f());
    const auto& w = windows[c.get()];
    ASSERT_GE(w.size(), static_cast<std::size_t>((r.done - start).seconds_f() / 0.5) + 2) << "windows cover the block";
    uint64_t fewest = UINT64_MAX;
    for (std::size_t i = 1; i + 1 < w.size(); ++i) fewest = std::min(fewest, w[i] - w[i - 1]);
    EXPECT_GE(fewest, 28u) << "60 snapshots a second (30 a half second, a loss or two aside) during the block";
  }
  EXPECT_EQ(sim.server.game_message_refusals()[GameMessageRefusal::too_large], 1u);
  EXPECT_EQ(sim.server.game_message_refusals().total(), 1u);
  EXPECT_EQ(sim.invariants.total(), 0u);
}

TEST(GameBlock, TwoMegabytesBesideTheSnapshotsOnBroadband) { run_block("broadband", test_seed(0xb10c)); }
TEST(GameBlock, TwoMegabytesBesideTheSnapshotsOnTransatlantic) { run_block("transatlantic", test_seed(0xb10d)); }

}  // namespace
}  // namespace tickwire
