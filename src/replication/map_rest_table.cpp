// MapRestTable: taking (sort, check, mint), and the retake check over a tick's collected ids.
#include "tickwire/replication/map_rest_table.h"

#include <algorithm>
#include <limits>

#include "tickwire/core/assert.h"

namespace tickwire {

uint32_t RestRevisions::mint() {
  TW_ASSERT(last_ != std::numeric_limits<uint32_t>::max(), "rest table revisions exhausted");
  return ++last_;
}

void MapRestTable::take(std::span<const protocol::Record> records, RestRevisions& revisions) {
  std::vector<protocol::Record> sorted(records.begin(), records.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const protocol::Record& a, const protocol::Record& b) { return a.entity_id < b.entity_id; });
  table_ = RestTable(revisions.mint(), std::move(sorted));  // asserts the records form a table
  seen_.assign(table_.size(), 0);
  ++takes_;
}

template <class Ids>
bool MapRestTable::missing_any(const Ids& id_at, std::size_t count) const {
  const auto records = table_.records();
  if (records.empty()) return false;
  std::fill(seen_.begin(), seen_.end(), uint8_t{0});
  std::size_t seen = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const uint32_t id = id_at(i);
    auto it = std::lower_bound(records.begin(), records.end(), id,
                               [](const protocol::Record& r, uint32_t v) { return r.entity_id < v; });
    if (it == records.end() || it->entity_id != id) continue;
    uint8_t& mark = seen_[static_cast<std::size_t>(it - records.begin())];
    seen += mark == 0 ? 1 : 0;
    mark = 1;
  }
  return seen != records.size();
}

bool MapRestTable::needs_retake(std::span<const uint32_t> collected_ids) const {
  return missing_any([&](std::size_t i) { return collected_ids[i]; }, collected_ids.size());
}

bool MapRestTable::needs_retake(std::span<const protocol::Record> collected) const {
  return missing_any([&](std::size_t i) { return collected[i].entity_id; }, collected.size());
}

}  // namespace tickwire
