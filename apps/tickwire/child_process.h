// A child process (posix_spawn) whose stdout the parent reads through a pipe, stopped and reaped
// by the destructor on every path (SIGTERM, then SIGKILL), so neither `tickwire demo` nor a failing
// test leaves anything running. Header-only: the CLI and the tests share it.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace tickwire::cli {

class ChildProcess {
 public:
  ChildProcess() = default;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess() { stop(); }

  // Starts `path` with `args` (argv[1..]); false when it could not be spawned.
  bool spawn(const std::string& path, const std::vector<std::string>& args) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return false;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    std::vector<std::string> storage;
    storage.push_back(path);
    storage.insert(storage.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& s : storage) argv.push_back(s.data());
    argv.push_back(nullptr);
    const int rc = posix_spawn(&pid_, path.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    if (rc != 0) {
      pid_ = -1;
      close(fds[0]);
      return false;
    }
    stdout_fd_ = fds[0];
    return true;
  }

  // Reads the child's stdout until it contains `needle` or `timeout_ms` passes.
  bool wait_for_output(const std::string& needle, int timeout_ms) {
    return wait_until([&] { return output_.find(needle) != std::string::npos; }, timeout_ms);
  }
  // The same, until the line that starts with `prefix` is whole (its newline read too: the child's
  // stdout arrives in reads that may cut a line anywhere).
  bool wait_for_line(const std::string& prefix, int timeout_ms) {
    return wait_until(
        [&] {
          const std::size_t at = output_.find(prefix);
          return at != std::string::npos && output_.find('\n', at) != std::string::npos;
        },
        timeout_ms);
  }

  // Reads the child's stdout until `done()` or `timeout_ms` passes.
  template <class Done>
  bool wait_until(Done done, int timeout_ms) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (!done()) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0 || stdout_fd_ < 0) return false;
      pollfd p{stdout_fd_, POLLIN, 0};
      if (poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
      char buffer[512];
      const ssize_t n = read(stdout_fd_, buffer, sizeof buffer);
      if (n <= 0) return false;  // the child closed its stdout (exited)
      output_.append(buffer, static_cast<std::size_t>(n));
    }
    return true;
  }

  // SIGTERM, up to 3 s to exit, then SIGKILL; always reaps. Returns the wait status (-1 if none).
  int stop() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      int status = 0;
      bool reaped = false;
      for (int i = 0; i < 300 && !reaped; ++i) {
        reaped = waitpid(pid_, &status, WNOHANG) == pid_;
        if (!reaped) std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      if (!reaped) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
      }
      pid_ = -1;
      status_ = status;
    }
    if (stdout_fd_ >= 0) {
      close(stdout_fd_);
      stdout_fd_ = -1;
    }
    return status_;
  }

  // kill -9 now: no chance to flush or clean up (a crash). Reaps it, then reads what it had written
  // before it died. Returns the wait status.
  int kill_now() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &status_, 0);
      pid_ = -1;
    }
    while (stdout_fd_ >= 0) {
      char buffer[4096];
      const ssize_t n = read(stdout_fd_, buffer, sizeof buffer);
      if (n <= 0) break;
      output_.append(buffer, static_cast<std::size_t>(n));
    }
    return stop();
  }

  const std::string& output() const { return output_; }

  // Reads what the child has written so far without waiting; returns the complete lines since the
  // last call (a partial last line waits for its end).
  std::vector<std::string> read_lines() {
    while (stdout_fd_ >= 0) {
      pollfd p{stdout_fd_, POLLIN, 0};
      if (poll(&p, 1, 0) <= 0) break;
      char buffer[4096];
      const ssize_t n = read(stdout_fd_, buffer, sizeof buffer);
      if (n <= 0) break;
      output_.append(buffer, static_cast<std::size_t>(n));
    }
    std::vector<std::string> lines;
    std::size_t end;
    while ((end = output_.find('\n', consumed_)) != std::string::npos) {
      lines.push_back(output_.substr(consumed_, end - consumed_));
      consumed_ = end + 1;
    }
    return lines;
  }

  // Whether the child is still running (reaps it when it has exited).
  bool running() {
    if (pid_ <= 0) return false;
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      status_ = status;
      return false;
    }
    return true;
  }
  // Asks the child to stop (SIGTERM) without waiting for it.
  void request_stop() {
    if (pid_ > 0) kill(pid_, SIGTERM);
  }

 private:
  pid_t pid_ = -1;
  int stdout_fd_ = -1;
  int status_ = -1;
  std::string output_;
  std::size_t consumed_ = 0;
};

}  // namespace tickwire::cli
