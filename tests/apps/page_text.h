// What the tests of the demo's pages (its SVG plots, its HTML report) count in the text they get:
// how often a needle occurs, non-overlapping.
#pragma once

#include <cstddef>
#include <string>

namespace tickwire::test {

inline std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++n;
  return n;
}

}  // namespace tickwire::test
