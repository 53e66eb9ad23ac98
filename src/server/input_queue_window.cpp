// An input queue's window in a save state (seed 002): a room loaded from one prepares the same
// input on the same tick as the room it was saved from (a waiting input applied, a starved tick
// repeated or zeroed, a duplicate told from a stale or a late one, a late press carried), so the
// pawns step alike and acks agree.
#include <array>
#include <cmath>

#include "tickwire/core/byte_record.h"
#include "tickwire/server/input_queue.h"
#include "tickwire/wire/codec.h"

namespace tickwire {
namespace {

constexpr std::size_t kMaxSavedInputBytes = 1024;  // one Claim body, well past its size

// A claim through its field table (its numbers are whole floats on the wire).
bool read_claim(ByteRecordReader& read, protocol::Claim& claim) {
  const std::span<const uint8_t> body = read.blob(kMaxSavedInputBytes);
  return read.ok() && wire::decode(body, claim).ok();
}

// An input as the room holds it, every float whole: the wire's quantized form would not give back
// the bits of one the room was handed directly (a game's own bots, a replay).
void write_cmd(ByteRecordWriter& write, const protocol::InputCmd& cmd) {
  write.u32(cmd.buttons);
  for (float v : {cmd.move_x, cmd.move_y, cmd.yaw_deg, cmd.pitch_deg}) write.f32(v);
}

bool read_cmd(ByteRecordReader& read, protocol::InputCmd& cmd) {
  cmd.buttons = read.u32();
  for (float* v : {&cmd.move_x, &cmd.move_y, &cmd.yaw_deg, &cmd.pitch_deg}) {
    *v = read.f32();
    if (!std::isfinite(*v)) return false;
  }
  return read.ok() && cmd.buttons < (1u << protocol::kInputButtonBits);
}

}  // namespace

void InputQueue::save_window(ByteRecordWriter& write) const {
  write.u64(next_applicable_);
  write.u64(applied_bits_);
  write_cmd(write, last_applied_cmd_);
  write.flag(ack_sequence_.has_value());
  write.u32(ack_sequence_.value_or(0));
  write.u32(starved_run_ticks_);
  write.u64(guessed_bits_);
  for (uint64_t i = 0; i < kAppliedWindowInputs; ++i) {
    if (((guessed_bits_ >> i) & 1) != 0) write.u32(guess_buttons_[(ack_sequence_.value_or(0) - i) % kAppliedWindowInputs]);
  }
  write.u32(late_buttons_);
  write.flag(led_);
  write.u8(static_cast<uint8_t>(waiting_count_));
  for (std::size_t i = 0; i < waiting_count_; ++i) {
    const Entry& entry = waiting_[i];
    write.u32(entry.sequence);
    write_cmd(write, entry.cmd);
    write.flag(entry.claim.has_value());
    if (entry.claim) write.blob(wire::encode_bytes(*entry.claim));
  }
}

bool InputQueue::load_window(ByteRecordReader& read) {
  const uint64_t next_applicable = read.u64();
  const uint64_t applied_bits = read.u64();
  protocol::InputCmd last_applied;
  if (!read_cmd(read, last_applied)) return false;
  const bool acked = read.flag();
  const uint32_t ack = read.u32();
  const uint32_t starved = read.u32();
  // A guessed sequence is one that ran: its bit is among the applied ones.
  const uint64_t guessed_bits = read.u64();
  if (!read.ok() || (guessed_bits & ~applied_bits) != 0 || (guessed_bits != 0 && !acked)) return false;
  std::array<uint32_t, kAppliedWindowInputs> guess_buttons{};
  for (uint64_t i = 0; i < kAppliedWindowInputs; ++i) {
    if (((guessed_bits >> i) & 1) != 0) guess_buttons[(ack - i) % kAppliedWindowInputs] = read.u32();
  }
  const uint32_t late_buttons = read.u32();
  const bool led = read.flag();
  const uint8_t waiting = read.u8();
  // Only a client that has led has had its starved ticks guessed.
  if (!read.ok() || waiting > config_.capacity_ticks || next_applicable > (uint64_t{1} << 32) ||
      (late_buttons & ~config_.known_buttons) != 0 || (guessed_bits != 0 && !led))
    return false;
  std::array<Entry, protocol::InputQueueTicks> entries{};
  for (uint8_t i = 0; i < waiting; ++i) {
    Entry& entry = entries[i];
    entry.sequence = read.u32();
    // Ascending, none below what may still be applied: the order take_for_tick relies on.
    if (!read.ok() || entry.sequence < next_applicable || (i > 0 && entry.sequence <= entries[i - 1].sequence) ||
        !read_cmd(read, entry.cmd))
      return false;
    if (read.flag()) {
      entry.claim.emplace();
      if (!read_claim(read, *entry.claim)) return false;
    }
    if (!read.ok()) return false;
  }
  next_applicable_ = next_applicable;
  applied_bits_ = applied_bits;
  last_applied_cmd_ = last_applied;
  ack_sequence_ = acked ? std::optional<uint32_t>(ack) : std::nullopt;
  starved_run_ticks_ = starved;
  guessed_bits_ = guessed_bits;
  guess_buttons_ = guess_buttons;
  late_buttons_ = late_buttons;
  led_ = led;
  waiting_ = entries;
  waiting_count_ = waiting;
  return true;
}

}  // namespace tickwire
