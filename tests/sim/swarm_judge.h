// The swarm's judge: the invariants of the whole system, checked as they happen (after every server
// update, every tick and every client frame) rather than summed at the end, so a failing seed names
// the first broken rule and the virtual time it broke. What it watches: honest acks (on the server
// and in every decoded frame), the room clock's identity, decoded frames equal to the frames the
// server sent, the contract's caps (catch-up, input queue, fragments), the reliability layer's
// queues and memory on both ends and the server's per-client stores.
#pragma once

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "game_sim.h"
#include "tickwire/protocol/constants.h"
#include "tickwire/replication/frames/replica_state.h"
#include "tickwire/replication/frames/sent_frame_history.h"
#include "tickwire/server/game_outbox.h"

namespace tickwire::test {

struct SwarmViolation {
  MonoTime at;
  std::string invariant;  // its name: "honest acks", "clock identity", "decoded frames", ...
  std::string detail;
};

// A decoded frame and the frame the server sent for that tick, state for state (quantized, exact).
inline bool same_frame(const ReplicaFrame& held, const SentFrame& sent) {
  if (held.tick != sent.tick.wire_u32() || !(held.world == sent.world)) return false;
  if (held.owner.has_value() != sent.owner.has_value()) return false;
  if (held.owner && !same_owner_detail(*held.owner, *sent.owner)) return false;
  if (held.states.size() != sent.states.size()) return false;
  for (std::size_t i = 0; i < held.states.size(); ++i)
    if (!(held.states[i] == *sent.states[i])) return false;
  return true;
}

inline std::string sequence_text(bool has, uint32_t sequence) { return has ? std::to_string(sequence) : "none"; }

// The newest fresh input each pawn applied, and what it had applied by each of its recent ticks.
class AppliedInputs {
 public:
  static constexpr std::size_t kTicksKept = 256;  // past any frame a client still compares

  struct Applied {
    bool has = false;
    uint32_t sequence = 0;
  };

  void on_input(EntityRef pawn, const TickInput& input) {
    Pawn& p = pawns_[pawn.raw()];
    p.stepped = true;
    if (input.runs_sequence()) p.last = Applied{true, input.sequence};
  }
  void after_tick(Tick tick) {
    for (auto& [ref, p] : pawns_) {
      if (!p.stepped) continue;
      p.stepped = false;
      p.by_tick[static_cast<std::size_t>(tick.value()) % kTicksKept] = ByTick{tick.value(), p.last};
    }
  }
  Applied last(EntityRef pawn) const {
    const auto it = pawns_.find(pawn.raw());
    return it == pawns_.end() ? Applied{} : it->second.last;
  }
  // What the pawn had applied by `tick` (nullopt: not kept, or not stepped then).
  std::optional<Applied> at(EntityRef pawn, int64_t tick) const {
    const auto it = pawns_.find(pawn.raw());
    if (it == pawns_.end()) return std::nullopt;
    const ByTick& entry = it->second.by_tick[static_cast<std::size_t>(tick) % kTicksKept];
    if (entry.tick != tick) return std::nullopt;
    return entry.applied;
  }

 private:
  struct ByTick {
    int64_t tick = -1;
    Applied applied;
  };
  struct Pawn {
    Applied last;
    bool stepped = false;
    std::array<ByTick, kTicksKept> by_tick{};
  };
  std::map<uint64_t, Pawn> pawns_;  // by EntityRef raw: every pawn the run had (bounded by its joins)
};

class SwarmJudge {
 public:
  explicit SwarmJudge(GameSim& sim) : sim_(sim) {}

  // The first violation (nullopt: none so far) and how many checks each invariant failed.
  const std::optional<SwarmViolation>& first() const { return first_; }
  const std::map<std::string, uint64_t>& failures() const { return failures_; }
  uint64_t frames_compared() const { return frames_compared_; }
  uint64_t frames_uncompared() const { return frames_uncompared_; }  // the server's copy was gone
  uint64_t acks_compared() const { return acks_compared_; }
  uint32_t deepest_update() const { return deepest_update_; }
  std::size_t most_fragments() const { return most_fragments_; }  // the most one snapshot went in
  uint64_t declared_ticks() const { return static_cast<uint64_t>(sim_.room.clock().declared_ticks()); }

  void fail(std::string invariant, std::string detail) {
    ++failures_[invariant];
    if (!first_) first_ = SwarmViolation{sim_.world.now, std::move(invariant), std::move(detail)};
  }

  AppliedInputs applied;

