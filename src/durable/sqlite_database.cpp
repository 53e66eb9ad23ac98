// The SQLite backend of SqlDatabase: one connection to one file, in WAL mode with a busy timeout
// (several processes may share a data directory), statements prepared per call.
#include <sqlite3.h>

#include <utility>

#include "sql_database.h"

namespace tickwire::durable::detail {
namespace {

constexpr int kBusyTimeoutMs = 5000;

class SqliteDatabase final : public SqlDatabase {
 public:
  explicit SqliteDatabase(sqlite3* db) : db_(db) {}
  ~SqliteDatabase() override { sqlite3_close_v2(db_); }
  SqliteDatabase(const SqliteDatabase&) = delete;
  SqliteDatabase& operator=(const SqliteDatabase&) = delete;

  std::string_view dialect() const override { return "sqlite"; }

  StoreResult<SqlRows> run(std::string_view sql, std::span<const SqlValue> params) override {
    const std::string text = numbered_placeholders(sql);
    sqlite3_stmt* raw = nullptr;
    if (sqlite3_prepare_v2(db_, text.c_str(), static_cast<int>(text.size()), &raw, nullptr) != SQLITE_OK) return failure();
    const std::unique_ptr<sqlite3_stmt, decltype(&sqlite3_finalize)> stmt(raw, sqlite3_finalize);
    for (std::size_t i = 0; i < params.size(); ++i) {
      const int at = static_cast<int>(i + 1);
      const SqlValue& p = params[i];
      int rc = SQLITE_OK;
      if (const auto* n = std::get_if<int64_t>(&p)) {
        rc = sqlite3_bind_int64(raw, at, *n);
      } else if (const auto* s = std::get_if<std::string>(&p)) {
        rc = sqlite3_bind_text64(raw, at, s->data(), s->size(), SQLITE_TRANSIENT, SQLITE_UTF8);
      } else if (const auto* b = std::get_if<std::vector<uint8_t>>(&p)) {
        // No bytes is an empty blob, not NULL (a null pointer would bind NULL).
        rc = b->empty() ? sqlite3_bind_zeroblob(raw, at, 0) : sqlite3_bind_blob64(raw, at, b->data(), b->size(), SQLITE_TRANSIENT);
      } else {
        rc = sqlite3_bind_null(raw, at);
      }
      if (rc != SQLITE_OK) return failure();
    }
    SqlRows out;
    for (;;) {
      const int rc = sqlite3_step(raw);
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW) return failure();
      SqlRow row;
      const int columns = sqlite3_column_count(raw);
      for (int c = 0; c < columns; ++c) row.push_back(column(raw, c));
      out.rows.push_back(std::move(row));
    }
    out.changed = static_cast<uint64_t>(sqlite3_changes64(db_));
    return out;
  }

  StoreStatus script(std::string_view sql) override {
    const std::string text(sql);
    char* message = nullptr;
    if (sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &message) == SQLITE_OK) return StoreOk{};
    StoreFailure f = classify_failure(message != nullptr ? message : "sqlite3_exec failed", false);
    sqlite3_free(message);
    return f;
  }

  StoreStatus begin() override { return script("BEGIN IMMEDIATE"); }
  StoreStatus commit() override { return script("COMMIT"); }
  void rollback() override { (void)script("ROLLBACK"); }

 private:
  // $1, $2 ... as SQLite numbers them: ?1, ?2 ...
  static std::string numbered_placeholders(std::string_view sql) {
    std::string out(sql);
    for (char& c : out)
      if (c == '$') c = '?';
    return out;
  }

  static SqlValue column(sqlite3_stmt* stmt, int c) {
    switch (sqlite3_column_type(stmt, c)) {
      case SQLITE_INTEGER: return SqlValue{static_cast<int64_t>(sqlite3_column_int64(stmt, c))};
      case SQLITE_TEXT: {
        const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt, c));
        return SqlValue{std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt, c)))};
      }
      case SQLITE_BLOB: {
        const auto* p = static_cast<const uint8_t*>(sqlite3_column_blob(stmt, c));
        const auto n = static_cast<std::size_t>(sqlite3_column_bytes(stmt, c));
        return SqlValue{p == nullptr ? std::vector<uint8_t>{} : std::vector<uint8_t>(p, p + n)};
      }
      default: return SqlValue{};
    }
  }

  StoreFailure failure() const {
    const int extended = sqlite3_extended_errcode(db_);
    return classify_failure(sqlite3_errmsg(db_),
                            extended == SQLITE_CONSTRAINT_PRIMARYKEY || extended == SQLITE_CONSTRAINT_UNIQUE);
  }

  sqlite3* db_;
};

}  // namespace

StoreResult<std::unique_ptr<SqlDatabase>> open_sqlite(const std::string& path) {
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    StoreFailure f{StoreRefusal::unavailable, std::string("sqlite: ") + (db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc))};
    sqlite3_close_v2(db);
    return f;
  }
  sqlite3_busy_timeout(db, kBusyTimeoutMs);
  auto database = std::make_unique<SqliteDatabase>(db);
  // WAL: readers never block the writer; synchronous FULL: a committed write survives a power cut,
  // not only a kill -9 (which NORMAL already survives).
  if (auto f = failure_of(database->script("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;")))
    return *f;
  return std::unique_ptr<SqlDatabase>(std::move(database));
}

}  // namespace tickwire::durable::detail
