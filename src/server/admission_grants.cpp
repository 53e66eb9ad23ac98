// Admission grants in a connect token's user data: a tag, a flags byte, then (with kGrantResume) a
// length byte and the resume token.
#include "tickwire/server/admission_grants.h"

#include <algorithm>

namespace tickwire {
namespace {

constexpr std::size_t kFlagsAt = kAdmissionGrantsTag.size();
constexpr std::size_t kResumeLengthAt = kFlagsAt + 1;

}  // namespace

AdmissionGrants read_admission_grants(const netcode::UserData& user_data) {
  AdmissionGrants grants;
  if (!std::equal(kAdmissionGrantsTag.begin(), kAdmissionGrantsTag.end(), user_data.begin())) return grants;
  const uint8_t flags = user_data[kFlagsAt];
  grants.world_authority = (flags & kGrantWorldAuthority) != 0;
  if ((flags & kGrantResume) != 0) {
    // The length byte can name at most 255 bytes, the room left past it is 250: a longer claim is
    // read as the cut-short token it is (and refused as malformed by whoever checks it).
    const std::size_t length = std::min<std::size_t>(user_data[kResumeLengthAt], kMaxGrantedResumeTokenBytes);
    const auto first = user_data.begin() + static_cast<std::ptrdiff_t>(kResumeLengthAt + 1);
    grants.resume_token.assign(first, first + static_cast<std::ptrdiff_t>(length));
  }
  return grants;
}

bool write_admission_grants(const AdmissionGrants& grants, netcode::UserData& user_data) {
  if (grants.resume_token.size() > kMaxGrantedResumeTokenBytes) return false;
  std::copy(kAdmissionGrantsTag.begin(), kAdmissionGrantsTag.end(), user_data.begin());
  uint8_t flags = grants.world_authority ? kGrantWorldAuthority : uint8_t{0};
  if (!grants.resume_token.empty()) {
    flags |= kGrantResume;
    user_data[kResumeLengthAt] = static_cast<uint8_t>(grants.resume_token.size());
    std::copy(grants.resume_token.begin(), grants.resume_token.end(),
              user_data.begin() + static_cast<std::ptrdiff_t>(kResumeLengthAt + 1));
  }
  user_data[kFlagsAt] = flags;
  return true;
}

}  // namespace tickwire
