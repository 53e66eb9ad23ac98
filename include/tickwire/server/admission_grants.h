// AdmissionGrants: what a session's connect token grants it beyond a seat, read at admission. The
// token's user data is written by whoever issues tokens (the game's backend, `tickwire token`) and
// sealed with the rest of the private token, so a client cannot grant itself anything: the grants
// ride in the user data's first bytes behind a tag, and user data without the tag grants nothing.
// World authority (seed 000, "Scene edits": only a session with it may edit the scene) is the one
// grant so far.
#pragma once

#include <array>
#include <cstdint>

#include "tickwire/transport/connect_token_private.h"

namespace tickwire {

inline constexpr std::array<uint8_t, 4> kAdmissionGrantsTag = {'t', 'w', 'g', '1'};
inline constexpr uint8_t kGrantWorldAuthority = 1u << 0;

struct AdmissionGrants {
  bool world_authority = false;
  friend bool operator==(const AdmissionGrants&, const AdmissionGrants&) = default;
};

// The grants the user data states (none when it does not start with the tag).
AdmissionGrants read_admission_grants(const netcode::UserData& user_data);
// States `grants` in the user data's first five bytes (the rest is the issuer's own).
void write_admission_grants(const AdmissionGrants& grants, netcode::UserData& user_data);

}  // namespace tickwire
