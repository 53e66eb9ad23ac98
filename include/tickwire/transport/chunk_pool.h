// A fixed byte pool for queued messages: allocated once at start-up, carved into equal chunks that
// a message chains through, so variable-sized messages arriving and leaving in any order share one
// hard byte cap with no allocation after construction. A store that does not fit simply fails.
// Nothing is written at construction: chunks are handed out in order until each has been used
// once, so a connection's pools cost the pages its traffic touches, not their whole cap, and
// opening one does not fault in and zero a few hundred kilobytes on the tick thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

namespace tickwire {

class ChunkPool {
 public:
  static constexpr uint32_t kNoChunk = UINT32_MAX;

  // Where a stored message lives: its first chunk and its length. A zero-length message uses no chunk.
  struct Handle {
    uint32_t first = kNoChunk;
    uint32_t bytes = 0;
  };

  ChunkPool(std::size_t capacity_bytes, std::size_t chunk_bytes);

  std::size_t chunk_bytes() const { return chunk_bytes_; }
  std::size_t capacity_bytes() const { return chunk_count_ * chunk_bytes_; }
  // Bytes held by stored messages, counted in whole chunks (what the cap is measured in).
  std::size_t used_bytes() const { return (chunk_count_ - free_chunks_) * chunk_bytes_; }
  // The memory reserved (the chunks and their links), whether or not touched yet.
  std::size_t memory_bytes() const { return chunk_count_ * (chunk_bytes_ + sizeof(uint32_t)); }
  bool can_store(std::size_t bytes) const { return chunks_for(bytes) <= free_chunks_; }

  // Stores head followed by body as one message; false (nothing stored) when it does not fit.
  [[nodiscard]] bool store(std::span<const uint8_t> head, std::span<const uint8_t> body, Handle& out);
  // Returns the chunks of h to the pool and clears h. Releasing an empty handle does nothing.
  void release(Handle& h);
  // Copies out.size() bytes of h starting at offset (offset + out.size() <= h.bytes).
  void copy_out(const Handle& h, std::size_t offset, std::span<uint8_t> out) const;

 private:
  std::size_t chunks_for(std::size_t bytes) const { return (bytes + chunk_bytes_ - 1) / chunk_bytes_; }
  // A free chunk: the most recently released, else the first never used (the caller checked one is free).
  uint32_t take_chunk();

  std::size_t chunk_bytes_;
  std::size_t chunk_count_;
  std::unique_ptr<uint8_t[]> data_;   // not initialised: a chunk is written before it is read
  std::unique_ptr<uint32_t[]> next_;  // chain links; for a released chunk, the next released one
  uint32_t free_head_ = kNoChunk;     // the released chunks' list
  uint32_t fresh_ = 0;                // chunks [fresh_, chunk_count_) have never been used
  std::size_t free_chunks_ = 0;
};

}  // namespace tickwire
