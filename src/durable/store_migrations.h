// The store's versioned schema (store_migrations.cpp): applied at open, refused when newer than
// this build's.
#pragma once

#include <cstdint>

#include "sql_database.h"

namespace tickwire::durable::detail {

uint32_t latest_schema_version();
// Applies every migration the database lacks; its schema version after.
StoreResult<uint32_t> migrate(SqlDatabase& db);

}  // namespace tickwire::durable::detail
