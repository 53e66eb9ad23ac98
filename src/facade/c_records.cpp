// Checking and converting a C simulation's records into the tick's TickRecords (or the rest
// table's list): each refusal named, counted and left on the server's error text.
#include "c_records.h"

#include <cmath>
#include <string>

#include "c_values.h"
#include "tickwire/protocol/constants.h"

namespace tickwire::capi {
namespace {

bool finite(const tw_vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

// A whole section's dirty set (ComponentSection's sparse bits): its channels, the count, the bits.
uint8_t whole_section_dirty(uint8_t channel_count) {
  uint8_t dirty = (1u << 4) | (1u << 5);
  for (uint8_t ch = 0; ch < channel_count; ++ch) dirty = static_cast<uint8_t>(dirty | (1u << ch));
  return dirty;
}

}  // namespace

void RecordSink::begin_tick(TickRecords& out) {
  tick_ = &out;
  rest_ = nullptr;
  ids_.clear();
}

void RecordSink::begin_rest(std::vector<protocol::Record>& out) {
  tick_ = nullptr;
  rest_ = &out;
  ids_.clear();
}

tw_result RecordSink::refuse(RecordRefusal reason) {
  refusals_.add(reason);
  return fail(error_, TW_ERR_INVALID_ARGUMENT, "record refused: " + std::string(reason_name(reason)));
}

RecordRefusal RecordSink::admit_id(uint32_t id) {
  const std::size_t written = tick_ != nullptr ? tick_->records.size() : rest_->size();
  if (written >= protocol::MaxRecordsPerSnapshot) return RecordRefusal::tick_full;
  if (!ids_.insert(id).second) return RecordRefusal::id_repeated;
  return RecordRefusal::count_;
}

void RecordSink::push(protocol::Record record, const tw_record_interest* interest) {
  if (rest_ != nullptr) {
    rest_->push_back(std::move(record));
  } else if (interest == nullptr) {
    tick_->add(std::move(record));
  } else {
    tick_->add(std::move(record), RecordInterest{interest->private_to, interest->always_relevant, interest->important,
                                                 interest->parent_id, interest->scene_frame});
  }
}

tw_result RecordSink::add_entity(const tw_entity_record* r, const tw_record_interest* interest) {
  if (r == nullptr) return refuse(RecordRefusal::null_record);
  if (rest_ != nullptr) return refuse(RecordRefusal::entity_in_rest_table);
  if (vocabulary_.find_kind(r->kind) == nullptr) return refuse(RecordRefusal::kind_unregistered);
  if ((r->flags & ~vocabulary_.entity_flag_mask()) != 0) return refuse(RecordRefusal::flags_unregistered);
  const bool rotation_finite = !r->has_rotation || (std::isfinite(r->rotation[0]) && std::isfinite(r->rotation[1]) &&
                                                    std::isfinite(r->rotation[2]) && std::isfinite(r->rotation[3]));
  if (!finite(r->position_m) || !rotation_finite) return refuse(RecordRefusal::position_not_finite);
  if (r->channel_count > TW_MAX_KIND_CHANNELS) return refuse(RecordRefusal::channels_out_of_range);
  if (const RecordRefusal id = admit_id(r->id); id != RecordRefusal::count_) return refuse(id);
  protocol::EntityRecord e;
  e.kind = r->kind;
  e.position = to_engine(r->position_m);
  e.yaw_deg = r->yaw_deg;
  e.pitch_deg = r->pitch_deg;
  e.flags = r->flags;
  if (r->has_rotation) e.rotation = protocol::Rotation{wire::Quat{r->rotation[0], r->rotation[1], r->rotation[2], r->rotation[3]}};
  for (uint8_t i = 0; i < r->channel_count; ++i) e.payload.channels.push_back(protocol::KindChannel{r->channels[i]});
  e.payload.bits = r->bits;
  push(protocol::Record{r->id, std::move(e)}, interest);
  return TW_OK;
}

tw_result RecordSink::add_object(const tw_object_record* r) {
  if (r == nullptr) return refuse(RecordRefusal::null_record);
  if ((r->flags & ~vocabulary_.object_flag_mask()) != 0) return refuse(RecordRefusal::flags_unregistered);
  if (r->section_count > TW_MAX_COMPONENT_SECTIONS) return refuse(RecordRefusal::sections_out_of_range);
  for (uint8_t k = 0; k < r->section_count; ++k) {
    if (vocabulary_.find_component(r->sections[k].wire_id) == nullptr) return refuse(RecordRefusal::component_unregistered);
    if (r->sections[k].channel_count > TW_MAX_KIND_CHANNELS) return refuse(RecordRefusal::channels_out_of_range);
  }
  if (const RecordRefusal id = admit_id(r->id); id != RecordRefusal::count_) return refuse(id);
  protocol::ObjectRecord o;
  o.object_index = r->object_index;
  o.flags = r->flags;
  for (uint8_t k = 0; k < r->section_count; ++k) {
    const tw_component_section& in = r->sections[k];
    protocol::ComponentSection& section = o.sections.emplace_back();
    section.wire_id = in.wire_id;
    section.dirty = whole_section_dirty(in.channel_count);
    for (uint8_t i = 0; i < in.channel_count; ++i) section.channel[i] = in.channels[i];
    section.channel_count = in.channel_count;
    section.bits = in.bits;
  }
  push(protocol::Record{r->id, std::move(o)}, nullptr);
  return TW_OK;
}

}  // namespace tickwire::capi

extern "C" {

tw_result tw_records_add_entity(tw_records* records, const tw_entity_record* record, const tw_record_interest* interest) {
  if (records == nullptr || records->sink == nullptr) return TW_ERR_INVALID_ARGUMENT;
  return records->sink->add_entity(record, interest);
}

tw_result tw_records_add_object(tw_records* records, const tw_object_record* record) {
  if (records == nullptr || records->sink == nullptr) return TW_ERR_INVALID_ARGUMENT;
  return records->sink->add_object(record);
}

}  // extern "C"
