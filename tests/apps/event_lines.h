// The dashboards as the apps tests run them: a key in a temporary folder, a UDP port and an HTTP port
// of loopback; their server-sent-event streams asked for over HTTP/1.0, so the body comes
// unchunked, as an EventSource reads it; each event one JSON line.
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_lines.h"
#include "http_probe.h"

namespace tickwire::test {

struct DashboardCli : KeyedTempDir {
  explicit DashboardCli(const std::string& name) : KeyedTempDir(name) {}
  std::string port = std::to_string(free_port());
  std::string http_port = std::to_string(free_port());  // as the README gives it: a port of loopback
};

// The first whole event after byte `from` of the stream, parsed (null when none came in time).
inline nlohmann::json next_event(TcpProbe& page, std::size_t& from) {
  if (!page.read_until_contains("\n\n", 5000, from)) return nullptr;
  const std::string& all = page.received();
  const std::size_t start = all.find("data: ", from);
  const std::size_t end = all.find("\n\n", start);
  if (start == std::string::npos || end == std::string::npos) return nullptr;
  from = end + 2;
  return nlohmann::json::parse(all.substr(start + 6, end - start - 6), nullptr, false);
}

}  // namespace tickwire::test
