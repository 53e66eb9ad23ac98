// The seed corpus of fuzz_http_response (tests/fixtures/fuzz/fuzz_http_response/): answers a bot
// hears from the matchmaker, built here from what they claim (a queued answer by Content-Length, a
// refusal whose body runs to the close, a seated answer from HTTP/1.0, a chunked one refused), held
// to their files (TICKWIRE_FUZZ_SEEDS=write regenerates) and read here as the target reads them: the
// first byte picks the cap, the rest is the response.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "fuzz_seed_check.h"
#include "support.h"
#include "tickwire/fleet/http_response.h"

namespace tickwire::fleet {
namespace {

const std::filesystem::path kSeeds = test::source_dir() / "tests" / "fixtures" / "fuzz" / "fuzz_http_response";
constexpr uint8_t kWidestCap = 0xff;  // the target's cap: 64 + 16 * this byte

struct Seed {
  const char* name;
  std::string response;
  HttpParseState when_closed;
};

std::string with_length(const std::string& head, const std::string& body) {
  return head + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

TEST(HttpResponseFuzzSeeds, SeedsAreTheAnswersTheyClaimToBe) {
  const std::vector<Seed> seeds = {
      {"queued_content_length",
       with_length("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n",
                   R"({"status":"queued","position":3,"length":9,"etaSeconds":null})"),
       HttpParseState::complete},
      {"refused_to_close",
       "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n\r\n"
       R"({"status":"refused","reason":"line_full"})",
       HttpParseState::complete},
      {"seated_http10",
       with_length("HTTP/1.0 200 OK\r\ncontent-type: application/json\r\n",
                   R"({"status":"seated","room":"arena","process":"p1","address":"127.0.0.1:40000"})"),
       HttpParseState::complete},
      {"chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n", HttpParseState::failed},
  };
  for (const Seed& seed : seeds) {
    std::vector<uint8_t> bytes = {kWidestCap};
    bytes.insert(bytes.end(), seed.response.begin(), seed.response.end());
    test::check_fuzz_seed(kSeeds, seed.name, bytes);
    const HttpResponseParse closed =
        parse_http_response(std::span<const uint8_t>(bytes).subspan(1), true, 64 + 16 * std::size_t{kWidestCap});
    EXPECT_EQ(closed.state, seed.when_closed) << seed.name;
  }
}

}  // namespace
}  // namespace tickwire::fleet
