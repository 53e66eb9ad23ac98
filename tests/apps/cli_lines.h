// What the CLI tests share when they run the server and its bots as processes: a free loopback
// port to give the server, the CLI's JSON lines of one type picked out of a child's stdout, and a
// temporary folder holding a fresh key from `tickwire keygen`.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "child_process.h"
#include "tickwire/transport/udp_socket.h"

namespace tickwire::test {

inline uint16_t free_port() {
  UdpOpenResult opened = UdpSocket::open(*Address::parse("127.0.0.1:0"));
  return opened ? opened.socket->local_address().port() : 0;
}

// Every JSON line of `output` whose "type" is `type`, in order (a partial last line is not one).
inline std::vector<nlohmann::json> lines_of(const std::string& output, const std::string& type) {
  std::vector<nlohmann::json> found;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_discarded() && j.is_object() && j.value("type", "") == type) found.push_back(j);
  }
  return found;
}

// The last of them (null when there is none).
inline nlohmann::json last_line(const std::string& output, const std::string& type) {
  auto found = lines_of(output, type);
  return found.empty() ? nlohmann::json() : found.back();
}

// A temporary folder named for the test process, with a key made by `tickwire keygen` in it;
// removed with everything in it at the end.
struct KeyedTempDir {
  explicit KeyedTempDir(const std::string& name)
      : dir(std::filesystem::temp_directory_path() / (name + "-" + std::to_string(getpid()))) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    ChildProcess keygen;
    EXPECT_TRUE(keygen.spawn(TICKWIRE_CLI_PATH, {"keygen", "--out", key().string()}));
    for (int i = 0; i < 1000 && keygen.running(); ++i) usleep(10'000);
    EXPECT_EQ(keygen.stop(), 0);
  }
  ~KeyedTempDir() { std::filesystem::remove_all(dir); }
  KeyedTempDir(const KeyedTempDir&) = delete;
  KeyedTempDir& operator=(const KeyedTempDir&) = delete;
  std::filesystem::path key() const { return dir / "server.key"; }
  std::filesystem::path dir;
};

}  // namespace tickwire::test
