// The receiving half of a reliable-ordered channel: a window of message slots starting at the next
// id to deliver, a fixed byte pool for messages that arrived early or wait for the app, and one
// fragment reassembly slot for large blocks. Delivers each message exactly once, in id order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/transport/chunk_pool.h"
#include "tickwire/transport/endpoint_config.h"
#include "tickwire/transport/fragment_reassembly.h"
#include "tickwire/transport/packet_entry.h"
#include "tickwire/transport/transport_reason.h"

namespace tickwire {

// What happened to one incoming reliable entry.
struct EntryOutcome {
  enum Kind : uint8_t {
    accepted,   // stored (the packet may be acked)
    duplicate,  // already held or delivered (the packet may be acked)
    dropped,    // not taken now (reason counted); the packet must not be acked
    fatal,      // can never be taken: the connection must be dropped (reason)
  };
  Kind kind = accepted;
  TransportReason reason = TransportReason::count_;

  bool ackable() const { return kind == accepted || kind == duplicate; }
};

class ReliableReceiveQueue {
 public:
  explicit ReliableReceiveQueue(const ChannelConfig& config);

  EntryOutcome on_message(uint16_t message_id, std::span<const uint8_t> bytes);
  EntryOutcome on_fragment(uint16_t message_id, const FragmentHeader& fragment, std::span<const uint8_t> bytes,
                           MonoTime now);
  // The next message in order, or nullopt. The bytes stay valid until the next receive().
  std::optional<std::span<const uint8_t>> receive();
  // A partial block with no progress for `timeout` is evicted; returns the fatal reason if so.
  std::optional<TransportReason> expire(MonoTime now, Duration timeout);

  uint32_t queued_messages() const { return held_messages_; }
  std::size_t queued_bytes() const {
    return pool_.used_bytes() + (reassembly_ && reassembly_->active() ? reassembly_->block().size() : 0);
  }
  uint64_t delivered() const { return delivered_; }
  std::size_t memory_bytes() const;

 private:
  enum class SlotState : uint8_t { empty, message, block_partial, block_complete };
  struct Slot {
    SlotState state = SlotState::empty;
    ChunkPool::Handle data;
  };
  // Where message_id falls: < 0 already delivered, >= window beyond the window, else the index.
  int64_t offset_of(uint16_t message_id) const;
  Slot& slot(uint64_t index) { return slots_[index % slots_.size()]; }
  void release_delivered();

  ChannelConfig config_;
  ChunkPool pool_;
  std::vector<Slot> slots_;
  std::optional<FragmentReassembly> reassembly_;
  std::vector<uint8_t> delivery_;  // a delivered message, contiguous
  uint64_t next_index_ = 0;        // next to deliver; message id = low 16 bits
  uint32_t held_messages_ = 0;
  uint64_t delivered_ = 0;
  bool pending_block_release_ = false;
};

}  // namespace tickwire
