// render_inspection (dashboard/inspection_view.h): one object, sections as a bit table the page
// draws as a bar, records in body order.
#include "tickwire/dashboard/inspection_view.h"

#include <iterator>

#include <fmt/format.h>

#include "tickwire/protocol/canonical_json.h"

namespace tickwire::dashboard {

std::string render_inspection(const SnapshotInspection& s, const GameVocabulary& vocabulary) {
  fmt::memory_buffer out;
  auto it = std::back_inserter(out);
  fmt::format_to(it, "{{\"owner\":{},\"tick\":{},\"sent\":{},\"message_bytes\":{},\"fragments\":{},", s.owner, s.tick, s.sent,
                 s.message_bytes, s.fragments);
  fmt::format_to(it, "\"baseline_age_ticks\":{},\"predict_age_ticks\":{},\"budget_bytes\":{},\"estimated_bytes\":{},",
                 s.baseline_age_ticks, s.predict_age_ticks, s.budget_bytes, s.estimated_bytes);
  fmt::format_to(it, "\"composition\":{{\"visible\":{},\"candidates\":{},\"selected\":{},\"skipped\":{},\"held\":{},\"shared\":{}}},",
                 s.visible, s.candidates, s.selected, s.skipped, s.held, s.shared);
  fmt::format_to(it, "\"counts\":{{\"records_sent\":{},\"unchanged\":{},\"removed\":{}}},", s.records_sent, s.unchanged, s.removed);
  fmt::format_to(it, "\"sections\":{{\"header\":{},\"entities\":{},\"objects\":{},\"removals\":{},\"skips\":{}}},",
                 s.header_bits, s.entity_bits, s.object_bits, s.removal_bits, s.skip_bits);
  fmt::format_to(it, "\"records_past_cap\":{},\"records\":[", s.records_past_cap);
  for (std::size_t k = 0; k < s.records.size(); ++k) {
    const InspectedRecord& r = s.records[k];
    std::string kind = "object";
    if (!r.object) {
      const KindDef* def = vocabulary.find_kind(r.kind);
      kind = def != nullptr ? def->name : fmt::format("kind{}", r.kind);
    }
    fmt::format_to(it, "{}{{\"id\":{},\"kind\":{},\"object\":{},\"index\":{},\"coding\":{},\"bits\":{}}}", k == 0 ? "" : ",",
                   r.id, canonical_json_string(kind), r.object, r.object_index, canonical_json_string(r.coding), r.bits);
  }
  fmt::format_to(it, "]}}");
  return fmt::to_string(out);
}

}  // namespace tickwire::dashboard
