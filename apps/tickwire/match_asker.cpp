// The matchmaker asks' worker (match_asker.h): asks in, replies out, one HTTP exchange at a time.
#include "match_asker.h"

#include <utility>

#include "tickwire/core/assert.h"
#include "tickwire/fleet/http_get.h"

namespace tickwire::cli {

MatchAsker::MatchAsker(std::string host_port, std::size_t max_outstanding, Duration timeout)
    : host_port_(std::move(host_port)), max_outstanding_(max_outstanding), timeout_(timeout) {
  TW_ASSERT(max_outstanding_ > 0, "an ask queue holds at least one ask");
  replies_.reserve(max_outstanding_);
  worker_ = std::thread([this] { run(); });
}

MatchAsker::~MatchAsker() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
    asks_.clear();
  }
  wake_.notify_one();
  worker_.join();
}

bool MatchAsker::post(MatchAsk ask) {
  {
    const std::lock_guard lock(mutex_);
    if (outstanding_ >= max_outstanding_) return false;
    ++outstanding_;
    asks_.push_back(std::move(ask));
  }
  wake_.notify_one();
  return true;
}

std::vector<MatchReply> MatchAsker::take_replies() {
  std::vector<MatchReply> taken;
  const std::lock_guard lock(mutex_);
  taken.swap(replies_);
  outstanding_ -= taken.size();
  replies_.reserve(max_outstanding_);
  return taken;
}

void MatchAsker::run() {
  for (;;) {
    MatchAsk ask;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !asks_.empty(); });
      if (stopping_) return;
      ask = std::move(asks_.front());
      asks_.pop_front();
    }
    MatchReply reply;
    reply.bot = ask.bot;
    reply.kind = ask.kind;
    const fleet::HttpGetResult got = fleet::http_get(host_port_, ask.target, timeout_);
    if (got) reply.reading = read_match_answer(got.response.status, got.response.body);
    else reply.failure = got.failure;
    const std::lock_guard lock(mutex_);
    replies_.push_back(std::move(reply));  // within max_outstanding_: every reply's ask was counted in
  }
}

}  // namespace tickwire::cli
