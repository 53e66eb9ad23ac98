// What a store URL names, opened and migrated: the one place the URL forms are read, shared by
// every seam over the same database (the Store, the fleet directory), so a fleet points all of them
// at one `--store` and each connection finds the schema at this build's version.
#include <fmt/format.h>

#include <filesystem>
#include <utility>

#include "sql_database.h"
#include "store_migrations.h"

namespace tickwire::durable::detail {
namespace {

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// The SQLite file a URL names: a directory (existing, or written with a trailing '/') holds tickwire.sqlite3.
StoreResult<std::string> sqlite_path(std::string_view url) {
  std::string path(starts_with(url, "sqlite:") ? url.substr(7) : url);
  if (path.empty()) return StoreFailure{StoreRefusal::bad_url, "an empty path"};
  std::error_code ec;
  const bool directory = path.back() == '/' || std::filesystem::is_directory(path, ec);
  if (!directory) return path;
  std::filesystem::create_directories(path, ec);
  if (ec) return StoreFailure{StoreRefusal::unavailable, fmt::format("cannot create {}: {}", path, ec.message())};
  return (std::filesystem::path(path) / "tickwire.sqlite3").string();
}

}  // namespace

StoreResult<MigratedDatabase> open_migrated(std::string_view url) {
  StoreResult<std::unique_ptr<SqlDatabase>> db = StoreFailure{};
  if (starts_with(url, "postgresql://") || starts_with(url, "postgres://")) {
    db = open_postgres(std::string(url));
  } else if (url.find("://") != std::string_view::npos) {
    return StoreFailure{StoreRefusal::bad_url, fmt::format("not sqlite:PATH, a path, or postgresql://...: {}", url)};
  } else {
    auto path = sqlite_path(url);
    if (auto* f = store_failure(path)) return *f;
    db = open_sqlite(std::get<std::string>(path));
  }
  if (auto* f = store_failure(db)) return *f;
  auto& database = std::get<std::unique_ptr<SqlDatabase>>(db);
  auto version = migrate(*database);
  if (auto* f = store_failure(version)) return *f;
  return MigratedDatabase{std::move(database), std::get<uint32_t>(version)};
}

}  // namespace tickwire::durable::detail
