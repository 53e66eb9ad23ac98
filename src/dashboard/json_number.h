// The dashboard lines' number rule, shared by every view that writes a line with fmt: a number at
// the precision its view needs, or null when it is not finite (JSON has no NaN or infinity); and a
// number member after another (,"name":value).
#pragma once

#include <cmath>
#include <iterator>
#include <string_view>

#include <fmt/format.h>

namespace tickwire::dashboard {

using Out = fmt::memory_buffer;

inline void num(Out& out, double v, int decimals) {
  if (!std::isfinite(v)) {
    fmt::format_to(std::back_inserter(out), "null");
  } else {
    fmt::format_to(std::back_inserter(out), "{:.{}f}", v, decimals);
  }
}

inline void field(Out& out, std::string_view name, double v, int decimals) {
  fmt::format_to(std::back_inserter(out), ",\"{}\":", name);
  num(out, v, decimals);
}

}  // namespace tickwire::dashboard
