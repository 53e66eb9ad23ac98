// The per-packet AEAD moved from libsodium to OpenSSL without changing a byte: for random keys,
// nonces, additional data and every message size 0..1300, OpenSSL's seal equals libsodium's
// crypto_aead_chacha20poly1305_ietf_encrypt byte for byte and each opens the other's; any tampering is
// refused and leaves no plaintext; no length is trusted; a packet allocates nothing.
#include <gtest/gtest.h>
#include <openssl/crypto.h>
#include <sodium.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <thread>
#include <vector>

#include "allocation_counter.h"
#include "support.h"
#include "tickwire/core/rng.h"
#include "tickwire/transport/netcode_packet.h"
#include "tickwire/transport/packet_aead.h"

namespace tickwire {
namespace {

using netcode::Key;
using netcode::kMacBytes;
using netcode::PacketNonce;
using Bytes = std::vector<uint8_t>;

// OpenSSL's own allocations, counted: installed before main, ahead of OpenSSL's first allocation.
std::atomic<uint64_t> g_openssl_allocations{0};
void* counting_malloc(std::size_t n, const char*, int) {
  g_openssl_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(n);
}
void* counting_realloc(void* p, std::size_t n, const char*, int) {
  g_openssl_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::realloc(p, n);
}
void counting_free(void* p, const char*, int) { std::free(p); }
const bool g_openssl_counted = CRYPTO_set_mem_functions(counting_malloc, counting_realloc, counting_free) == 1;

constexpr std::size_t kMaxMessageBytes = 1300;

void fill(Rng& rng, std::span<uint8_t> out) {
  for (uint8_t& b : out) b = static_cast<uint8_t>(rng.next_u32());
}

// libsodium's seal, straight from its API: the reference.
Bytes reference_seal(const Bytes& message, const Bytes& additional, const PacketNonce& nonce, const Key& key) {
  Bytes out(message.size() + kMacBytes);
  unsigned long long written = 0;
  crypto_aead_chacha20poly1305_ietf_encrypt(out.data(), &written, message.data(), message.size(), additional.data(),
                                            additional.size(), nullptr, nonce.data(), key.data());
  EXPECT_EQ(written, out.size());
  return out;
}

bool reference_open(Bytes& out, const Bytes& sealed, const Bytes& additional, const PacketNonce& nonce,
                    const Key& key) {
  out.assign(sealed.size() - kMacBytes, 0);
  return crypto_aead_chacha20poly1305_ietf_decrypt(out.data(), nullptr, nullptr, sealed.data(), sealed.size(),
                                                   additional.data(), additional.size(), nonce.data(),
                                                   key.data()) == 0;
}

struct Case {
  Key key;
  PacketNonce nonce;
  Bytes additional;
  Bytes message;
};

Case random_case(Rng& rng, std::size_t message_bytes) {
  Case c{.key = {}, .nonce = {}, .additional = Bytes(rng.below(80)), .message = Bytes(message_bytes)};
  fill(rng, c.key);
  // Half the nonces in the standard's layout (four zero bytes, then a sequence), half arbitrary.
  c.nonce = rng.chance(0.5) ? netcode::sequence_nonce(rng.next_u64()) : PacketNonce{};
  if (c.nonce == PacketNonce{}) fill(rng, c.nonce);
  fill(rng, c.additional);
  fill(rng, c.message);
  return c;
}

TEST(PacketAead, OpensslSealsExactlyWhatLibsodiumSealsAndEachOpensTheOther) {
  ASSERT_GE(sodium_init(), 0);
  Rng rng(test::test_seed(2301));
  for (int round = 0; round < 3; ++round) {
    for (std::size_t bytes = 0; bytes <= kMaxMessageBytes; ++bytes) {
      const Case c = random_case(rng, bytes);
      const Bytes expected = reference_seal(c.message, c.additional, c.nonce, c.key);
      Bytes sealed(bytes + kMacBytes);
      ASSERT_TRUE(netcode::openssl_aead_encrypt(sealed, c.message, c.additional, c.nonce, c.key));
      ASSERT_EQ(sealed, expected) << bytes << "-byte message, " << c.additional.size() << " bytes of AD";

      Bytes opened(bytes, 0xee);
      ASSERT_TRUE(netcode::openssl_aead_decrypt(opened, expected, c.additional, c.nonce, c.key)) << bytes;
      ASSERT_EQ(opened, c.message);
      Bytes by_reference;
      ASSERT_TRUE(reference_open(by_reference, sealed, c.additional, c.nonce, c.key)) << bytes;
      ASSERT_EQ(by_reference, c.message);
    }
  }
}

TEST(PacketAead, InPlaceSealAndOpenGiveTheSameBytes) {
  Rng rng(test::test_seed(2302));
  for (std::size_t bytes : {0u, 1u, 63u, 64u, 65u, 100u, 1200u, 1300u}) {
    const Case c = random_case(rng, bytes);
    Bytes buffer = c.message;
    buffer.resize(bytes + kMacBytes);
    ASSERT_TRUE(netcode::openssl_aead_encrypt(buffer, std::span<const uint8_t>(buffer.data(), bytes), c.additional,
                                              c.nonce, c.key));
    EXPECT_EQ(buffer, reference_seal(c.message, c.additional, c.nonce, c.key)) << bytes;
    ASSERT_TRUE(netcode::openssl_aead_decrypt(buffer, buffer, c.additional, c.nonce, c.key)) << bytes;
    EXPECT_TRUE(std::equal(c.message.begin(), c.message.end(), buffer.begin())) << bytes;
  }
}

TEST(PacketAead, TamperedCiphertextTagAdditionalDataNonceOrKeyIsRefusedAndLeavesNoPlaintext) {
  Rng rng(test::test_seed(2303));
  for (std::size_t bytes : {0u, 1u, 100u, 1200u}) {
    const Case c = random_case(rng, bytes);
    Bytes good(bytes + kMacBytes);
    ASSERT_TRUE(netcode::openssl_aead_encrypt(good, c.message, c.additional, c.nonce, c.key));
    const auto refused = [&](const Bytes& sealed, const Bytes& ad, const PacketNonce& nonce, const Key& key) {
      Bytes out(bytes, 0xee);
      const bool opened = netcode::openssl_aead_decrypt(out, sealed, ad, nonce, key);
      EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](uint8_t b) { return b == 0; })) << "plaintext left behind";
      Bytes by_reference;
      const bool reference_opened = reference_open(by_reference, sealed, ad, nonce, key);
      return !opened && !reference_opened;
    };
    for (std::size_t at = 0; at < good.size(); at += std::max<std::size_t>(1, good.size() / 37)) {
      Bytes flipped = good;
      flipped[at] ^= static_cast<uint8_t>(1u << rng.below(8));
      EXPECT_TRUE(refused(flipped, c.additional, c.nonce, c.key)) << bytes << " bytes, flipped byte " << at;
    }
    Bytes ad = c.additional;
    ad.push_back(0);  // one byte more
    EXPECT_TRUE(refused(good, ad, c.nonce, c.key));
    if (!c.additional.empty()) {
      ad = c.additional;
      ad[rng.below(ad.size())] ^= 0x80;
      EXPECT_TRUE(refused(good, ad, c.nonce, c.key));
    }
    PacketNonce nonce = c.nonce;
    nonce[11] ^= 1;
    EXPECT_TRUE(refused(good, c.additional, nonce, c.key));
    Key key = c.key;
    key[0] ^= 1;
    EXPECT_TRUE(refused(good, c.additional, c.nonce, key));
    // A refusal leaves the per-thread context fit for the next packet.
    Bytes opened(bytes);
    ASSERT_TRUE(netcode::openssl_aead_decrypt(opened, good, c.additional, c.nonce, c.key));
    EXPECT_EQ(opened, c.message);
  }
}

