// The --pawn-body option `tickwire server` and `tickwire contract` share: the possessed
// character's movement body an operator states, so the prediction admission the contract resolves
// from it can be seen (the movement asks for client prediction either way; see
// protocol/prediction_admission.h for what is granted).
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "tickwire/protocol/room_policy.h"

namespace tickwire::cli {

// The option's words, and the body each states (the first is the default: the reference game's).
struct PawnBodyWord {
  const char* word;
  PawnBody body;
};
inline constexpr PawnBodyWord kPawnBodyWords[] = {
    {"kinematic", PawnBody::kinematic_controller}, {"dynamic", PawnBody::dynamic_rigidbody}, {"none", PawnBody::none}};

inline CLI::Option* add_pawn_body_option(CLI::App* cmd, std::string& word) {
  word = kPawnBodyWords[0].word;
  return cmd
      ->add_option("--pawn-body", word,
                   "the pawn's movement body: kinematic (predicted), dynamic (a physics body: not predicted, the "
                   "requested prediction demoted) or none (fails closed: not predicted); default kinematic")
      ->check(CLI::IsMember({"kinematic", "dynamic", "none"}));
}

// The body a checked word states.
inline PawnBody pawn_body_of(const std::string& word) {
  for (const PawnBodyWord& w : kPawnBodyWords) {
    if (word == w.word) return w.body;
  }
  return PawnBody::none;  // unreachable past the option's check; fails closed regardless
}

}  // namespace tickwire::cli
