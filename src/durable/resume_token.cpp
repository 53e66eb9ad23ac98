// Resume tokens: a small signed record (version, id, issue and expiry times, room, player, pawn,
// then the HMAC over everything before it), read with every length bounds-checked and the
// signature compared in constant time before anything it says is believed.
#include "tickwire/durable/resume_token.h"

#include <sodium.h>

#include "tickwire/core/assert.h"
#include "tickwire/core/byte_record.h"

namespace tickwire::durable {
namespace {

constexpr uint8_t kVersion = 1;
static_assert(kResumeMacBytes == crypto_auth_BYTES && kResumeKeyBytes == crypto_auth_KEYBYTES);

}  // namespace

ResumeKey random_resume_key() {
  TW_ASSERT(sodium_init() >= 0, "libsodium initialises");
  ResumeKey key{};
  crypto_auth_keygen(key.data());
  return key;
}

std::optional<std::vector<uint8_t>> ResumeTokens::issue(std::string_view room, std::string_view player, uint64_t pawn,
                                                        WallTime now, Duration lifetime) const {
  if (room.size() > kMaxResumeNameBytes || player.size() > kMaxResumeNameBytes || lifetime.ns() <= 0 ||
      lifetime > kMaxResumeLifetime)
    return std::nullopt;
  TW_ASSERT(sodium_init() >= 0, "libsodium initialises");
  std::vector<uint8_t> out;
  out.reserve(kMaxResumeTokenBytes);
  ByteRecordWriter write(out);
  write.u8(kVersion);
  ResumeTokenId id{};
  randombytes_buf(id.data(), id.size());
  write.raw(id);
  write.u64(static_cast<uint64_t>(now.ns()));
  write.u64(static_cast<uint64_t>((now + lifetime).ns()));
  write.u64(pawn);
  write.name(room);
  write.name(player);
  uint8_t mac[kResumeMacBytes];
  crypto_auth(mac, out.data(), out.size(), key_.data());
  out.insert(out.end(), mac, mac + kResumeMacBytes);
  return out;
}

std::variant<ResumeClaims, ResumeRefusal> ResumeTokens::check(std::span<const uint8_t> token, std::string_view room,
                                                              WallTime now) const {
  if (token.size() < 1 + kResumeMacBytes || token.size() > kMaxResumeTokenBytes || token[0] != kVersion)
    return ResumeRefusal::malformed;
  const std::span<const uint8_t> signed_part = token.first(token.size() - kResumeMacBytes);
  // The signature before anything the token says: a forged token is refused as forged, whatever it claims.
  TW_ASSERT(sodium_init() >= 0, "libsodium initialises");
  if (crypto_auth_verify(token.data() + signed_part.size(), signed_part.data(), signed_part.size(), key_.data()) != 0)
    return ResumeRefusal::forged;
  ByteRecordReader read(signed_part);
  ResumeClaims claims;
  (void)read.u8();  // the version, checked above
  const std::span<const uint8_t> id = read.raw(claims.id.size());
  std::copy(id.begin(), id.end(), claims.id.begin());
  claims.issued_at = WallTime::from_ns(static_cast<int64_t>(read.u64()));
  claims.expires_at = WallTime::from_ns(static_cast<int64_t>(read.u64()));
  claims.pawn = read.u64();
  claims.room = read.name(kMaxResumeNameBytes);
  claims.player = read.name(kMaxResumeNameBytes);
  if (!read.done()) return ResumeRefusal::malformed;
  if (claims.room != room) return ResumeRefusal::foreign;
  if (now >= claims.expires_at || now < claims.issued_at) return ResumeRefusal::expired;
  return claims;
}

std::variant<ResumeClaims, ResumeRefusal> ResumeTokens::redeem(std::span<const uint8_t> token, std::string_view room,
                                                               WallTime now, Store& store) const {
  auto checked = check(token, room, now);
  const auto* claims = std::get_if<ResumeClaims>(&checked);
  if (claims == nullptr) return checked;
  const StoreStatus used = store.use_resume_token(room, claims->id, claims->expires_at, now);
  if (const StoreFailure* f = store_failure(used))
    return f->reason == StoreRefusal::duplicate ? ResumeRefusal::replayed : ResumeRefusal::unavailable;
  return checked;
}

}  // namespace tickwire::durable
