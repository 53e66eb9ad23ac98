// Private key file and environment loading. The file is created owner-only; the parsed key is
// wiped from the temporary buffers it passed through.
#include "tickwire/transport/key_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>

#include "tickwire/core/hex.h"
#include "tickwire/core/regular_file.h"

namespace tickwire::netcode {

std::optional<Key> parse_private_key(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return std::nullopt;
  const auto last = text.find_last_not_of(" \t\r\n");
  text = text.substr(first, last - first + 1);
  if (text.size() != 2 * kKeyBytes) return std::nullopt;
  auto bytes = from_hex(text);
  if (!bytes || bytes->size() != kKeyBytes) return std::nullopt;
  Key key;
  std::copy(bytes->begin(), bytes->end(), key.begin());
  wipe(*bytes);
  return key;
}

std::string format_private_key(const Key& key) { return to_hex(key); }

bool write_private_key_file(const std::filesystem::path& path, const Key& key, std::string& error) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) {
    error = "cannot create " + path.string();
    return false;
  }
  ::fchmod(fd, 0600);
  std::string text = format_private_key(key) + "\n";
  const ssize_t written = ::write(fd, text.data(), text.size());
  wipe(std::span<uint8_t>(reinterpret_cast<uint8_t*>(text.data()), text.size()));
  const bool ok = written == static_cast<ssize_t>(text.size()) && ::close(fd) == 0;
  if (!ok) error = "cannot write " + path.string();
  return ok;
}

std::optional<Key> read_private_key_file(const std::filesystem::path& path, std::string& error) {
  // Room for the key and a little whitespace; no more (a FIFO or a device is refused, not read).
  FileText file = read_regular_file(path, 2 * kKeyBytes + 16);
  if (!file) {
    error = file.error;
    return std::nullopt;
  }
  auto key = parse_private_key(file.text);
  wipe(std::span<uint8_t>(reinterpret_cast<uint8_t*>(file.text.data()), file.text.size()));
  if (!key) error = path.string() + " does not hold a 64-hex-character key";
  return key;
}

std::optional<Key> load_server_private_key(const std::filesystem::path& path_or_empty, std::string& error) {
  if (!path_or_empty.empty()) return read_private_key_file(path_or_empty, error);
  const char* env = std::getenv(kPrivateKeyEnv);
  if (env == nullptr) {
    error = std::string("no key file given and ") + kPrivateKeyEnv + " is not set";
    return std::nullopt;
  }
  auto key = parse_private_key(env);
  if (!key) error = std::string(kPrivateKeyEnv) + " does not hold a 64-hex-character key";
  return key;
}

}  // namespace tickwire::netcode
