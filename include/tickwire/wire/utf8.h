// UTF-8 validation for strings read off the wire (no overlongs, no surrogates, <= U+10FFFF).
#pragma once

#include <string_view>

namespace tickwire::wire {

bool is_valid_utf8(std::string_view text);

}  // namespace tickwire::wire
