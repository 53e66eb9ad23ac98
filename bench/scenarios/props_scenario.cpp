// Scenario (e): the crate yard stepped tick by tick by the reference game, 16 wandering pawns.
#include "props_scenario.h"

#include <variant>

#include "tickwire/core/assert.h"
#include "tickwire/protocol/netcode_contract.h"
#include "tickwire/replication/tick_records.h"
#include "tickwire/world/crate_yard_map.h"
#include "tickwire/world/map_loader.h"
#include "tickwire/world/reference_contract.h"
#include "tickwire/world/reference_vocabulary.h"

namespace tickwire::bench {
namespace {

NetcodeContract props_contract() { return world::reference_contract("props", PropsScenario::kHz, "bench"); }

bool is_object(const protocol::Record& record) { return std::holds_alternative<protocol::ObjectRecord>(record.body); }

}  // namespace

PropsScenario::PropsScenario(uint64_t seed, uint32_t ticks) : ticks_(ticks) {
  auto loaded = world::load_map(world::crate_yard_map_text());
  TW_ASSERT(loaded.ok(), "the crate yard loads");
  map_ = std::make_unique<world::Map>(std::move(loaded).value());
  game_ = std::make_unique<world::ReferenceGame>(*map_);
  game_->begin(props_contract());
  for (uint32_t i = 0; i < world::kCrateYardSpawns; ++i) {
    const EntityRef pawn = EntityRef::make(EntityNetHandle::make(static_cast<uint8_t>(i + 1), 1), 1);
    game_->spawn_pawn(pawn, static_cast<OwnerId>(i + 1), Tick::from_value(0));
    pawns_.push_back(pawn);
    brains_.emplace_back(world::BotBehaviour::wander, seed * 7919 + i);
  }
}

PropsScenario::~PropsScenario() = default;

const GameVocabulary& PropsScenario::vocabulary() const { return world::reference_vocabulary(); }

void PropsScenario::rest_records(std::vector<protocol::Record>& out) const { game_->write_rest_records(out); }

void PropsScenario::truth_at(uint32_t tick, TruthFrame& out) {
  const double dt_s = 1.0 / kHz;
  for (std::size_t i = 0; i < pawns_.size(); ++i) {
    TickInput input;
    input.cmd = brains_[i].next(tick);
    input.sequence = tick;
    input.has_sequence = true;
    input.source = TickInputSource::fresh;
    game_->step_pawn(pawns_[i], input, Tick::from_value(tick), dt_s);
  }
  game_->step_world(Tick::from_value(tick), dt_s);
  TickRecords records;
  game_->write_records(Tick::from_value(tick), records);
  for (const protocol::Record& record : records.records)
    if (is_object(record)) out.records.push_back(record);
}

void PropsScenario::observe(const TruthFrame& truth, const ReplicaFrame& frame, std::vector<ExtraFigure>& extras) {
  (void)truth, (void)frame;
  if (extras.empty()) extras = {{"props awake (solver moving them)"}, {"pushes per tick"}};
  extras[0].sum += static_cast<double>(game_->props().awake());
  extras[0].samples++;
  extras[1].sum += static_cast<double>(game_->props().counts().pushes - pushes_seen_);
  extras[1].samples++;
  pushes_seen_ = game_->props().counts().pushes;
}

uint64_t PropsScenario::pushes() const { return game_->props().counts().pushes; }

std::size_t PropsScenario::awake() const { return game_->props().awake(); }

}  // namespace tickwire::bench
