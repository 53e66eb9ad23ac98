// The range coder's direct bits: a chunk of up to 16 equiprobable bits is one symbol, so every
// width and value must come back exactly between learnt decisions, and a code in the part of the
// range no chunk value maps to must leave the stream corrupt rather than decode as something.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "../../src/replication/delta/delta_range_coder.h"
#include "support.h"
#include "tickwire/core/rng.h"

namespace tickwire::delta {
namespace {

struct Step {
  bool direct = false;
  unsigned bits = 0;  // direct: the chunk's width
  uint32_t value = 0;
};

TEST(DeltaRangeCoder, DirectChunksOfEveryWidthRoundTripBetweenDecisions) {
  const uint64_t seed = test::test_seed(17);
  Rng rng(seed);
  std::vector<Step> steps;
  for (int k = 0; k < 4000; ++k) {
    if (rng.chance(0.5)) {
      const auto bits = static_cast<unsigned>(rng.below(kMaxDirectBits + 1));
      const uint32_t value = bits == 0 ? 0u : static_cast<uint32_t>(rng.below(uint64_t{1} << bits));
      steps.push_back(Step{true, bits, value});
    } else {
      steps.push_back(Step{false, 0, rng.chance(0.9) ? 0u : 1u});  // a skewed decision
    }
  }
  std::vector<uint8_t> body;
  RangeEncoder enc(body);
  std::array<BitModel, 2> enc_models{};
  for (const Step& s : steps) {
    if (s.direct) {
      enc.encode_direct(s.value, s.bits);
    } else {
      enc.encode(enc_models[0], s.value);
    }
  }
  enc.finish();

  RangeDecoder dec(body);
  std::array<BitModel, 2> dec_models{};
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const Step& s = steps[k];
    const uint32_t got = s.direct ? dec.decode_direct(s.bits) : dec.decode(dec_models[0]);
    ASSERT_EQ(got, s.value) << "step " << k << " (seed " << seed << ")";
  }
  EXPECT_FALSE(dec.corrupt());
  EXPECT_GE(dec.consumed(), body.size());
}

// The first 16-bit chunk splits the initial range (2^32 - 1) into parts of 65535: value v owns
// codes [v * 65535, (v + 1) * 65535), so the last value ends below 0xFFFF0000 and codes from there
// up to the range belong to no value.
TEST(DeltaRangeCoder, ACodePastTheLastChunkValueIsCorrupt) {
  const std::vector<uint8_t> last{0xFF, 0xFE, 0xFF, 0xFF};  // 0xFFFEFFFF: the last value's part
  RangeDecoder fits(last);
  ASSERT_FALSE(fits.corrupt());
  EXPECT_EQ(fits.decode_direct(16), 0xFFFFu);
  EXPECT_FALSE(fits.corrupt());

  for (const std::vector<uint8_t>& past : {std::vector<uint8_t>{0xFF, 0xFF}, std::vector<uint8_t>{0xFF, 0xFF, 0xFF, 0xFE}}) {
    RangeDecoder dec(past);  // 0xFFFF0000 and 0xFFFFFFFE: inside the range, past every value
    ASSERT_FALSE(dec.corrupt());
    EXPECT_EQ(dec.decode_direct(16), 0xFFFFu);
    EXPECT_TRUE(dec.corrupt());
    EXPECT_EQ(dec.decode_direct(3), 7u) << "a corrupt stream stays corrupt";
    EXPECT_TRUE(dec.corrupt());
  }
}

}  // namespace
}  // namespace tickwire::delta
