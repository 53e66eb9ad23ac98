// Canonical JSON: sorted keys whatever the insertion order, arrays in their order, a fixed number
// format, escaping.
#include "tickwire/protocol/canonical_json.h"

#include <gtest/gtest.h>

#include <cmath>

#include "support.h"

namespace tickwire {
namespace {

TEST(CanonicalJson, KeysAreSortedWhateverTheInsertionOrder) {
  CanonicalJsonObject a;
  a.integer("zeta", 1);
  a.string("alpha", "x");
  a.boolean("mid", true);
  CanonicalJsonObject b;
  b.boolean("mid", true);
  b.integer("zeta", 1);
  b.string("alpha", "x");
  EXPECT_EQ(a.text(), R"({"alpha":"x","mid":true,"zeta":1})");
  EXPECT_EQ(a.text(), b.text());
  CanonicalJsonObject outer;
  outer.object("inner", a);
  outer.unsigned_integer("big", 18446744073709551615ull);
  outer.integer("neg", -3);
  EXPECT_EQ(outer.text(), R"({"big":18446744073709551615,"inner":{"alpha":"x","mid":true,"zeta":1},"neg":-3})");
  EXPECT_EQ(CanonicalJsonObject{}.text(), "{}");
}

TEST(CanonicalJson, ArraysKeepTheirOrderAndTheirElementsAreCanonical) {
  CanonicalJsonObject first;
  first.integer("z", 2);
  first.integer("a", 1);
  CanonicalJsonObject second;
  second.string("k", "v");
  CanonicalJsonObject o;
  o.array("list", {second, first});
  o.array("empty", {});
  EXPECT_EQ(o.text(), R"({"empty":[],"list":[{"k":"v"},{"a":1,"z":2}]})");
}

TEST(CanonicalJson, NumbersHaveOneFixedForm) {
  EXPECT_EQ(canonical_json_number(1.0), "1");
  EXPECT_EQ(canonical_json_number(0.5), "0.5");
  EXPECT_EQ(canonical_json_number(0.35), "0.35");
  EXPECT_EQ(canonical_json_number(2.5), "2.5");
  EXPECT_EQ(canonical_json_number(-0.0), "0");
  EXPECT_EQ(canonical_json_number(-1.25), "-1.25");
  EXPECT_EQ(canonical_json_number(1.0 / 3.0), "0.333333");
  EXPECT_EQ(canonical_json_number(2.0 / 3.0), "0.666667");
  EXPECT_EQ(canonical_json_number(1e-7), "0");
  EXPECT_EQ(canonical_json_number(-1e-7), "0");
  EXPECT_EQ(canonical_json_number(123456789.0), "123456789");
  EXPECT_EQ(canonical_json_number(0.1 + 0.2), "0.3");  // representation noise below 1e-6 is gone
}

TEST(CanonicalJson, StringsEscapeQuotesBackslashesAndControlBytes) {
  EXPECT_EQ(canonical_json_string("plain"), R"("plain")");
  EXPECT_EQ(canonical_json_string("a\"b\\c"), R"("a\"b\\c")");
  EXPECT_EQ(canonical_json_string(std::string_view("\n\x01", 2)), R"("\u000a\u0001")");
}

TEST(CanonicalJson, ARepeatedKeyOrANonFiniteNumberIsAProgrammerError) {
  test::ThrowOnAssert guard;
  CanonicalJsonObject o;
  o.integer("k", 1);
  EXPECT_THROW(o.integer("k", 2), test::AssertionFailure);
  EXPECT_THROW(o.number("nan", std::nan("")), test::AssertionFailure);
}

}  // namespace
}  // namespace tickwire
