// The blend rules of a remote entity sample: angles the short way round across the wrap, channels
// lerp (a missing channel reads as zero), bits snap to the newer sample, extrapolation continues
// motion only, and malformed samples are recognised.
#include "tickwire/client/entity_sample.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace tickwire {
namespace {

EntitySample make(float x, float yaw, uint8_t bits) {
  EntitySample s;
  s.entity = EntityNetHandle::make(0, 1);
  s.position_m = {x, 2.0f * x, -x};
  s.yaw_deg = yaw;
  s.pitch_deg = x;
  s.bits = bits;
  s.flags = bits;
  return s;
}

TEST(EntitySample, AnglesWrapIntoHalfOpenRange) {
  EXPECT_FLOAT_EQ(wrap_angle_deg(0.0), 0.0f);
  EXPECT_FLOAT_EQ(wrap_angle_deg(190.0), -170.0f);
  EXPECT_FLOAT_EQ(wrap_angle_deg(-190.0), 170.0f);
  EXPECT_FLOAT_EQ(wrap_angle_deg(180.0), -180.0f);
  EXPECT_FLOAT_EQ(wrap_angle_deg(720.0 + 45.0), 45.0f);
  EXPECT_FLOAT_EQ(wrap_angle_deg(-1080.0 - 30.0), -30.0f);
}

TEST(EntitySample, AnglesLerpTheShortWayRound) {
  // 170 -> -170 is 20 degrees through 180, not 340 back through 0.
  EXPECT_FLOAT_EQ(lerp_angle_deg(170.0f, -170.0f, 0.5), -180.0f);
  EXPECT_FLOAT_EQ(lerp_angle_deg(170.0f, -170.0f, 0.25), 175.0f);
  EXPECT_FLOAT_EQ(lerp_angle_deg(-170.0f, 170.0f, 0.25), -175.0f);
  EXPECT_FLOAT_EQ(lerp_angle_deg(-10.0f, 10.0f, 0.5), 0.0f);
  EXPECT_FLOAT_EQ(lerp_angle_deg(350.0f, 10.0f, 0.5), 0.0f);  // unwrapped inputs are fine too
  EXPECT_FLOAT_EQ(lerp_angle_deg(30.0f, 30.0f, 0.7), 30.0f);
  // Past alpha 1 the turn continues in the same direction.
  EXPECT_FLOAT_EQ(lerp_angle_deg(170.0f, -170.0f, 2.0), -150.0f);
}

TEST(EntitySample, BlendLerpsMotionAndSnapsBitsToTheNewer) {
  const EntitySample older = make(0.0f, 170.0f, 0b0000'0001);
  const EntitySample newer = make(4.0f, -170.0f, 0b1000'0000);
  const EntitySample mid = blend_samples(older, newer, 0.25);
  EXPECT_FLOAT_EQ(mid.position_m.x, 1.0f);
  EXPECT_FLOAT_EQ(mid.position_m.y, 2.0f);
  EXPECT_FLOAT_EQ(mid.position_m.z, -1.0f);
  EXPECT_FLOAT_EQ(mid.yaw_deg, 175.0f);
  EXPECT_FLOAT_EQ(mid.pitch_deg, 1.0f);
  EXPECT_EQ(mid.bits, newer.bits) << "a light is on or off, never half-lit";
  EXPECT_EQ(mid.flags, newer.flags) << "flags snap too";
  EXPECT_EQ(blend_samples(older, newer, 0.0).bits, newer.bits) << "even at alpha 0 the bits are the newer's";
  EXPECT_EQ(blend_samples(older, newer, 1.0), newer);
}

TEST(EntitySample, ChannelsLerpAndMissingOnesBlendUpFromZero) {
  EntitySample older = make(0.0f, 0.0f, 0);
  older.channel_count = 1;
  older.channels = {0.2f, 0.0f, 0.0f, 0.0f};
  EntitySample newer = make(0.0f, 0.0f, 0);
  newer.channel_count = 3;
  newer.channels = {0.6f, 1.0f, -2.0f, 0.0f};
  const EntitySample mid = blend_samples(older, newer, 0.5);
  EXPECT_EQ(mid.channel_count, 3);
  EXPECT_FLOAT_EQ(mid.channels[0], 0.4f);
  EXPECT_FLOAT_EQ(mid.channels[1], 0.5f);   // older had no channel 1: it reads as zero
  EXPECT_FLOAT_EQ(mid.channels[2], -1.0f);
  EXPECT_FLOAT_EQ(mid.channels[3], 0.0f);
  // A newer sample with fewer channels: the ones past its count read as zero.
  const EntitySample shrunk = blend_samples(newer, older, 0.5);
  EXPECT_EQ(shrunk.channel_count, 1);
  EXPECT_FLOAT_EQ(shrunk.channels[0], 0.4f);
  EXPECT_FLOAT_EQ(shrunk.channels[1], 0.0f);
}

TEST(EntitySample, ExtrapolationContinuesMotionAndHoldsTheRest) {
  EntitySample previous = make(1.0f, 170.0f, 1);
  previous.channel_count = 1;
  previous.channels[0] = 0.0f;
  EntitySample newest = make(2.0f, 180.0f, 2);
  newest.channel_count = 1;
  newest.channels[0] = 0.5f;
  const EntitySample ahead = extrapolate_sample(previous, newest, 1.5);
  EXPECT_FLOAT_EQ(ahead.position_m.x, 2.5f);
  EXPECT_FLOAT_EQ(ahead.position_m.z, -2.5f);
  EXPECT_FLOAT_EQ(ahead.yaw_deg, -175.0f);  // through the wrap
  EXPECT_FLOAT_EQ(ahead.channels[0], 0.5f);
  EXPECT_EQ(ahead.flags, newest.flags);
  EXPECT_EQ(ahead.bits, 2);
  const EntitySample at_newest = extrapolate_sample(previous, newest, 1.0);
  EXPECT_EQ(at_newest.position_m, newest.position_m);
  EXPECT_FLOAT_EQ(at_newest.yaw_deg, -180.0f) << "180 is drawn as its wrapped twin";
}

TEST(EntitySample, MalformedSamplesAreRecognised) {
  EntitySample s = make(1.0f, 0.0f, 0);
  EXPECT_TRUE(sample_is_well_formed(s));
  s.channel_count = kSampleChannels + 1;
  EXPECT_FALSE(sample_is_well_formed(s));
  s = make(1.0f, 0.0f, 0);
  s.position_m.y = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(sample_is_well_formed(s));
  s = make(1.0f, 0.0f, 0);
  s.yaw_deg = std::numeric_limits<float>::infinity();
  EXPECT_FALSE(sample_is_well_formed(s));
  s = make(1.0f, 0.0f, 0);
  s.channels[3] = std::numeric_limits<float>::infinity();  // even past the count: never blended into garbage
  EXPECT_FALSE(sample_is_well_formed(s));
}

}  // namespace
}  // namespace tickwire
