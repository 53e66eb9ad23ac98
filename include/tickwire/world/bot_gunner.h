// BotGunner: the `fire` bot's trigger finger. It faces the nearest other pawn it draws (BotView's
// others, where its interpolation puts them), fires at its chest a few times a second from its own
// eye through the same request path a player's shot takes (Client::fire), and tallies what the
// server says its shots struck, each with its distance from the eye that fired it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "tickwire/protocol/hit_event.h"
#include "tickwire/world/bot_view.h"

namespace tickwire::world {

inline constexpr uint32_t kBotFireEveryTicks = 20;   // 3 shots a second at 60 Hz: under the contract's default 10
inline constexpr float kBotFireRangeM = 60.0f;       // a pawn further off is not shot at
inline constexpr float kBotChestAboveFeetM = 1.0f;   // where on a pawn it aims
inline constexpr std::size_t kBotShotMemory = 64;    // shots remembered for their hits' distances

// What one shot's events told: the kind and where, how far from the eye that fired it.
struct BotHit {
  uint32_t shot = 0;
  protocol::HitKind kind = protocol::HitKind::nothing;
  protocol::HitBody body = protocol::HitBody::none;
  Vec3 point;
  float distance_m = 0;
  std::string_view impact;  // valid while the event it came from lives
};

struct BotFireTally {
  uint64_t shots = 0;
  std::array<uint64_t, 3> hits_by_kind{};  // by protocol::HitKind
  uint64_t pawn_hits = 0;

  void merge(const BotFireTally& other);
};

class BotGunner {
 public:
  // The shot to fire this tick, if any: the nearest other pawn in range, every kBotFireEveryTicks.
  struct Aim {
    Vec3 eye;
    Vec3 direction;  // unit
  };
  std::optional<Aim> next(uint32_t sequence, const BotView& view);
  // The yaw that faces the nearest other pawn (nullopt: none in range).
  std::optional<float> facing(const BotView& view) const;
  // The server numbered the shot `next` aimed (Client::fire's answer): remembered with its eye.
  void fired(uint32_t shot, const Aim& aim);
  // A hit event: nullopt unless it is one of this bot's shots (`own_id`: its pawn's entity id).
  std::optional<BotHit> heard(const protocol::HitEvent& hit, uint32_t own_id);
  const BotFireTally& tally() const { return tally_; }

 private:
  struct Fired {
    uint32_t shot = 0;
    Vec3 eye;
  };
  std::array<Fired, kBotShotMemory> fired_{};
  BotFireTally tally_;
};

}  // namespace tickwire::world