TEST(PacketAead, NoLengthIsTrustedAndNothingIsWrittenPastTheSpans) {
  Rng rng(test::test_seed(2304));
  const Case c = random_case(rng, 100);
  Bytes sealed(100 + kMacBytes);
  ASSERT_TRUE(netcode::openssl_aead_encrypt(sealed, c.message, c.additional, c.nonce, c.key));
  // Output one byte short, inside a larger buffer: refused, and the byte past the span untouched.
  Bytes guarded(200, 0xa5);
  EXPECT_FALSE(netcode::openssl_aead_encrypt(std::span<uint8_t>(guarded).first(100 + kMacBytes - 1), c.message,
                                             c.additional, c.nonce, c.key));
  EXPECT_TRUE(std::all_of(guarded.begin() + 100 + kMacBytes - 1, guarded.end(), [](uint8_t b) { return b == 0xa5; }));
  std::fill(guarded.begin(), guarded.end(), uint8_t{0xa5});
  EXPECT_FALSE(netcode::openssl_aead_decrypt(std::span<uint8_t>(guarded).first(99), sealed, c.additional, c.nonce,
                                             c.key));
  EXPECT_TRUE(std::all_of(guarded.begin(), guarded.end(), [](uint8_t b) { return b == 0xa5; }));
  // Shorter than a MAC, or an empty span: impossible sizes, refused.
  for (std::size_t bytes = 0; bytes < kMacBytes; ++bytes)
    EXPECT_FALSE(netcode::openssl_aead_decrypt(guarded, std::span<const uint8_t>(sealed).first(bytes), c.additional,
                                               c.nonce, c.key));
  // A larger output is fine: only out[0 .. n) is written.
  std::fill(guarded.begin(), guarded.end(), uint8_t{0xa5});
  ASSERT_TRUE(netcode::openssl_aead_decrypt(guarded, sealed, c.additional, c.nonce, c.key));
  EXPECT_TRUE(std::equal(c.message.begin(), c.message.end(), guarded.begin()));
  EXPECT_TRUE(std::all_of(guarded.begin() + 100, guarded.end(), [](uint8_t b) { return b == 0xa5; }));
}

