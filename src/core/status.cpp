// Names for decode errors, as they appear in logs, counters and test output.
#include "tickwire/core/status.h"

namespace tickwire {

std::string_view error_name(Error error) noexcept {
  switch (error) {
    case Error::ok: return "ok";
    case Error::truncated: return "truncated";
    case Error::trailing_bytes: return "trailing_bytes";
    case Error::count_over_max: return "count_over_max";
    case Error::count_under_min: return "count_under_min";
    case Error::count_mismatch: return "count_mismatch";
    case Error::length_past_end: return "length_past_end";
    case Error::string_over_cap: return "string_over_cap";
    case Error::invalid_utf8: return "invalid_utf8";
    case Error::unknown_union_tag: return "unknown_union_tag";
    case Error::unknown_enum_value: return "unknown_enum_value";
    case Error::unknown_flag_bits: return "unknown_flag_bits";
    case Error::invalid_presence: return "invalid_presence";
    case Error::value_out_of_range: return "value_out_of_range";
    case Error::nesting_too_deep: return "nesting_too_deep";
    case Error::unknown_message: return "unknown_message";
    case Error::schema_malformed: return "schema_malformed";
    case Error::schema_too_large: return "schema_too_large";
    case Error::schema_unknown_type: return "schema_unknown_type";
    case Error::buffer_full: return "buffer_full";
    case Error::invalid_token: return "invalid_token";
    case Error::schema_duplicate_name: return "schema_duplicate_name";
    case Error::schema_bad_reference: return "schema_bad_reference";
    case Error::schema_bad_number: return "schema_bad_number";
    case Error::schema_over_limit: return "schema_over_limit";
    case Error::schema_recursive: return "schema_recursive";
    case Error::walk_budget_exceeded: return "walk_budget_exceeded";
    case Error::count_: break;
  }
  return "unknown_error";
}

}  // namespace tickwire
