// A strict reader of the Prometheus text exposition format (0.0.4) for the tests: every line must
// be a # HELP, a # TYPE or a sample of the family they opened, names and values must follow the
// grammar, label values must be escaped. It reads back what fleet/prometheus_text.h writes, so a
// test can check a whole /metrics answer line by line, and says which line broke which rule.
#pragma once

#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace tickwire::test {

struct ExpositionSample {
  std::string name;
  std::map<std::string, std::string> labels;  // unescaped values
  std::string value;                          // as written
};

struct Exposition {
  std::map<std::string, std::string> types;  // family -> counter | gauge | histogram
  std::map<std::string, std::string> helps;  // family -> help (unescaped)
  std::vector<ExpositionSample> samples;
  std::string error;  // empty when every line followed the grammar: "line 7: ..."
  // The samples of `family` whose labels include `labels`.
  std::vector<ExpositionSample> find(const std::string& family, const std::map<std::string, std::string>& labels = {}) const {
    std::vector<ExpositionSample> found;
    for (const ExpositionSample& s : samples) {
      bool match = s.name == family;
      for (const auto& [k, v] : labels) match = match && s.labels.count(k) && s.labels.at(k) == v;
      if (match) found.push_back(s);
    }
    return found;
  }
};

namespace exposition_detail {

inline bool name_char(char c, bool first, bool colon) {
  const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (colon && c == ':');
  return letter || (!first && c >= '0' && c <= '9');
}
// Reads a name at `at`; empty when none.
inline std::string read_name(std::string_view line, std::size_t& at, bool colon) {
  const std::size_t begin = at;
  while (at < line.size() && name_char(line[at], at == begin, colon)) ++at;
  return std::string(line.substr(begin, at - begin));
}
inline bool valid_value(const std::string& v) {
  if (v == "NaN" || v == "+Inf" || v == "-Inf") return true;
  if (v.empty()) return false;
  char* end = nullptr;
  (void)std::strtod(v.c_str(), &end);
  const bool digits_only = v.find_first_not_of("0123456789.eE+-") == std::string::npos;
  return end == v.c_str() + v.size() && digits_only;
}
// Unescapes a label value from after its opening quote to its closing one; false on a bad escape,
// a raw newline or no closing quote.
inline bool read_label_value(std::string_view line, std::size_t& at, std::string& out) {
  while (at < line.size()) {
    const char c = line[at++];
    if (c == '"') return true;
    if (c == '\n') return false;
    if (c != '\\') {
      out += c;
      continue;
    }
    if (at >= line.size()) return false;
    const char e = line[at++];
    if (e == '\\') out += '\\';
    else if (e == '"') out += '"';
    else if (e == 'n') out += '\n';
    else return false;
  }
  return false;
}
inline std::string unescape_help(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && (text[i + 1] == '\\' || text[i + 1] == 'n')) {
      out += text[++i] == 'n' ? '\n' : '\\';
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace exposition_detail

inline Exposition parse_exposition(const std::string& text) {
  using namespace exposition_detail;
  Exposition e;
  std::string open;  // the family whose samples may follow
  std::set<std::string> closed;
  std::size_t number = 0;
  const auto fail = [&](const std::string& why) {
    e.error = "line " + std::to_string(number) + ": " + why;
    return e;
  };
  if (!text.empty() && text.back() != '\n') return fail("the text does not end with a newline");
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    ++number;
    std::size_t at = 0;
    if (line.rfind("# HELP ", 0) == 0 || line.rfind("# TYPE ", 0) == 0) {
      const bool help = line[2] == 'H';
      at = 7;
      const std::string name = read_name(line, at, true);
      if (name.empty() || at >= line.size() || line[at] != ' ') return fail("a name and a space after # HELP/# TYPE");
      const std::string rest = line.substr(at + 1);
      if (help) {
        if (open != name) {
          if (!open.empty()) closed.insert(open);
          if (closed.count(name) || e.helps.count(name)) return fail("family " + name + " written twice");
          open = name;
        }
        e.helps[name] = unescape_help(rest);
      } else {
        if (name != open || e.types.count(name)) return fail("# TYPE " + name + " not right after its # HELP");
        if (rest != "counter" && rest != "gauge" && rest != "histogram") return fail("type " + rest);
        e.types[name] = rest;
      }
      continue;
    }
    if (!line.empty() && line[0] == '#') return fail("a comment that is neither # HELP nor # TYPE");
    ExpositionSample s;
    s.name = read_name(line, at, true);
    // A histogram's samples are its name with _bucket (each with an le label), _sum and _count.
    const bool histogram = e.types.count(open) && e.types.at(open) == "histogram";
    const bool of_histogram = histogram && (s.name == open + "_bucket" || s.name == open + "_sum" || s.name == open + "_count");
    if (s.name.empty() || (s.name != open && !of_histogram) || !e.types.count(open) || (histogram && !of_histogram)) {
      return fail("sample \"" + s.name + "\" outside its family");
    }
    if (at < line.size() && line[at] == '{') {
      ++at;
      while (at < line.size() && line[at] != '}') {
        const std::string label = read_name(line, at, false);
        if (label.empty() || label.rfind("__", 0) == 0) return fail("label name");
        if (at + 1 >= line.size() || line[at] != '=' || line[at + 1] != '"') return fail("=\" after label " + label);
        at += 2;
        std::string value;
        if (!read_label_value(line, at, value)) return fail("label value of " + label);
        if (!s.labels.emplace(label, value).second) return fail("label " + label + " twice");
        if (at < line.size() && line[at] == ',') ++at;
        else if (at < line.size() && line[at] != '}') return fail("',' or '}' after a label");
      }
      if (at >= line.size()) return fail("no '}'");
      ++at;
    }
    if (at >= line.size() || line[at] != ' ') return fail("a space before the value");
    s.value = line.substr(at + 1);
    if (!valid_value(s.value)) return fail("value \"" + s.value + "\"");
    if (s.name == open + "_bucket" && !s.labels.count("le")) return fail("a bucket without its le label");
    e.samples.push_back(std::move(s));
  }
  return e;
}

}  // namespace tickwire::test
