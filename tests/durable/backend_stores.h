// The durable tests' stores, on either backend, each a real database: SQLite in a fresh temporary
// directory, PostgreSQL a fresh database of the throwaway cluster the test binary shares
// (pg_cluster.h). Opened as many times as a test has processes to stand for.
#pragma once

#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

#include "pg_cluster.h"
#include "tickwire/durable/store.h"

namespace tickwire::durable::test_support {

class BackendStores {
 public:
  // `backend`: "sqlite" or "postgresql". On failure url() is empty and why() says why.
  explicit BackendStores(const std::string& backend) : backend_(backend) {
    static int made = 0;
    if (backend == "sqlite") {
      dir_ = std::filesystem::temp_directory_path() /
             ("tickwire-store-" + std::to_string(getpid()) + "-" + std::to_string(++made));
      std::filesystem::remove_all(dir_);
      url_ = "sqlite:" + dir_.string() + "/";
      return;
    }
    test::PgCluster* cluster = test::shared_pg_cluster(&why_);
    if (cluster != nullptr) url_ = cluster->fresh_database();
    if (cluster != nullptr && url_.empty()) why_ = "createdb failed";
  }
  ~BackendStores() {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  BackendStores(const BackendStores&) = delete;
  BackendStores& operator=(const BackendStores&) = delete;

  const std::string& url() const { return url_; }
  const std::string& why() const { return why_; }
  const std::string& backend() const { return backend_; }
  // The SQLite file (empty for PostgreSQL).
  std::filesystem::path sqlite_file() const { return dir_.empty() ? dir_ : dir_ / "tickwire.sqlite3"; }

  // SQL straight at the database, around the store: the backend's error message, or empty.
  std::string raw_sql(const std::string& sql) const {
    if (backend_ == "sqlite") {
      sqlite3* db = nullptr;
      sqlite3_open(sqlite_file().c_str(), &db);
      char* message = nullptr;
      const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
      std::string out = rc == SQLITE_OK ? "" : (message != nullptr ? message : "error");
      sqlite3_free(message);
      sqlite3_close(db);
      return out;
    }
    PGconn* conn = PQconnectdb(url_.c_str());
    PGresult* result = PQexec(conn, sql.c_str());
    const ExecStatusType status = PQresultStatus(result);
    std::string out = status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK ? "" : PQresultErrorMessage(result);
    PQclear(result);
    PQfinish(conn);
    return out;
  }

  // A connection of its own (a process's), or nullptr with a test failure saying why.
  std::unique_ptr<Store> open() const {
    auto opened = open_store(url_);
    const StoreFailure* f = store_failure(opened);
    EXPECT_EQ(f, nullptr) << (f != nullptr ? f->detail : "");
    return f == nullptr ? std::move(std::get<std::unique_ptr<Store>>(opened)) : nullptr;
  }

 private:
  std::string backend_;
  std::filesystem::path dir_;
  std::string url_;
  std::string why_;
};

}  // namespace tickwire::durable::test_support
