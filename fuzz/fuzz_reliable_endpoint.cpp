// Stateful fuzzing of one connection's reliability layer: the input is a sequence of payload
// packets (acks, messages, fragments, anything) fed into one endpoint over advancing time, with
// writes (resends, acks) and app reads in between, so ack processing, windows, reassembly and
// NetChannel envelopes are all reached with state built by earlier packets.
//
// Input: repeated records of u8 control, u16 length (LE), `length` payload bytes. Control bits 0-5
// advance the clock by that many 5 ms steps; bit 6 makes the endpoint write its packets; bit 7
// drains every channel (through NetChannel on channel 0) and the ack notices.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "tickwire/core/assert.h"
#include "tickwire/transport/byte_cursor.h"
#include "tickwire/transport/net_channel.h"
#include "tickwire/transport/reliable_endpoint.h"

namespace {

using namespace tickwire;

constexpr std::size_t kMaxRecords = 4096;

EndpointConfig fuzz_config() {
  EndpointConfig c;
  c.channels[0] = ChannelConfig::reliable_with_blocks(8 * 1024);
  c.channels[0].send_queue_messages = 64;
  c.channels[0].send_window_messages = 16;
  c.channels[0].receive_window_messages = 32;
  c.channels[1] = ChannelConfig::unreliable(300);
  c.channels[2] = ChannelConfig::reliable();
  c.channels[2].send_window_messages = 8;
  c.channels[2].receive_window_messages = 16;
  c.reliable_timeout = Duration::seconds(30);
  c.fragment_set_timeout = Duration::seconds(10);
  return c;
}

struct CheckingSink final : PacketSink {
  uint32_t max_bytes = 0;
  void on_packet(uint16_t, std::span<const uint8_t> payload) override {
    TW_ASSERT(payload.size() <= max_bytes, "a written packet exceeded the MTU budget");
  }
};

void drain(ReliableEndpoint& endpoint, NetChannel& net) {
  while (net.receive(0)) {
  }
  while (endpoint.receive(1)) {
  }
  while (endpoint.receive(2)) {
  }
  while (endpoint.pop_acked_packet()) {
  }
  while (endpoint.pop_acked_message()) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  static const EndpointConfig config = fuzz_config();
  ReliableEndpoint endpoint(config);
  NetChannel net(endpoint, kAuthorityOwner, 1);
  CheckingSink sink;
  sink.max_bytes = config.max_packet_bytes;
  // Content in flight, so acks in the input have something to acknowledge.
  const std::vector<uint8_t> small(40, 0x11);
  const std::vector<uint8_t> block(5000, 0x22);
  (void)net.send(0, 1, small);
  (void)endpoint.send(0, block);
  (void)endpoint.send(2, small);
  (void)endpoint.send(1, small);
  MonoTime now = MonoTime::from_ns(1'000'000'000);
  endpoint.write_packets(now, sink);

  ByteReader reader(std::span<const uint8_t>(data, size));
  for (std::size_t record = 0; record < kMaxRecords && !reader.at_end(); ++record) {
    const uint8_t control = reader.u8();
    const uint16_t length = reader.u16();
    const std::span<const uint8_t> payload = reader.bytes(length <= reader.remaining() ? length : reader.remaining());
    if (!reader.ok()) break;
    now += Duration::milliseconds(5 * (control & 0x3f));
    (void)endpoint.receive_packet(payload, now);
    if (control & 0x40) endpoint.write_packets(now, sink);
    if (control & 0x80) drain(endpoint, net);
  }
  endpoint.write_packets(now + Duration::seconds(60), sink);
  const ConnectionStats stats = endpoint.stats();
  TW_ASSERT(stats.channels[0].send_queue_messages <= config.channels[0].send_queue_messages, "send queue cap");
  TW_ASSERT(stats.channels[0].receive_queue_messages <= config.channels[0].receive_window_messages, "window cap");
  return 0;
}
