// A bot process's one line to the matchmaker: a worker thread that runs the bots' HTTP asks
// (fleet::http_get, blocking) one at a time and reads each answer, so the frame loop never waits
// on a socket. The loop posts asks and takes the replies each frame; at most `max_outstanding` asks
// are in the system at once (posted and not yet taken back), and a post past that is refused.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "match_answer.h"
#include "tickwire/clock/time.h"
#include "tickwire/fleet/http_response.h"

namespace tickwire::cli {

enum class MatchAskKind : uint8_t { match, resume, leave };

struct MatchAsk {
  uint32_t bot = 0;
  MatchAskKind kind = MatchAskKind::match;
  std::string target;  // "/match?actor=1000", already encoded
};

struct MatchReply {
  uint32_t bot = 0;
  MatchAskKind kind = MatchAskKind::match;
  std::optional<fleet::HttpGetFailure> failure;  // set: no answer came back
  MatchReading reading;                          // when one did
};

class MatchAsker {
 public:
  MatchAsker(std::string host_port, std::size_t max_outstanding, Duration timeout);
  ~MatchAsker();  // takes no more asks, lets the one in flight end (within its timeout), joins
  MatchAsker(const MatchAsker&) = delete;
  MatchAsker& operator=(const MatchAsker&) = delete;

  // False when `max_outstanding` asks are in the system already (nothing queued).
  bool post(MatchAsk ask);
  // The replies since the last call, in the order their asks were posted.
  std::vector<MatchReply> take_replies();

 private:
  void run();

  const std::string host_port_;
  const std::size_t max_outstanding_;
  const Duration timeout_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<MatchAsk> asks_;       // waiting for the worker
  std::vector<MatchReply> replies_;  // waiting for the loop
  std::size_t outstanding_ = 0;      // posted, not yet taken back
  bool stopping_ = false;
  std::thread worker_;  // last: started once everything above is ready
};

}  // namespace tickwire::cli
