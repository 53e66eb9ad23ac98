// Admission grants in a connect token's user data: a tag, then a flags byte.
#include "tickwire/server/admission_grants.h"

#include <algorithm>

namespace tickwire {

AdmissionGrants read_admission_grants(const netcode::UserData& user_data) {
  AdmissionGrants grants;
  if (!std::equal(kAdmissionGrantsTag.begin(), kAdmissionGrantsTag.end(), user_data.begin())) return grants;
  grants.world_authority = (user_data[kAdmissionGrantsTag.size()] & kGrantWorldAuthority) != 0;
  return grants;
}

void write_admission_grants(const AdmissionGrants& grants, netcode::UserData& user_data) {
  std::copy(kAdmissionGrantsTag.begin(), kAdmissionGrantsTag.end(), user_data.begin());
  user_data[kAdmissionGrantsTag.size()] = grants.world_authority ? kGrantWorldAuthority : uint8_t{0};
}

}  // namespace tickwire
