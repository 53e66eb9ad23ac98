// The strict decimal reader: the canonical spelling of every 64-bit value reads back, and nothing
// else does (signs, spaces, leading zeros, other characters, one past the top, too many digits).
#include <gtest/gtest.h>

#include <string>

#include "tickwire/core/decimal.h"

namespace tickwire {
namespace {

TEST(Decimal, CanonicalValuesReadBack) {
  for (const uint64_t value : {uint64_t{0}, uint64_t{1}, uint64_t{9}, uint64_t{10}, uint64_t{4242},
                               uint64_t{18446744073709551615u}}) {
    EXPECT_EQ(parse_decimal_u64(std::to_string(value)), value) << value;
  }
}

TEST(Decimal, AnythingButTheCanonicalSpellingIsRefused) {
  for (const char* text : {"", "-1", "+1", " 1", "1 ", "01", "00", "1.0", "1e3", "0x10", "abc", "12a",
                           "18446744073709551616", "99999999999999999999", "000000000000000000001"}) {
    EXPECT_EQ(parse_decimal_u64(text), std::nullopt) << text;
  }
  EXPECT_EQ(parse_decimal_u64(std::string_view("12\0" "3", 4)), std::nullopt);
}

}  // namespace
}  // namespace tickwire
