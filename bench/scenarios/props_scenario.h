// Scenario (e), the props: the reference game's own server running the crate yard (200 physics
// props the server's solver moves) with 16 pawns wandering among them and shoving crates by the
// one push rule, 60 Hz. The frame the harness codes is the props' object records alone (what a
// prop costs: the pawns are the lights scenario's business), each carrying its pose once the
// solver moved it; a crate the solver put to sleep stands still and costs the skip run.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "bandwidth_scenario.h"
#include "tickwire/world/bot_brain.h"
#include "tickwire/world/map.h"
#include "tickwire/world/reference_game.h"

namespace tickwire::bench {

class PropsScenario final : public BandwidthScenario {
 public:
  static constexpr uint32_t kHz = 60;
  static constexpr uint32_t kDefaultTicks = 30 * kHz;

  PropsScenario(uint64_t seed, uint32_t ticks = kDefaultTicks);
  ~PropsScenario() override;

  std::string name() const override { return "props"; }
  uint32_t tick_hz() const override { return kHz; }
  uint32_t ticks() const override { return ticks_; }
  const GameVocabulary& vocabulary() const override;
  void rest_records(std::vector<protocol::Record>& out) const override;
  void truth_at(uint32_t tick, TruthFrame& out) override;
  void observe(const TruthFrame& truth, const ReplicaFrame& frame, std::vector<ExtraFigure>& extras) override;

  // The solver's pushes so far and the props awake now (for the report and tests).
  uint64_t pushes() const;
  std::size_t awake() const;

 private:
  uint32_t ticks_;
  std::unique_ptr<world::Map> map_;
  std::unique_ptr<world::ReferenceGame> game_;
  std::vector<EntityRef> pawns_;
  std::vector<world::BotBrain> brains_;
  uint64_t pushes_seen_ = 0;  // by the last observe
};

}  // namespace tickwire::bench
