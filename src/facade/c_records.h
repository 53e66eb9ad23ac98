// The C API's record writer: what a C simulation's write_records (and write_rest_records) callback
// adds records through. Every record is checked before the engine sees it, because the engine
// asserts on what a C++ game could only get wrong by a bug (a repeated id, a non-finite position)
// and a C caller is refused by name instead: refused records are counted and the last one's reason
// is left on the server's error text.
#pragma once

#include <cstdint>
#include <unordered_set>
#include <vector>

#include "c_boundary.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/core/reasons.h"
#include "tickwire/protocol/record_batch.h"
#include "tickwire/protocol/vocabulary.h"
#include "tickwire/replication/tick_records.h"

namespace tickwire::capi {

TW_REASONS(RecordRefusal,
  null_record,          // a null record pointer
  tick_full,            // past TW_MAX_RECORDS_PER_TICK records this tick
  id_repeated,          // an id already written this tick
  kind_unregistered,    // an entity's kind the vocabulary does not name
  flags_unregistered,   // a flag bit the vocabulary does not name
  position_not_finite,  // a NaN or infinite position (or rotation)
  channels_out_of_range,  // more than TW_MAX_KIND_CHANNELS channels
  sections_out_of_range,  // more than TW_MAX_COMPONENT_SECTIONS sections
  component_unregistered,  // a section whose wire id the vocabulary does not name
  entity_in_rest_table     // the rest table holds map objects only
)

using RecordRefusals = ReasonCounters<RecordRefusal>;

// Where one callback's records go: the tick's records (entities and objects, with interest notes)
// or the rest table's (objects only). Reused tick after tick by its server.
class RecordSink {
 public:
  RecordSink(const GameVocabulary& vocabulary, RecordRefusals& refusals, ErrorText& error)
      : vocabulary_(vocabulary), refusals_(refusals), error_(error) {}

  void begin_tick(TickRecords& out);
  void begin_rest(std::vector<protocol::Record>& out);
  tw_result add_entity(const tw_entity_record* record, const tw_record_interest* interest);
  tw_result add_object(const tw_object_record* record);

 private:
  tw_result refuse(RecordRefusal reason);
  // The refusal shared by every record (count, id), or count_ when the id may be written.
  RecordRefusal admit_id(uint32_t id);
  void push(protocol::Record record, const tw_record_interest* interest);

  const GameVocabulary& vocabulary_;
  RecordRefusals& refusals_;
  ErrorText& error_;
  TickRecords* tick_ = nullptr;
  std::vector<protocol::Record>* rest_ = nullptr;
  std::unordered_set<uint32_t> ids_;
};

}  // namespace tickwire::capi

// The opaque handle a callback receives.
struct tw_records {
  tickwire::capi::RecordSink* sink = nullptr;
};
