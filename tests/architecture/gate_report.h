// What a hard gate answers: the violations it found (each naming file, line and rule, so a failing
// run says where to look) and how much it looked at, so a pass that scanned nothing is visible in
// the CI log's one-line summary.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tickwire::arch {

struct Violation {
  std::string rule;    // the gate's name (GateReport::rule)
  std::string file;    // root-relative
  std::size_t line = 0;  // 1-based; 0 for the file as a whole (a missing root, a stale list entry)
  std::string detail;  // what was found and why it breaks the rule

  bool operator==(const Violation&) const = default;
};

inline std::string describe(const Violation& v) {
  return v.file + ":" + std::to_string(v.line) + ": [" + v.rule + "] " + v.detail;
}

struct GateReport {
  explicit GateReport(std::string_view rule_name) : rule(rule_name) {}

  std::string rule;
  std::size_t files_scanned = 0;
  std::size_t edges_checked = 0;
  std::string edges_noun = "include edges";  // what edges_checked counts
  std::vector<Violation> violations;

  void add(const std::string& file, std::size_t line, std::string detail) {
    violations.push_back(Violation{rule, file, line, std::move(detail)});
  }
  // One line for the CI log.
  std::string summary() const {
    return "hard gate " + rule + ": " + std::to_string(files_scanned) + " files scanned, " +
           std::to_string(edges_checked) + " " + edges_noun + " checked, " + std::to_string(violations.size()) +
           " violations";
  }
};

}  // namespace tickwire::arch
