// The channel layout and the seat grants.
#include "tickwire/lockstep/link_layout.h"

#include <algorithm>
#include <array>


namespace tickwire::lockstep {

namespace {
constexpr std::array<uint8_t, 4> kSeatGrantTag = {'S', 'E', 'A', 'T'};
}

EndpointConfig lockstep_endpoint_config() {
  EndpointConfig config;
  config.channels[kWelcomeChannel] = ChannelConfig::reliable_with_blocks(64 * 1024);
  config.channels[kFramesChannel] = ChannelConfig::unreliable(1100);
  config.ack_notices = false;  // what a peer holds rides its messages
  return config;
}

netcode::UserData seat_grant(uint8_t seat) {
  netcode::UserData data{};
  std::copy(kSeatGrantTag.begin(), kSeatGrantTag.end(), data.begin());
  data[kSeatGrantTag.size()] = seat;
  return data;
}

std::optional<uint8_t> granted_seat(const netcode::UserData& user_data) {
  if (!std::equal(kSeatGrantTag.begin(), kSeatGrantTag.end(), user_data.begin())) return std::nullopt;
  return user_data[kSeatGrantTag.size()];
}

}  // namespace tickwire::lockstep
