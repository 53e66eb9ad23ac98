// Drives one server and N clients through connect + a payload exchange both ways and checks every
// payload: clients send numbered, self-describing payloads; the server checks each against the
// slot it arrived on and echoes it back; clients check the echoes. Duplicates or corruption fail;
// loss is only counted. Shared by the SimNetwork and the real-UDP tests.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <vector>

#include "tickwire/core/bytes.h"
#include "tickwire/core/rng.h"
#include "tickwire/transport/netcode_client.h"
#include "tickwire/transport/netcode_server.h"

namespace tickwire::test {

// [client id u64][counter u32][size u16][bytes derived from id and counter ...]
inline std::vector<uint8_t> numbered_payload(uint64_t client_id, uint32_t counter, std::size_t size) {
  std::vector<uint8_t> p(size);
  store_le<uint64_t>(p.data(), client_id);
  store_le<uint32_t>(p.data() + 8, counter);
  store_le<uint16_t>(p.data() + 12, static_cast<uint16_t>(size));
  for (std::size_t i = 14; i < size; ++i) p[i] = static_cast<uint8_t>(client_id * 131 + counter * 7 + i);
  return p;
}

inline bool payload_valid(std::span<const uint8_t> p, uint64_t& client_id, uint32_t& counter) {
  if (p.size() < 14) return false;
  client_id = load_le<uint64_t>(p.data());
  counter = load_le<uint32_t>(p.data() + 8);
  if (load_le<uint16_t>(p.data() + 12) != p.size()) return false;
  const auto expected = numbered_payload(client_id, counter, p.size());
  return std::equal(p.begin(), p.end(), expected.begin());
}

struct ExchangeResult {
  uint64_t sent_up = 0, received_up = 0, sent_down = 0, received_down = 0;
  double up_fraction() const { return sent_up ? double(received_up) / double(sent_up) : 0.0; }
  double down_fraction() const { return sent_down ? double(received_down) / double(sent_down) : 0.0; }
};

// `step(dt)` must advance time by dt and update the server and every client.
inline ExchangeResult exchange_payloads(NetcodeServer& server, std::vector<NetcodeClient*>& clients,
                                        std::vector<uint64_t>& client_ids, Rng& rng, MonoTime& now,
                                        const std::function<void(Duration)>& step, int rounds,
                                        Duration round_interval, Duration drain) {
  ExchangeResult result;
  std::vector<uint32_t> next_counter(clients.size(), 0);
  std::vector<std::set<uint32_t>> seen_up(clients.size()), seen_down(clients.size());
  auto drain_all = [&] {
    netcode::ReceivedPayload got;
    while (server.receive_payload(got)) {
      uint64_t id = 0;
      uint32_t counter = 0;
      ASSERT_TRUE(payload_valid(got.data(), id, counter)) << "corrupt payload at the server";
      ASSERT_EQ(server.client_id(got.client_index), id) << "payload attributed to the wrong slot";
      std::size_t c = 0;
      while (c < client_ids.size() && client_ids[c] != id) ++c;
      ASSERT_LT(c, client_ids.size());
      ASSERT_TRUE(seen_up[c].insert(counter).second) << "duplicate payload delivered to the server";
      ++result.received_up;
      // Echo it back down.
      if (server.send_payload(got.client_index, got.data(), now)) ++result.sent_down;
    }
    for (std::size_t c = 0; c < clients.size(); ++c) {
      while (clients[c]->receive_payload(got)) {
        uint64_t id = 0;
        uint32_t counter = 0;
        ASSERT_TRUE(payload_valid(got.data(), id, counter)) << "corrupt payload at a client";
        ASSERT_EQ(id, client_ids[c]) << "a client received another client's payload";
        ASSERT_TRUE(seen_down[c].insert(counter).second) << "duplicate payload delivered to a client";
        ++result.received_down;
      }
    }
  };
  for (int r = 0; r < rounds; ++r) {
    for (std::size_t c = 0; c < clients.size(); ++c) {
      const std::size_t size = 14 + rng.below(netcode::kMaxPayloadBytes - 14 + 1);
      if (clients[c]->send_payload(numbered_payload(client_ids[c], next_counter[c]++, size), now)) ++result.sent_up;
    }
    step(round_interval);
    drain_all();
    if (::testing::Test::HasFatalFailure()) return result;
  }
  for (Duration t; t < drain; t += round_interval) {
    step(round_interval);
    drain_all();
    if (::testing::Test::HasFatalFailure()) return result;
  }
  return result;
}

}  // namespace tickwire::test
