// The chunk pool: a list of released chunks threaded through the link array, never-used chunks
// handed out in order after them, messages stored as chains.
#include "tickwire/transport/chunk_pool.h"

#include <algorithm>
#include <cstring>

#include "tickwire/core/assert.h"

namespace tickwire {

ChunkPool::ChunkPool(std::size_t capacity_bytes, std::size_t chunk_bytes)
    : chunk_bytes_(chunk_bytes), chunk_count_(chunk_bytes > 0 ? (capacity_bytes + chunk_bytes - 1) / chunk_bytes : 0) {
  TW_ASSERT(chunk_bytes > 0, "chunk_bytes must be positive");
  TW_ASSERT(chunk_count_ < kNoChunk, "pool too large");
  data_.reset(new uint8_t[chunk_count_ * chunk_bytes_]);  // default-initialised: untouched until used
  next_.reset(new uint32_t[chunk_count_]);
  free_chunks_ = chunk_count_;
}

uint32_t ChunkPool::take_chunk() {
  if (free_head_ != kNoChunk) {
    const uint32_t chunk = free_head_;
    free_head_ = next_[chunk];
    return chunk;
  }
  TW_ASSERT(fresh_ < chunk_count_, "take_chunk with no chunk free");
  return fresh_++;
}

bool ChunkPool::store(std::span<const uint8_t> head, std::span<const uint8_t> body, Handle& out) {
  const std::size_t total = head.size() + body.size();
  const std::size_t need = chunks_for(total);
  if (need > free_chunks_) return false;
  // Take `need` free chunks and link them in order: they become the chain.
  out.first = kNoChunk;
  out.bytes = static_cast<uint32_t>(total);
  uint32_t last = kNoChunk;
  for (std::size_t k = 0; k < need; ++k) {
    const uint32_t chunk = take_chunk();
    if (last == kNoChunk) out.first = chunk;
    else next_[last] = chunk;
    last = chunk;
  }
  if (last != kNoChunk) next_[last] = kNoChunk;
  free_chunks_ -= need;
  // Fill the chain: head, then body.
  uint32_t cursor = out.first;
  std::size_t in_chunk = 0;
  auto append = [&](std::span<const uint8_t> part) {
    std::size_t done = 0;
    while (done < part.size()) {
      if (in_chunk == chunk_bytes_) {
        cursor = next_[cursor];
        in_chunk = 0;
      }
      const std::size_t n = std::min(chunk_bytes_ - in_chunk, part.size() - done);
      std::memcpy(data_.get() + static_cast<std::size_t>(cursor) * chunk_bytes_ + in_chunk, part.data() + done, n);
      done += n;
      in_chunk += n;
    }
  };
  append(head);
  append(body);
  return true;
}

void ChunkPool::release(Handle& h) {
  uint32_t chunk = h.first;
  std::size_t count = 0;
  const std::size_t expected = chunks_for(h.bytes);
  while (chunk != kNoChunk) {
    TW_ASSERT(count < expected, "chunk chain longer than its message");
    const uint32_t following = next_[chunk];
    next_[chunk] = free_head_;
    free_head_ = chunk;
    chunk = following;
    ++count;
  }
  free_chunks_ += count;
  h = Handle{};
}

void ChunkPool::copy_out(const Handle& h, std::size_t offset, std::span<uint8_t> out) const {
  TW_ASSERT(offset + out.size() <= h.bytes, "copy_out past the end of a message");
  uint32_t chunk = h.first;
  for (std::size_t skip = offset / chunk_bytes_; skip > 0; --skip) chunk = next_[chunk];
  std::size_t in_chunk = offset % chunk_bytes_;
  std::size_t done = 0;
  while (done < out.size()) {
    const std::size_t n = std::min(chunk_bytes_ - in_chunk, out.size() - done);
    std::memcpy(out.data() + done, data_.get() + static_cast<std::size_t>(chunk) * chunk_bytes_ + in_chunk, n);
    done += n;
    in_chunk = 0;
    chunk = next_[chunk];
  }
}

}  // namespace tickwire
