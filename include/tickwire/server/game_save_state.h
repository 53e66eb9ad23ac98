// GameSaveState (seed 002, "Memory Constraint"): the game's side of a room's save state, the one
// serialisation path behind host migration, late join, reconnect and debug replay. Where a
// checkpoint (DurableState) keeps what must survive a crash, a save state is everything the next
// tick reads, so a room loaded from one goes on exactly as the one it was saved from would have.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace tickwire {

class GameSaveState {
 public:
  virtual ~GameSaveState() = default;

  // Whether the game writes a save state at all (false, the default: a room of it refuses to save).
  virtual bool saves_whole_state() const { return false; }
  // Called by the room just before each save: the game drops whatever its next step reads that is
  // not state (a physics solver's contact caches), so the room saved and a room loaded from the
  // bytes go on alike. The load does the same on its side. The default has nothing to drop.
  virtual void settle_for_save() {}
  // The game's whole state, appended to `out`, after the room spawned every pawn it names.
  virtual void save_whole_state(std::vector<uint8_t>& out) const { (void)out; }
  // Reads back what save_whole_state wrote, into a game freshly built over the same map whose pawns
  // the room has just spawned (their owners as saved); false when the bytes do not read.
  virtual bool load_whole_state(std::span<const uint8_t> state) {
    (void)state;
    return false;
  }
};

}  // namespace tickwire