TEST(PacketAead, PartiallyOverlappingSpansAreAProgrammerError) {
  Rng rng(test::test_seed(2305));
  const Case c = random_case(rng, 100);
  Bytes buffer(300);
  fill(rng, buffer);
  test::ThrowOnAssert throwing;
  const std::span<uint8_t> whole(buffer);
  EXPECT_THROW(netcode::openssl_aead_encrypt(whole.subspan(8), whole.first(100), c.additional, c.nonce, c.key),
               test::AssertionFailure);
  EXPECT_THROW((void)netcode::openssl_aead_decrypt(whole.subspan(8), whole.first(116), c.additional, c.nonce, c.key),
               test::AssertionFailure);
  EXPECT_THROW(netcode::sodium_aead_encrypt(whole.subspan(8), whole.first(100), c.additional, c.nonce, c.key),
               test::AssertionFailure);
  // Disjoint spans and exact aliasing are fine.
  EXPECT_TRUE(netcode::openssl_aead_encrypt(whole.subspan(100), whole.first(100), c.additional, c.nonce, c.key));
  EXPECT_TRUE(netcode::openssl_aead_encrypt(whole, whole.first(100), c.additional, c.nonce, c.key));
}

// Every selection, at sizes either side of the crossover, seals the reference's bytes and opens what
// any other selection sealed.
TEST(PacketAead, TheSeamGivesTheSameBytesWithEverySelection) {
  using netcode::PacketAead;
  ASSERT_EQ(netcode::selected_packet_aead(), PacketAead::by_size) << "by size is the default";
  Rng rng(test::test_seed(2306));
  constexpr std::size_t kFrom = netcode::kOpensslAeadFromBytes;
  for (std::size_t bytes : {std::size_t{0}, std::size_t{8}, std::size_t{100}, kFrom - 1, kFrom, kFrom + 1,
                            std::size_t{1200}}) {
    const Case c = random_case(rng, bytes);
    const uint64_t sequence = rng.next_u64() >> 1;
    const Bytes expected = reference_seal(c.message, c.additional, netcode::sequence_nonce(sequence), c.key);
    for (PacketAead sealer : {PacketAead::by_size, PacketAead::openssl, PacketAead::libsodium}) {
      netcode::select_packet_aead(sealer);
      Bytes sealed(bytes + kMacBytes);
      const bool seal_ok = netcode::aead_encrypt(sealed, c.message, c.additional, sequence, c.key);
      for (PacketAead opener : {PacketAead::by_size, PacketAead::openssl, PacketAead::libsodium}) {
        netcode::select_packet_aead(opener);
        Bytes opened(bytes, 0xee);
        EXPECT_TRUE(netcode::aead_decrypt(opened, sealed, c.additional, sequence, c.key)) << bytes;
        EXPECT_EQ(opened, c.message) << bytes;
      }
      EXPECT_TRUE(seal_ok);
      EXPECT_EQ(sealed, expected) << bytes << " bytes, sealer " << static_cast<int>(sealer);
    }
    netcode::select_packet_aead(PacketAead::by_size);
  }
}

