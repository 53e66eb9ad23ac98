// The learned-schema cache: verify, plan once, keep the most recently used builds.
#include "tickwire/protocol/schema_cache.h"

#include <algorithm>
#include <utility>

#include "tickwire/core/assert.h"
#include "tickwire/protocol/wire_messages.h"
#include "tickwire/wire/schema_hash.h"

namespace tickwire {

SchemaCache::SchemaCache(std::string our_text, std::size_t max_entries)
    : our_text_(std::move(our_text)), our_hash_(wire::hash_schema_text(our_text_)), max_entries_(max_entries) {
  TW_ASSERT(max_entries_ > 0, "a schema cache holds at least one build");
  // Our registry's shape defaults, so a field only we have keeps its default through a plan.
  const wire::WireMessages& ours = protocol::protocol_messages();
  if (our_hash_ == ours.schema_hash()) plan_options_.our_defaults = &ours.shape_defaults();
}

std::shared_ptr<PeerBuild> SchemaCache::find(const wire::Hash16& hash) {
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if ((*it)->hash == hash) {
      entries_.splice(entries_.begin(), entries_, it);
      return entries_.front();
    }
  }
  return nullptr;
}

Result<std::shared_ptr<PeerBuild>> SchemaCache::learn(const wire::Hash16& hash, std::string_view text) {
  if (auto known = find(hash)) return known;
  if (!(wire::hash_schema_text(text) == hash)) return Error::schema_malformed;
  auto plan = wire::WirePlan::build(text, our_text_, plan_options_);
  if (!plan.ok()) return plan.error();
  auto build = std::make_shared<PeerBuild>(PeerBuild{hash, std::string(text), std::move(plan).value()});
  if (entries_.size() >= max_entries_) {
    entries_.pop_back();
    ++evictions_;
  }
  entries_.push_front(build);
  ++texts_learned_;
  end_request(hash);
  return build;
}

bool SchemaCache::begin_request(const wire::Hash16& hash) {
  if (request_in_flight(hash)) return false;
  if (in_flight_.size() >= max_entries_) in_flight_.erase(in_flight_.begin());  // the oldest gives way
  in_flight_.push_back(hash);
  return true;
}

void SchemaCache::end_request(const wire::Hash16& hash) {
  in_flight_.erase(std::remove(in_flight_.begin(), in_flight_.end(), hash), in_flight_.end());
}

bool SchemaCache::request_in_flight(const wire::Hash16& hash) const {
  return std::find(in_flight_.begin(), in_flight_.end(), hash) != in_flight_.end();
}

}  // namespace tickwire
