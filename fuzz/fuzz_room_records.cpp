// libFuzzer target: what a durable room reads back from its store (a store's bytes are trusted no
// more than a packet: a disk can rot, an older build can have written them). The input is read as
// a journal entry and as a checkpoint record; then laid over the reference game as its saved state
// and as each kind of fact, and over a fresh room as its saved pawns and as each of the room's own
// facts. Nothing may crash, and whatever reads must write back to the same bytes. A begun game's
// checkpoint taken mid-flight (a door moving, delayed lights pending) is also read with the input
// spliced into it, so the objects' and the logic's part is reached past the parts before it.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include "still_game.h"
#include "tickwire/durable/room_records.h"
#include "tickwire/server/room.h"
#include "tickwire/world/map_loader.h"
#include "tickwire/world/reference_game.h"
#include "tickwire/world/reference_map.h"
#include "tickwire/world/reference_contract.h"

using namespace tickwire;

namespace {

RoomConfig room_config() {
  RoomPolicy policy;
  policy.identity = {"fuzz", "tickwire-fuzz", "fuzz", "content", "fuzz", "", ""};
  world::apply_reference_policy(policy);
  auto resolved = resolve_netcode_contract(policy);
  if (!resolved.ok()) std::abort();
  RoomConfig config{*resolved.contract, MonoTime{}};
  config.pawn_hold_ticks = 600;
  return config;
}

// A checkpoint of a begun game whose logic is mid-flight: button.s pressed (its door on its way, its
// lights due one by one), a few logic ticks run.
std::vector<uint8_t> mid_flight_state(world::ReferenceGame& game) {
  const auto button = game.map().object_index("button.s");
  if (!button || !game.logic()->use(*button, LogicActivator{1})) std::abort();
  for (int64_t t = 1; t <= 20; ++t) game.logic()->advance(Tick::from_value(t), {});
  std::vector<uint8_t> state;
  game.save_state(state);
  return state;
}

// The valid checkpoint up to where the input's first two bytes say, the input's rest after it.
std::vector<uint8_t> spliced(const std::vector<uint8_t>& valid, std::span<const uint8_t> input) {
  if (input.size() < 2) return valid;
  const std::size_t at = (std::size_t{input[0]} | std::size_t{input[1]} << 8) % (valid.size() + 1);
  std::vector<uint8_t> out(valid.begin(), valid.begin() + static_cast<std::ptrdiff_t>(at));
  out.insert(out.end(), input.begin() + 2, input.end());
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  static const world::Map map = [] {
    auto loaded = world::load_map(world::reference_map_text());
    if (!loaded) std::abort();
    return std::move(*loaded);
  }();
  const std::span<const uint8_t> bytes(data, size);
  if (auto batch = durable::decode_fact_batch(bytes)) {
    if (durable::encode_fact_batch(batch->tick, batch->facts) != std::vector<uint8_t>(bytes.begin(), bytes.end())) std::abort();
  }
  if (auto record = durable::decode_checkpoint_record(bytes)) {
    std::vector<uint8_t> again;
    durable::write_checkpoint_head(again, record->tick, record->taken_at);
    again.insert(again.end(), record->state.begin(), record->state.end());
    if (again != std::vector<uint8_t>(bytes.begin(), bytes.end())) std::abort();
  }
  // One game for every input (building one per input would leave the fuzzer a few hundred runs in
  // CI's seconds): what an input leaves stands under the next, within the game's own caps.
  static world::ReferenceGame game(map);
  (void)game.restore_state(bytes);
  (void)game.replay_fact(DurableFact{world::kFactSceneEdit, {bytes.begin(), bytes.end()}});
  (void)game.replay_fact(DurableFact{world::kFactVoxelWrite, {bytes.begin(), bytes.end()}});
  std::vector<uint8_t> saved;
  game.save_state(saved);  // whatever stands after a partial read still saves

  static const RoomConfig config = room_config();
  static world::ReferenceGame begun(map);
  static const std::vector<uint8_t> valid = [] {
    begun.begin(config.contract);
    return mid_flight_state(begun);
  }();
  if (begun.restore_state(spliced(valid, bytes))) {
    saved.clear();
    begun.save_state(saved);
  }

  test::StillGame nothing;  // the room's own part of a record is what is read here
  Room room(config, nothing);
  if (room.restore_state(bytes)) {
    std::vector<uint8_t> again;
    room.save_state(again);
    if (again != std::vector<uint8_t>(bytes.begin(), bytes.end())) std::abort();
  }
  Room replayed(config, nothing);
  (void)replayed.replay_fact(DurableFact{kFactPawnJoined, {bytes.begin(), bytes.end()}});
  (void)replayed.replay_fact(DurableFact{kFactPawnGone, {bytes.begin(), bytes.end()}});
  return 0;
}
