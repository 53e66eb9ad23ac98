// The tiny game the room's whole-system tests run: each pawn walks by its input's move axes, and
// the simulation keeps the log the invariants are checked against (which input sequence each tick
// applied, from which source), so a test can prove every input ran exactly once and in order and
// that each snapshot's ack is the input the tick really applied.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "tickwire/replication/handles/construct_registry.h"
#include "tickwire/server/simulation.h"

namespace tickwire::test {

inline constexpr uint8_t kTestKindPawn = 1;
inline constexpr uint8_t kTestKindProp = 2;

// The test game's vocabulary: a pawn and a prop, and all eight buttons (the room sims send a
// sequence's low byte as its buttons and check it arrives).
inline const GameVocabulary& test_vocabulary() {
  static const GameVocabulary vocabulary = [] {
    GameVocabulary v;
    v.kind(kTestKindPawn, "pawn").kind(kTestKindProp, "prop");
    for (uint8_t bit = 0; bit < 8; ++bit) v.button(bit, "button" + std::to_string(bit));
    return v;
  }();
  return vocabulary;
}

struct TestPawn {
  OwnerId owner = 0;
  protocol::Vec3 position;
  std::vector<uint32_t> applied;  // every fresh input sequence, in the order simulated
  std::map<int64_t, std::optional<uint32_t>> last_applied_at;  // tick -> last sequence run so far (fresh or guessed)
  std::optional<uint32_t> last_run;                             // the newest sequence whose tick ran
  std::vector<uint32_t> guessed;                                // sequences whose ticks ran on the guess
  uint64_t steps = 0;
  uint64_t starved_steps = 0;
  uint64_t zeroed_steps = 0;
  uint64_t button_mismatches = 0;  // a fresh input whose buttons are not its sequence's low byte
  uint64_t claims = 0;             // fresh inputs that reached the game with a claim
  uint8_t placement_epoch = 0;
};

class TestSimulation final : public Simulation {
 public:
  static constexpr float kSpeedMps = 5.0f;

  void spawn_pawn(EntityRef pawn, OwnerId owner, Tick) override {
    TestPawn p;
    p.owner = owner;
    p.position = {static_cast<float>(owner), 0, 0};
    pawns[pawn.raw()] = p;
  }
  void despawn_pawn(EntityRef pawn) override {
    departed.push_back(pawns[pawn.raw()]);
    pawns.erase(pawn.raw());
  }
  void step_pawn(EntityRef pawn, const TickInput& input, Tick tick, double dt_s) override {
    TestPawn& p = pawns.at(pawn.raw());
    ++p.steps;
    if (input.fresh()) {
      p.applied.push_back(input.sequence);
      if (input.cmd.buttons != ((input.sequence & 0xffu) | input.late_buttons)) ++p.button_mismatches;
      if (input.claim) ++p.claims;
    } else {
      ++p.starved_steps;
      if (input.source == TickInputSource::zeroed) ++p.zeroed_steps;
    }
    if (input.guessed) p.guessed.push_back(input.sequence);
    if (input.runs_sequence()) p.last_run = input.sequence;
    p.last_applied_at[tick.value()] = p.last_run;
    p.position.x += input.cmd.move_x * kSpeedMps * static_cast<float>(dt_s);
    p.position.z += input.cmd.move_y * kSpeedMps * static_cast<float>(dt_s);
  }
  // Its constructs (the authority's registry): a call that resolves is logged; method 0 is refused.
  std::optional<ConstructRefusal> construct_call(OwnerId caller, ConstructHandle target, uint16_t method,
                                                 std::span<const uint8_t> payload, Tick) override {
    const auto resolved = constructs.resolve(target);
    if (const ConstructRefusal* why = std::get_if<ConstructRefusal>(&resolved)) return *why;
    if (method == 0) return ConstructRefusal::refused_by_game;
    construct_calls.push_back(ConstructCallLog{caller, target, method, std::vector<uint8_t>(payload.begin(), payload.end())});
    return std::nullopt;
  }
  void step_world(Tick tick, double) override {
    ++world_steps;
    last_world_tick = tick;
  }
  protocol::PawnDetail pawn_detail(EntityRef pawn) const override {
    const TestPawn& p = pawns.at(pawn.raw());
    protocol::PawnDetail detail;
    detail.pawn_ref = pawn.raw();
    detail.position = p.position;
    detail.placement_epoch = p.placement_epoch;
    return detail;
  }
  void write_records(Tick tick, TickRecords& out) const override {
    for (const auto& [record, interest] : noted) out.add(record, interest);
    for (uint32_t i = 0; i < extra_records; ++i) {  // props jumping at random, so snapshots outgrow a message
      protocol::EntityRecord prop;
      prop.kind = kTestKindProp;
      const auto jump = [&](uint64_t axis) {  // a hash of (prop, tick, axis): no delta predicts it
        uint64_t h = (i + 1) * 0x9e3779b97f4a7c15ULL ^ (tick.value() + 1) * 0xc2b2ae3d27d4eb4fULL ^ axis;
        h ^= h >> 31;
        h *= 0xbf58476d1ce4e5b9ULL;
        h ^= h >> 29;
        return static_cast<float>(h % 5000) / 100.0f;  // within 50 m: inside every client's interest
      };
      prop.position = {jump(1), jump(2), jump(3)};
      out.add(protocol::Record{1'000'000 + i, prop});
    }
    for (const auto& [ref, p] : pawns) {
      protocol::EntityRecord record;
      record.kind = kTestKindPawn;
      record.position = p.position;
      out.add(protocol::Record{static_cast<uint32_t>(ref >> 32), record});
    }
  }
  void interact(EntityRef actor, EntityRef target, uint8_t action, Tick) override {
    interactions.push_back({actor.raw(), target.raw(), action});
  }

  struct Interaction {
    uint64_t actor, target;
    uint8_t action;
  };
  std::map<uint64_t, TestPawn> pawns;  // by EntityRef raw
  struct ConstructCallLog {
    OwnerId caller;
    ConstructHandle target;
    uint16_t method;
    std::vector<uint8_t> payload;
  };
  ConstructRegistry constructs{0, 8};
  std::vector<ConstructCallLog> construct_calls;
  std::vector<TestPawn> departed;
  std::vector<Interaction> interactions;
  uint64_t world_steps = 0;
  Tick last_world_tick;
  uint32_t extra_records = 0;
  // Records written every tick as they are, with their interest notes (ids past the pawns' and props').
  std::vector<std::pair<protocol::Record, RecordInterest>> noted;
};

}  // namespace tickwire::test
