// The CLI's number checks with plain messages ("--seconds: '-1' is below 0"). CLI11's own
// PositiveNumber and NonNegativeNumber print the largest double as their upper bound, and its
// range checks pass NaN, so every command uses these and require_finite_numbers.
#pragma once

#include <CLI/CLI.hpp>

namespace tickwire::cli {

// A number above 0.
CLI::Validator positive_number();
// A number of 0 or more.
CLI::Validator non_negative_number();
// Adds a finite-number check to every floating-point option of `app` and its subcommands (once,
// after every command has registered its options).
void require_finite_numbers(CLI::App& app);

}  // namespace tickwire::cli
