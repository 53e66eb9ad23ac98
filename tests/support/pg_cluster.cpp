// The throwaway PostgreSQL cluster: the server's own tools, run as child processes, their output in
// a log file beside the data (printed when one fails).
#include "pg_cluster.h"

#include <fcntl.h>
#include <pwd.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include <fmt/format.h>

extern char** environ;

namespace tickwire::test {
namespace {

// The newest installed server's binaries (Debian: /usr/lib/postgresql/<major>/bin).
std::filesystem::path server_binaries() {
  std::filesystem::path best;
  int best_major = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/usr/lib/postgresql", ec)) {
    const int major = std::atoi(entry.path().filename().c_str());
    if (major > best_major && std::filesystem::exists(entry.path() / "bin" / "initdb")) {
      best_major = major;
      best = entry.path() / "bin";
    }
  }
  return best;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

PgCluster::PgCluster(std::filesystem::path dir, std::filesystem::path bin, bool as_postgres)
    : dir_(std::move(dir)), bin_(std::move(bin)), as_postgres_(as_postgres) {}

bool PgCluster::run(const std::string& tool, const std::vector<std::string>& args) const {
  std::vector<std::string> argv;
  if (as_postgres_) argv = {"/usr/sbin/runuser", "-u", "postgres", "--"};
  argv.push_back((bin_ / tool).string());
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> raw;
  for (std::string& a : argv) raw.push_back(a.data());
  raw.push_back(nullptr);
  const std::string log = (dir_ / "tools.log").string();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0666);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, raw[0], &actions, nullptr, raw.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return false;
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return false;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

std::unique_ptr<PgCluster> PgCluster::start(std::string* why) {
  const std::filesystem::path bin = server_binaries();
  if (bin.empty()) {
    *why = "no PostgreSQL server under /usr/lib/postgresql (scripts/install-deps installs it)";
    return nullptr;
  }
  std::string pattern = (std::filesystem::temp_directory_path() / "tickwire-pg-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    *why = "mkdtemp failed";
    return nullptr;
  }
  const bool root = geteuid() == 0;
  if (root) {
    const passwd* postgres = getpwnam("postgres");
    if (postgres == nullptr || chown(pattern.c_str(), postgres->pw_uid, postgres->pw_gid) != 0) {
      *why = "running as root, and no postgres account to run the cluster as";
      std::filesystem::remove_all(pattern);
      return nullptr;
    }
  }
  std::unique_ptr<PgCluster> cluster(new PgCluster(pattern, bin, root));
  const std::string data = (cluster->dir_ / "data").string();
  if (!cluster->run("initdb", {"-D", data, "-A", "trust", "-U", "tickwire", "-E", "UTF8", "--no-sync", "--no-instructions"})) {
    *why = "initdb failed: " + read_file(cluster->dir_ / "tools.log");
    return nullptr;
  }
  // A socket in the directory and no TCP at all; fsync off (a test's data need not outlive a power cut).
  const std::string options = "-k " + cluster->dir_.string() + " -c listen_addresses= -F";
  if (!cluster->run("pg_ctl", {"-D", data, "-l", (cluster->dir_ / "server.log").string(), "-o", options, "-w", "-t", "60", "start"})) {
    *why = "pg_ctl start failed: " + read_file(cluster->dir_ / "server.log");
    return nullptr;
  }
  cluster->running_ = true;
  return cluster;
}

PgCluster::~PgCluster() {
  if (running_) (void)run("pg_ctl", {"-D", (dir_ / "data").string(), "-m", "immediate", "-w", "stop"});
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

std::string PgCluster::url(std::string_view database) const {
  return "postgresql:///" + std::string(database) + "?host=" + dir_.string() + "&user=tickwire";
}

std::string PgCluster::fresh_database() {
  std::string name = fmt::format("t{}_{}", getpid(), ++databases_);
  if (!run("createdb", {"-h", dir_.string(), "-U", "tickwire", name})) return {};
  return url(name);
}

PgCluster* shared_pg_cluster(std::string* why) {
  static std::string failure;
  static const std::unique_ptr<PgCluster> cluster = PgCluster::start(&failure);
  if (!cluster) *why = failure;
  return cluster.get();
}

}  // namespace tickwire::test
