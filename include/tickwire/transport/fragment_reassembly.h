// Reassembly of one large reliable block from its fragments, into a buffer allocated once at
// max_block_bytes. Each fragment is checked against the caps and against its set (count, size,
// offsets that must not overlap or run past the block) before a byte is copied.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/transport/packet_entry.h"
#include "tickwire/transport/transport_reason.h"

namespace tickwire {

class FragmentReassembly {
 public:
  enum class Outcome : uint8_t {
    stored,     // new bytes taken, set still incomplete
    completed,  // this fragment completed the block
    duplicate,  // already had exactly this fragment
    rejected,   // refused (see reason); the set in progress is untouched
    broken,     // the set can never complete (see reason); it was discarded
  };
  struct Result {
    Outcome outcome;
    TransportReason reason = TransportReason::count_;
  };

  FragmentReassembly(uint32_t max_block_bytes, uint32_t max_fragments);

  bool active() const { return active_; }
  bool complete() const { return active_ && complete_; }
  uint16_t message_id() const { return message_id_; }
  MonoTime last_progress() const { return last_progress_; }
  // The reassembled block; valid while complete().
  std::span<const uint8_t> block() const { return {buffer_.get(), block_bytes_}; }

  // Checks the fragment alone against the caps (no set needed); count_ when it passes.
  TransportReason check_caps(const FragmentHeader& f, std::size_t length) const;
  Result add(uint16_t message_id, const FragmentHeader& f, std::span<const uint8_t> bytes, MonoTime now);
  void reset() { active_ = false; complete_ = false; }
  std::size_t memory_bytes() const;

 private:
  bool overlaps_neighbours(uint16_t index, uint32_t offset, std::size_t length) const;
  void begin(uint16_t message_id, const FragmentHeader& f);

  uint32_t max_block_bytes_;
  uint32_t max_fragments_;
  std::unique_ptr<uint8_t[]> buffer_;  // not initialised: a block's bytes are all written before it completes
  std::vector<uint32_t> offsets_;
  std::vector<uint16_t> lengths_;
  std::vector<uint8_t> received_;
  bool active_ = false;
  bool complete_ = false;
  uint16_t message_id_ = 0;
  uint16_t fragment_count_ = 0;
  uint32_t block_bytes_ = 0;
  uint32_t received_count_ = 0;
  uint64_t received_bytes_ = 0;
  MonoTime last_progress_;
};

}  // namespace tickwire
