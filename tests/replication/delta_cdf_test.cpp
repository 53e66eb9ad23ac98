// The range coder's 16-symbol steps and the integer code built on them: both ends must learn the
// same distributions, every symbol must stay codable whatever came before, and a damaged stream
// must decode within its bytes (and say it is corrupt) rather than read on or loop.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "../../src/replication/delta/delta_coding.h"
#include "support.h"
#include "tickwire/core/rng.h"

namespace tickwire::delta {
namespace {

// The update as documented, one bound at a time in plain integers: the vector code must agree.
AdaptiveCdf reference_update(AdaptiveCdf m, unsigned symbol) {
  constexpr std::array<int32_t, 7> kSmoothShiftBySeen = {2, 3, 3, 3, 3, 3, 4};
  constexpr std::array<int32_t, 7> kSharpShiftBySeen = {1, 1, 2, 2, 3, 3, 4};
  const std::array<int32_t, 7>& kShiftBySeen = m.sharp ? kSharpShiftBySeen : kSmoothShiftBySeen;
  const int32_t shift = kShiftBySeen[m.seen < kShiftBySeen.size() ? m.seen : kShiftBySeen.size() - 1];
  if (m.seen + 1u < kShiftBySeen.size()) ++m.seen;
  for (std::size_t i = 0; i < kCdfSymbols; ++i) {
    const int32_t bound = m.below[i];
    const int32_t target = (m.sharp ? kCdfSharpTargets : kCdfSmoothTargets)[symbol][i];
    m.below[i] = static_cast<uint16_t>(bound + ((target - bound) >> shift));
  }
  return m;
}

void expect_floors(const AdaptiveCdf& m, const char* when) {
  ASSERT_EQ(m.below[0], 0u) << when;
  for (std::size_t s = 0; s + 1 < kCdfSymbols; ++s) {
    ASSERT_GE(m.below[s + 1] - m.below[s], static_cast<int>(kCdfFloor)) << when << ", symbol " << s;
  }
  ASSERT_GE(static_cast<int>(kCdfTotal) - m.below[kCdfSymbols - 1], static_cast<int>(kCdfFloor)) << when;
}

// A symbol drawn from a skewed, drifting distribution, so histories cover settled and moving CDFs.
unsigned draw_symbol(Rng& rng, unsigned favourite) {
  if (rng.chance(0.6)) return favourite;
  if (rng.chance(0.5)) return favourite + 1 < kCdfSymbols ? favourite + 1 : favourite;
  return static_cast<unsigned>(rng.below(kCdfSymbols));
}

struct Step {
  enum Kind : uint8_t { symbol, decision, direct } kind = symbol;
  std::size_t model = 0;  // symbol: which distribution
  unsigned bits = 0;      // direct: the chunk's width
  uint32_t value = 0;
};

std::vector<Step> random_steps(Rng& rng, std::size_t count, std::size_t models) {
  std::vector<Step> steps;
  unsigned favourite = 0;
  for (std::size_t k = 0; k < count; ++k) {
    if (rng.chance(0.01)) favourite = static_cast<unsigned>(rng.below(kCdfSymbols));
    const double pick = rng.unit();
    if (pick < 0.6) {
      steps.push_back({Step::symbol, rng.below(models), 0, draw_symbol(rng, favourite)});
    } else if (pick < 0.8) {
      steps.push_back({Step::decision, 0, 0, rng.chance(0.85) ? 0u : 1u});
    } else {
      const auto bits = static_cast<unsigned>(rng.below(kMaxDirectBits + 1));
      steps.push_back({Step::direct, 0, bits, bits == 0 ? 0u : static_cast<uint32_t>(rng.below(uint64_t{1} << bits))});
    }
  }
  return steps;
}

std::vector<uint8_t> encode_steps(const std::vector<Step>& steps, std::vector<AdaptiveCdf>& models) {
  std::vector<uint8_t> body;
  RangeEncoder enc(body);
  BitModel decision;
  for (const Step& s : steps) {
    if (s.kind == Step::symbol) {
      enc.encode_cdf(models[s.model], s.value);
    } else if (s.kind == Step::decision) {
      enc.encode(decision, s.value);
    } else {
      enc.encode_direct(s.value, s.bits);
    }
  }
  enc.finish();
  return body;
}

// Decodes `steps`; returns what came back (every symbol checked to be in range).
std::vector<uint32_t> decode_steps(const std::vector<Step>& steps, std::vector<AdaptiveCdf>& models, RangeDecoder& dec) {
  BitModel decision;
  std::vector<uint32_t> got;
  for (const Step& s : steps) {
    if (s.kind == Step::symbol) {
      got.push_back(dec.decode_cdf(models[s.model]));
      EXPECT_LT(got.back(), kCdfSymbols);
    } else if (s.kind == Step::decision) {
      got.push_back(dec.decode(decision));
    } else {
      got.push_back(dec.decode_direct(s.bits));
    }
  }
  return got;
}

std::vector<uint32_t> values_of(const std::vector<Step>& steps) {
  std::vector<uint32_t> values;
  for (const Step& s : steps) values.push_back(s.value);
  return values;
}

TEST(DeltaCdf, TheVectorUpdateIsThePlainArithmeticAndKeepsEveryFloor) {
  const uint64_t seed = test::test_seed(61);
  Rng rng(seed);
  for (int history = 0; history < 200; ++history) {
    const UIntModel prior = UIntModel::with_continue(3200, 2048);
    AdaptiveCdf m = history % 3 == 0 ? AdaptiveCdf{} : (history % 3 == 1 ? prior.head : prior.tail);
    unsigned favourite = static_cast<unsigned>(rng.below(kCdfSymbols));
    for (int k = 0; k < 300; ++k) {
      const unsigned symbol = draw_symbol(rng, favourite);
      const AdaptiveCdf expected = reference_update(m, symbol);
      m.update(symbol);
      ASSERT_EQ(m.below, expected.below) << "history " << history << " step " << k << " (seed " << seed << ")";
      ASSERT_EQ(m.seen, expected.seen);
      expect_floors(m, "after an update");
    }
  }
}

TEST(DeltaCdf, RandomSymbolStreamsRoundTripWithIdenticalDistributions) {
  const uint64_t seed = test::test_seed(62);
  Rng rng(seed);
  for (int stream = 0; stream < 20; ++stream) {
    const std::vector<Step> steps = random_steps(rng, 3000, 5);
    std::vector<AdaptiveCdf> enc_models(5, UIntModel::with_continue(3000, 2048).head);
    const std::vector<uint8_t> body = encode_steps(steps, enc_models);

    std::vector<AdaptiveCdf> dec_models(5, UIntModel::with_continue(3000, 2048).head);
    RangeDecoder dec(body);
    ASSERT_EQ(decode_steps(steps, dec_models, dec), values_of(steps)) << "stream " << stream << " (seed " << seed << ")";
    EXPECT_FALSE(dec.corrupt());
    EXPECT_GE(dec.consumed(), body.size());
    for (std::size_t i = 0; i < enc_models.size(); ++i) {
      EXPECT_EQ(enc_models[i].below, dec_models[i].below) << "both ends learn the same distribution";
    }
  }
}

TEST(DeltaCdf, EverySymbolStaysCodableAfterALongRunOfOne) {
  for (unsigned run_symbol = 0; run_symbol < kCdfSymbols; ++run_symbol) {
    AdaptiveCdf settled;
    for (int k = 0; k < 20000; ++k) settled.update(run_symbol);
    expect_floors(settled, "after a long run");
    for (unsigned other = 0; other < kCdfSymbols; ++other) {
      std::vector<Step> steps;
      for (int k = 0; k < 3; ++k) steps.push_back({Step::symbol, 0, 0, other});
      steps.push_back({Step::symbol, 0, 0, run_symbol});
      std::vector<AdaptiveCdf> enc_models(1, settled);
      const std::vector<uint8_t> body = encode_steps(steps, enc_models);
      std::vector<AdaptiveCdf> dec_models(1, settled);
      RangeDecoder dec(body);
      ASSERT_EQ(decode_steps(steps, dec_models, dec), values_of(steps)) << "run of " << run_symbol << ", then " << other;
      EXPECT_FALSE(dec.corrupt());
      // An unlikely symbol costs at most log2(kCdfTotal / kCdfFloor) = 12 bits (plus the stream's end).
      EXPECT_LE(body.size(), 3u * 12u / 8u + 3u);
    }
  }
}

TEST(DeltaCdf, TruncatedAndDamagedStreamsDecodeWithinTheirBytes) {
  const uint64_t seed = test::test_seed(63);
  Rng rng(seed);
  const std::vector<Step> steps = random_steps(rng, 400, 3);
  std::vector<AdaptiveCdf> enc_models(3);
  const std::vector<uint8_t> body = encode_steps(steps, enc_models);
  ASSERT_GT(body.size(), 20u);

  // Bytes past a stream's end read as zeros: a cut stream, with its bytes followed in memory by
  // nonzero ones it must not see, decodes exactly as the same bytes padded with zeros.
  for (std::size_t cut = 0; cut < body.size(); ++cut) {
    std::vector<uint8_t> in_memory(body.begin(), body.begin() + static_cast<std::ptrdiff_t>(cut));
    in_memory.resize(cut + 64, 0xA5);
    std::vector<uint8_t> padded(body.begin(), body.begin() + static_cast<std::ptrdiff_t>(cut));
    padded.resize(cut + 64, 0);
    std::vector<AdaptiveCdf> cut_models(3), padded_models(3);
    RangeDecoder cut_dec(std::span<const uint8_t>(in_memory.data(), cut));
    RangeDecoder padded_dec(padded);
    EXPECT_EQ(decode_steps(steps, cut_models, cut_dec), decode_steps(steps, padded_models, padded_dec)) << "cut at " << cut;
    EXPECT_EQ(cut_dec.corrupt(), padded_dec.corrupt());
  }

  for (int trial = 0; trial < 200; ++trial) {
    std::vector<uint8_t> damaged = body;
    damaged[rng.below(damaged.size())] ^= static_cast<uint8_t>(1u + rng.below(255));
    std::vector<AdaptiveCdf> dec_models(3);
    RangeDecoder dec(damaged);
    decode_steps(steps, dec_models, dec);  // each symbol checked to be in range
    for (const AdaptiveCdf& m : dec_models) expect_floors(m, "after decoding damage");
  }
}

TEST(DeltaCdf, ACodePastTheRangeDecodesAsTheLastSymbolAndStaysCorrupt) {
  const std::vector<uint8_t> past{0xFF, 0xFF, 0xFF, 0xFF};  // code 0xFFFFFFFF, the range is one less
  RangeDecoder dec(past);
  EXPECT_TRUE(dec.corrupt());
  AdaptiveCdf m;
  EXPECT_EQ(dec.decode_cdf(m), kCdfSymbols - 1);
  EXPECT_TRUE(dec.corrupt());
  expect_floors(m, "after a corrupt symbol");
}

// Every bit length through the integer code, at the edges of its slots and its widest.
TEST(DeltaCdf, IntegersOfEveryLengthRoundTripThroughTheSlots) {
  std::vector<uint64_t> values{0, 1, 2, 3};
  for (unsigned n = 3; n <= 64; ++n) {
    const uint64_t lead = uint64_t{1} << (n - 1);
    const uint64_t half = n >= 2 ? uint64_t{1} << (n - 2) : 0;
    for (const uint64_t v : {lead, lead + half - 1, lead + half, lead | (lead - 1)}) values.push_back(v);
  }
  std::vector<uint8_t> body;
  EncodeIO enc(body);
  UIntModel enc_model = UIntModel::with_continue(3200, 2048);
  for (uint64_t v : values) enc.uint(enc_model, v, 64);
  enc.finish();

  DecodeIO dec(body);
  UIntModel dec_model = UIntModel::with_continue(3200, 2048);
  for (const uint64_t v : values) {
    uint64_t got = 0;
    dec.uint(dec_model, got, 64);
    ASSERT_EQ(got, v);
  }
  EXPECT_FALSE(dec.failed());
  EXPECT_FALSE(dec.decoder().corrupt());
}

TEST(DeltaCdf, ALengthPastTheFieldsWidthIsRefused) {
  for (const uint64_t wide : {uint64_t{1} << 10, uint64_t{1} << 20, uint64_t{1} << 40}) {
    std::vector<uint8_t> body;
    EncodeIO enc(body);
    UIntModel enc_model;
    uint64_t v = wide;
    enc.uint(enc_model, v, 64);
    enc.finish();

    DecodeIO dec(body);
    UIntModel dec_model;
    uint64_t got = 99;
    dec.uint(dec_model, got, 10);  // the field holds values below 2^10
    EXPECT_TRUE(dec.failed()) << wide;
    EXPECT_EQ(dec.refusal(), DeltaRefusal::corrupt_stream);
    EXPECT_LT(got, uint64_t{1} << 10);
  }
}

}  // namespace
}  // namespace tickwire::delta
