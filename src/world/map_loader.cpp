// The map file boundary. The text is capped before parsing; the parse itself is watched (nesting
// depth, number of values, a field named twice in one object) so a hostile file cannot make the
// JSON library build an unbounded document; every exception the library throws is caught here and
// becomes a MapError.
#include "tickwire/world/map_loader.h"

#include <set>
#include <vector>

#include "map_json_reader.h"
#include "tickwire/core/regular_file.h"

namespace tickwire::world {
namespace {

using json = nlohmann::json;

constexpr std::size_t kErrorDetailBytes = 160;  // how much of a library message an error keeps

// Thrown from the parse callback to stop a parse that broke a limit; caught in load_map.
struct ParseLimit {
  MapError error;
};

// A library message without its "[json.exception...] " prefix, shortened, odd bytes as '?'.
std::string printable_excerpt(const char* what) {
  std::string_view text(what);
  if (auto end = text.find("] "); text.starts_with("[json.exception") && end != std::string_view::npos)
    text.remove_prefix(end + 2);
  std::string out(text.substr(0, kErrorDetailBytes));
  for (char& c : out)
    if (c < 0x20 || c > 0x7e) c = '?';
  return out;
}

// Watches the parse: depth, value count and duplicate fields (the library would keep the last).
class ParseWatch {
 public:
  bool operator()(int depth, json::parse_event_t event, json& parsed) {
    if (depth < 0 || std::size_t(depth) > kMaxMapJsonDepth)
      throw ParseLimit{{MapErrorCode::json_too_deep, "", "JSON nested deeper than " + std::to_string(kMaxMapJsonDepth)}};
    if (++values_ > kMaxMapJsonValues)
      throw ParseLimit{{MapErrorCode::json_too_many_values, "", "more than " + std::to_string(kMaxMapJsonValues) + " JSON values"}};
    switch (event) {
      case json::parse_event_t::object_start: fields_.emplace_back(); break;
      case json::parse_event_t::object_end:
        if (!fields_.empty()) fields_.pop_back();
        break;
      case json::parse_event_t::key:
        if (!fields_.empty() && !fields_.back().insert(parsed.get<std::string>()).second)
          throw ParseLimit{{MapErrorCode::duplicate_field, "", "field \"" + printable_excerpt(parsed.get_ref<const std::string&>().c_str()) +
                                                                  "\" appears twice in one object"}};
        break;
      default: break;
    }
    return true;
  }

 private:
  std::size_t values_ = 0;
  std::vector<std::set<std::string>> fields_;  // field names of each open object
};

MapResult<json> parse_json(std::string_view text) {
  ParseWatch watch;
  auto callback = [&watch](int depth, json::parse_event_t event, json& parsed) { return watch(depth, event, parsed); };
  try {
    return json::parse(text.begin(), text.end(), callback, /*allow_exceptions=*/true, /*ignore_comments=*/false);
  } catch (const ParseLimit& limit) {
    return limit.error;
  } catch (const json::parse_error& e) {
    return MapError{MapErrorCode::json_syntax, "", printable_excerpt(e.what())};
  } catch (const json::out_of_range& e) {  // a number past the double range
    return MapError{MapErrorCode::not_finite, "", printable_excerpt(e.what())};
  }
}

MapResult<Map> load_map_unguarded(std::string_view json_text) {
  if (json_text.size() > kMaxMapFileBytes)
    return MapError{MapErrorCode::file_too_large, "",
                    std::to_string(json_text.size()) + " bytes, at most " + std::to_string(kMaxMapFileBytes) + " allowed"};
  auto root = parse_json(json_text);
  if (!root) return root.error();
  auto content = detail::read_map_json(*root);
  if (!content) return content.error();
  return Map::build(std::move(content).value());
}

}  // namespace

MapResult<Map> load_map(std::string_view json_text) {
  try {
    return load_map_unguarded(json_text);
  } catch (const std::exception& e) {
    return MapError{MapErrorCode::unexpected, "", printable_excerpt(e.what())};
  }
}

MapResult<Map> load_map_file(const std::filesystem::path& path) {
  const FileText file = read_regular_file(path, kMaxMapFileBytes);
  if (!file) {
    const bool too_large = file.problem == FileProblem::too_large;
    return MapError{too_large ? MapErrorCode::file_too_large : MapErrorCode::file_unreadable, "", file.error};
  }
  return load_map(file.text);
}

}  // namespace tickwire::world
