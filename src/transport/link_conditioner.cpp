// The relay's step: pull from the listen socket and every upstream socket, decide each datagram's
// fate with the session's LinkSimulator, hold it in the DelayQueue, and send what is due.
#include "tickwire/transport/link_conditioner.h"

#include <algorithm>

#include "tickwire/core/assert.h"

namespace tickwire {
namespace {

constexpr std::size_t kReceiveBatch = 64;  // datagrams per receive_batch call

bool same_endpoint(const Address& a, const Address& b) { return Address::ipv4_mapped(a) == Address::ipv4_mapped(b); }

}  // namespace

LinkConditioner::LinkConditioner(const ConditionerConfig& config, DatagramSocket& listen,
                                 UpstreamSocketFactory open_upstream)
    : config_(config),
      listen_(listen),
      open_upstream_(std::move(open_upstream)),
      rng_(config.seed),
      held_(config.max_held_datagrams),
      receive_buffer_(kReceiveBatch) {
  TW_ASSERT(config.forward.valid(), "the conditioner needs a forward address");
  TW_ASSERT(!config.to_server.invalid_reason() && !config.to_client.invalid_reason(), "invalid LinkModel");
  TW_ASSERT(config.max_clients > 0 && config.max_held_datagrams > 0 && config.max_receive_per_socket > 0,
            "conditioner caps must be positive");
  TW_ASSERT(static_cast<bool>(open_upstream_), "the conditioner needs an upstream socket factory");
}

LinkConditioner::~LinkConditioner() = default;

void LinkConditioner::step(MonoTime now) {
  receive_from_clients(now);
  receive_from_server(now);
  release(now);
  expire_idle(now);
}

LinkConditioner::Session* LinkConditioner::find_or_open(const Address& client, MonoTime now, uint64_t& id) {
  if (auto it = session_by_client_.find(client); it != session_by_client_.end()) {
    id = it->second;
    return &sessions_.at(id);
  }
  if (sessions_.size() >= config_.max_clients) {
    stats_.dropped.add(ConditionerDrop::client_cap);
    return nullptr;
  }
  std::unique_ptr<DatagramSocket> upstream = open_upstream_();
  if (!upstream) {
    stats_.dropped.add(ConditionerDrop::upstream_open_failed);
    return nullptr;
  }
  id = next_session_id_++;
  ++stats_.sessions_opened;
  session_by_client_.emplace(client, id);
  Session session{client, std::move(upstream), LinkSimulator(config_.to_server), LinkSimulator(config_.to_client), now};
  return &sessions_.emplace(id, std::move(session)).first->second;
}

void LinkConditioner::schedule(uint64_t session_id, bool toward_server, LinkSimulator& link, const Datagram& datagram,
                               MonoTime now) {
  const LinkDelivery verdict = link.decide(now, datagram.size, rng_);
  if (verdict.copies == 0) {
    stats_.dropped.add(verdict.drop == LinkDrop::rate_cap ? ConditionerDrop::rate_cap : ConditionerDrop::loss);
    return;
  }
  if (verdict.copies == 2) ++stats_.duplicated;
  for (std::size_t i = 0; i < verdict.copies; ++i) {
    Held held{session_id, toward_server, std::vector<uint8_t>(datagram.data, datagram.data + datagram.size)};
    if (!held_.push(verdict.at[i], std::move(held))) stats_.dropped.add(ConditionerDrop::held_cap);
  }
}

void LinkConditioner::receive_from_clients(MonoTime now) {
  std::size_t budget = config_.max_receive_per_socket;
  while (budget > 0) {
    const std::size_t want = std::min(budget, receive_buffer_.size());
    const std::size_t got = listen_.receive_batch(std::span<Datagram>(receive_buffer_.data(), want));
    for (std::size_t i = 0; i < got; ++i) {
      const Datagram& datagram = receive_buffer_[i];
      ++stats_.from_clients;
      uint64_t id = 0;
      Session* session = find_or_open(datagram.address, now, id);
      if (session == nullptr) continue;
      session->last_active = now;
      schedule(id, true, session->to_server, datagram, now);
    }
    budget -= got;
    if (got < want) break;
  }
}

void LinkConditioner::receive_from_server(MonoTime now) {
  for (auto& [id, session] : sessions_) {
    std::size_t budget = config_.max_receive_per_socket;
    while (budget > 0) {
      const std::size_t want = std::min(budget, receive_buffer_.size());
      const std::size_t got = session.upstream->receive_batch(std::span<Datagram>(receive_buffer_.data(), want));
      for (std::size_t i = 0; i < got; ++i) {
        const Datagram& datagram = receive_buffer_[i];
        if (!same_endpoint(datagram.address, config_.forward)) {
          stats_.dropped.add(ConditionerDrop::unexpected_source);
          continue;
        }
        ++stats_.from_server;
        session.last_active = now;
        schedule(id, false, session.to_client, datagram, now);
      }
      budget -= got;
      if (got < want) break;
    }
  }
}

void LinkConditioner::release(MonoTime now) {
  held_.release_due(now, [this](MonoTime, Held&& held) {
    auto it = sessions_.find(held.session_id);
    if (it == sessions_.end()) {
      stats_.dropped.add(ConditionerDrop::session_gone);
      return;
    }
    Session& session = it->second;
    const bool sent = held.toward_server ? session.upstream->send(config_.forward, held.bytes)
                                         : listen_.send(session.client, held.bytes);
    if (!sent) {
      stats_.dropped.add(ConditionerDrop::send_failed);
    } else if (held.toward_server) {
      ++stats_.to_server;
    } else {
      ++stats_.to_clients;
    }
  });
}

void LinkConditioner::expire_idle(MonoTime now) {
  for (auto it = sessions_.begin(); it != sessions_.end();) {
    if (now - it->second.last_active > config_.client_idle_timeout) {
      session_by_client_.erase(it->second.client);
      it = sessions_.erase(it);
      ++stats_.sessions_expired;
    } else {
      ++it;
    }
  }
}

}  // namespace tickwire
