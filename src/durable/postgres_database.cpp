// The PostgreSQL backend of SqlDatabase: one libpq connection, every statement a PQexecParams with
// binary parameters and results (integers as 8-byte big-endian int8, bytes as bytea), so nothing
// is formatted into SQL text and nothing is parsed back out of it.
#include <libpq-fe.h>

#include <cstring>
#include <utility>

#include "sql_database.h"

namespace tickwire::durable::detail {
namespace {

// The type OIDs of the columns the store reads (pg_type.h).
constexpr Oid kBoolOid = 16, kByteaOid = 17, kInt8Oid = 20, kInt2Oid = 21, kInt4Oid = 23, kTextOid = 25, kVarcharOid = 1043;
constexpr const char* kUniqueViolation = "23505";

uint64_t big_endian(const char* p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

class PostgresDatabase final : public SqlDatabase {
 public:
  explicit PostgresDatabase(PGconn* conn) : conn_(conn) {}
  ~PostgresDatabase() override { PQfinish(conn_); }
  PostgresDatabase(const PostgresDatabase&) = delete;
  PostgresDatabase& operator=(const PostgresDatabase&) = delete;

  std::string_view dialect() const override { return "postgresql"; }

  StoreResult<SqlRows> run(std::string_view sql, std::span<const SqlValue> params) override {
    const std::string text(sql);
    std::vector<Oid> types(params.size(), 0);
    std::vector<std::string> storage(params.size());
    std::vector<const char*> values(params.size(), nullptr);
    std::vector<int> lengths(params.size(), 0);
    std::vector<int> formats(params.size(), 1);
    for (std::size_t i = 0; i < params.size(); ++i) {
      const SqlValue& p = params[i];
      if (const auto* n = std::get_if<int64_t>(&p)) {
        types[i] = kInt8Oid;
        storage[i].resize(8);
        const auto u = static_cast<uint64_t>(*n);
        for (int b = 0; b < 8; ++b) storage[i][static_cast<std::size_t>(b)] = static_cast<char>(u >> (56 - 8 * b));
      } else if (const auto* s = std::get_if<std::string>(&p)) {
        types[i] = kTextOid;
        storage[i] = *s;
      } else if (const auto* bytes = std::get_if<std::vector<uint8_t>>(&p)) {
        types[i] = kByteaOid;
        storage[i].assign(bytes->begin(), bytes->end());
      } else {
        continue;  // NULL: no value
      }
      values[i] = storage[i].data();
      lengths[i] = static_cast<int>(storage[i].size());
    }
    PGresult* raw = PQexecParams(conn_, text.c_str(), static_cast<int>(params.size()), types.data(), values.data(),
                                 lengths.data(), formats.data(), 1);
    const std::unique_ptr<PGresult, decltype(&PQclear)> result(raw, PQclear);
    const ExecStatusType status = PQresultStatus(raw);
    if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) return failure(raw);
    SqlRows out;
    const int rows = PQntuples(raw), columns = PQnfields(raw);
    for (int r = 0; r < rows; ++r) {
      SqlRow row;
      for (int c = 0; c < columns; ++c) row.push_back(cell(raw, r, c));
      out.rows.push_back(std::move(row));
    }
    const char* changed = PQcmdTuples(raw);
    out.changed = changed != nullptr && *changed != '\0' ? std::strtoull(changed, nullptr, 10) : 0;
    return out;
  }

  StoreStatus script(std::string_view sql) override {
    const std::string text(sql);
    const std::unique_ptr<PGresult, decltype(&PQclear)> result(PQexec(conn_, text.c_str()), PQclear);
    const ExecStatusType status = PQresultStatus(result.get());
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) return failure(result.get());
    return StoreOk{};
  }

  StoreStatus begin() override { return script("BEGIN"); }
  StoreStatus commit() override { return script("COMMIT"); }
  void rollback() override { (void)script("ROLLBACK"); }

 private:
  static SqlValue cell(const PGresult* result, int r, int c) {
    if (PQgetisnull(result, r, c)) return SqlValue{};
    const char* p = PQgetvalue(result, r, c);
    const int n = PQgetlength(result, r, c);
    switch (PQftype(result, c)) {
      case kInt8Oid: return SqlValue{static_cast<int64_t>(big_endian(p, 8))};
      case kInt4Oid: return SqlValue{static_cast<int64_t>(static_cast<int32_t>(big_endian(p, 4)))};
      case kInt2Oid: return SqlValue{static_cast<int64_t>(static_cast<int16_t>(big_endian(p, 2)))};
      case kBoolOid: return SqlValue{static_cast<int64_t>(n > 0 && p[0] != 0)};
      case kTextOid:
      case kVarcharOid: return SqlValue{std::string(p, static_cast<std::size_t>(n))};
      default: {
        const auto* bytes = reinterpret_cast<const uint8_t*>(p);
        return SqlValue{std::vector<uint8_t>(bytes, bytes + n)};
      }
    }
  }

  StoreFailure failure(const PGresult* result) const {
    const char* state = result != nullptr ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
    const char* message = result != nullptr ? PQresultErrorMessage(result) : nullptr;
    std::string words = message != nullptr && *message != '\0' ? message : PQerrorMessage(conn_);
    while (!words.empty() && (words.back() == '\n' || words.back() == ' ')) words.pop_back();
    return classify_failure(words, state != nullptr && std::strcmp(state, kUniqueViolation) == 0);
  }

  PGconn* conn_;
};

}  // namespace

StoreResult<std::unique_ptr<SqlDatabase>> open_postgres(const std::string& url) {
  PGconn* conn = PQconnectdb(url.c_str());
  if (conn == nullptr || PQstatus(conn) != CONNECTION_OK) {
    StoreFailure f{StoreRefusal::unavailable, std::string("postgresql: ") + (conn != nullptr ? PQerrorMessage(conn) : "out of memory")};
    while (!f.detail.empty() && f.detail.back() == '\n') f.detail.pop_back();
    PQfinish(conn);
    return f;
  }
  auto database = std::make_unique<PostgresDatabase>(conn);
  // Notices (a table that already exists...) are the server's chatter, not the store's.
  PQsetNoticeProcessor(conn, [](void*, const char*) {}, nullptr);
  if (auto f = failure_of(database->script("SET client_min_messages = warning"))) return *f;
  return std::unique_ptr<SqlDatabase>(std::move(database));
}

}  // namespace tickwire::durable::detail
