// The session's channel layout.
#include "tickwire/protocol/session_channels.h"

#include "tickwire/protocol/constants.h"

namespace tickwire {

EndpointConfig session_endpoint_config() {
  EndpointConfig config;
  config.channels[kSessionReliableChannel] = ChannelConfig::reliable_with_blocks(kSessionMaxBlockBytes);
  ChannelConfig unreliable = ChannelConfig::unreliable();
  unreliable.unreliable_queue_messages = kSessionUnreliableQueueMessages;
  unreliable.unreliable_receive_window = kSessionUnreliableReceiveWindow;
  unreliable.send_queue_bytes = kSessionUnreliableQueueMessages * unreliable.max_message_bytes;
  unreliable.receive_queue_bytes = kSessionUnreliableQueueMessages * unreliable.max_message_bytes;
  config.channels[kSessionUnreliableChannel] = unreliable;
  config.max_packets_per_write = kSessionPacketsPerWrite;
  config.ack_notices = false;  // what a client holds rides its input frames
  config.validate();
  return config;
}

}  // namespace tickwire
