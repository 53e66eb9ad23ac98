// AdmissionGrants: what a session's connect token grants it beyond a seat, read at admission. The
// token's user data is written by whoever issues tokens (the game's backend, `tickwire token`) and
// sealed with the rest of the private token, so a client cannot grant itself anything: the grants
// ride in the user data's first bytes behind a tag, and user data without the tag grants nothing.
// World authority (seed 000, "Scene edits": only a session with it may edit the scene) and a resume
// token (seed 003: the player asks back into the pawn it left) are the grants so far.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "tickwire/transport/connect_token_private.h"

namespace tickwire {

inline constexpr std::array<uint8_t, 4> kAdmissionGrantsTag = {'t', 'w', 'g', '1'};
inline constexpr uint8_t kGrantWorldAuthority = 1u << 0;
inline constexpr uint8_t kGrantResume = 1u << 1;  // a length byte and a resume token follow the flags
// What a resume token may take of the user data: all of it past the tag, the flags and its length.
inline constexpr std::size_t kMaxGrantedResumeTokenBytes = netcode::kUserDataBytes - kAdmissionGrantsTag.size() - 2;

struct AdmissionGrants {
  bool world_authority = false;
  std::vector<uint8_t> resume_token;  // empty: none presented (longer than the cap: not written)
  friend bool operator==(const AdmissionGrants&, const AdmissionGrants&) = default;
};

// World authority, and nothing else granted.
inline AdmissionGrants world_authority_grant() {
  AdmissionGrants grants;
  grants.world_authority = true;
  return grants;
}

// The grants the user data states (none when it does not start with the tag).
AdmissionGrants read_admission_grants(const netcode::UserData& user_data);
// States `grants` at the user data's front (the rest is the issuer's own); false, and nothing
// written, when the resume token is past kMaxGrantedResumeTokenBytes.
bool write_admission_grants(const AdmissionGrants& grants, netcode::UserData& user_data);

}  // namespace tickwire
