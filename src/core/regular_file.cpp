// Open without blocking (O_NONBLOCK: a FIFO's open returns at once), ask the descriptor what it is
// (fstat on the opened file, so the answer is about what will be read), then read at most the cap.
#include "tickwire/core/regular_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include <fmt/format.h>

namespace tickwire {
namespace {

struct Descriptor {
  int fd = -1;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

FileText read_regular_file(const std::filesystem::path& path, std::size_t max_bytes) {
  FileText out;
  const auto fail = [&](FileProblem problem, std::string error) {
    out.text.clear();
    out.problem = problem;
    out.error = std::move(error);
    return out;
  };
  Descriptor file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (file.fd < 0) return fail(FileProblem::cannot_open, fmt::format("cannot open {}: {}", path.string(), std::strerror(errno)));
  struct stat info {};
  if (::fstat(file.fd, &info) != 0 || !S_ISREG(info.st_mode))
    return fail(FileProblem::not_a_regular_file, fmt::format("{} is not a regular file", path.string()));
  if (static_cast<std::size_t>(info.st_size) > max_bytes)
    return fail(FileProblem::too_large, fmt::format("{} is over {} bytes", path.string(), max_bytes));
  out.text.resize(static_cast<std::size_t>(info.st_size));
  std::size_t got = 0;
  while (got < out.text.size()) {
    const ssize_t n = ::read(file.fd, out.text.data() + got, out.text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail(FileProblem::read_failed, fmt::format("cannot read {}: {}", path.string(), std::strerror(errno)));
    if (n == 0) break;  // it shrank while we read: what is there is what we have
    got += static_cast<std::size_t>(n);
  }
  out.text.resize(got);
  return out;
}

}  // namespace tickwire
