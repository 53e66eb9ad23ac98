// LockstepArena: integer physics in a fixed order (ships by seat, then shots by slot), so the same
// inputs give the same bits everywhere. The saved layout is the field order below, little-endian.
#include "tickwire/world/lockstep_arena.h"

#include <algorithm>

#include "tickwire/core/assert.h"
#include "tickwire/transport/byte_cursor.h"

namespace tickwire::world {

namespace {
constexpr uint32_t kMagic = 0x5241'5754;  // "TWAR"
constexpr int32_t kMaxSpeed = 96;
constexpr int32_t kShotSpeed = 6;        // per unit of aim
constexpr uint8_t kShotTtl = 90;
constexpr uint8_t kCooldown = 12;
constexpr uint8_t kHealth = 3;
constexpr int32_t kHitRadius = 2 * kArenaUnit;
constexpr std::size_t kShipBytes = 4 * 4 + 1 + 1 + 2 + 1;
constexpr std::size_t kShotBytes = 4 * 4 + 1 + 1;
constexpr std::size_t kHeaderBytes = 4 + 4 + 4 + 1 + 1;

int32_t clamp_speed(int32_t v) { return std::clamp(v, -kMaxSpeed, kMaxSpeed); }
bool inside(int32_t v) { return v >= 0 && v < kArenaSize; }
// What step() can produce; a saved state outside it was not saved by an arena.
bool ship_valid(const ArenaShip& p) {
  return inside(p.x) && inside(p.y) && std::abs(p.vx) <= kMaxSpeed && std::abs(p.vy) <= kMaxSpeed && p.health >= 1 &&
         p.health <= kHealth && p.cooldown <= kCooldown;
}
bool shot_valid(const ArenaShot& t) {
  constexpr int32_t kMaxShotSpeed = 128 * kShotSpeed;
  return inside(t.x) && inside(t.y) && std::abs(t.vx) <= kMaxShotSpeed && std::abs(t.vy) <= kMaxShotSpeed && t.ttl >= 1 &&
         t.ttl <= kShotTtl;
}
}  // namespace

void write_arena_input(const ArenaInput& input, std::span<uint8_t> out) {
  TW_ASSERT(out.size() == kArenaInputBytes, "an arena input is four bytes");
  out[0] = input.buttons;
  out[1] = static_cast<uint8_t>(input.aim_x);
  out[2] = static_cast<uint8_t>(input.aim_y);
  out[3] = input.spare;
}

ArenaInput read_arena_input(std::span<const uint8_t> in) {
  TW_ASSERT(in.size() == kArenaInputBytes, "an arena input is four bytes");
  return ArenaInput{in[0], static_cast<int8_t>(in[1]), static_cast<int8_t>(in[2]), in[3]};
}

LockstepArena::LockstepArena(uint32_t seats, uint32_t seed, ArenaRules rules)
    : seats_(seats), rules_(rules), rng_state_(seed | 1u) {
  TW_ASSERT(seats >= 1 && seats <= kArenaMaxSeats, "arena seats outside 1..16");
  for (uint32_t s = 0; s < seats_; ++s) {
    ships_[s].present = true;
    respawn(ships_[s]);
  }
}

uint32_t LockstepArena::next_random() {  // xorshift32: part of the state, so it rolls back too
  rng_state_ ^= rng_state_ << 13;
  rng_state_ ^= rng_state_ >> 17;
  rng_state_ ^= rng_state_ << 5;
  return rng_state_;
}

void LockstepArena::respawn(ArenaShip& ship) {
  ship.x = static_cast<int32_t>(next_random() % static_cast<uint32_t>(kArenaSize));
  ship.y = static_cast<int32_t>(next_random() % static_cast<uint32_t>(kArenaSize));
  ship.vx = ship.vy = 0;
  ship.health = kHealth;
  ship.cooldown = kCooldown;
}

void LockstepArena::steer(ArenaShip& ship, const ArenaInput& input) {
  if (input.buttons & arena_button::left) ship.vx -= rules_.thrust;
  if (input.buttons & arena_button::right) ship.vx += rules_.thrust;
  if (input.buttons & arena_button::up) ship.vy += rules_.thrust;
  if (input.buttons & arena_button::down) ship.vy -= rules_.thrust;
  ship.vx = clamp_speed(ship.vx - ship.vx / 16);
  ship.vy = clamp_speed(ship.vy - ship.vy / 16);
  ship.x += ship.vx;
  ship.y += ship.vy;
  if (ship.x < 0 || ship.x >= kArenaSize) ship.vx = -ship.vx;  // bounce off the walls
  if (ship.y < 0 || ship.y >= kArenaSize) ship.vy = -ship.vy;
  ship.x = std::clamp(ship.x, 0, kArenaSize - 1);
  ship.y = std::clamp(ship.y, 0, kArenaSize - 1);
  if (ship.cooldown > 0) --ship.cooldown;
}

void LockstepArena::fire(uint32_t seat, const ArenaInput& input) {
  ArenaShip& ship = ships_[seat];
  if (!(input.buttons & arena_button::fire) || ship.cooldown > 0 || shot_count_ == kArenaMaxShots) return;
  if (input.aim_x == 0 && input.aim_y == 0) return;
  ArenaShot& shot = shots_[shot_count_++];
  shot = ArenaShot{ship.x, ship.y, input.aim_x * kShotSpeed, input.aim_y * kShotSpeed, static_cast<uint8_t>(seat), kShotTtl};
  ship.cooldown = kCooldown;
}

void LockstepArena::move_shots() {
  uint32_t kept = 0;
  for (uint32_t i = 0; i < shot_count_; ++i) {
    ArenaShot shot = shots_[i];
    shot.x += shot.vx;
    shot.y += shot.vy;
    bool alive = --shot.ttl > 0 && shot.x >= 0 && shot.x < kArenaSize && shot.y >= 0 && shot.y < kArenaSize;
    for (uint32_t s = 0; alive && s < seats_; ++s) {
      ArenaShip& target = ships_[s];
      if (s == shot.owner || !target.present) continue;
      if (std::abs(target.x - shot.x) >= kHitRadius || std::abs(target.y - shot.y) >= kHitRadius) continue;
      alive = false;
      if (--target.health == 0) {
        ++ships_[shot.owner].score;
        respawn(target);
      }
    }
    if (alive) shots_[kept++] = shot;
  }
  shot_count_ = kept;
}

void LockstepArena::step(const lockstep::FrameInputs& inputs) {
  TW_ASSERT(inputs.peers.size() == seats_, "one input per seat");
  ++frame_;
  for (uint32_t s = 0; s < seats_; ++s) {
    ships_[s].present = inputs.peers[s].present;
    if (!ships_[s].present) continue;
    ArenaInput input = read_arena_input(inputs.peers[s].bytes);
    if (hidden_state_ && (++hidden_counter_ % 7) == 0) input.buttons ^= arena_button::left;
    steer(ships_[s], input);
    fire(s, input);
    if (diverge_from_ != 0 && frame_ >= diverge_from_) ++ships_[s].x;
  }
  move_shots();
}

std::size_t LockstepArena::max_state_bytes() const {
  return kHeaderBytes + kArenaMaxSeats * kShipBytes + kArenaMaxShots * kShotBytes;
}

std::size_t LockstepArena::save(std::span<uint8_t> out) const {
  ByteWriter w(out);
  w.u32(kMagic);
  w.u32(frame_);
  w.u32(rng_state_);
  w.u8(static_cast<uint8_t>(seats_));
  w.u8(static_cast<uint8_t>(shot_count_));
  for (uint32_t s = 0; s < seats_; ++s) {
    const ArenaShip& p = ships_[s];
    for (int32_t v : {p.x, p.y, p.vx, p.vy}) w.u32(static_cast<uint32_t>(v));
    w.u8(p.health);
    w.u8(p.cooldown);
    w.u16(p.score);
    w.u8(p.present ? 1 : 0);
  }
  for (uint32_t i = 0; i < shot_count_; ++i) {
    const ArenaShot& t = shots_[i];
    for (int32_t v : {t.x, t.y, t.vx, t.vy}) w.u32(static_cast<uint32_t>(v));
    w.u8(t.owner);
    w.u8(t.ttl);
  }
  TW_ASSERT(w.ok(), "an arena state larger than max_state_bytes");
  return w.size();
}

Status LockstepArena::load(std::span<const uint8_t> saved) {
  ByteReader r(saved);
  const uint32_t magic = r.u32();
  const uint32_t frame = r.u32();
  const uint32_t rng = r.u32();
  const uint32_t seats = r.u8();
  const uint32_t shots = r.u8();
  if (!r.ok()) return Error::truncated;
  if (magic != kMagic || seats != seats_ || shots > kArenaMaxShots) return Error::value_out_of_range;
  std::array<ArenaShip, kArenaMaxSeats> ships{};
  std::array<ArenaShot, kArenaMaxShots> shot_list{};
  for (uint32_t s = 0; s < seats; ++s) {
    ArenaShip& p = ships[s];
    for (int32_t* v : {&p.x, &p.y, &p.vx, &p.vy}) *v = static_cast<int32_t>(r.u32());
    p.health = r.u8();
    p.cooldown = r.u8();
    p.score = r.u16();
    const uint8_t present = r.u8();
    if (present > 1 || (r.ok() && !ship_valid(p))) return Error::value_out_of_range;
    p.present = present == 1;
  }
  for (uint32_t i = 0; i < shots; ++i) {
    ArenaShot& t = shot_list[i];
    for (int32_t* v : {&t.x, &t.y, &t.vx, &t.vy}) *v = static_cast<int32_t>(r.u32());
    t.owner = r.u8();
    t.ttl = r.u8();
    if (r.ok() && (t.owner >= seats || !shot_valid(t))) return Error::value_out_of_range;
  }
  if (!r.ok()) return Error::truncated;
  if (!r.at_end()) return Error::trailing_bytes;
  frame_ = frame;
  rng_state_ = rng;
  ships_ = ships;
  shots_ = shot_list;
  shot_count_ = shots;
  return Error::ok;
}

}  // namespace tickwire::world
