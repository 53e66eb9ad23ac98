// Address text: what parses, what prints, that printing parses back to the same address, and that
// the many malformed forms a config file or command line can hold are refused.
#include "tickwire/transport/address.h"

#include <gtest/gtest.h>

#include <string>
#include <unordered_set>

#include "support.h"
#include "tickwire/core/rng.h"

namespace tickwire {
namespace {

std::string reprint(std::string_view text) {
  const auto address = Address::parse(text);
  return address ? address->to_string() : "reject";
}

TEST(Address, ParsesIpv4) {
  const auto a = Address::parse("127.0.0.1:40000");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->family(), Address::Family::ipv4);
  EXPECT_EQ(a->port(), 40000);
  EXPECT_EQ(*a, Address::ipv4(127, 0, 0, 1, 40000));
  EXPECT_TRUE(a->is_loopback());
  EXPECT_EQ(reprint("0.0.0.0:0"), "0.0.0.0:0");
  EXPECT_EQ(reprint("255.255.255.255:65535"), "255.255.255.255:65535");
  EXPECT_TRUE(Address::parse("0.0.0.0:1")->is_unspecified());
}

TEST(Address, ParsesIpv6FullAndCompressed) {
  EXPECT_EQ(reprint("[::1]:5"), "[::1]:5");
  EXPECT_EQ(reprint("[::]:1"), "[::]:1");
  EXPECT_EQ(reprint("[2001:0db8:0000:0000:0000:0000:0000:0001]:9"), "[2001:db8::1]:9");
  EXPECT_EQ(reprint("[2001:DB8::1]:443"), "[2001:db8::1]:443");
  EXPECT_EQ(reprint("[1::]:2"), "[1::]:2");
  EXPECT_EQ(reprint("[1:2:3:4:5:6:7::]:2"), "[1:2:3:4:5:6:7:0]:2");  // a single zero group is not compressed
  EXPECT_EQ(reprint("[::2:3:4:5:6:7:8]:2"), "[0:2:3:4:5:6:7:8]:2");
  // Two equal zero runs: the first is compressed (RFC 5952).
  EXPECT_EQ(reprint("[2001:db8:0:0:1:0:0:1]:1"), "[2001:db8::1:0:0:1]:1");
  // The longer run wins.
  EXPECT_EQ(reprint("[1:0:0:2:0:0:0:3]:1"), "[1:0:0:2::3]:1");
  const auto loop = Address::parse("[::1]:7");
  ASSERT_TRUE(loop);
  EXPECT_TRUE(loop->is_loopback());
  EXPECT_EQ(loop->bytes()[15], 1);
  EXPECT_EQ(*loop, Address::ipv6({0, 0, 0, 0, 0, 0, 0, 1}, 7));
}

TEST(Address, Ipv4MappedPrintsDottedAndUnmaps) {
  const auto mapped = Address::parse("[::ffff:1.2.3.4]:7");
  ASSERT_TRUE(mapped);
  EXPECT_EQ(mapped->family(), Address::Family::ipv6);
  EXPECT_TRUE(mapped->is_ipv4_mapped());
  EXPECT_EQ(mapped->to_string(), "[::ffff:1.2.3.4]:7");
  EXPECT_EQ(*mapped, Address::ipv4_mapped(Address::ipv4(1, 2, 3, 4, 7)));
  EXPECT_EQ(mapped->unmapped_ipv4(), Address::ipv4(1, 2, 3, 4, 7));
  EXPECT_EQ(reprint("[::FFFF:0102:0304]:7"), "[::ffff:1.2.3.4]:7");
  EXPECT_FALSE(Address::parse("[::1]:7")->unmapped_ipv4());
}

TEST(Address, LocalhostIsIpv4LoopbackWithoutDns) {
  EXPECT_EQ(Address::parse("localhost:80"), Address::ipv4(127, 0, 0, 1, 80));
  EXPECT_EQ(Address::parse("LocalHost:81"), Address::ipv4(127, 0, 0, 1, 81));
  EXPECT_FALSE(Address::parse("example.com:80"));
  EXPECT_FALSE(Address::parse("localhost.localdomain:80"));
}

TEST(Address, DefaultPort) {
  EXPECT_EQ(Address::parse("10.0.0.1", 5), Address::ipv4(10, 0, 0, 1, 5));
  EXPECT_EQ(Address::parse("::1", 5), Address::ipv6({0, 0, 0, 0, 0, 0, 0, 1}, 5));
  EXPECT_EQ(Address::parse("[::1]", 5), Address::ipv6({0, 0, 0, 0, 0, 0, 0, 1}, 5));
  EXPECT_EQ(Address::parse("localhost", 6), Address::ipv4(127, 0, 0, 1, 6));
  EXPECT_EQ(Address::parse("10.0.0.1:7", 5), Address::ipv4(10, 0, 0, 1, 7));  // an explicit port wins
}

TEST(Address, RejectsMalformed) {
  const char* bad[] = {
      "", "1.2.3.4", "1.2.3:4", "1.2.3.4.5:1", "256.1.1.1:1", "01.2.3.4:1", "1.2.3.4:65536", "1.2.3.4:-1",
      "1.2.3.4:", ":80", "1.2.3.4:+80", "1.2.3.4:8o", "1..3.4:1", "a.b.c.d:1", "1.2.3.4:123456",
      "[::1]", "[::1]:", "[::1:80", "::1:80", "[]:1", "[1:2:3:4:5:6:7:8:9]:1", "[1::2::3]:1", "[12345::]:1",
      "[::g]:1", "[1:2:3:4:5:6:7:8::]:1", "[:::1]:1", "[1:]:1", "[:1]:1", "[1.2.3.4]:5", "[::1%eth0]:5",
      " 1.2.3.4:5", "1.2.3.4:5 ", "[::1.2.3.4.5]:1", "[1.2.3.4::]:1", "[::1]x5", "[1:2:3:4:5:6:7]:1",
      "[1:2:3:4:5:6:7:8:1.2.3.4]:1", "[::1]:5:6",
  };
  for (const char* text : bad) EXPECT_FALSE(Address::parse(text)) << "accepted: '" << text << "'";
  std::string long_host(100, '1');  // appended in place: GCC 12 misreads a temporary's concatenation (-Warray-bounds)
  long_host.append(":1");
  EXPECT_FALSE(Address::parse(long_host));
}

TEST(Address, RandomRoundTrips) {
  Rng rng(tickwire::test::test_seed(11));
  for (int i = 0; i < 20000; ++i) {
    const auto port = static_cast<uint16_t>(rng.below(65536));
    Address a;
    if (rng.chance(0.3)) {
      a = Address::ipv4(static_cast<uint8_t>(rng.below(256)), static_cast<uint8_t>(rng.below(256)),
                        static_cast<uint8_t>(rng.below(256)), static_cast<uint8_t>(rng.below(256)), port);
    } else {
      std::array<uint16_t, 8> groups{};
      for (uint16_t& g : groups) g = rng.chance(0.5) ? 0 : static_cast<uint16_t>(rng.below(65536));
      a = Address::ipv6(groups, port);
    }
    const std::string text = a.to_string();
    const auto back = Address::parse(text);
    ASSERT_TRUE(back) << text;
    ASSERT_EQ(*back, a) << text;
  }
}

TEST(Address, HashAndOrder) {
  std::unordered_set<std::size_t> hashes;
  const AddressHash hash;
  for (uint16_t port = 1; port <= 1000; ++port) hashes.insert(hash(Address::ipv4(127, 0, 0, 1, port)));
  EXPECT_GT(hashes.size(), 990u);
  EXPECT_EQ(hash(*Address::parse("[::1]:9")), hash(Address::ipv6({0, 0, 0, 0, 0, 0, 0, 1}, 9)));
  EXPECT_LT(Address::ipv4(1, 2, 3, 4, 1), Address::ipv4(1, 2, 3, 4, 2));
  EXPECT_LT(Address::ipv4(9, 9, 9, 9, 9), Address::ipv6({}, 0));  // families order first
  EXPECT_EQ(Address().to_string(), "none");
  EXPECT_FALSE(Address().valid());
}

}  // namespace
}  // namespace tickwire
