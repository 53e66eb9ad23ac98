// The 16-byte name of a schema text (BLAKE2b with a 16-byte output, via libsodium).
#pragma once

#include <string_view>

#include "tickwire/wire/types.h"

namespace tickwire::wire {

Hash16 hash_schema_text(std::string_view text);

}  // namespace tickwire::wire
