// Reason enums name their members once. TW_REASONS(Drop, undecodable, unexpected) declares
//   enum class Drop : uint8_t { undecodable, unexpected, count_ };
// and the names ("undecodable", "unexpected") from the same list, so reason_name(Drop::unexpected)
// and every report that walks a ReasonCounters by name need no hand-written switch that can drift
// from the enum. Comments between the members are fine (they are gone before the list is quoted).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace tickwire {
namespace reasons_detail {

constexpr bool is_space(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

// Splits "a, b = 2, c" into its N member names ("a", "b", "c").
template <std::size_t N>
constexpr std::array<std::string_view, N> split(std::string_view list) {
  std::array<std::string_view, N> names{};
  std::size_t at = 0;
  for (std::size_t i = 0; i < N; ++i) {
    while (at < list.size() && (is_space(list[at]) || list[at] == ',')) ++at;
    const std::size_t begin = at;
    while (at < list.size() && !is_space(list[at]) && list[at] != ',' && list[at] != '=') ++at;
    names[i] = list.substr(begin, at - begin);
    while (at < list.size() && list[at] != ',') ++at;  // past any "= value"
  }
  return names;
}

}  // namespace reasons_detail

// A reason enum's members by name (found by ADL through reason_names()).
template <class E>
constexpr std::string_view reason_name(E reason) {
  const auto& names = reason_names(E{});
  const auto i = static_cast<std::size_t>(reason);
  return i < names.size() ? names[i] : std::string_view("unknown");
}

}  // namespace tickwire

// Declares `enum class Name : uint8_t { members..., count_ }` and its member names, at namespace
// scope. Members are numbered 0, 1, 2... in order.
#define TW_REASONS(Name, ...)                                                                        \
  enum class Name : uint8_t { __VA_ARGS__, count_ };                                                 \
  inline constexpr auto Name##_reason_names =                                                       \
      ::tickwire::reasons_detail::split<static_cast<std::size_t>(Name::count_)>(#__VA_ARGS__);       \
  constexpr const auto& reason_names(Name) { return Name##_reason_names; }
