// WatchedGame: the reference game behind the room's Simulation seam, every call forwarded, with
// hooks where a test watches the room drive it. Shared by the whole-system sims (tests/sim) and the
// fire handler's script (tests/world/fire_script.h, the fuzz target's).
#pragma once

#include <functional>
#include <vector>

#include "tickwire/server/simulation.h"
#include "tickwire/world/reference_game.h"

namespace tickwire::test {

// The reference game as the room sees it, with a hook after each tick's world step (the tick's
// state is final; its snapshot is written next), one on each input a pawn applied, one on each
// shot the room hands over (before the game traces it) and one adding records to each tick's.
class WatchedGame final : public Simulation {
 public:
  explicit WatchedGame(world::ReferenceGame& game) : game_(game) {}
  void begin(const NetcodeContract& contract) override { game_.begin(contract); }
  void world_settings_changed(const protocol::WorldSettings& settings) override { game_.world_settings_changed(settings); }
  void spawn_pawn(EntityRef pawn, OwnerId owner, Tick tick) override { game_.spawn_pawn(pawn, owner, tick); }
  void despawn_pawn(EntityRef pawn) override { game_.despawn_pawn(pawn); }
  void step_pawn(EntityRef pawn, const TickInput& input, Tick tick, double dt_s) override {
    game_.step_pawn(pawn, input, tick, dt_s);
    if (on_input) on_input(pawn, input);
  }
  void step_world(Tick tick, double dt_s) override {
    game_.step_world(tick, dt_s);
    if (after_tick) after_tick(tick);
  }
  protocol::PawnDetail pawn_detail(EntityRef pawn) const override { return game_.pawn_detail(pawn); }
  protocol::ClaimOutcome claim_outcome(EntityRef pawn) const override { return game_.claim_outcome(pawn); }
  void write_records(Tick tick, TickRecords& out) const override {
    game_.write_records(tick, out);
    if (more_records) more_records(tick, out);
  }
  void write_rest_records(std::vector<protocol::Record>& out) const override { game_.write_rest_records(out); }
  uint64_t map_generation() const override { return game_.map_generation(); }
  void interact(EntityRef actor, EntityRef target, uint8_t action, Tick tick) override {
    game_.interact(actor, target, action, tick);
  }
  bool resolves_target(EntityRef target) const override { return game_.resolves_target(target); }
  void fire(EntityRef shooter, const FireShot& shot, Tick tick) override {
    if (on_fire) on_fire(shooter, shot, tick);
    game_.fire(shooter, shot, tick);
  }
  void take_hits(std::vector<protocol::HitEvent>& out) override { game_.take_hits(out); }
  void edit(OwnerId editor, const protocol::SceneEdit& gesture, Tick tick) override { game_.edit(editor, gesture, tick); }
  void take_edit_refusals(std::vector<EditRefusalOut>& out) override { game_.take_edit_refusals(out); }
  const protocol::SceneNodeState* scene_state() const override { return game_.scene_state(); }
  void keep_facts(bool on) override { game_.keep_facts(on); }
  void take_facts(std::vector<DurableFact>& out) override { game_.take_facts(out); }
  void rebind_pawn(EntityRef pawn, OwnerId owner, Tick tick) override { game_.rebind_pawn(pawn, owner, tick); }
  void save_state(std::vector<uint8_t>& out) const override { game_.save_state(out); }
  bool restore_state(std::span<const uint8_t> state) override { return game_.restore_state(state); }
  bool replay_fact(const DurableFact& fact) override { return game_.replay_fact(fact); }
  bool saves_whole_state() const override { return game_.saves_whole_state(); }
  void settle_for_save() override { game_.settle_for_save(); }
  void save_whole_state(std::vector<uint8_t>& out) const override { game_.save_whole_state(out); }
  bool load_whole_state(std::span<const uint8_t> state) override { return game_.load_whole_state(state); }
  void visit_game_reasons(const ReasonVisitor& visit) const override { game_.visit_game_reasons(visit); }
  void take_events(std::vector<GameEvent>& out) override { game_.take_events(out); }
  void take_messages(std::vector<GameMessageOut>& out) override { game_.take_messages(out); }
  wire::Hash16 map_identity() const override { return game_.map_identity(); }

  std::function<void(EntityRef, const TickInput&)> on_input;
  std::function<void(Tick)> after_tick;
  std::function<void(EntityRef, const FireShot&, Tick)> on_fire;  // before the game traces it
  std::function<void(Tick, TickRecords&)> more_records;  // records of the test's own after the game's, each tick

 private:
  world::ReferenceGame& game_;
};

}  // namespace tickwire::test
