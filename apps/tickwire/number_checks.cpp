// Every floating-point option of every command refuses NaN and infinities. CLI11 converts "nan" and
// "inf" to a double happily, and its range checks pass NaN (each comparison with NaN is false), so
// `--seconds nan` would run a zero-length server and `--forgiveness nan` be blamed on the policy.
// One walk after registration adds the check to every FLOAT option, so no command can forget it.
// Beside it, the sign checks with plain messages.
#include "number_checks.h"

#include <cmath>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

namespace tickwire::cli {
namespace {

// A check on the number `text` holds (texts that are not numbers are left to the conversion). The
// sign rules let NaN through to the finite check, so it is named for what it is.
template <class Rule>
CLI::Validator number_check(const char* name, Rule rule, const char* what) {
  return CLI::Validator(
      [rule, what](std::string& text) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (end == text.c_str() || rule(value)) return {};
        return fmt::format("'{}' is {}", text, what);
      },
      "", name);
}

CLI::Validator finite_number() {
  return number_check("finite", [](double v) { return std::isfinite(v); }, "not a finite number");
}

}  // namespace

CLI::Validator positive_number() {
  return number_check("positive", [](double v) { return !(v <= 0); }, "not above 0");
}

CLI::Validator non_negative_number() {
  return number_check("non-negative", [](double v) { return !(v < 0); }, "below 0");
}

void require_finite_numbers(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    if (option->get_type_name().rfind("FLOAT", 0) == 0) option->check(finite_number());
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) require_finite_numbers(*sub);
}

}  // namespace tickwire::cli