  // After every tick's world step (the game's: the clock's executed ticks must match them).
  void after_tick(Tick tick) {
    ++world_steps_;
    applied.after_tick(tick);
  }

  // After every server update: the room's own invariants (catch-up, queues, the clock identity),
  // honest acks, the fragment cap and the server's endpoints.
  void after_update(const RoomUpdate& update) {
    deepest_update_ = std::max(deepest_update_, update.ticks_run);
    room_invariants(update);
    shared_world_frames();
    const NetcodeContract& contract = sim_.room.contract();
    for (uint32_t owner = 1; owner <= kRoomMaxSessions; ++owner) {
      const RoomSession* s = sim_.room.session(static_cast<OwnerId>(owner));
      if (s != nullptr && s->inputs.prepared_tick()) server_ack(*s);
      const std::size_t outbox_bytes = sim_.server.outbox_bytes(static_cast<OwnerId>(owner));
      if (outbox_bytes > kGameOutboxMaxBytes)
        fail("memory bounded", fmt::format("owner {}: {} bytes in its game outbox", owner, outbox_bytes));
      const ClientReplicationState* replication = sim_.server.replication().replication(static_cast<OwnerId>(owner));
      if (replication == nullptr) continue;
      if (replication->history.capacity() != SentFrameHistory::kMaxFrames)
        fail("memory bounded", fmt::format("owner {}: {} sent frames kept", owner, replication->history.capacity()));
      const std::size_t fragments = replication->last.fragments;
      most_fragments_ = std::max(most_fragments_, fragments);
      if (fragments > contract.budgets.max_snapshot_fragments || fragments > protocol::MaxSnapshotFragments)
        fail("fragment cap", fmt::format("owner {} tick {}: {} fragments (cap {})", owner, replication->last.tick.value(),
                                         fragments, contract.budgets.max_snapshot_fragments));
    }
    for (uint32_t slot = 0; slot < kRoomMaxSessions; ++slot)
      if (const ReliableEndpoint* e = sim_.server.transport().endpoint(slot)) endpoint(*e, server_memory_, "server slot", slot);
  }

  // After every client frame: each frame it decoded since its last, against the server's; the
  // acks those frames carry; its endpoint. `member`: who it is in the run (unique per connection).
  void after_frame(uint32_t member, SimGameClient& c) {
    if (const ReliableEndpoint* e = c.client.session().transport().endpoint()) endpoint(*e, client_memory_, "client m", member);
    const SessionClient& session = c.client.session();
    if (!session.welcomed() || !session.newest()) return;
    const OwnerId owner = session.welcome()->owner_id;
    const RoomSession* s = sim_.room.session(owner);
    if (s == nullptr || s->pawn != c.pawn()) return;  // the server let it go: nothing of its to compare
    const ClientReplicationState* replication = sim_.server.replication().replication(owner);
    if (replication == nullptr) return;
    uint32_t& last = last_compared_[member];
    const uint32_t newest = session.newest()->tick;
    const uint32_t window = static_cast<uint32_t>(protocol::MaxBaselineTicks) - 1;
    for (uint32_t tick = std::max(last + 1, newest > window ? newest - window : 0); tick <= newest; ++tick) {
      const ReplicaFrame* held = session.deltas().held(tick);
      if (held == nullptr) continue;
      const SentFrame* sent = replication->history.find(Tick::from_value(tick));
      if (sent == nullptr) {
        ++frames_uncompared_;
        continue;
      }
      ++frames_compared_;
      if (!same_frame(*held, *sent))
        fail("decoded frames", fmt::format("m{} (owner {}) decoded tick {} unlike the frame the server sent ({} vs {} states)",
                                           member, owner, tick, held->states.size(), sent->states.size()));
      if (held->owner) client_ack(member, c.pawn(), tick, *held->owner);
    }
    last = std::max(last, newest);
  }

 private:
  // The shared world frames never run dry and stay within what sent frames can hold, stalled
  // clients or not (a pool-dry tick makes every client's frames copy their states).
  void shared_world_frames() {
    const ReplicationServer& replication = sim_.server.replication();
    const uint64_t dry = replication.world_frame_events()[WorldFrameEvent::pool_dry];
    if (dry > 0 || replication.world_frames() > kMaxHeldWorldFrames)
      fail("memory bounded", fmt::format("shared world frames: {} allocated (at most {} held), {} ticks found none free",
                                         replication.world_frames(), kMaxHeldWorldFrames, dry));
  }

