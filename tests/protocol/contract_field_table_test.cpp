// "Adding a field is one edit": a test-only contract part in two versions whose only difference is
// one extra ranged line in its field table. That line alone puts the field in the canonical JSON,
// in validation (its range refused, at its dotted path), in the hash and on the wire.
#include <gtest/gtest.h>

#include "tickwire/protocol/contract_hash.h"
#include "tickwire/protocol/contract_json_walker.h"
#include "tickwire/protocol/contract_validation_walker.h"
#include "tickwire/wire/codec.h"

namespace tickwire {
namespace {

struct Lane {
  std::string name = "pose";
  uint32_t rate_hz = 30;
  template <class W>
  void fields(W& w) {
    contract_str8(w, "name", name, 16, Presence::required);
    contract_u32(w, "rateHz", rate_hz, 1, 240);
  }
};

struct PartV1 {
  uint32_t budget_bytes = 1000;
  std::vector<Lane> lanes{Lane{}};
  template <class W>
  void fields(W& w) {
    contract_u32(w, "budgetBytes", budget_bytes, 64, 19200);
    contract_list8(w, "lanes", lanes, 4);
  }
};

// Version 2: PartV1 plus one line.
struct PartV2 {
  uint32_t budget_bytes = 1000;
  std::vector<Lane> lanes{Lane{}};
  double radius_m = 100.0;
  template <class W>
  void fields(W& w) {
    contract_u32(w, "budgetBytes", budget_bytes, 64, 19200);
    contract_list8(w, "lanes", lanes, 4);
    contract_f64(w, "radiusM", radius_m, 1.0, 1000.0);  // the one edit
  }
};

struct Outer {
  PartV2 part;
  template <class W>
  void fields(W& w) {
    w.shape("part", part);
  }
};

std::string json_of(const auto& value) { return contract_json_object(value).text(); }

TEST(ContractFieldTable, AnAddedFieldReachesTheJsonTheValidationTheHashAndTheWire) {
  const PartV1 v1;
  PartV2 v2;
  EXPECT_EQ(json_of(v1), R"({"budgetBytes":1000,"lanes":[{"name":"pose","rateHz":30}]})");
  EXPECT_EQ(json_of(v2), R"({"budgetBytes":1000,"lanes":[{"name":"pose","rateHz":30}],"radiusM":100})");
  EXPECT_NE(ContractHash::of(json_of(v1)), ContractHash::of(json_of(v2)));
  EXPECT_EQ(wire::measure(v2), wire::measure(v1) + sizeof(double));

  EXPECT_TRUE(check_contract_fields(v1).ok());
  EXPECT_TRUE(check_contract_fields(v2).ok());
  const ContractHash before = ContractHash::of(json_of(v2));
  v2.radius_m = 0.5;
  EXPECT_NE(ContractHash::of(json_of(v2)), before) << "its value is hashed";
  const ContractIssue issue = check_contract_fields(v2);
  EXPECT_EQ(issue.error, ContractError::out_of_range);
  EXPECT_EQ(issue.field, "radiusM");
}

TEST(ContractFieldTable, ValidationNamesTheDottedPathOfWireNames) {
  Outer outer;
  EXPECT_TRUE(check_contract_fields(outer).ok());
  outer.part.radius_m = 5000.0;
  EXPECT_EQ(check_contract_fields(outer).field, "part.radiusM");
  outer.part.radius_m = 10.0;
  outer.part.lanes.push_back(Lane{"world", 0});
  EXPECT_EQ(check_contract_fields(outer).error, ContractError::out_of_range);
  EXPECT_EQ(check_contract_fields(outer).field, "part.lanes[1].rateHz");
  outer.part.lanes[0].name.clear();  // the first issue in table order wins
  EXPECT_EQ(check_contract_fields(outer).error, ContractError::field_empty);
  EXPECT_EQ(check_contract_fields(outer).field, "part.lanes[0].name");
  outer.part.lanes.resize(5);
  EXPECT_EQ(check_contract_fields(outer).error, ContractError::list_too_long);
  EXPECT_EQ(check_contract_fields(outer).field, "part.lanes");
}

}  // namespace
}  // namespace tickwire
