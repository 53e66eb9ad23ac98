// MapRestTable: taking (sort, check, mint), and the retake check over a tick's collected ids.
#include "tickwire/replication/rest_table/map_rest_table.h"

#include <algorithm>
#include <limits>

#include "tickwire/core/assert.h"

namespace tickwire {

uint32_t RestRevisions::mint() {
  TW_ASSERT(last_ != std::numeric_limits<uint32_t>::max(), "rest table revisions exhausted");
  return ++last_;
}

void MapRestTable::take(std::span<const protocol::Record> records, RestRevisions& revisions) {
  // Sorted through an index (records are copied once, in order, never moved about by the sort).
  std::vector<uint32_t> order(records.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return records[a].entity_id < records[b].entity_id; });
  std::vector<protocol::Record> sorted;
  sorted.reserve(records.size());
  for (uint32_t i : order) sorted.push_back(records[i]);
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
