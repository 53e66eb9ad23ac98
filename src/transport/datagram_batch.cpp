// Outgoing batch: packets are written straight into pooled buffers, then one send_batch call.
#include "tickwire/transport/datagram_batch.h"

#include "tickwire/core/assert.h"

namespace tickwire::netcode {

DatagramBatch::DatagramBatch(std::size_t capacity_packets)
    : buffers_(capacity_packets), outgoing_(capacity_packets) {
  TW_ASSERT(capacity_packets > 0, "a batch holds at least one packet");
}

std::span<uint8_t, kMaxPacketBytes> DatagramBatch::buffer() {
  TW_ASSERT(count_ < buffers_.size(), "commit() flushes before the batch overflows");
  return std::span<uint8_t, kMaxPacketBytes>(buffers_[count_]);
}

void DatagramBatch::commit(DatagramSocket& socket, const Address& to, std::size_t bytes) {
  TW_ASSERT(bytes > 0 && bytes <= kMaxPacketBytes, "packet size out of range");
  outgoing_[count_] = OutgoingDatagram{to, std::span<const uint8_t>(buffers_[count_].data(), bytes)};
  ++count_;
  if (count_ == buffers_.size()) flush(socket);
}

std::size_t DatagramBatch::flush(DatagramSocket& socket) {
  if (count_ == 0) return 0;
  const std::size_t sent = socket.send_batch(std::span<const OutgoingDatagram>(outgoing_.data(), count_));
  for (std::size_t i = 0; i < sent && i < count_; ++i) bytes_sent_ += outgoing_[i].bytes.size();
  datagrams_sent_ += sent;
  const std::size_t refused = count_ - (sent < count_ ? sent : count_);
  datagrams_refused_ += refused;
  count_ = 0;
  return refused;
}

}  // namespace tickwire::netcode
