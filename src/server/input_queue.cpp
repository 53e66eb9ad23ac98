// The input queue: sequence bookkeeping (duplicate / stale / late / overflow), sorted insertion, one
// input per tick, a starved tick's guess at the next sequence, and the honest ack and depth byte that
// the owner detail reports.
#include "tickwire/server/input_queue.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <utility>

#include "tickwire/core/assert.h"
#include "tickwire/wire/quantize.h"

namespace tickwire {

namespace {
constexpr uint64_t kSequenceSpace = uint64_t{1} << 32;
}  // namespace

InputQueue::InputQueue(const InputQueueConfig& config) : config_(config), next_applicable_(config.first_sequence) {
  TW_ASSERT(config.capacity_ticks > 0 && config.capacity_ticks <= protocol::InputQueueTicks,
            "input queue capacity must be 1..InputQueueTicks");
}

std::size_t InputQueue::accept(const protocol::InputFrame& frame) {
  return accept(frame.first_sequence, frame.inputs, frame.claim);
}

std::size_t InputQueue::accept(uint32_t first_sequence, std::span<const protocol::InputCmd> inputs,
                               const std::optional<protocol::Claim>& claim) {
  static const std::optional<protocol::Claim> kNoClaim;
  std::size_t queued = 0;
  uint64_t sequence = first_sequence;
  for (std::size_t i = 0; i < inputs.size(); ++i, ++sequence) {
    if (offer(sequence, inputs[i], i + 1 == inputs.size() ? claim : kNoClaim)) ++queued;
  }
  return queued;
}

bool InputQueue::offer(uint64_t sequence, const protocol::InputCmd& cmd, const std::optional<protocol::Claim>& claim) {
  ++stats_.received;
  if (sequence >= kSequenceSpace) {
    drops_.add(InputDropReason::sequence_end);
    return false;
  }
  if (sequence < next_applicable_) {
    if (in_window(guessed_bits_, sequence)) {
      take_late(sequence, cmd);
    } else {
      drops_.add(in_window(applied_bits_, sequence) ? InputDropReason::duplicate : InputDropReason::stale);
    }
    return false;
  }
  const auto end = waiting_.begin() + static_cast<std::ptrdiff_t>(waiting_count_);
  const auto at = std::find_if(waiting_.begin(), end, [&](const Entry& e) { return e.sequence >= sequence; });
  if (at != end && at->sequence == sequence) {
    drops_.add(InputDropReason::duplicate);
    return false;
  }
  if (waiting_count_ >= config_.capacity_ticks) {
    // Nothing is evicted and nothing claimed: a later redundant copy may be queued once room frees.
    drops_.add(InputDropReason::overflow);
    return false;
  }
  Entry entry{static_cast<uint32_t>(sequence), cmd, claim};
  if ((cmd.buttons & ~config_.known_buttons) != 0) {
    entry.cmd.buttons &= config_.known_buttons;
    ++stats_.unknown_buttons;
  }
  insert_sorted(entry);
  ++stats_.queued;
  return true;
}

void InputQueue::insert_sorted(const Entry& entry) {
  TW_ASSERT(waiting_count_ < waiting_.size(), "input queue storage full");
  std::size_t i = waiting_count_;
  while (i > 0 && waiting_[i - 1].sequence > entry.sequence) {
    waiting_[i] = waiting_[i - 1];
    --i;
  }
  waiting_[i] = entry;
  ++waiting_count_;
}

// The first copy of a guessed sequence's input: its tick is gone, its presses are not. Later copies
// are duplicates.
void InputQueue::take_late(uint64_t sequence, const protocol::InputCmd& cmd) {
  drops_.add(InputDropReason::late);
  guessed_bits_ &= ~(uint64_t{1} << (*ack_sequence_ - sequence));
  late_buttons_ |= cmd.buttons & config_.known_buttons & ~guess_buttons_[sequence % kAppliedWindowInputs];
}

void InputQueue::mark_applied(uint32_t sequence) {
  const uint64_t shift = ack_sequence_ ? uint64_t{sequence} - *ack_sequence_ : 64;
  applied_bits_ = shift >= 64 ? 0 : applied_bits_ << shift;
  guessed_bits_ = shift >= 64 ? 0 : guessed_bits_ << shift;
  applied_bits_ |= 1;
  ack_sequence_ = sequence;
  next_applicable_ = uint64_t{sequence} + 1;
}

// Whether `sequence`'s bit is set in a window of bits counted back from the ack (bit 0: the ack).
bool InputQueue::in_window(uint64_t bits, uint64_t sequence) const {
  if (!ack_sequence_ || sequence > *ack_sequence_) return false;
  const uint64_t distance = *ack_sequence_ - sequence;
  return distance < kAppliedWindowInputs && ((bits >> distance) & 1) != 0;
}

// Every waiting input as one: the mean of their movement axes (time spent on each is one client
// logic step), the newest one's look angles, and every button any of them held, so a press shorter
// than a server tick still reaches the game. The newest sequence is the one acked.
InputQueue::Entry InputQueue::take_merged() {
  Entry merged = waiting_[waiting_count_ - 1];
  merged.claim.reset();
  double move_x = 0, move_y = 0;
  for (std::size_t i = 0; i < waiting_count_; ++i) {
    // All but the newest are marked applied here (a later copy of one is a duplicate, not stale);
    // the newest is marked by the caller, as a single input is.
    if (i + 1 < waiting_count_) mark_applied(waiting_[i].sequence);
    move_x += waiting_[i].cmd.move_x;
    move_y += waiting_[i].cmd.move_y;
    merged.cmd.buttons |= waiting_[i].cmd.buttons;
  }
  // The mean as the wire would carry it: a merged command is one a client could have sent (a
  // recording or a replay reads it back exactly).
  const auto on_the_wire = [](double axis) {
    return static_cast<float>(wire::dequantize(wire::quantize(axis, protocol::kMoveAxisSpec), protocol::kMoveAxisSpec));
  };
  merged.cmd.move_x = on_the_wire(move_x / static_cast<double>(waiting_count_));
  merged.cmd.move_y = on_the_wire(move_y / static_cast<double>(waiting_count_));
  stats_.merged_inputs += waiting_count_;
  waiting_count_ = 0;
  return merged;
}

TickInput InputQueue::take_for_tick() {
  if (waiting_count_ == 0) return take_starved();
  Entry entry;
  if (config_.merge_arrived) {
    entry = take_merged();
  } else {
    entry = waiting_[0];
    std::copy(waiting_.begin() + 1, waiting_.begin() + static_cast<std::ptrdiff_t>(waiting_count_), waiting_.begin());
    --waiting_count_;
  }
  TW_ASSERT(!ack_sequence_ || entry.sequence > *ack_sequence_, "applied inputs must increase");
  mark_applied(entry.sequence);
  last_applied_cmd_ = entry.cmd;  // what a guess repeats: the player's own input, not a carried press
  starved_run_ticks_ = 0;
  if (waiting_count_ > 0 && !config_.merge_arrived) led_ = true;
  ++stats_.fresh_ticks;
  TickInput out;
  out.cmd = entry.cmd;
  out.late_buttons = std::exchange(late_buttons_, 0u);
  out.cmd.buttons |= out.late_buttons;
  out.sequence = entry.sequence;
  out.has_sequence = true;
  out.source = TickInputSource::fresh;
  out.claim = entry.claim;
  return out;
}

// A starved tick. Once the client has led (and outside server-time's merging, which has no tick per
// input), a tick within the repeat limit is the next sequence's, run on the repeated input as the
// guess and acked as run. Past the limit the link is taken for dead: the pawn stands and nothing is
// guessed, so a client held or gone for seconds never finds its sequences behind the server's.
TickInput InputQueue::take_starved() {
  TickInput out;
  if (starved_run_ticks_ < std::numeric_limits<uint32_t>::max()) ++starved_run_ticks_;
  const bool repeat = starved_run_ticks_ <= config_.starvation_repeat_ticks;
  out.cmd = starved_command(last_applied_cmd_, starved_run_ticks_, config_.starvation_repeat_ticks,
                            config_.posture_buttons);
  out.source = repeat ? TickInputSource::repeated : TickInputSource::zeroed;
  out.starved_run_ticks = starved_run_ticks_;
  if (stats_.queued == 0) ++stats_.awaiting_ticks;  // nothing has arrived yet: the join, not a dry queue
  else ++(repeat ? stats_.repeated_ticks : stats_.zeroed_ticks);
  if (repeat && led_ && ack_sequence_ && !config_.merge_arrived && next_applicable_ < kSequenceSpace) {
    const auto guessed = static_cast<uint32_t>(next_applicable_);
    mark_applied(guessed);
    guessed_bits_ |= 1;
    guess_buttons_[guessed % kAppliedWindowInputs] = out.cmd.buttons;
    out.guessed = true;
  }
  out.sequence = ack_sequence_.value_or(0);
  out.has_sequence = ack_sequence_.has_value();
  return out;
}

std::optional<uint32_t> InputQueue::ack_sequence() const { return ack_sequence_; }

int8_t InputQueue::depth_byte() const {
  if (waiting_count_ > 0) {
    return static_cast<int8_t>(std::min<std::size_t>(waiting_count_, std::numeric_limits<int8_t>::max()));
  }
  const uint32_t run = std::min<uint32_t>(starved_run_ticks_, 128);
  return static_cast<int8_t>(-static_cast<int32_t>(run));
}

}  // namespace tickwire
