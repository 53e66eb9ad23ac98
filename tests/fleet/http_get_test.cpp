// fleet::http_get over real loopback TCP: against the real operator endpoint (a route's answer, its
// query values percent-encoded and decoded back byte for byte, a 404 as an answer, the response cap),
// and against a scripted raw peer (tests/fleet/scripted_tcp_peer.h) for every way a peer fails it:
// garbage, a stall and a trickle (timed out at the deadline), too much, half an answer, a reset,
// chunked. Also what it refuses before dialling: a name to resolve, no port, a target it would
// have to escape.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>

#include "scripted_tcp_peer.h"
#include "tickwire/fleet/http_endpoint.h"
#include "tickwire/fleet/http_get.h"
#include "tickwire/fleet/http_query_value.h"

namespace tickwire::fleet {
namespace {

using Clock = std::chrono::steady_clock;
using test::ScriptedTcpPeer;

const Duration kTimeout = Duration::seconds(3);

std::unique_ptr<HttpEndpoint> open_endpoint() {
  std::vector<HttpRoute> routes = {
      HttpRoute{"/echo",
                [](const HttpQuery& query) {
                  std::string body;
                  for (const auto& [k, v] : query.params) body += fmt::format("[{}]=[{}]\n", k, v);
                  return HttpResponse{200, "application/json", body};
                }},
      HttpRoute{"/big", [](const HttpQuery&) { return HttpResponse{200, kPlainTextContentType, std::string(50'000, 'b')}; }},
  };
  HttpEndpointOpen opened = HttpEndpoint::open(HttpEndpointConfig{}, std::move(routes));
  EXPECT_TRUE(opened) << opened.error;
  return std::move(opened.endpoint);
}

std::string name_of(const HttpGetResult& result) {
  return result.failure ? std::string(reason_name(*result.failure)) : "answered";
}

HttpGetResult get_from(ScriptedTcpPeer& peer, Duration timeout = kTimeout, std::size_t cap = kDefaultMaxHttpResponseBytes) {
  return http_get(peer.address(), "/match?actor=7", timeout, cap);
}

TEST(HttpGet, TheEndpointsAnswerComesBackWithItsQueryValuesDecodedAsSent) {
  auto endpoint = open_endpoint();
  ASSERT_TRUE(endpoint);
  const std::string at = endpoint->bound_address().to_string();
  const std::string awkward = "a b&c=d%e/f?g+h#\xc3\xa9~._-";
  const HttpGetResult echo =
      http_get(at, fmt::format("/echo?actor=7&room={}&empty=", encode_query_value(awkward)), kTimeout);
  ASSERT_TRUE(echo) << name_of(echo);
  EXPECT_EQ(echo.response.status, 200u);
  EXPECT_EQ(echo.response.content_type, "application/json");
  EXPECT_EQ(echo.response.body, fmt::format("[actor]=[7]\n[room]=[{}]\n[empty]=[]\n", awkward));

  const HttpGetResult missing = http_get(at, "/nowhere", kTimeout);
  ASSERT_TRUE(missing) << "a 404 is an answer, not a failure";
  EXPECT_EQ(missing.response.status, 404u);
  EXPECT_EQ(missing.response.body, "not found\n");

  const HttpGetResult big = http_get(at, "/big", kTimeout);
  ASSERT_TRUE(big) << name_of(big);
  EXPECT_EQ(big.response.body.size(), 50'000u);
  EXPECT_EQ(name_of(http_get(at, "/big", kTimeout, 10'000)), "too_large");
}

TEST(HttpGet, EncodingKeepsOnlyTheUnreservedBytes) {
  EXPECT_EQ(encode_query_value("Az09-._~"), "Az09-._~");
  EXPECT_EQ(encode_query_value("a b+&=%/\x01\xff"), "a%20b%2B%26%3D%25%2F%01%FF");
  EXPECT_EQ(encode_query_value(""), "");
}

TEST(HttpGet, TheRequestIsOneGetWithHostAndConnectionClose) {
  ScriptedTcpPeer peer([](int c) { ScriptedTcpPeer::send_text(c, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"); });
  ASSERT_FALSE(peer.address().empty());
  const HttpGetResult result = get_from(peer);
  ASSERT_TRUE(result) << name_of(result);
  EXPECT_EQ(result.response.body, "ok");
  const std::string& request = peer.request();
  EXPECT_EQ(request.rfind("GET /match?actor=7 HTTP/1.1\r\n", 0), 0u) << request;
  EXPECT_NE(request.find(fmt::format("\r\nHost: {}\r\n", peer.address())), std::string::npos) << request;
  EXPECT_NE(request.find("\r\nConnection: close\r\n"), std::string::npos) << request;
}

TEST(HttpGet, GarbageIsMalformedOrCutShortByName) {
  ScriptedTcpPeer ssh([](int c) { ScriptedTcpPeer::send_text(c, "SSH-2.0-OpenSSH_9.2\r\n\r\n"); });
  EXPECT_EQ(name_of(get_from(ssh)), "malformed");
  ScriptedTcpPeer binary([](int c) { ScriptedTcpPeer::send_text(c, std::string("\x00\xff\x17\x03\x03", 5)); });
  EXPECT_EQ(name_of(get_from(binary)), "closed_early");
  ScriptedTcpPeer chunked([](int c) {
    ScriptedTcpPeer::send_text(c, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n");
  });
  EXPECT_EQ(name_of(get_from(chunked)), "chunked_refused");
}

TEST(HttpGet, APeerThatStallsOrTricklesIsTimedOutAtTheDeadline) {
  for (const bool trickle : {false, true}) {
    ScriptedTcpPeer peer([trickle](int c) {
      if (!trickle) return ScriptedTcpPeer::wait_for_client_close(c);
      ScriptedTcpPeer::send_text(c, "HTTP/1.1 200 OK\r\n");
      for (int i = 0; i < 100; ++i) {  // a header line a byte every 20 ms, never ending
        ::usleep(20'000);
        if (::send(c, "x", 1, MSG_NOSIGNAL) <= 0) return;
      }
    });
    const auto began = Clock::now();
    EXPECT_EQ(name_of(get_from(peer, Duration::milliseconds(300))), "timed_out") << (trickle ? "trickle" : "stall");
    const double took_s = std::chrono::duration<double>(Clock::now() - began).count();
    EXPECT_GE(took_s, 0.29);
    EXPECT_LT(took_s, 1.5);
  }
}

TEST(HttpGet, TooMuchIsRefusedWhetherSentOrAnnounced) {
  ScriptedTcpPeer flood([](int c) {
    ScriptedTcpPeer::send_text(c, "HTTP/1.1 200 OK\r\n\r\n");
    ScriptedTcpPeer::send_text(c, std::string(200'000, 'z'));  // no Content-Length: to the close, past the cap
  });
  EXPECT_EQ(name_of(get_from(flood)), "too_large");
  ScriptedTcpPeer announced([](int c) {
    ScriptedTcpPeer::send_text(c, "HTTP/1.1 200 OK\r\nContent-Length: 70000\r\n\r\n");
    ScriptedTcpPeer::wait_for_client_close(c);
  });
  EXPECT_EQ(name_of(get_from(announced)), "too_large");
}

TEST(HttpGet, AnAnswerCutShortByTheCloseOrAResetIsClosedEarly) {
  ScriptedTcpPeer half_head([](int c) { ScriptedTcpPeer::send_text(c, "HTTP/1.1 200 OK\r\nContent-Le"); });
  EXPECT_EQ(name_of(get_from(half_head)), "closed_early");
  ScriptedTcpPeer short_body([](int c) { ScriptedTcpPeer::send_text(c, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"); });
  EXPECT_EQ(name_of(get_from(short_body)), "closed_early");
  ScriptedTcpPeer reset([](int c) {
    ScriptedTcpPeer::send_text(c, "HTTP/1.1 200 OK\r\n\r\nbody to the close");
    ::usleep(50'000);
    ScriptedTcpPeer::reset(c);
  });
  EXPECT_EQ(name_of(get_from(reset)), "closed_early") << "a reset is no end of a body";
  ScriptedTcpPeer silent([](int) {});
  EXPECT_EQ(name_of(get_from(silent)), "closed_early");
}

TEST(HttpGet, NobodyListeningIsConnectFailed) {
  const int probe = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in local{};
  local.sin_family = AF_INET;
  local.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof local;
  ASSERT_EQ(::bind(probe, reinterpret_cast<const sockaddr*>(&local), sizeof local), 0);
  ASSERT_EQ(::getsockname(probe, reinterpret_cast<sockaddr*>(&local), &length), 0);
  ::close(probe);  // bound, never listening, closed: nothing answers there
  EXPECT_EQ(name_of(http_get(fmt::format("127.0.0.1:{}", ntohs(local.sin_port)), "/", kTimeout)), "connect_failed");
}

TEST(HttpGet, WhatItCannotSendAsGivenIsRefusedBeforeDialling) {
  for (const char* address : {"matchmaker.example:80", "127.0.0.1", "127.0.0.1:0", "", "1.2.3.4:99999"})
    EXPECT_EQ(name_of(http_get(address, "/match", kTimeout)), "bad_address") << address;
  for (const std::string& target : {std::string(), std::string("match"), std::string("/a b"), std::string("/a\r\nX: y"),
                                   std::string("/\x7f"), "/" + std::string(kMaxHttpTargetBytes, 'a')})
    EXPECT_EQ(name_of(http_get("127.0.0.1:9", target, kTimeout)), "bad_target") << target;
}

}  // namespace
}  // namespace tickwire::fleet
