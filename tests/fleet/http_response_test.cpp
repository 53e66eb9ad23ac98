// The HTTP response reader on its own (fleet/http_response.h): bodies by Content-Length and to the
// close, incomplete until whole, the same answer however the bytes were cut, and every response it
// must not take refused by name: a bad status line or header line, a folded line, Content-Lengths
// that differ or are not digits, Transfer-Encoding, past the cap, cut short by the close.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "tickwire/fleet/http_response.h"

namespace tickwire::fleet {
namespace {

std::span<const uint8_t> bytes_of(std::string_view text) {
  return {reinterpret_cast<const uint8_t*>(text.data()), text.size()};
}

HttpResponseParse parse(std::string_view text, bool closed, std::size_t cap = kDefaultMaxHttpResponseBytes) {
  return parse_http_response(bytes_of(text), closed, cap);
}

// Refused by name, whether or not the peer has closed (nothing more could mend it).
void expect_refused(std::string_view text, HttpGetFailure why, std::size_t cap = kDefaultMaxHttpResponseBytes) {
  for (const bool closed : {false, true}) {
    const HttpResponseParse p = parse(text, closed, cap);
    EXPECT_EQ(p.state, HttpParseState::failed) << text;
    EXPECT_EQ(reason_name(p.failure), reason_name(why)) << text;
  }
}

// Whole, with this status, Content-Type and body.
void expect_answer(const HttpResponseParse& p, unsigned status, std::string_view content_type, std::string_view body) {
  ASSERT_EQ(p.state, HttpParseState::complete);
  EXPECT_EQ(p.response.status, status);
  EXPECT_EQ(p.response.content_type, content_type);
  EXPECT_EQ(p.response.body, body);
}

TEST(HttpResponse, ContentLengthEndsTheBodyAndBytesPastItAreNotPartOfIt) {
  const std::string whole = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"a\":true}\n";
  expect_answer(parse(whole, false), 200, "application/json", "{\"a\":true}\n");
  expect_answer(parse(whole + "HTTP/1.1 500 extra", false), 200, "application/json", "{\"a\":true}\n");
}

TEST(HttpResponse, WithoutContentLengthTheBodyRunsToTheClose) {
  const std::string text = "HTTP/1.0 503 Service Unavailable\r\nServer: x\r\n\r\n{\"status\":\"refused\"}";
  EXPECT_EQ(parse(text, false).state, HttpParseState::incomplete);
  expect_answer(parse(text, true), 503, "", "{\"status\":\"refused\"}");
}

TEST(HttpResponse, EveryCutOfTheBytesGivesTheSameAnswerOnceWhole) {
  const std::string whole = "HTTP/1.1 404 Not Found\r\ncontent-length: 5\r\nCONTENT-TYPE:text/plain \r\n\r\nnope\n";
  for (std::size_t cut = 0; cut < whole.size(); ++cut) {
    EXPECT_EQ(parse(std::string_view(whole).substr(0, cut), false).state, HttpParseState::incomplete) << cut;
    const HttpResponseParse closed = parse(std::string_view(whole).substr(0, cut), true);
    EXPECT_EQ(closed.state, HttpParseState::failed) << cut;
    EXPECT_EQ(closed.failure, HttpGetFailure::closed_early) << cut;
  }
  expect_answer(parse(whole, false), 404, "text/plain", "nope\n");
}

TEST(HttpResponse, NoContentAndNotModifiedHaveNoBody) {
  for (const char* status : {"204 No Content", "304 Not Modified"}) {
    const HttpResponseParse p = parse(std::string("HTTP/1.1 ") + status + "\r\nContent-Length: 9\r\n\r\n", false);
    ASSERT_EQ(p.state, HttpParseState::complete) << status;
    EXPECT_EQ(p.response.body, "");
  }
}

TEST(HttpResponse, StatusLinesThatAreNotHttp1AreMalformed) {
  for (const char* line : {"HTTP/2 200 OK", "HTTP/1.2 200 OK", "HTTP/1.1  200 OK", "HTTP/1.1 20 OK", "HTTP/1.1 2000",
                           "HTTP/1.1 099 x", "HTTP/1.1 600 x", "HTTP/1.1 100 Continue", "http/1.1 200 OK",
                           "HTTP/1.1 200OK", "HTTP/1.1 200 O\x01K", "", "SSH-2.0-OpenSSH"}) {
    expect_refused(std::string(line) + "\r\n\r\n", HttpGetFailure::malformed);
  }
  const HttpResponseParse bare = parse("HTTP/1.1 200\r\n\r\n", true);  // no reason phrase: taken
  ASSERT_EQ(bare.state, HttpParseState::complete);
  EXPECT_EQ(bare.response.status, 200u);
}

TEST(HttpResponse, HeaderLinesMustBeNameColonValue) {
  for (const char* line : {"no colon here", ": no name", "Bad Name: x", "Folded: a\r\n continued", "Nul: a\x01z",
                           "Bare: a\rb", "Content-Length: 12a", "Content-Length: -1", "Content-Length: ",
                           "Content-Length: 1 2"}) {
    expect_refused(std::string("HTTP/1.1 200 OK\r\n") + line + "\r\n\r\n", HttpGetFailure::malformed);
  }
  expect_refused("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nabc", HttpGetFailure::malformed);
  const HttpResponseParse same = parse("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nab", false);
  EXPECT_EQ(same.state, HttpParseState::complete);
}

TEST(HttpResponse, TransferEncodingIsRefusedWhateverItNames) {
  for (const char* coding : {"chunked", "gzip, chunked", "identity"}) {
    expect_refused(std::string("HTTP/1.1 200 OK\r\ntransfer-encoding: ") + coding + "\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
                   HttpGetFailure::chunked_refused);
  }
}

TEST(HttpResponse, PastTheCapIsTooLargeWhetherReceivedOrAnnounced) {
  const std::string head = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n";
  expect_refused(head, HttpGetFailure::too_large, head.size() + 99);  // announced past the cap
  EXPECT_EQ(parse(head, false, head.size() + 100).state, HttpParseState::incomplete);
  expect_refused("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999999\r\n\r\n", HttpGetFailure::too_large);
  expect_refused(std::string(65, 'x'), HttpGetFailure::too_large, 64);  // received past the cap, no head yet
  std::string many = "HTTP/1.1 200 OK\r\n";
  for (std::size_t i = 0; i <= kMaxHttpResponseHeaderLines; ++i) many += "X-Line: " + std::to_string(i) + "\r\n";
  expect_refused(many + "\r\n", HttpGetFailure::too_large);
  EXPECT_EQ(parse(std::string(64, 'x'), false, 64).state, HttpParseState::incomplete);
}

}  // namespace
}  // namespace tickwire::fleet
