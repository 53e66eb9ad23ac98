// The one check every map error table makes: a text is refused with its code at its JSON path, and
// says why in words.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "tickwire/world/map_loader.h"

namespace tickwire::world {

inline void expect_map_refused(const std::string& text, MapErrorCode code, const std::string& path) {
  const auto result = load_map(text);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(map_error_name(result.error().code), map_error_name(code)) << result.error().text();
  EXPECT_EQ(result.error().path, path) << result.error().text();
  EXPECT_FALSE(result.error().message.empty());
}

}  // namespace tickwire::world
