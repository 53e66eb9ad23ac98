// A session's conduct: offences are counted by reason, the contract's bucket forgives a steady
// trickle, and the session that empties it is marked for a kick, once, by name.
#include "tickwire/server/session_conduct.h"

#include <gtest/gtest.h>

namespace tickwire {
namespace {

InteractionLimits limits(uint32_t kick_after, uint32_t forgiven_per_second) {
  InteractionLimits l;
  l.kick_after_offences = kick_after;
  l.offences_forgiven_per_second = forgiven_per_second;
  return l;
}

TEST(SessionConduct, TheBucketsWorthOfOffencesIsForgivenAndTheNextKicks) {
  SessionConduct conduct(limits(10, 0));
  const MonoTime t = MonoTime::from_ns(1'000'000'000);
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(conduct.offend(Offence::fire_rate, t)) << i;
  EXPECT_TRUE(conduct.offend(Offence::undecodable, t));
  ASSERT_TRUE(conduct.kick());
  EXPECT_EQ(*conduct.kick(), KickReason::flood);
  EXPECT_EQ(conduct.offences()[Offence::fire_rate], 10u);
  EXPECT_EQ(conduct.offences()[Offence::undecodable], 1u);
}

TEST(SessionConduct, ASteadyTrickleWithinTheForgivenRateNeverKicks) {
  SessionConduct conduct(limits(5, 20));
  MonoTime t = MonoTime::from_ns(0);
  for (int i = 0; i < 2000; ++i) {  // 10 a second for 200 s, half the forgiven rate
    EXPECT_FALSE(conduct.offend(Offence::input_rate, t));
    t = t + Duration::milliseconds(100);
  }
  EXPECT_FALSE(conduct.kick());
  EXPECT_EQ(conduct.offences()[Offence::input_rate], 2000u);
}

TEST(SessionConduct, SeveralAtOnceCountWholeAndKickPastTheBucket) {
  SessionConduct conduct(limits(50, 0));
  const MonoTime t = MonoTime::from_ns(5);
  EXPECT_FALSE(conduct.offend(Offence::input_rate, 50, t));
  EXPECT_TRUE(conduct.offend(Offence::input_rate, 1000, t));
  EXPECT_EQ(conduct.offences()[Offence::input_rate], 1050u);  // all counted, however many it takes to kick
}

}  // namespace
}  // namespace tickwire
