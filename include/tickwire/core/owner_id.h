// Owner ids (seed 002's NetOwnerID): who a connection, an entity or a construct belongs to. Owner 0
// is the authority, 1..kMaxClientOwner are clients. The seed sizes the space as 2^NetOwnerID_Bits
// ("currently 8 bits -> 256 connections"); tickwire takes 10 bits, so one room holds 1,023 clients,
// and an entity handle keeps 22 bits of index per owner (see entity_handle.h).
#pragma once

#include <cstdint>

namespace tickwire {

using OwnerId = uint16_t;
inline constexpr uint32_t kOwnerIdBits = 10;                        // NetOwnerID_Bits
inline constexpr uint32_t kOwnerIdCount = uint32_t{1} << kOwnerIdBits;  // owner ids, the authority's included
inline constexpr OwnerId kAuthorityOwner = 0;
inline constexpr OwnerId kMaxClientOwner = static_cast<OwnerId>(kOwnerIdCount - 1);

// An owner id as a decoder meets it: within the space (the authority's 0 included).
constexpr bool owner_id_in_range(uint32_t owner) { return owner < kOwnerIdCount; }

}  // namespace tickwire
