// Private key at rest: file round trip with owner-only permissions, the environment variable, and
// refusal of anything that is not exactly 64 hex characters.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>

#include "netcode_test_support.h"
#include "tickwire/transport/key_file.h"

namespace tickwire::netcode {
namespace {

std::filesystem::path temp_path(const char* name) {
  return std::filesystem::temp_directory_path() / (std::string("tickwire_") + name + "_" + std::to_string(::getpid()));
}

TEST(KeyFile, WritesOwnerOnlyAndReadsBack) {
  const Key key = test::fixed_key(31);
  const auto path = temp_path("key");
  std::string error;
  ASSERT_TRUE(write_private_key_file(path, key, error)) << error;
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  const auto read = read_private_key_file(path, error);
  ASSERT_TRUE(read.has_value()) << error;
  EXPECT_EQ(*read, key);
  const auto loaded = load_server_private_key(path, error);
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(*loaded, key);
  std::filesystem::remove(path);
  EXPECT_FALSE(read_private_key_file(path, error).has_value());
}

TEST(KeyFile, ParsesOnlySixtyFourHexCharacters) {
  const Key key = test::fixed_key(32);
  const std::string hex = format_private_key(key);
  EXPECT_EQ(hex.size(), 64u);
  EXPECT_EQ(parse_private_key(hex), key);
  EXPECT_EQ(parse_private_key("  " + hex + "\n"), key);
  EXPECT_FALSE(parse_private_key(hex.substr(1)).has_value());
  EXPECT_FALSE(parse_private_key(hex + "00").has_value());
  std::string bad = hex;
  bad[5] = 'g';
  EXPECT_FALSE(parse_private_key(bad).has_value());
  EXPECT_FALSE(parse_private_key("").has_value());
}

TEST(KeyFile, ServerFallsBackToTheEnvironment) {
  const Key key = test::fixed_key(33);
  std::string error;
  ::unsetenv(kPrivateKeyEnv);
  EXPECT_FALSE(load_server_private_key({}, error).has_value());
  ::setenv(kPrivateKeyEnv, format_private_key(key).c_str(), 1);
  const auto loaded = load_server_private_key({}, error);
  ASSERT_TRUE(loaded.has_value()) << error;
  EXPECT_EQ(*loaded, key);
  ::setenv(kPrivateKeyEnv, "not a key", 1);
  EXPECT_FALSE(load_server_private_key({}, error).has_value());
  ::unsetenv(kPrivateKeyEnv);
}

}  // namespace
}  // namespace tickwire::netcode
