// The operator's HTTP endpoint over real loopback TCP, spoken to byte for byte by the tests' own
// client (tests/support/http_probe.h): a route's answer, 404, 405 with Allow, a body refused, a
// throwing handler answered 500, a bind failure as a message, the connection cap holding a client
// off until a slot frees, a slow client closed at the timeout, and garbage answered 400 (or closed
// unanswered) while the endpoint goes on serving.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <stdexcept>

#include "http_probe.h"
#include "tickwire/fleet/http_endpoint.h"

namespace tickwire::fleet {
namespace {

using Clock = std::chrono::steady_clock;

std::vector<HttpRoute> sample_routes() {
  return {
      HttpRoute{"/hello", [](const HttpQuery&) { return HttpResponse{200, "text/plain; charset=utf-8", "hello\n"}; }},
      HttpRoute{"/teapot", [](const HttpQuery&) { return HttpResponse{418, "application/json", "{\"short\":true}"}; }},
      HttpRoute{"/throws", [](const HttpQuery&) -> HttpResponse { throw std::runtime_error("handler bug"); }},
      HttpRoute{"/echo",
                [](const HttpQuery& query) {
                  std::string body;
                  for (const auto& [k, v] : query.params) body += k + "=" + v + ";";
                  const std::string* first = query.find("a");
                  return HttpResponse{200, kPlainTextContentType, body + "first a: " + (first ? *first : "none")};
                }},
  };
}

std::unique_ptr<HttpEndpoint> open_sample(HttpEndpointConfig config = {}) {
  HttpEndpointOpen opened = HttpEndpoint::open(config, sample_routes());
  EXPECT_TRUE(opened) << opened.error;
  return std::move(opened.endpoint);
}

// The sample routes served with one setting changed from the defaults, and where.
struct Served {
  std::unique_ptr<HttpEndpoint> endpoint;
  std::string at;
};
template <class Change>
Served serve_sample(Change change) {
  HttpEndpointConfig config;
  change(config);
  Served s{open_sample(config), {}};
  if (s.endpoint) s.at = s.endpoint->bound_address().to_string();
  return s;
}

TEST(HttpEndpoint, RoutesAnswerAndEverythingElseIsRefusedByReason) {
  auto endpoint = open_sample();
  ASSERT_TRUE(endpoint);
  const std::string at = endpoint->bound_address().to_string();
  EXPECT_EQ(at.rfind("127.0.0.1:", 0), 0u) << at;
  EXPECT_NE(endpoint->bound_address().port(), 0);

  const test::HttpAnswer hello = test::http_get(at, "/hello");
  EXPECT_EQ(hello.status, 200);
  EXPECT_EQ(hello.body, "hello\n");
  EXPECT_EQ(hello.header("Content-Type"), "text/plain; charset=utf-8");
  const test::HttpAnswer teapot = test::http_get(at, "/teapot");
  EXPECT_EQ(teapot.status, 418);
  EXPECT_EQ(teapot.header("Content-Type"), "application/json");

  EXPECT_EQ(test::http_get(at, "/nothing").status, 404);
  EXPECT_EQ(test::http_get(at, "/hello/").status, 404);  // exact paths only
  const test::HttpAnswer post =
      test::http_exchange(at, "POST /hello HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
  EXPECT_EQ(post.status, 405);
  EXPECT_EQ(post.header("Allow"), "GET");
  EXPECT_EQ(test::http_exchange(at, "DELETE /hello HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").status, 405);
  EXPECT_EQ(test::http_exchange(at, "GET /hello HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Length: 5\r\n\r\nhello")
                .status,
            413);
  EXPECT_EQ(test::http_get(at, "/throws").status, 500);

  EXPECT_EQ(endpoint->answered(), 2u);
  EXPECT_EQ(endpoint->refused(HttpRefusal::not_found), 2u);
  EXPECT_EQ(endpoint->refused(HttpRefusal::wrong_method), 2u);
  EXPECT_EQ(endpoint->refused(HttpRefusal::body_refused), 1u);
  EXPECT_EQ(endpoint->refused(HttpRefusal::handler_failed), 1u);
}

TEST(HttpEndpoint, AHandlerIsGivenTheQueryDecodedAndAQueryPastItsCapsIsRefused) {
  const auto endpoint = open_sample();
  ASSERT_TRUE(endpoint);
  const std::string at = endpoint->bound_address().to_string();
  EXPECT_EQ(test::http_get(at, "/echo").body, "first a: none");
  EXPECT_EQ(test::http_get(at, "/echo?a=1&b=two%20words&a=3").body, "a=1;b=two words;a=3;first a: 1");
  std::string many = "/echo?";
  for (std::size_t i = 0; i <= kMaxHttpQueryParams; ++i) many += fmt::format("k{}=v&", i);
  EXPECT_EQ(test::http_get(at, many).status, 400);
  EXPECT_EQ(test::http_get(at, fmt::format("/echo?long={}", std::string(kMaxHttpQueryValueBytes + 1, 'x'))).status, 400);
  EXPECT_EQ(test::http_get(at, fmt::format("/echo?long={}", std::string(kMaxHttpQueryValueBytes, 'x'))).status, 200);
  EXPECT_EQ(endpoint->refused(HttpRefusal::bad_query), 2u);
}

TEST(HttpEndpoint, ABindFailureOrABadAddressOrBadRoutesComeBackAsAMessage) {
  auto first = open_sample();
  ASSERT_TRUE(first);
  HttpEndpointConfig taken;
  taken.listen = first->bound_address().to_string();
  HttpEndpointOpen second = HttpEndpoint::open(taken, sample_routes());
  EXPECT_FALSE(second);
  EXPECT_NE(second.error.find("bind " + taken.listen), std::string::npos) << second.error;
  EXPECT_NE(second.error.find("in use"), std::string::npos) << second.error;

  HttpEndpointConfig named;
  named.listen = "example.com:80";
  EXPECT_NE(HttpEndpoint::open(named, sample_routes()).error.find("numeric"), std::string::npos);
  auto twice = sample_routes();
  twice.push_back(twice.front());
  EXPECT_NE(HttpEndpoint::open({}, twice).error.find("twice"), std::string::npos);
  EXPECT_FALSE(HttpEndpoint::open({}, {HttpRoute{"relative", [](const HttpQuery&) { return HttpResponse{}; }}}));
  EXPECT_TRUE(test::http_get(first->bound_address().to_string(), "/hello").status == 200);  // the first still serves
}

TEST(HttpEndpoint, IPv6LoopbackToo) {
  HttpEndpointConfig config;
  config.listen = "[::1]:0";
  HttpEndpointOpen opened = HttpEndpoint::open(config, sample_routes());
  if (!opened) GTEST_SKIP() << "no IPv6 loopback here: " << opened.error;
  EXPECT_EQ(test::http_get(opened.endpoint->bound_address().to_string(), "/hello").status, 200);
}

TEST(HttpEndpoint, TheConnectionCapHoldsAClientOffUntilASlotFrees) {
  const Served served = serve_sample([](HttpEndpointConfig& c) { c.max_connections = 2; });
  ASSERT_TRUE(served.endpoint);
  const std::string& at = served.at;
  test::TcpProbe idle[2];
  for (auto& probe : idle) {
    ASSERT_TRUE(probe.connect(at));
    ASSERT_TRUE(probe.send("GET /hello HTTP/1.1\r\n"));  // half a request: the slot stays taken
  }
  usleep(200'000);  // both accepted
  // A third client gets no answer while both slots are taken (it waits in the backlog or is shut out).
  EXPECT_EQ(test::http_get(at, "/hello", 700).status, 0);
  for (auto& probe : idle) probe.close();
  test::HttpAnswer after{};
  for (int i = 0; i < 50 && after.status != 200; ++i) {
    after = test::http_get(at, "/hello", 2000);
    if (after.status != 200) usleep(50'000);
  }
  EXPECT_EQ(after.status, 200);
}

TEST(HttpEndpoint, ASlowClientIsClosedAtTheTimeoutAndGarbageIsAnswered400) {
  const Served served = serve_sample([](HttpEndpointConfig& c) { c.connection_timeout_s = 1; });
  ASSERT_TRUE(served.endpoint);
  const std::string& at = served.at;

  test::TcpProbe slow;
  ASSERT_TRUE(slow.connect(at));
  ASSERT_TRUE(slow.send("GET /hello HTTP/1.1\r\nHost: t\r\n"));  // and never the blank line
  const auto began = Clock::now();
  ASSERT_TRUE(slow.read_until_closed(10'000)) << "the endpoint never closed a silent client";
  const double closed_after_s = std::chrono::duration<double>(Clock::now() - began).count();
  EXPECT_GE(closed_after_s, 0.5);
  EXPECT_LE(closed_after_s, 5.0);
  EXPECT_EQ(slow.received().find("200 OK"), std::string::npos);

  const test::HttpAnswer garbage = test::http_exchange(at, "\x16\x03\x01 not http at all\r\n\r\n");
  EXPECT_EQ(garbage.status, 400);
  const test::HttpAnswer bad_header = test::http_exchange(at, "GET /hello HTTP/1.1\r\nNo colon here\r\nHost: t\r\n\r\n");
  EXPECT_EQ(bad_header.status, 400);
  EXPECT_EQ(test::http_exchange(at, "GET /hello HTTP/9.9\r\nHost: t\r\n\r\n").status, 505);
  test::TcpProbe bare;  // a request line without a path: closed without an answer
  ASSERT_TRUE(bare.connect(at) && bare.send("GET\r\n\r\n"));
  EXPECT_TRUE(bare.read_until_closed(5000));
  EXPECT_EQ(bare.received().find("200"), std::string::npos);
  EXPECT_EQ(test::http_get(at, "/hello").status, 200);  // and it goes on serving
}

}  // namespace
}  // namespace tickwire::fleet
