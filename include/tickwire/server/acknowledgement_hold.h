// AcknowledgementHold: what a durable room's server holds back until the update that made it is
// durable (DurabilityGate). An entity event answering a use, a game message carrying a written
// voxel chunk, a scene edit set's new revision: each tells a client that something happened, so
// none may leave before the fact behind it is journaled. Held in the order made and released in
// that order; capped, and what passes the cap is dropped and counted (never sent, so never an
// acknowledgement a crash could take back).
#pragma once

#include <cstddef>
#include <deque>
#include <optional>
#include <utility>
#include <vector>

#include "tickwire/protocol/scene_node_state.h"

namespace tickwire {

inline constexpr std::size_t kMaxHeldAcknowledgements = 16384;  // events or messages waiting, each kind
inline constexpr std::size_t kMaxHeldSceneStates = 64;          // edit set revisions waiting

// Events or messages made in a server update (numbered from 1), waiting for it to be durable.
template <class T>
class HeldAcknowledgements {
 public:
  // Puts `fresh` (made in update `made`) behind what waits, then leaves in `fresh` what may go now:
  // everything made through update `durable` (0: none), oldest first. Returns how many of `fresh`
  // passed the cap.
  std::size_t pass(std::vector<T>& fresh, uint64_t made, uint64_t durable) {
    std::size_t dropped = 0;
    for (T& item : fresh) {
      if (held_.size() >= kMaxHeldAcknowledgements) {
        ++dropped;
        continue;
      }
      held_.emplace_back(made, std::move(item));
    }
    fresh.clear();
    while (!held_.empty() && held_.front().first <= durable) {
      fresh.push_back(std::move(held_.front().second));
      held_.pop_front();
    }
    return dropped;
  }
  std::size_t size() const { return held_.size(); }

 private:
  std::deque<std::pair<uint64_t, T>> held_;
};

// The scene edit set's revisions, each as it stood when made, waiting to be durable: the newest
// durable one is what may be sent (a newer one may hold edits a crash could still take back).
class HeldSceneStates {
 public:
  // The set as it stands after update `made` (copied when its revision moved).
  void note(const protocol::SceneNodeState& state, uint64_t made) {
    const uint32_t newest = held_.empty() ? (released_ ? released_->revision : 0) : held_.back().second.revision;
    if (state.revision == 0 || state.revision == newest) return;
    if (held_.size() >= kMaxHeldSceneStates) {  // the oldest is superseded by every newer one
      held_.pop_front();
      ++superseded_;
    }
    held_.emplace_back(made, state);
  }
  // The newest revision made through update `durable` (null: none yet).
  const protocol::SceneNodeState* releasable(uint64_t durable) {
    while (!held_.empty() && held_.front().first <= durable) {
      released_ = std::move(held_.front().second);
      held_.pop_front();
    }
    return released_ ? &*released_ : nullptr;
  }
  std::size_t size() const { return held_.size(); }
  uint64_t superseded() const { return superseded_; }  // dropped at the cap before they were durable

 private:
  std::deque<std::pair<uint64_t, protocol::SceneNodeState>> held_;
  std::optional<protocol::SceneNodeState> released_;
  uint64_t superseded_ = 0;
};

}  // namespace tickwire
