// SessionClient and forgiveness claims over the simulated network: the client reads the room's
// forgiveness from the welcome's contract (1.0 before it, so it claims nothing), and an input sent
// with a claim reaches the server carrying exactly that claim, while one sent without carries none
// (the presence byte a fully authoritative server always read).
#include <gtest/gtest.h>

#include <optional>

#include "room_sim.h"
#include "support.h"
#include "tickwire/wire/typed_channel.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

RoomPolicy forgiving_policy(double forgiveness) {
  RoomPolicy policy = test_room_policy(60, forgiveness);
  policy.identity.room_id = "room-claims";
  return policy;
}

// Sends one input (with `claim` if given) and returns the InputFrame the server's end received,
// read off the session's unreliable channel before the room sees it.
std::optional<protocol::InputFrame> send_and_read(RoomSim& sim, SimSessionClient& client,
                                                  const std::optional<protocol::Claim>& claim) {
  protocol::InputCmd cmd;
  cmd.move_y = 1.0f;
  if (!client.session.send_input(cmd, claim)) return std::nullopt;
  client.session.send(sim.world.now);
  sim.world.advance(Duration::milliseconds(5));
  sim.server.transport().receive(sim.world.now, sim.world.wall());
  const uint32_t slot = static_cast<uint32_t>(client.session.welcome()->owner_id - 1);
  NetChannel* channel = sim.server.channel(slot);
  if (channel == nullptr) return std::nullopt;
  std::optional<protocol::InputFrame> last;
  wire::DecodeErrorCounters errors;
  while (auto message = channel->receive(kSessionUnreliableChannel)) {
    protocol::InputFrame frame;
    if (message->type == protocol::InputFrame::wire_id && wire::read_message(*message, frame, errors).ok()) {
      last = frame;
    }
  }
  return last;
}

TEST(SessionClaims, TheClaimGivenToSendInputIsTheClaimTheServerReads) {
  const uint64_t seed = test_seed(0xc1a1);
  RoomSim sim(seed, 16, forgiving_policy(0.25));
  SimSessionClient& client = sim.add_client();
  client.sending = false;
  EXPECT_EQ(client.session.forgiveness(), 1.0);  // before the welcome: the authoritative default
  sim.run_for(Duration::seconds(1));
  ASSERT_TRUE(client.session.welcomed());
  EXPECT_EQ(client.session.forgiveness(), 0.25);

  protocol::Claim claim;
  claim.position = {1.5f, 0.25f, -3.0f};
  claim.velocity = {0.0f, -1.0f, 4.0f};
  claim.values = protocol::PawnValues{{1.8f}, {1.6f}};
  claim.flags = 1;
  claim.placement_epoch = 3;
  const auto with = send_and_read(sim, client, claim);
  ASSERT_TRUE(with);
  ASSERT_TRUE(with->claim);
  EXPECT_EQ(with->claim->position, claim.position);
  EXPECT_EQ(with->claim->velocity, claim.velocity);
  EXPECT_EQ(with->claim->values, claim.values);
  EXPECT_EQ(with->claim->flags, claim.flags);
  EXPECT_EQ(with->claim->placement_epoch, 3);
  EXPECT_EQ(with->first_sequence + with->inputs.size() - 1, client.session.inputs().next_sequence() - 1);

  const auto without = send_and_read(sim, client, std::nullopt);
  ASSERT_TRUE(without);
  EXPECT_FALSE(without->claim);
  EXPECT_EQ(without->inputs.size(), 2u);  // the first input is still un-acked: sent again
}

}  // namespace
}  // namespace tickwire
