// The dashboard's HTTP side without a room: nothing is due while no page is open (an unwatched
// dashboard costs the loop one check), a page's stream makes a line due at the publish rate and
// receives it, the page and the layout are served as given, and an inspector request meets the
// loop's next inspection of the client it names (a bad name is a 400, a timeout a 404).
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

#include "http_probe.h"
#include "tickwire/dashboard/dashboard.h"

namespace tickwire::dashboard {
namespace {

using namespace std::chrono_literals;

std::unique_ptr<Dashboard> open_dashboard() {
  DashboardConfig config;
  config.layout_json = "{\"name\":\"test\"}";
  DashboardOpen opened = Dashboard::open(config, {{"/healthz", [](const fleet::HttpQuery&) {
                                                     return fleet::HttpResponse{200, fleet::kPlainTextContentType, "ok\n"};
                                                   }}});
  EXPECT_TRUE(opened) << opened.error;
  return std::move(opened.dashboard);
}

MonoTime at_ms(int64_t ms) { return MonoTime() + Duration::milliseconds(ms); }

TEST(Dashboard, NothingIsDueWithoutAPageAndAnOpenPageGetsLinesAtThePublishRate) {
  auto d = open_dashboard();
  ASSERT_TRUE(d);
  const std::string at = d->endpoint().bound_address().to_string();
  EXPECT_FALSE(d->due(at_ms(1000)));
  EXPECT_EQ(test::http_get(at, "/healthz").status, 200);
  const test::HttpAnswer page = test::http_get(at, "/");
  EXPECT_EQ(page.status, 200);
  EXPECT_EQ(page.body, with_theme(dashboard_page()));
  EXPECT_NE(page.body.find(std::string(dashboard_theme())), std::string::npos) << "the shared look is in the page";
  EXPECT_EQ(page.body.find(kThemeMarker), std::string::npos);
  EXPECT_EQ(test::http_get(at, "/api/layout").body, "{\"name\":\"test\"}");

  test::TcpProbe events;
  ASSERT_TRUE(events.connect(at) && events.send("GET /events HTTP/1.1\r\nHost: t\r\n\r\n"));
  for (int i = 0; i < 300 && d->pages_open() == 0; ++i) std::this_thread::sleep_for(10ms);
  ASSERT_EQ(d->pages_open(), 1u);
  EXPECT_TRUE(d->due(at_ms(2000)));
  EXPECT_FALSE(d->due(at_ms(2050)));  // 10 Hz: the next at 2100
  EXPECT_TRUE(d->due(at_ms(2100)));
  d->publish_room("{\"type\":\"room\",\"tick\":5}");
  EXPECT_TRUE(events.read_until_contains("data: {\"type\":\"room\",\"tick\":5}\n\n", 3000)) << events.received();
  EXPECT_EQ(d->lines_published(), 1u);
}

TEST(Dashboard, AnInspectorRequestMeetsTheLoopsNextInspectionOfItsClient) {
  auto d = open_dashboard();
  ASSERT_TRUE(d);
  const std::string at = d->endpoint().bound_address().to_string();
  EXPECT_EQ(d->inspecting(at_ms(0)), 0);
  auto answer = std::async(std::launch::async, [&] { return test::http_get(at, "/api/inspect?client=9"); });
  int64_t ms = 0;
  while (d->inspecting(at_ms(ms)) != 9 && ms < 5000) {
    std::this_thread::sleep_for(5ms);
    ms += 5;
  }
  ASSERT_EQ(d->inspecting(at_ms(ms)), 9);
  while (!d->inspection_wanted()) std::this_thread::sleep_for(1ms);
  d->publish_inspection("{\"owner\":8,\"other\":true}");  // another client's: not this request's answer
  d->publish_inspection("{\"owner\":9,\"tick\":3}");
  const test::HttpAnswer a = answer.get();
  EXPECT_EQ(a.status, 200);
  EXPECT_EQ(a.body, "{\"owner\":9,\"tick\":3}");
  EXPECT_EQ(d->inspecting(at_ms(ms + 2000)), 9);  // still inspected within kInspectorIdle
  EXPECT_EQ(d->inspecting(at_ms(ms + 4000)), 0);  // then let go
  EXPECT_EQ(test::http_get(at, "/api/inspect?client=0").status, 400);
  EXPECT_EQ(test::http_get(at, "/api/inspect?client=x9").status, 400);
  EXPECT_EQ(test::http_get(at, "/api/inspect").status, 400);
  EXPECT_EQ(test::http_get(at, "/api/inspect?client=12").status, 404);  // nothing came in time
}

}  // namespace
}  // namespace tickwire::dashboard
