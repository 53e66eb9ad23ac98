// The hard gates: static checks over the source tree that keep the engine's boundaries from
// eroding (DESIGN.md "The shape of the system", seed 003's hard gates and fan-out corridor). Each
// check reads a SourceTree and the policy in gate_policy.h and reports every violation it finds.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <deque>
#include <filesystem>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gate_policy.h"
#include "gate_report.h"
#include "source_tree.h"

namespace tickwire::arch {

inline constexpr std::string_view kRuleWorld = "engine-never-includes-world";
inline constexpr std::string_view kRuleLayering = "layering";
inline constexpr std::string_view kRulePrediction = "prediction-path";
inline constexpr std::string_view kRuleCorridor = "fan-out-corridor";

// The module an include names (from its target, so a relative path that climbs into another
// module counts too); "" for a header outside the tree.
inline std::string target_module(const Include& inc) { return inc.target.empty() ? "" : module_of(inc.target); }

// A module's place in kModuleOrder, none for a folder the order does not know.
inline std::optional<std::size_t> rank_of(std::string_view module) {
  const auto it = std::find(std::begin(kModuleOrder), std::end(kModuleOrder), module);
  if (it == std::end(kModuleOrder)) return std::nullopt;
  return static_cast<std::size_t>(it - std::begin(kModuleOrder));
}

inline bool is_engine_file(const SourceFile& file) {
  const bool engine_folder = file.path.rfind("include/", 0) == 0 || file.path.rfind("src/", 0) == 0;
  return engine_folder && file.module != kGameModule;
}

// Rule 1: no engine file (include/ and src/, every module but world) includes a world header.
inline GateReport check_engine_never_includes_world(const SourceTree& tree) {
  GateReport report(kRuleWorld);
  for (const SourceFile& file : tree.files()) {
    if (!is_engine_file(file)) continue;
    ++report.files_scanned;
    for (const Include& inc : file.includes) {
      ++report.edges_checked;
      if (target_module(inc) == kGameModule) {
        report.add(file.path, inc.line, "engine module '" + file.module + "' includes the game: " + inc.spelled);
      }
    }
  }
  return report;
}

inline const LayerException* layer_exception(std::string_view from, std::string_view to) {
  for (const LayerException& e : kLayerExceptions) {
    if (e.from == from && e.to == to) return &e;
  }
  return nullptr;
}

// Rule 2: every include between two modules goes down the order (or stays in its module). An
// engine include of world/ is rule 1's to report, so one edge is reported once.
inline GateReport check_layering(const SourceTree& tree) {
  GateReport report(kRuleLayering);
  std::vector<const LayerException*> used;
  for (const SourceFile& file : tree.files()) {
    if (file.module.empty()) continue;
    ++report.files_scanned;
    const std::optional<std::size_t> from = rank_of(file.module);
    if (!from) {
      report.add(file.path, 0, "module '" + file.module + "' has no place in kModuleOrder (gate_policy.h)");
      continue;
    }
    for (const Include& inc : file.includes) {
      const std::string to_module = target_module(inc);
      if (to_module.empty()) continue;
      ++report.edges_checked;
      if (is_engine_file(file) && to_module == kGameModule) continue;
      const std::optional<std::size_t> to = rank_of(to_module);
      if (to && *to <= *from) continue;
      if (const LayerException* e = layer_exception(file.path, inc.target)) {
        used.push_back(e);
        continue;
      }
      const std::string where = to ? "above it" : "which has no place in kModuleOrder";
      report.add(file.path, inc.line, "'" + file.module + "' includes '" + to_module + "', " + where + ": " + inc.spelled);
    }
  }
  for (const LayerException& e : kLayerExceptions) {
    if (std::find(used.begin(), used.end(), &e) == used.end()) {
      report.add(std::string(e.from), 0, "layer exception to " + std::string(e.to) + " no longer needed: remove it");
    }
  }
  return report;
}

// Whether an include outside the tree names a Bullet header.
inline bool names_bullet(const Include& inc) {
  if (inc.in_tree) return false;
  const std::filesystem::path spelled(inc.spelled);
  const std::string name = spelled.filename().string();
  const std::string first = spelled.begin() == spelled.end() ? "" : spelled.begin()->string();
  const auto listed = [](const auto& list, const std::string& s) { return std::find(std::begin(list), std::end(list), s) != std::end(list); };
  return listed(kBulletHeaders, name) || (first != name && listed(kBulletFolders, first));
}

// The include chain from a root to `file` in a breadth-first walk's parents ("a -> b -> c").
inline std::string include_chain(const std::map<std::string, std::string>& parent, const std::string& file) {
  std::vector<std::string> chain{file};
  for (auto it = parent.find(file); it != parent.end() && !it->second.empty(); it = parent.find(it->second)) {
    chain.push_back(it->second);
  }
  std::string out;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) out += (out.empty() ? "" : " -> ") + *it;
  return out;
}

