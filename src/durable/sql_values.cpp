// Reading SqlDatabase's typed values, and the one mapping of a backend's error onto the store's
// refusals (the triggers name theirs in their messages; a taken primary key is a duplicate).
#include <utility>

#include "sql_database.h"

namespace tickwire::durable::detail {

StoreFailure classify_failure(std::string_view message, bool unique_violation) {
  std::string detail(message);
  if (message.find("tw_stale_fence") != std::string_view::npos) return {StoreRefusal::stale_fence, detail};
  if (message.find("tw_epoch_downgrade") != std::string_view::npos) return {StoreRefusal::epoch_downgrade, detail};
  if (message.find("tw_wrong_epoch") != std::string_view::npos) return {StoreRefusal::wrong_epoch, detail};
  if (unique_violation) return {StoreRefusal::duplicate, detail};
  return {StoreRefusal::unavailable, detail};
}

int64_t sql_int(const SqlValue& v) {
  const auto* n = std::get_if<int64_t>(&v);
  return n != nullptr ? *n : 0;
}

std::vector<uint8_t> sql_bytes(SqlValue&& v) {
  if (auto* b = std::get_if<std::vector<uint8_t>>(&v)) return std::move(*b);
  if (const auto* s = std::get_if<std::string>(&v)) return std::vector<uint8_t>(s->begin(), s->end());
  return {};
}

std::string sql_text(const SqlValue& v) {
  const auto* s = std::get_if<std::string>(&v);
  return s != nullptr ? *s : std::string();
}

}  // namespace tickwire::durable::detail
