// A room's seated list: the rule a report keeps (ascending, no 0, within the seats total and
// taken), and its text at rest, which reads back only in format_seated_list's own spelling and
// within its caps.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tickwire/durable/seated_list.h"

namespace tickwire::durable {
namespace {

DirectoryRoom room(uint32_t total, uint32_t taken, std::vector<uint64_t> seated) {
  return DirectoryRoom{"room.0", "127.0.0.1:40000", total, taken, std::move(seated)};
}

TEST(SeatedList, AReportsListIsAscendingNonzeroAndWithinItsSeats) {
  EXPECT_TRUE(seated_list_fits(room(4, 0, {})));
  EXPECT_TRUE(seated_list_fits(room(4, 3, {1, 7, 9})));
  EXPECT_TRUE(seated_list_fits(room(4, 4, {2})));  // sessions the server does not name
  EXPECT_FALSE(seated_list_fits(room(4, 3, {7, 1})));
  EXPECT_FALSE(seated_list_fits(room(4, 3, {7, 7})));
  EXPECT_FALSE(seated_list_fits(room(4, 3, {0})));
  EXPECT_FALSE(seated_list_fits(room(4, 2, {1, 2, 3})));     // more than taken
  EXPECT_FALSE(seated_list_fits(room(2, 3, {1, 2, 3})));     // more than the seats
}

TEST(SeatedList, TheTextRoundTripsAtEverySize) {
  EXPECT_EQ(format_seated_list({}), "");
  EXPECT_EQ(parse_seated_list(""), std::vector<uint64_t>{});
  const std::vector<uint64_t> few = {7, 12, 4242};
  EXPECT_EQ(format_seated_list(few), "7,12,4242");
  EXPECT_EQ(parse_seated_list("7,12,4242"), few);
  std::vector<uint64_t> most;
  for (uint64_t i = 0; i < kMaxDirectoryRoomSeats; ++i) most.push_back(18446744073709551615u - 255 + i);
  const std::string text = format_seated_list(most);
  EXPECT_EQ(text.size(), kMaxSeatedTextBytes);  // the longest there is: the database's bound
  EXPECT_EQ(parse_seated_list(text), most);
}

TEST(SeatedList, TextInAnyOtherSpellingOrPastItsCapsIsRefused) {
  for (const char* text : {",", "1,", ",1", "1,,2", "1 ,2", "2,1", "1,1", "0", "01", "1;2", "-1", "18446744073709551616"}) {
    EXPECT_EQ(parse_seated_list(text), std::nullopt) << text;
  }
  std::string past_count;  // 257 short ids: within the length, past the seats
  for (uint64_t i = 1; i <= kMaxDirectoryRoomSeats + 1; ++i) past_count += (i > 1 ? "," : "") + std::to_string(i);
  EXPECT_EQ(parse_seated_list(past_count), std::nullopt);
  EXPECT_EQ(parse_seated_list(std::string(kMaxSeatedTextBytes + 1, '1')), std::nullopt);
}

}  // namespace
}  // namespace tickwire::durable