TEST(PacketAead, EachThreadHasItsOwnContext) {
  const uint64_t seed = test::test_seed(2307);
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (uint64_t t = 0; t < 3; ++t) {
    threads.emplace_back([&, t] {
      Rng rng(seed + t);
      for (int i = 0; i < 300; ++i) {
        const Case c = random_case(rng, rng.below(kMaxMessageBytes + 1));
        Bytes sealed(c.message.size() + kMacBytes), opened(c.message.size());
        const bool ok = netcode::openssl_aead_encrypt(sealed, c.message, c.additional, c.nonce, c.key) &&
                        sealed == reference_seal(c.message, c.additional, c.nonce, c.key) &&
                        netcode::openssl_aead_decrypt(opened, sealed, c.additional, c.nonce, c.key) &&
                        opened == c.message;
        if (!ok) mismatches.fetch_add(1);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(mismatches.load(), 0);
}

TEST(PacketAead, APacketAllocatesNothing) {
  ASSERT_TRUE(g_openssl_counted) << "OpenSSL allocated before the test could count its allocations";
  Rng rng(test::test_seed(2308));
  const Key key = netcode::random_key();
  const auto ad = netcode::packet_additional_data(netcode::kDefaultProtocolId, 0x85);
  std::array<uint8_t, 1200> plain{};
  std::array<uint8_t, 1200 + kMacBytes> sealed{};
  fill(rng, plain);
  ASSERT_TRUE(netcode::aead_encrypt(sealed, plain, ad, 1, key));  // this thread's contexts are made here
  ASSERT_TRUE(netcode::aead_decrypt(plain, sealed, ad, 1, key));
  const uint64_t openssl_before = g_openssl_allocations.load();
  EXPECT_GT(openssl_before, 0u) << "the counter never saw OpenSSL make this thread's contexts";
  const uint64_t new_before = test::allocation_count();
  for (uint64_t sequence = 2; sequence < 1000; ++sequence) {
    const std::size_t bytes = rng.below(plain.size() + 1);
    ASSERT_TRUE(netcode::aead_encrypt(sealed, std::span<const uint8_t>(plain).first(bytes), ad, sequence, key));
    ASSERT_TRUE(netcode::aead_decrypt(plain, std::span<const uint8_t>(sealed).first(bytes + kMacBytes), ad, sequence,
                                      key));
    sealed[0] ^= 1;  // and a refusal
    EXPECT_FALSE(netcode::aead_decrypt(plain, std::span<const uint8_t>(sealed).first(bytes + kMacBytes), ad,
                                       sequence, key));
  }
  EXPECT_EQ(g_openssl_allocations.load(), openssl_before);
  if (test::allocation_counting()) {
    EXPECT_EQ(test::allocation_count(), new_before);
  }
}

}  // namespace
}  // namespace tickwire
