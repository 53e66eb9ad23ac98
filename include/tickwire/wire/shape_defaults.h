// ShapeDefaults: what each of our shapes holds before a walk reads into it (its default-constructed
// values), which the schema text does not say. The describe walk records them beside the text; a
// plan reading another build hands them to the fields only we have, so such a field keeps what
// its shape set before the visit (a default of 1.0 stays 1.0), exactly as it does past a tail.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tickwire::wire {

// One scalar field's default. Zero values (0, false, "", zero bytes, no flags) are not recorded:
// the plan's zero is already theirs. An enum's default is always recorded.
struct FieldDefault {
  enum class Kind : uint8_t { unsigned_int, signed_int, real32, real64, boolean, text, bytes16, enumeration, flags };
  std::string field;
  Kind kind = Kind::unsigned_int;
  // unsigned/signed (two's complement) integers, f32 bits (real32), double bits (real64: f64 and
  // quant), 1 (boolean), the enum's value, the flag bits.
  uint64_t bits = 0;
  std::string bytes;  // text, bytes16
};

class ShapeDefaults {
 public:
  void add(std::string_view shape, FieldDefault value);
  // The defaults recorded for `shape` (empty when it has none, or is not ours).
  std::span<const FieldDefault> of(std::string_view shape) const;

 private:
  std::map<std::string, std::vector<FieldDefault>, std::less<>> shapes_;
};

}  // namespace tickwire::wire
