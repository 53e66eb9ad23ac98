// SqlDatabase: the little a store needs of a SQL database, over both backends, so the store's
// statements are written once: run one statement with typed parameters ($1, $2 ... in the text;
// SQLite's ?1, ?2 are the same numbers) and read its rows back typed, run a script, and group
// statements in a transaction. Each backend maps its own errors onto the store's refusals: the
// triggers' named refusals (tw_stale_fence, tw_epoch_downgrade, tw_wrong_epoch) and a primary key
// taken (duplicate); anything else is `unavailable` with the backend's words.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tickwire/durable/store.h"

namespace tickwire::durable::detail {

// A parameter or a column: NULL, an integer (64-bit), text, or bytes.
using SqlValue = std::variant<std::monostate, int64_t, std::string, std::vector<uint8_t>>;
using SqlRow = std::vector<SqlValue>;

struct SqlRows {
  std::vector<SqlRow> rows;
  uint64_t changed = 0;  // rows an INSERT, UPDATE or DELETE touched
};

class SqlDatabase {
 public:
  virtual ~SqlDatabase() = default;
  virtual std::string_view dialect() const = 0;  // "sqlite" or "postgresql"
  virtual StoreResult<SqlRows> run(std::string_view sql, std::span<const SqlValue> params) = 0;
  // Several statements, no parameters (a migration).
  virtual StoreStatus script(std::string_view sql) = 0;
  // A transaction that serialises with every other writer of the database (SQLite: BEGIN
  // IMMEDIATE; PostgreSQL: SERIALIZABLE is not needed, each statement locks the rows it needs).
  virtual StoreStatus begin() = 0;
  virtual StoreStatus commit() = 0;
  virtual void rollback() = 0;
};

// The refusal a trigger's message or a constraint names, or `unavailable`.
StoreFailure classify_failure(std::string_view message, bool unique_violation);

StoreResult<std::unique_ptr<SqlDatabase>> open_sqlite(const std::string& path);
StoreResult<std::unique_ptr<SqlDatabase>> open_postgres(const std::string& url);

// A connection to the database a store URL names (open_store's forms), its schema migrated.
struct MigratedDatabase {
  std::unique_ptr<SqlDatabase> db;
  uint32_t schema_version = 0;
};
StoreResult<MigratedDatabase> open_migrated(std::string_view url);

int64_t sql_int(const SqlValue& v);                       // 0 for anything but an integer
std::vector<uint8_t> sql_bytes(SqlValue&& v);             // empty for anything but bytes (or text)
std::string sql_text(const SqlValue& v);                  // empty for anything but text

}  // namespace tickwire::durable::detail
