// A query value as it may stand in a request target: every byte but RFC 3986's unreserved ones
// (letters, digits, "-._~") percent-encoded, so a room id or a ticket with any byte in it reaches
// the endpoint's decoder (fleet/http_route.h's HttpQuery) as it was.
#pragma once

#include <string>
#include <string_view>

namespace tickwire::fleet {

std::string encode_query_value(std::string_view value);

}  // namespace tickwire::fleet
