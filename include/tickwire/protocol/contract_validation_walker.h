// The validation mode of a contract field table: every field against its own table entry (range,
// finiteness, a string's presence, cap and printable bytes, a list's cap, an enum's members). The
// first issue wins and is named by its dotted path of wire names; every later visit is a no-op.
// Rules between fields are not a walk: contract_rules.cpp states them after it.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tickwire/protocol/contract_error.h"
#include "tickwire/protocol/contract_fields.h"
#include "tickwire/wire/shape.h"
#include "tickwire/wire/types.h"

namespace tickwire {

class ContractValidationWalker {
 public:
  void integer(const char* name, uint64_t value, uint64_t lo, uint64_t hi) {
    if (value < lo || value > hi) fail(name, ContractError::out_of_range);
  }
  void real(const char* name, double value, double lo, double hi) {
    if (!std::isfinite(value)) return fail(name, ContractError::not_finite);
    if (value < lo || value > hi) fail(name, ContractError::out_of_range);
  }
  void boolean(const char*, const bool&) {}
  void text(const char* name, const std::string& value, std::size_t max_bytes, Presence presence) {
    if (presence == Presence::required && value.empty()) return fail(name, ContractError::field_empty);
    if (value.size() > max_bytes) return fail(name, ContractError::field_too_long);
    for (const char c : value) {
      if (c < 0x20 || c > 0x7e) return fail(name, ContractError::field_not_printable);
    }
  }
  template <class E>
  void enum8(const char* name, const E& value, const wire::EnumDef& def) {
    if (!def.has(static_cast<uint32_t>(value))) fail(name, ContractError::out_of_range);
  }
  template <class T>
  void shape(const char* name, T& value) {
    if (!issue_.ok()) return;
    const std::size_t outer = enter(name);
    wire::visit_fields(*this, value);
    path_.resize(outer);
  }
  template <class T>
  void list(const char* name, std::vector<T>& elements, std::size_t max_count) {
    if (!issue_.ok()) return;
    if (elements.size() > max_count) return fail(name, ContractError::list_too_long);
    for (std::size_t i = 0; i < elements.size() && issue_.ok(); ++i) {
      const std::size_t outer = enter(name, i);
      wire::visit_fields(*this, elements[i]);
      path_.resize(outer);
    }
  }

  const ContractIssue& issue() const { return issue_; }

 private:
  // Appends "name." (or "name[i].") to the path; returns the length to restore.
  std::size_t enter(const char* name, std::size_t index = kNotAnElement) {
    const std::size_t outer = path_.size();
    path_ += name;
    if (index != kNotAnElement) {
      // Appended piece by piece: "[" + std::to_string(i) trips GCC 12's -Wrestrict at -O3 (GCC bug 105651).
      path_ += '[';
      path_ += std::to_string(index);
      path_ += ']';
    }
    path_ += '.';
    return outer;
  }
  void fail(const char* name, ContractError error) {
    if (issue_.ok()) issue_ = ContractIssue{error, path_ + name};
  }

  static constexpr std::size_t kNotAnElement = ~std::size_t{0};
  std::string path_;  // the enclosing shapes' names, each followed by '.'
  ContractIssue issue_;
};

// The first field of `value` outside its own table entry, or ok.
template <class T>
ContractIssue check_contract_fields(const T& value) {
  ContractValidationWalker walker;
  wire::visit_fields(walker, const_cast<T&>(value));
  return walker.issue();
}

}  // namespace tickwire
