// Resume tokens: a small signed record (version, id, issue and expiry times, room, player, pawn,
// then the HMAC over everything before it), read with every length bounds-checked and the
// signature compared in constant time before anything it says is believed.
#include "tickwire/durable/resume_token.h"

#include <sodium.h>

#include "tickwire/core/assert.h"
#include "tickwire/core/bytes.h"

namespace tickwire::durable {
namespace {

constexpr uint8_t kVersion = 1;
static_assert(kResumeMacBytes == crypto_auth_BYTES && kResumeKeyBytes == crypto_auth_KEYBYTES);

void put_u64(std::vector<uint8_t>& out, uint64_t v) {
  uint8_t le[8];
  store_le<uint64_t>(le, v);
  out.insert(out.end(), le, le + 8);
}

void put_name(std::vector<uint8_t>& out, std::string_view name) {
  out.push_back(static_cast<uint8_t>(name.size()));
  out.insert(out.end(), name.begin(), name.end());
}

// Reads the signed part front to back; any read past the end fails the whole token.
class TokenReader {
 public:
  explicit TokenReader(std::span<const uint8_t> bytes) : bytes_(bytes) {}
  bool ok() const { return ok_; }
  std::size_t at() const { return at_; }
  uint8_t u8() { return take(1) ? bytes_[at_ - 1] : 0; }
  uint64_t u64() { return take(8) ? load_le<uint64_t>(bytes_.data() + at_ - 8) : 0; }
  void copy(std::span<uint8_t> out) {
    if (take(out.size())) std::copy(bytes_.begin() + static_cast<std::ptrdiff_t>(at_ - out.size()), bytes_.begin() + static_cast<std::ptrdiff_t>(at_), out.begin());
  }
  std::string name() {
    const uint8_t n = u8();
    if (n > kMaxResumeNameBytes || !take(n)) {
      ok_ = false;
      return {};
    }
    return std::string(reinterpret_cast<const char*>(bytes_.data() + at_ - n), n);
  }

 private:
  bool take(std::size_t n) {
    if (!ok_ || bytes_.size() - at_ < n) {
      ok_ = false;
      return false;
    }
    at_ += n;
    return true;
  }
  std::span<const uint8_t> bytes_;
  std::size_t at_ = 0;
  bool ok_ = true;
};

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
  out.push_back(kVersion);
  ResumeTokenId id{};
  randombytes_buf(id.data(), id.size());
  out.insert(out.end(), id.begin(), id.end());
  put_u64(out, static_cast<uint64_t>(now.ns()));
  put_u64(out, static_cast<uint64_t>((now + lifetime).ns()));
  put_u64(out, pawn);
  put_name(out, room);
  put_name(out, player);
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
  TokenReader read(signed_part);
  ResumeClaims claims;
  (void)read.u8();  // the version, checked above
  read.copy(claims.id);
  claims.issued_at = WallTime::from_ns(static_cast<int64_t>(read.u64()));
  claims.expires_at = WallTime::from_ns(static_cast<int64_t>(read.u64()));
  claims.pawn = read.u64();
  claims.room = read.name();
  claims.player = read.name();
  if (!read.ok() || read.at() != signed_part.size()) return ResumeRefusal::malformed;
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