  void room_invariants(const RoomUpdate& update) {
    const RoomInvariants& now = sim_.invariants;  // GameSim's check_room_update ran just before
    const NetcodeContract& contract = sim_.room.contract();
    if (now.catch_up_over_cap > seen_.catch_up_over_cap || update.ticks_run > protocol::MaxCatchUpTicks)
      fail("catch-up cap", fmt::format("an update ran {} ticks (cap {})", update.ticks_run, contract.cadence.max_catch_up_ticks));
    if (now.queue_over_cap > seen_.queue_over_cap)
      fail("input queue cap", fmt::format("a session queued past {} ticks", contract.input.queue_ticks));
    // executed + declared + behind = ideal; executed = the ticks the game stepped; and nothing owed
    // (behind) unless the update ran its whole catch-up (a tick silently skipped stays owed forever).
    const ClockAccount a = sim_.room.clock().account(sim_.world.now);
    if (now.clock_unbalanced > seen_.clock_unbalanced || a.executed != world_steps_ ||
        (a.behind > 0 && update.ticks_run < contract.cadence.max_catch_up_ticks))
      fail("clock identity", fmt::format("executed {} (the game stepped {}) + declared {} + behind {} vs ideal {}, after an update "
                                         "of {} ticks", a.executed, world_steps_, a.declared, a.behind, a.ideal, update.ticks_run));
    seen_ = now;
  }

  // The report the room keeps for the next snapshot acks exactly the newest input the pawn applied.
  void server_ack(const RoomSession& s) {
    const AppliedInputs::Applied done = applied.last(s.pawn);
    const std::optional<uint32_t>& ack = s.inputs.report().ack_sequence;
    const bool same = done.has ? ack && *ack == done.sequence : !ack;
    if (!same)
      fail("honest acks", fmt::format("server: owner {} at tick {} acks {}, its pawn applied {}", s.owner,
                                      s.inputs.prepared_tick()->value(), ack ? std::to_string(*ack) : "none",
                                      sequence_text(done.has, done.sequence)));
  }

  // A decoded frame's ack is the input its tick had applied.
  void client_ack(uint32_t member, EntityRef pawn, uint32_t tick, const protocol::OwnerDetail& owner) {
    const std::optional<AppliedInputs::Applied> done = applied.at(pawn, tick);
    if (!done) return;
    ++acks_compared_;
    const bool same = done->has ? owner.ack && owner.ack->sequence == done->sequence : !owner.ack;
    if (!same)
      fail("honest acks", fmt::format("m{} decoded tick {} acking {}, its pawn had applied {}", member, tick,
                                      owner.ack ? std::to_string(owner.ack->sequence) : "none",
                                      sequence_text(done->has, done->sequence)));
  }

  // Every reliable channel within its queues' caps; the endpoint's memory what every endpoint of
  // that side was built with (nothing allocated after construction).
  // `side` and `id` name it ("server slot", 3; "client m", 7).
  void endpoint(const ReliableEndpoint& e, std::size_t& memory, const char* side, uint32_t id) {
    if (memory == 0) memory = e.memory_bytes();
    if (e.memory_bytes() != memory)
      fail("memory bounded", fmt::format("{}{}: endpoint holds {} bytes, built with {}", side, id, e.memory_bytes(), memory));
    const ConnectionStats s = e.stats();
    for (std::size_t ch = 0; ch < kMaxChannels; ++ch) {
      const ChannelConfig& cc = e.config().channels[ch];
      if (cc.kind != ChannelKind::reliable_ordered) continue;
      const ChannelStats& cs = s.channels[ch];
      if (cs.send_queue_messages > cc.send_queue_messages || cs.send_queue_bytes > cc.send_queue_bytes ||
          cs.receive_queue_messages > cc.receive_window_messages ||
          cs.receive_queue_bytes > cc.receive_queue_bytes + cc.max_block_bytes)
        fail("reliable queue caps", fmt::format("{}{} channel {}: send {} msgs {} B, receive {} msgs {} B", side, id, ch,
                                                cs.send_queue_messages, cs.send_queue_bytes, cs.receive_queue_messages,
                                                cs.receive_queue_bytes));
    }
  }

  GameSim& sim_;
  RoomInvariants seen_;
  std::optional<SwarmViolation> first_;
  std::map<std::string, uint64_t> failures_;
  std::map<uint32_t, uint32_t> last_compared_;  // by member: the newest tick judged
  std::size_t server_memory_ = 0, client_memory_ = 0;
  uint64_t frames_compared_ = 0, frames_uncompared_ = 0, acks_compared_ = 0;
  int64_t world_steps_ = 0;
  uint32_t deepest_update_ = 0;
  std::size_t most_fragments_ = 0;
};

}  // namespace tickwire::test
