// Real UDP on loopback: batched send/receive over IPv4 and IPv6 (skipped when ::1 is unavailable),
// dual stack reporting IPv4 peers as IPv4-mapped, named open errors, and counted refusals. Waits are
// bounded by a real-time deadline; nothing asserts a timing.
#include "tickwire/transport/udp_socket.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <arpa/inet.h>

#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

namespace tickwire {
namespace {

constexpr auto kWaitLimit = std::chrono::seconds(5);

std::vector<uint8_t> payload(uint32_t seq, std::size_t size) {
  std::vector<uint8_t> bytes(size);
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<uint8_t>(seq * 37 + i);
  return bytes;
}

// Receives until `count` datagrams arrived or the deadline passed.
std::vector<Datagram> receive_until(DatagramSocket& socket, std::size_t count) {
  std::vector<Datagram> all;
  std::vector<Datagram> batch(32);
  const auto deadline = std::chrono::steady_clock::now() + kWaitLimit;
  while (all.size() < count && std::chrono::steady_clock::now() < deadline) {
    const std::size_t n = socket.receive_batch(batch);
    all.insert(all.end(), batch.begin(), batch.begin() + static_cast<std::ptrdiff_t>(n));
    if (n == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return all;
}

std::unique_ptr<UdpSocket> open_or_null(const char* text) {
  UdpOpenResult opened = UdpSocket::open(*Address::parse(text));
  return std::move(opened.socket);
}

// Sends `count` datagrams of varied sizes from `from` to `to` in one batch and checks each arrives
// intact, in order, from from's address.
void batch_round_trip(UdpSocket& from, UdpSocket& to, const Address& expected_source) {
  constexpr uint32_t kCount = 200;
  std::vector<std::vector<uint8_t>> payloads;
  std::vector<OutgoingDatagram> out;
  for (uint32_t i = 0; i < kCount; ++i) payloads.push_back(payload(i, 1 + (i * 97) % 1200));
  for (const auto& p : payloads) out.push_back({to.local_address(), p});
  EXPECT_EQ(from.send_batch(out), kCount);
  const auto got = receive_until(to, kCount);
  ASSERT_EQ(got.size(), kCount);
  for (uint32_t i = 0; i < kCount; ++i) {
    EXPECT_EQ(got[i].address, expected_source);
    ASSERT_EQ(got[i].size, payloads[i].size());
    EXPECT_EQ(std::memcmp(got[i].data, payloads[i].data(), got[i].size), 0) << i;
  }
  EXPECT_EQ(from.stats().sent, kCount);
  EXPECT_EQ(to.stats().received, kCount);
}

TEST(UdpSocket, Ipv4BatchSendAndReceive) {
  auto a = open_or_null("127.0.0.1:0");
  auto b = open_or_null("127.0.0.1:0");
  ASSERT_TRUE(a && b);
  EXPECT_NE(a->local_address().port(), 0);
  EXPECT_EQ(a->local_address().family(), Address::Family::ipv4);
  EXPECT_GT(a->receive_buffer_bytes(), 0);
  batch_round_trip(*a, *b, a->local_address());
  std::vector<Datagram> none(4);
  EXPECT_EQ(a->receive_batch(none), 0u);  // nothing waiting: returns at once
}

TEST(UdpSocket, Ipv6BatchSendAndReceive) {
  auto a = open_or_null("[::1]:0");
  auto b = open_or_null("[::1]:0");
  if (!a || !b) GTEST_SKIP() << "::1 is not available here";
  EXPECT_EQ(a->local_address().family(), Address::Family::ipv6);
  batch_round_trip(*a, *b, a->local_address());
}

TEST(UdpSocket, DualStackReportsIpv4PeersAsMapped) {
  auto server = open_or_null("[::]:0");
  if (!server) GTEST_SKIP() << "IPv6 is not available here";
  auto client = open_or_null("127.0.0.1:0");
  ASSERT_TRUE(client);
  const Address server_v4 = Address::ipv4(127, 0, 0, 1, server->local_address().port());
  ASSERT_TRUE(client->send(server_v4, payload(1, 10)));
  const auto got = receive_until(*server, 1);
  ASSERT_EQ(got.size(), 1u);
  const Address expected = Address::ipv4_mapped(client->local_address());
  EXPECT_EQ(got[0].address, expected);
  EXPECT_EQ(got[0].address.to_string(), "[::ffff:127.0.0.1]:" + std::to_string(client->local_address().port()));
  // Replying to the mapped address, or to the plain IPv4 one, both reach the client.
  ASSERT_TRUE(server->send(got[0].address, payload(2, 10)));
  ASSERT_TRUE(server->send(client->local_address(), payload(3, 10)));
  const auto replies = receive_until(*client, 2);
  ASSERT_EQ(replies.size(), 2u);
  EXPECT_EQ(replies[0].address, server_v4);  // an IPv4 socket sees the server as plain IPv4
}

TEST(UdpSocket, OpenErrorsAreNamed) {
  auto a = open_or_null("127.0.0.1:0");
  ASSERT_TRUE(a);
  UdpOpenResult again = UdpSocket::open(a->local_address());
  EXPECT_FALSE(again);
  EXPECT_EQ(again.error, SocketOpenError::address_in_use);
  EXPECT_EQ(again.system_errno, EADDRINUSE);
  EXPECT_NE(again.message.find(a->local_address().to_string()), std::string::npos) << again.message;
  UdpOpenResult invalid = UdpSocket::open(Address{});
  EXPECT_EQ(invalid.error, SocketOpenError::invalid_address);
  // 192.0.2.1 (TEST-NET-1) is not an address of this host.
  UdpOpenResult foreign = UdpSocket::open(Address::ipv4(192, 0, 2, 1, 0));
  EXPECT_EQ(foreign.error, SocketOpenError::address_unavailable);
  EXPECT_EQ(socket_open_error_name(SocketOpenError::address_in_use), "address_in_use");
}

TEST(UdpSocket, RefusalsAreCountedNotFatal) {
  auto a = open_or_null("127.0.0.1:0");
  auto b = open_or_null("127.0.0.1:0");
  ASSERT_TRUE(a && b);
  const std::vector<uint8_t> huge(kMaxDatagramBytes + 1);
  const auto small = payload(1, 8);
  const OutgoingDatagram batch[] = {
      {b->local_address(), huge},
      {*Address::parse("[::1]:9"), small},  // IPv6 destination from an IPv4 socket
      {Address{}, small},
      {b->local_address(), small},
  };
  EXPECT_EQ(a->send_batch(batch), 1u);
  EXPECT_EQ(a->stats().dropped[UdpDrop::oversize], 1u);
  EXPECT_EQ(a->stats().dropped[UdpDrop::family_mismatch], 2u);
  EXPECT_EQ(receive_until(*b, 1).size(), 1u);
}

TEST(UdpSocket, OversizeArrivalsAreDroppedAndCounted) {
  auto receiver = open_or_null("127.0.0.1:0");
  ASSERT_TRUE(receiver);
  // A raw sender outside the seam, so a datagram bigger than our receive buffer can arrive.
  const int raw = ::socket(AF_INET, SOCK_DGRAM, 0);
  ASSERT_GE(raw, 0);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(receiver->local_address().port());
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const std::vector<uint8_t> big(3000, 0xab);
  const std::vector<uint8_t> fine(100, 0xcd);
  ASSERT_EQ(::sendto(raw, big.data(), big.size(), 0, reinterpret_cast<sockaddr*>(&to), sizeof to), 3000);
  ASSERT_EQ(::sendto(raw, fine.data(), fine.size(), 0, reinterpret_cast<sockaddr*>(&to), sizeof to), 100);
  ::close(raw);
  const auto got = receive_until(*receiver, 1);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].size, 100u);
  EXPECT_EQ(got[0].data[0], 0xcd);
  EXPECT_EQ(receiver->stats().dropped[UdpDrop::truncated], 1u);
}

}  // namespace
}  // namespace tickwire