// Rule 3: the include closure of the prediction roots holds no Bullet header and no logic/ header.
// A violation names the include line that brings the header in and the chain from a root; the walk
// does not go past a forbidden header.
inline GateReport check_prediction_path(const SourceTree& tree) {
  GateReport report(kRulePrediction);
  std::map<std::string, std::string> parent;  // file -> the file it was reached from ("" for a root)
  std::deque<std::string> queue;
  for (const std::string_view root : kPredictionRoots) {
    if (tree.find(root) == nullptr) {
      report.add(std::string(root), 0, "prediction root is missing: update kPredictionRoots (gate_policy.h)");
    } else if (parent.emplace(std::string(root), "").second) {
      queue.emplace_back(root);
    }
  }
  while (!queue.empty()) {
    const SourceFile& file = *tree.find(queue.front());
    queue.pop_front();
    ++report.files_scanned;
    for (const Include& inc : file.includes) {
      ++report.edges_checked;
      const bool bullet = names_bullet(inc);
      if (bullet || target_module(inc) == kExecutorModule) {
        report.add(file.path, inc.line,
                   std::string(bullet ? "a dynamic-physics (Bullet) header" : "the logic runtime") + " on the prediction path: " +
                       inc.spelled + " (reached by " + include_chain(parent, file.path) + ")");
      } else if (inc.in_tree && parent.emplace(inc.target, file.path).second) {
        queue.push_back(inc.target);
      }
    }
  }
  return report;
}

inline const AuthorizedFile* authorized_caller(std::string_view path) {
  for (const AuthorizedFile& a : kProducerCallers) {
    if (a.path == path) return &a;
  }
  return nullptr;
}

// Calls `visit(identifier, line)` for each identifier of blanked code.
template <class Visit>
void for_each_identifier(std::string_view code, Visit&& visit) {
  std::size_t line = 1;
  std::size_t i = 0;
  while (i < code.size()) {
    if (code[i] == '\n') {
      ++line;
      ++i;
    } else if (is_identifier_char(code[i])) {
      std::size_t end = i;
      while (end < code.size() && is_identifier_char(code[end])) ++end;
      if (std::isdigit(static_cast<unsigned char>(code[i])) == 0) visit(code.substr(i, end - i), line);
      i = end;
    } else {
      ++i;
    }
  }
}

// Rule 4: only the authorized files name a snapshot producer (comments and strings do not count).
inline GateReport check_fan_out_corridor(const SourceTree& tree) {
  GateReport report(kRuleCorridor);
  report.edges_noun = "producer references";
  for (const SourceFile& file : tree.files()) {
    ++report.files_scanned;
    const bool authorized = authorized_caller(file.path) != nullptr;
    for_each_identifier(file.code, [&](std::string_view word, std::size_t line) {
      for (const Producer& p : kSnapshotProducers) {
        if (word != p.symbol) continue;
        ++report.edges_checked;
        if (!authorized) {
          report.add(file.path, line, "names snapshot producer " + std::string(p.symbol) + " (" + std::string(p.what) +
                                          ") outside kProducerCallers");
        }
      }
    });
  }
  for (const AuthorizedFile& a : kProducerCallers) {
    if (tree.find(a.path) == nullptr) report.add(std::string(a.path), 0, "authorized producer caller is gone: update kProducerCallers");
  }
  return report;
}

inline std::vector<GateReport> check_all(const SourceTree& tree) {
  return {check_engine_never_includes_world(tree), check_layering(tree), check_prediction_path(tree),
          check_fan_out_corridor(tree)};
}

}  // namespace tickwire::arch
