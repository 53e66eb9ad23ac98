// Scenario (a), the imported map: 1,583 map lights at rest, sent first as the rest table's frame,
// and the client's own pawn walking a square loop at 4 m/s, 60 Hz; plus seed 000's comparison
// points (full Snapshot, Snapshot thinned by the rest table, delta against the rest frame alone).
#pragma once

#include <cstdint>

#include "bandwidth_scenario.h"

namespace tickwire::bench {

class LightsScenario final : public BandwidthScenario {
 public:
  static constexpr uint32_t kLights = 1583;
  static constexpr uint32_t kDefaultTicks = 600;
  // Ids as the reference game writes them: a map object's id is its object index, a pawn's is its
  // EntityNetHandle (owner 1, index 1), above every object index.
  static constexpr uint32_t kPawnId = (1u << 24) | 1u;

  explicit LightsScenario(uint32_t ticks = kDefaultTicks);

  std::string name() const override { return "lights"; }
  uint32_t tick_hz() const override { return 60; }
  uint32_t ticks() const override { return ticks_; }
  const GameVocabulary& vocabulary() const override { return vocabulary_; }
  void rest_records(std::vector<protocol::Record>& out) const override { out = lights_; }
  void truth_at(uint32_t tick, TruthFrame& out) override;
  void observe(const TruthFrame& truth, const ReplicaFrame& frame, std::vector<ExtraFigure>& extras) override;

 private:
  void pawn_at(uint32_t tick, TruthFrame& out) const;

  uint32_t ticks_;
  GameVocabulary vocabulary_;
  ReplicaKinds kinds_;
  std::vector<protocol::Record> lights_;  // the authored lights, full sections
  ReplicaFrame rest_;
  std::vector<uint8_t> scratch_;
};

}  // namespace tickwire::bench
