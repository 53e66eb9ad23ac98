// A room's snapshot production: the tick's frame once, then each client's messages.
#include "tickwire/replication/replication_server.h"

#include <algorithm>
#include <cmath>

#include <spdlog/spdlog.h>

#include "tickwire/core/assert.h"
#include "tickwire/replication/frames/record_quantizer.h"
#include "tickwire/wire/codec.h"

namespace tickwire {

namespace {

// Where in the diagnostics interval an owner's first window closes: the golden ratio's multiples
// modulo 1 spread any run of owner ids evenly, so clients that joined together log apart.
double diagnostics_phase(OwnerId owner) {
  constexpr double kGoldenFraction = 0.6180339887498949;
  const double step = static_cast<double>(owner) * kGoldenFraction;
  return 1.0 - (step - std::floor(step));  // in (0, 1]
}

}  // namespace

struct ReplicationServer::Client {
  Client(OwnerId owner_id, uint32_t pawn_id, const ReplicationFormat& f, const ClientReplicationConfig& config)
      : owner(owner_id), pawn_record_id(pawn_id), format(f), replication(config) {
    replication.budget_log.stagger(diagnostics_phase(owner_id));
  }
  OwnerId owner;
  uint32_t pawn_record_id;  // 0: a spectator
  ReplicationFormat format;
  uint32_t rest_sent = 0;   // the rest table revision it is being (or was) sent
  std::size_t rest_next = 0;  // that revision's first chunk the channel has not taken yet
  uint32_t rest_held = 0;   // the revision it reports holding whole
  uint32_t last_unreferenced_tick = 0;  // the last fragmented snapshot coded against nothing
  uint32_t pawn_index = kNoEntity;      // its pawn's interest index this tick (kNoEntity: not filed)
  uint32_t budget_cap = 0;
  float centre_x_m = 0, centre_z_m = 0;
  std::optional<protocol::OwnerDetail> owner_detail;  // this build's
  ClientReplicationState replication;
  ReplicationClientStats stats;
  // The last build, so unsent() can take it back.
  std::size_t last_bytes = 0;
  std::size_t last_fragments = 0;
  uint8_t last_baseline_age = 0;
  bool last_was_delta = false;
};

namespace {

ClientSnapshotBuilderConfig builder_config(const NetcodeContract& contract, ClientSnapshotBuilderConfig config) {
  config.priority.lanes = LaneSchedule{static_cast<float>(contract.interest.pose_radius_m), contract.ticks_per_snapshot};
  return config;
}

ClientReplicationConfig client_config(const ReplicationServerConfig& config) {
  ClientReplicationConfig c = config.client;
  c.max_entities = config.interest.max_entities;
  c.fragments = config.fragments;
  return c;
}

}  // namespace

void ReplicationServer::set_world_settings(const protocol::WorldSettings& settings) {
  TW_ASSERT(protocol::valid_world_settings(settings), "a room runs world settings within their ranges");
  world_ = settings;
}

ReplicationServer::ReplicationServer(const NetcodeContract& contract, const ReplicationServerConfig& config)
    : contract_(contract),
      contract_hash_(tickwire::contract_hash(contract)),
      kinds_(ReplicaKinds::from(contract.vocabulary)),
      config_(config),
      limits_(contract_limits(contract)),
      clients_(kReplicationMaxClients + 1),
      interest_(config.interest),
      builder_(interest_.world(), kinds_, builder_config(contract, config.builder)),
      composer_(config.interest.max_entities),
      full_set_(std::min<uint32_t>(config.builder.max_visible, InterestSet::kMaxEntities)),
      full_marks_(config.interest.max_entities),
      slicer_(config.fragments),
      world_(initial_world_settings(contract)),
      rest_(kinds_) {
  TW_ASSERT(validate_netcode_contract(contract).ok(), "a replication service runs a validated contract");
  world_states_.reserve(protocol::MaxRecordsPerSnapshot);
  world_frame_.states.reserve(protocol::MaxRecordsPerSnapshot);
  world_entities_.reserve(protocol::MaxRecordsPerSnapshot);
  pawns_.reserve(kReplicationMaxClients);
  full_.records.reserve(protocol::MaxRecordsPerSnapshot);
  body_.reserve(protocol::MaxSnapshotBytes);
  encoded_.resize(1 + protocol::MaxSnapshotBytes);
  reliable_.reserve(protocol::MaxRestTableChunks);
  unreliable_.reserve(protocol::MaxSnapshotFragments);
}

ReplicationServer::~ReplicationServer() = default;

void ReplicationServer::add_client(OwnerId owner, uint32_t pawn_record_id, const ReplicationFormat& format) {
  TW_ASSERT(owner != 0 && owner <= kReplicationMaxClients, "a client's owner is a client owner id");
  TW_ASSERT(clients_[owner] == nullptr, "a client joins once");
  clients_[owner] = std::make_unique<Client>(owner, pawn_record_id, format, client_config(config_));
}

void ReplicationServer::remove_client(OwnerId owner) { clients_[owner].reset(); }

void ReplicationServer::on_held(OwnerId owner, const protocol::SnapshotsHeld& held) {
  Client* c = clients_[owner].get();
  if (c == nullptr) return;
  (void)c->replication.history.on_held(held);
  c->rest_held = held.rest_revision;
}

void ReplicationServer::reliable_taken(OwnerId owner, std::size_t count) {
  Client& c = *clients_[owner];
  TW_ASSERT(c.rest_next + count <= rest_messages_.size(), "reliable_taken() counts the last build()'s messages");
  c.rest_next += count;
}

void ReplicationServer::set_budget_cap(OwnerId owner, uint32_t bytes) {
  if (Client* c = clients_[owner].get()) c->budget_cap = bytes;
}

void ReplicationServer::set_limits(const ReplicationLimits& limits) {
  limits_ = within_contract(limits, contract_);
  builder_.set_lanes(LaneSchedule{limits_.pose_radius_m, limits_.world_lane_ticks});
}

void ReplicationServer::set_view_centre(OwnerId owner, float x_m, float z_m) {
  if (Client* c = clients_[owner].get()) {
    c->centre_x_m = x_m;
    c->centre_z_m = z_m;
  }
}

bool ReplicationServer::world_tick(Tick tick) const { return builder_.config().priority.lanes.is_snapshot_tick(tick); }

const ReplicationClientStats* ReplicationServer::stats(OwnerId owner) const {
  return has_client(owner) ? &clients_[owner]->stats : nullptr;
}

void ReplicationServer::inspect_records(OwnerId owner, bool on) {
  if (!has_client(owner)) return;
  std::unique_ptr<RecordBitsLog>& log = clients_[owner]->replication.record_bits;
  if (!on) {
    log.reset();
  } else if (log == nullptr) {
    log = std::make_unique<RecordBitsLog>();
  }
}

const ClientReplicationState* ReplicationServer::replication(OwnerId owner) const {
  return has_client(owner) ? &clients_[owner]->replication : nullptr;
}

void ReplicationServer::begin_tick(Tick tick, const TickRecords& records, const RestRecordSource& rest) {
  tick_ = tick;
  records_ = &records;
  delta_tick_begun_ = false;
  world_frame_.world = world_;
  refresh_rest_table(rest);
}

// Retakes the rest table when the game installed its map objects anew, or when an entity the
// table names is no longer collected (so a despawned object never lingers as a ghost).
void ReplicationServer::refresh_rest_table(const RestRecordSource& rest) {
  const bool reinstalled = rest.map_generation() != rest_generation_;
  if (!reinstalled && !(rest_.taken() && rest_.needs_retake(std::span<const protocol::Record>(records_->records)))) {
    return;
  }
  rest_generation_ = rest.map_generation();
  rest_records_.clear();
  rest.write_rest_records(rest_records_);
  if (rest_records_.empty() && !rest_.taken()) return;
  rest_.take(rest_records_, revisions_);
  rest_map_identity_ = rest.map_identity();
  encode_rest_chunks();
}

void ReplicationServer::encode_rest_chunks() {
  protocol::RestTableChunk chunk;
  rest_messages_.resize(rest_.chunk_count());
  for (std::size_t i = 0; i < rest_.chunk_count(); ++i) {
    rest_.write_chunk(i, chunk);
    chunk.map_identity = rest_map_identity_;
    std::vector<uint8_t>& message = rest_messages_[i];
    message.resize(1 + wire::measure(chunk));
    const auto written = wire::encode_message(chunk, message);
    TW_ASSERT(written.ok() && *written == message.size(), "a measured chunk encodes to its size");
  }
}

// The tick's frame, quantized once; the entity records filed by position with the game's notes and
// every client's pawn marked, so each client's frame (or full cut) comes from one world.
void ReplicationServer::prepare_tick() {
  TW_ASSERT(records_ != nullptr, "prepare_tick() follows begin_tick()");
  if (delta_tick_begun_) return;
  delta_tick_begun_ = true;
  quantize_records(records_->records, kinds_, world_states_);
  world_frame_.tick = tick_.wire_u32();
  pawns_.clear();
  for (const auto& c : clients_) {
    if (c && c->pawn_record_id != 0) pawns_.push_back(PawnMark{c->pawn_record_id, c->owner});
  }
  interest_.update(world_states_, kinds_, records_->notes, pawns_, world_frame_, world_entities_);
  for (const auto& c : clients_) {
    if (c) c->pawn_index = c->pawn_record_id != 0 ? interest_.index_of(c->pawn_record_id) : kNoEntity;
  }
  builder_.begin_tick(WorldTickFrame{tick_, &world_frame_, world_entities_, &interest_.world()});
}

// The next delta client's reference frames start loading while this one is served.
void ReplicationServer::prefetch_after(OwnerId owner) const {
  for (std::size_t next = std::size_t{owner} + 1; next < clients_.size(); ++next) {
    if (clients_[next] && clients_[next]->format.deltas) {
      builder_.prefetch(clients_[next]->replication);
      return;
    }
  }
}

ClientView ReplicationServer::view_of(const Client& c) const {
  ClientView view;
  view.client = c.owner;
  view.pawn = c.pawn_index;
  view.x_m = c.owner_detail ? c.owner_detail->pawn.position.x : c.centre_x_m;
  view.z_m = c.owner_detail ? c.owner_detail->pawn.position.z : c.centre_z_m;
  view.radius_m = limits_.interest_radius_m;
  view.budget_bytes = c.budget_cap != 0 ? std::min(limits_.snapshot_budget_bytes, c.budget_cap) : limits_.snapshot_budget_bytes;
  view.owner = c.owner_detail;
  return view;
}

ClientMessages ReplicationServer::build(OwnerId owner, const std::optional<protocol::OwnerDetail>& owner_detail,
                                        MonoTime now) {
  TW_ASSERT(records_ != nullptr, "build() follows begin_tick()");
  Client& c = *clients_[owner];
  reliable_.clear();
  unreliable_.clear();
  last_snapshot_bytes_ = 0;
  c.owner_detail = owner_detail;
  if (c.format.deltas && c.format.rest_table && rest_.taken()) {
    if (c.rest_sent != rest_.revision()) {  // a retake starts the stream over
      c.rest_sent = rest_.revision();
      c.rest_next = 0;
    }
    for (std::size_t i = c.rest_next; i < rest_messages_.size(); ++i) reliable_.emplace_back(rest_messages_[i]);
  }
  prepare_tick();
  std::size_t bytes = 0;
  bool built = false;
  if (c.format.deltas) {
    prefetch_after(owner);
    built = build_delta(c, now, bytes);
  } else if (!world_tick(tick_)) {
    c.stats.holds.add(SnapshotHold::not_world_tick);
  } else {
    built = build_full(c, bytes);
  }
  if (!built) return ClientMessages{reliable_, {}, false};
  return finish(c, bytes);
}

// The client's frame (interest, budget, lanes) coded against the newest frame it holds, else the
// rest table it holds; the frame is kept as a reference for later ticks only once the client
// reports holding it.
bool ReplicationServer::build_delta(Client& c, MonoTime now, std::size_t& bytes) {
  ClientView view = view_of(c);
  if (rest_.taken() && c.format.rest_table) {
    if (c.rest_held == rest_.revision()) {
      view.fallback = &rest_.frame();  // coded against only when the client holds no snapshot
    } else if (c.replication.history.references(tick_, builder_.config().max_baseline_age_ticks).baseline == nullptr) {
      // Nothing to code against but the rest table: wait until the client holds it (one round trip
      // after the welcome or a retake) rather than send the whole map every tick, which on a narrow
      // link never completes a fragment set, so the client never holds anything to code against.
      c.stats.holds.add(SnapshotHold::awaiting_rest_table);
      builder_.expire(c.replication);  // nothing composed: what it was sent before still ages out
      return false;
    }
  }
  const uint64_t lines_before = c.replication.budget_log.diagnostics_lines();
  auto built = builder_.build(view, now, c.replication, body_);
  if (!built.ok()) {
    c.stats.holds.add(SnapshotHold::over_ceiling);
    return false;
  }
  if (c.replication.budget_log.diagnostics_lines() != lines_before) {
    // The budget log wrote its periodic line for this client: the window's detail follows it.
    spdlog::info("{}", format_snapshot_diagnostics(c.owner, tick_, c.replication.window));
    c.replication.window.reset();
  }
  const ClientSnapshot& snapshot = *built;
  c.stats.records_deferred += snapshot.diagnostics->skipped;
  const uint32_t wire_tick = tick_.wire_u32();
  delta_.tick = wire_tick;
  delta_.contract_tag = contract_hash_.tag();
  delta_.rest_revision = snapshot.on_fallback ? rest_.revision() : 0;
  delta_.baseline_age = snapshot.baseline_age;
  delta_.predict_age = snapshot.predict_age;
  delta_.body.resize(body_.size());
  for (std::size_t i = 0; i < body_.size(); ++i) delta_.body[i].value = body_[i];
  const auto written = wire::encode_message(delta_, std::span<uint8_t>(encoded_));
  if (!written.ok()) {
    c.stats.holds.add(SnapshotHold::over_ceiling);
    c.replication.history.discard_last();
    return false;
  }
  const bool unreferenced = snapshot.baseline_age == 0 && !snapshot.on_fallback;
  if (unreferenced && *written > slicer_.budget().whole_max_bytes()) {
    // A whole state past one message and nothing held to code against: on a narrow link such a
    // set may never complete while the next one crowds it, so send one per unreferenced_every_ticks.
    if (c.last_unreferenced_tick != 0 && wire_tick - c.last_unreferenced_tick < config_.unreferenced_every_ticks) {
      c.stats.holds.add(SnapshotHold::unreferenced_recently);
      c.replication.history.discard_last();
      return false;
    }
    c.last_unreferenced_tick = wire_tick;
  }
  c.last_was_delta = true;
  c.last_baseline_age = delta_.baseline_age;
  bytes = *written;
  return true;
}

// A full snapshot, for a client whose build does not take deltas: the entity records the interest
// composer gives it (radius, always-relevant, its pawn, minus others' private ones) and every map
// object.
bool ReplicationServer::build_full(Client& c, std::size_t& bytes) {
  const ClientView view = view_of(c);
  composer_.compose(interest_.world(), InterestViewer{view.client, view.x_m, view.z_m, view.radius_m, view.pawn},
                    full_set_);
  full_marks_.clear();
  for (uint32_t entity : full_set_.entities()) full_marks_.insert(entity);
  full_.tick = tick_.wire_u32();
  full_.contract_hash.bytes = contract_hash_.bytes();
  full_.owner = c.owner_detail;
  full_.world = world_frame_.world;
  full_.records.clear();
  for (const protocol::Record& record : records_->records) {
    if (std::holds_alternative<protocol::EntityRecord>(record.body)) {
      const uint32_t index = interest_.index_of(record.entity_id);
      if (index == kNoEntity || !full_marks_.test(index)) continue;
    }
    full_.records.push_back(record);
  }
  full_.record_count = static_cast<uint16_t>(full_.records.size());
  const auto written = wire::encode_message(full_, std::span<uint8_t>(encoded_));
  if (!written.ok()) {
    c.stats.holds.add(SnapshotHold::over_ceiling);
    return false;
  }
  c.last_was_delta = false;
  c.last_baseline_age = 0;
  bytes = *written;
  return true;
}

// The encoded message (encoded_[0, bytes)) whole, or sliced into fragments keyed by tick, within the
// contract's fragment ceiling.
ClientMessages ReplicationServer::finish(Client& c, std::size_t bytes) {
  const std::span<const uint8_t> whole(encoded_.data(), bytes);
  last_snapshot_bytes_ = bytes;
  const SliceResult sliced = slicer_.slice(tick_, whole);
  if (sliced.outcome == SliceOutcome::over_ceiling || sliced.fragment_count > contract_.budgets.max_snapshot_fragments) {
    c.stats.holds.add(SnapshotHold::over_ceiling);
    if (c.last_was_delta) c.replication.history.discard_last();
    return ClientMessages{reliable_, {}, false};
  }
  if (sliced.outcome == SliceOutcome::whole) {
    unreliable_.push_back(whole);
  } else {
    for (std::size_t i = 0; i < sliced.fragment_count; ++i) unreliable_.push_back(slicer_.fragment(i));
  }
  ReplicationClientStats& s = c.stats;
  c.last_bytes = bytes;
  c.last_fragments = sliced.fragment_count;
  if (s.snapshots_sent == 0) s.first_snapshot_tick = tick_;
  s.last_snapshot_tick = tick_;
  ++s.snapshots_sent;
  s.fragments_sent += sliced.fragment_count;
  if (sliced.fragment_count > 0) ++s.fragment_sets_sent;
  s.snapshot_bytes += bytes;
  if (c.last_baseline_age != 0) {
    ++s.delta_snapshots;
    s.baseline_age_ticks += c.last_baseline_age;
  }
  ++snapshots_built_;
  return ClientMessages{reliable_, unreliable_, true};
}

void ReplicationServer::unsent(OwnerId owner) {
  Client* c = clients_[owner].get();
  if (c == nullptr) return;
  if (c->last_was_delta) c->replication.history.discard_last();
  ReplicationClientStats& s = c->stats;
  ++s.unsent;
  --s.snapshots_sent;
  s.fragments_sent -= c->last_fragments;
  if (c->last_fragments > 0) --s.fragment_sets_sent;
  s.snapshot_bytes -= c->last_bytes;
  if (c->last_baseline_age != 0) {
    --s.delta_snapshots;
    s.baseline_age_ticks -= c->last_baseline_age;
  }
  --snapshots_built_;
}

}  // namespace tickwire
