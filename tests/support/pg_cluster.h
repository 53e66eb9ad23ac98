// A throwaway PostgreSQL cluster for the tests that need a real server (DESIGN.md, "Real parts in
// tests"): initdb into a fresh temporary directory, the server listening on a unix socket in it
// and nowhere else, stopped and removed when the handle goes. Run as root (CI), the cluster runs
// as the postgres account (initdb refuses root). Nothing is mocked: the store's tests talk to it
// through libpq exactly as a fleet would.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tickwire::test {

class PgCluster {
 public:
  // Starts one, or nullptr with the reason in `why` (no server binaries installed, initdb failed).
  static std::unique_ptr<PgCluster> start(std::string* why);
  ~PgCluster();
  PgCluster(const PgCluster&) = delete;
  PgCluster& operator=(const PgCluster&) = delete;

  // A fresh, empty database of the cluster (each test its own), as a postgresql:// URL; empty on failure.
  std::string fresh_database();
  // The URL of an existing database of the cluster.
  std::string url(std::string_view database) const;

 private:
  PgCluster(std::filesystem::path dir, std::filesystem::path bin, bool as_postgres);
  bool run(const std::string& tool, const std::vector<std::string>& args) const;

  std::filesystem::path dir_;  // the socket, the data directory and the server's log
  std::filesystem::path bin_;  // the server's binaries (initdb, pg_ctl, createdb)
  bool as_postgres_;           // commands run as the postgres account
  bool running_ = false;
  int databases_ = 0;
};

// The cluster the whole test binary shares (started on first use, stopped at exit), or nullptr
// with the reason in `why`.
PgCluster* shared_pg_cluster(std::string* why);

}  // namespace tickwire::test
