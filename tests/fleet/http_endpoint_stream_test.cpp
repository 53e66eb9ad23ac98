// The endpoint's server-sent-event streams over real loopback TCP, and the hostile requests a
// public page draws: each published value arrives as one event, nothing new sends a keep-alive
// comment, a stream past its seats is answered 503 (counted), the endpoint's end closes an open
// stream, oversized headers are refused, a traversal path is only an unknown route (404), and one
// address holding half-sent requests takes only its share of the slots.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "http_probe.h"
#include "tickwire/fleet/http_endpoint.h"

namespace tickwire::fleet {
namespace {

using namespace std::chrono_literals;

struct Served {
  EventStream stream{2};
  std::unique_ptr<HttpEndpoint> endpoint;
  std::string at;

  Served() {
    HttpEndpointConfig config;
    config.stream_keep_alive_ms = 200;
    std::vector<HttpRoute> routes = {
        {"/hello", [](const HttpQuery&) { return HttpResponse{200, kPlainTextContentType, "hello\n"}; }}};
    HttpEndpointOpen opened = HttpEndpoint::open(config, std::move(routes), {HttpStreamRoute{"/events", &stream}});
    EXPECT_TRUE(opened) << opened.error;
    endpoint = std::move(opened.endpoint);
    if (endpoint) at = endpoint->bound_address().to_string();
  }
};

bool open_stream(test::TcpProbe& probe, const std::string& at) {
  return probe.connect(at) && probe.send("GET /events HTTP/1.1\r\nHost: t\r\n\r\n") &&
         probe.read_until_contains("text/event-stream", 3000);
}

// Waits until the stream counts `n` readers (the endpoint's thread joins a seat after the headers).
bool readers_reach(const EventStream& stream, uint32_t n) {
  for (int i = 0; i < 200 && stream.readers() != n; ++i) std::this_thread::sleep_for(10ms);
  return stream.readers() == n;
}

TEST(HttpEndpointStream, EachPublishedValueArrivesAsOneEventAndIdleSendsKeepAlives) {
  Served s;
  ASSERT_TRUE(s.endpoint);
  test::TcpProbe page;
  ASSERT_TRUE(open_stream(page, s.at));
  ASSERT_TRUE(readers_reach(s.stream, 1));
  EXPECT_TRUE(s.stream.wanted());
  ASSERT_TRUE(s.stream.publish("{\"tick\":1}"));
  EXPECT_TRUE(page.read_until_contains("data: {\"tick\":1}\n\n", 3000)) << page.received();
  ASSERT_TRUE(s.stream.publish("two\nlines"));
  EXPECT_TRUE(page.read_until_contains("data: two\ndata: lines\n\n", 3000)) << page.received();
  const std::size_t before = page.received().size();
  EXPECT_TRUE(page.read_until_contains(": keep-alive\n\n", 3000, before));
  page.close();
  EXPECT_TRUE(readers_reach(s.stream, 0)) << "a closed page's seat is given back";
  EXPECT_EQ(test::http_get(s.at, "/hello").status, 200);
}

TEST(HttpEndpointStream, AStreamPastItsSeatsIsAnswered503AndTheEndClosesOpenOnes) {
  Served s;
  ASSERT_TRUE(s.endpoint);
  test::TcpProbe pages[2];
  for (auto& page : pages) ASSERT_TRUE(open_stream(page, s.at));
  ASSERT_TRUE(readers_reach(s.stream, 2));
  EXPECT_EQ(test::http_get(s.at, "/events").status, 503);
  EXPECT_EQ(s.endpoint->refused(HttpRefusal::streams_full), 1u);
  s.endpoint.reset();  // stopping: each open stream ends, its connection closed
  for (auto& page : pages) EXPECT_TRUE(page.read_until_closed(3000));
  EXPECT_EQ(s.stream.readers(), 0u);
}

TEST(HttpEndpointStream, OversizedHeadersAndTraversalPathsAreRefused) {
  Served s;
  ASSERT_TRUE(s.endpoint);
  const std::string huge = "GET /hello HTTP/1.1\r\nHost: t\r\nX-Big: " + std::string(64 * 1024, 'a') + "\r\n\r\n";
  const test::HttpAnswer big = test::http_exchange(s.at, huge);
  EXPECT_TRUE(big.status == 431 || big.status == 413 || big.status == 0) << big.status;  // refused, or closed unanswered
  EXPECT_EQ(test::http_get(s.at, "/../../etc/passwd").status, 404);
  EXPECT_EQ(test::http_get(s.at, "/%2e%2e/%2e%2e/etc/passwd").status, 404);
  EXPECT_EQ(test::http_get(s.at, "/events/../hello").status, 404);
  EXPECT_EQ(test::http_exchange(s.at, "POST /events HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n").status, 405);
  EXPECT_EQ(s.stream.readers(), 0u);
  EXPECT_EQ(test::http_get(s.at, "/hello").status, 200);  // and it goes on serving
}

// A slowloris on one address holds only its own share of the slots: another address is still served.
TEST(HttpEndpointStream, OneAddressHoldingItsShareCannotShutOutAnother) {
  HttpEndpointConfig config;
  config.max_connections = 4;
  config.max_connections_per_address = 2;
  config.connection_timeout_s = 30;
  HttpEndpointOpen opened = HttpEndpoint::open(
      config, {{"/hello", [](const HttpQuery&) { return HttpResponse{200, kPlainTextContentType, "hello\n"}; }}});
  ASSERT_TRUE(opened) << opened.error;
  const std::string at = opened.endpoint->bound_address().to_string();
  test::TcpProbe slow[3];
  for (auto& probe : slow) {
    ASSERT_TRUE(probe.connect(at, "127.0.0.1:0"));
    ASSERT_TRUE(probe.send("GET /hello HTTP/1.1\r\n"));  // half a request, held
  }
  EXPECT_TRUE(slow[2].read_until_closed(3000)) << "a third from the same address is closed at once";
  test::TcpProbe other;
  if (!other.connect(at, "127.0.0.2:0")) GTEST_SKIP() << "no second loopback address here";
  ASSERT_TRUE(other.send("GET /hello HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"));
  ASSERT_TRUE(other.read_until_closed(3000));
  EXPECT_EQ(test::parse_http_answer(other.received()).status, 200);
}

}  // namespace
}  // namespace tickwire::fleet
