// The backend/server private key at rest: a file holding the 32-byte key as 64 hex characters
// (written owner-only), or the TICKWIRE_PRIVATE_KEY environment variable with the same text.
// Whoever holds it can mint connect tokens for every server that trusts it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "tickwire/transport/netcode_crypto.h"

namespace tickwire::netcode {

inline constexpr const char* kPrivateKeyEnv = "TICKWIRE_PRIVATE_KEY";

// Parses 64 hex characters (surrounding whitespace allowed); nullopt on anything else.
std::optional<Key> parse_private_key(std::string_view text);
std::string format_private_key(const Key& key);

// Writes the key as hex + newline with permissions 0600; false (and `error` set) on failure.
bool write_private_key_file(const std::filesystem::path& path, const Key& key, std::string& error);
std::optional<Key> read_private_key_file(const std::filesystem::path& path, std::string& error);
// The server's rule: the file when a path is given, else TICKWIRE_PRIVATE_KEY.
std::optional<Key> load_server_private_key(const std::filesystem::path& path_or_empty, std::string& error);

}  // namespace tickwire::netcode
