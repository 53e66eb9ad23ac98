// ConstructRegistry: one owner's constructs (seed 002: "an index into that owner's
// ConstructRegistry"), each with the game's kind and its AuthorityClass, in slots allocated up to
// a cap. Destroying a construct advances its slot's generation (8 bits; a slot whose generation
// would wrap retires rather than let a 255-lives-old handle match again). When authority moves or
// an owner leaves, adopt() and owner_left() apply each construct's class: the authority's own keep
// their handles across a host migration; a leaving owner's transferable ones get new handles under
// the authority (the old ones refuse from then on), and the caller is told both.
#pragma once

#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include "tickwire/core/reason_counters.h"
#include "tickwire/replication/handles/construct_handle.h"

namespace tickwire {

struct ConstructInfo {
  uint16_t kind = 0;  // the game's (a game mode, an AI director...)
  AuthorityClass authority = AuthorityClass::fixed;
};

// A construct that changed hands: its old handle (refused from now on) and its new one.
struct ConstructMove {
  ConstructHandle from;
  ConstructHandle to;
};

class ConstructRegistry {
 public:
  static constexpr uint8_t kFirstGeneration = 1;

  ConstructRegistry(OwnerId owner, uint16_t capacity);  // capacity 1..ConstructHandle::kMaxIndex

  std::variant<ConstructHandle, ConstructRefusal> create(ConstructInfo info);
  // Destroys what `handle` names if, and only if, it resolves; otherwise why not.
  std::optional<ConstructRefusal> destroy(ConstructHandle handle);
  // What `handle` names, or why it does not resolve (the refusal an RPC to it gets).
  std::variant<ConstructInfo, ConstructRefusal> resolve(ConstructHandle handle) const;

  // The authority moved here from `old_host` (the same owner id: the authority's): every `host`
  // construct is taken over under the same handle; the others die with the old host, and their
  // handles refuse from now on. Returns the handles that died; `old_host` is left empty.
  std::vector<ConstructHandle> adopt(ConstructRegistry& old_host);
  // This registry's owner left: `owner` constructs are destroyed, `transferable` ones move to
  // `authority` (the authority's registry). Returns the moves.
  std::vector<ConstructMove> owner_left(ConstructRegistry& authority);

  OwnerId owner() const { return owner_; }
  uint32_t live() const { return live_; }
  const ReasonCounters<ConstructRefusal>& refusals() const { return refusals_; }

 private:
  enum class State : uint8_t { free, live, retired };
  struct Slot {
    uint8_t generation = kFirstGeneration;
    State state = State::free;
    ConstructInfo info;
  };
  std::optional<ConstructRefusal> check(ConstructHandle handle) const;
  void free_slot(uint16_t index);
  void clear();

  OwnerId owner_;
  std::vector<Slot> slots_;  // index i + 1
  std::vector<uint16_t> free_;
  uint32_t live_ = 0;
  mutable ReasonCounters<ConstructRefusal> refusals_;
};

}  // namespace tickwire
