// BLAKE2b-128 of the canonical schema text.
#include "tickwire/wire/schema_hash.h"

#include <sodium.h>

#include "tickwire/core/assert.h"

namespace tickwire::wire {

Hash16 hash_schema_text(std::string_view text) {
  Hash16 out;
  const int rc = crypto_generichash(out.bytes.data(), out.bytes.size(), reinterpret_cast<const unsigned char*>(text.data()),
                                    text.size(), nullptr, 0);
  TW_ASSERT(rc == 0, "BLAKE2b failed");
  return out;
}

}  // namespace tickwire::wire
