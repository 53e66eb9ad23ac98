// SchemaCache: the schema texts this process has learned, by hash, each with the plan that reads
// that build's bytes as ours. Shared by every session of a process, so a build's text crosses the
// wire once per hash however many peers run it. Capped: the least recently used entry goes first,
// while sessions already using it keep their plan alive.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tickwire/core/status.h"
#include "tickwire/wire/types.h"
#include "tickwire/wire/wire_plan.h"

namespace tickwire {

inline constexpr std::size_t kSchemaCacheMaxEntries = 16;

// One learned build: its text and the plan from it to ours.
struct PeerBuild {
  wire::Hash16 hash;
  std::string text;
  wire::WirePlan plan;
};

class SchemaCache {
 public:
  // `our_text` is this build's canonical schema text (protocol_messages().schema_text(); plans
  // then keep that registry's shape defaults for the fields only this build has).
  explicit SchemaCache(std::string our_text, std::size_t max_entries = kSchemaCacheMaxEntries);

  const wire::Hash16& our_hash() const { return our_hash_; }
  const std::string& our_text() const { return our_text_; }

  // The learned build with this hash (refreshing its place in the LRU order), or null.
  std::shared_ptr<PeerBuild> find(const wire::Hash16& hash);
  // Learns a peer's text: it must hash to `hash` (else schema_malformed) and pair with ours (the
  // plan's build error otherwise). Returns the entry; learning a known hash returns the entry held.
  Result<std::shared_ptr<PeerBuild>> learn(const wire::Hash16& hash, std::string_view text);

  // Schema requests in flight, so a text crosses the wire once per hash even when several sessions
  // meet a new build at once: the first to begin a request for a hash sends it, the others wait
  // for it to be learned (or for the request to end unanswered, then one of them asks again).
  bool begin_request(const wire::Hash16& hash);
  void end_request(const wire::Hash16& hash);
  bool request_in_flight(const wire::Hash16& hash) const;

  std::size_t size() const { return entries_.size(); }
  uint64_t texts_learned() const { return texts_learned_; }
  uint64_t evictions() const { return evictions_; }
  // Times this process sent its own text to a peer (every session's sends, summed).
  uint64_t texts_sent() const { return texts_sent_; }
  void count_text_sent() { ++texts_sent_; }

 private:
  std::string our_text_;
  wire::Hash16 our_hash_;
  wire::PlanOptions plan_options_;
  std::size_t max_entries_;
  std::list<std::shared_ptr<PeerBuild>> entries_;  // most recently used first
  std::vector<wire::Hash16> in_flight_;            // at most max_entries_ hashes
  uint64_t texts_learned_ = 0;
  uint64_t evictions_ = 0;
  uint64_t texts_sent_ = 0;
};

}  // namespace tickwire
