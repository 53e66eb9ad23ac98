// The engine's sources as the hard gates see them: every file under include/, src/ and apps/ with
// its include lines, each resolved the way the compiler would find it in this tree, and its code
// with comments and literals blanked. The gates read this, never the files.
#pragma once

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "code_text.h"

namespace tickwire::arch {

// The folders a scan covers (tests, bench, fuzz and examples are outside the engine's boundaries).
inline constexpr std::string_view kScannedFolders[] = {"include", "src", "apps"};

struct Include {
  std::size_t line = 0;  // 1-based
  std::string spelled;   // between the delimiters, as written
  bool angled = false;   // <...> rather than "..."
  // The root-relative file it names: a relative include from the including file's folder, a
  // tickwire/... one under include/ (either delimiter). Empty when it names nothing of this tree
  // (a system or dependency header, or a folder only the build's include path knows).
  std::string target;
  bool in_tree = false;  // `target` is a scanned file (a tickwire/... include of a missing file is not)
};

struct SourceFile {
  std::string path;    // root-relative, '/'-separated
  std::string module;  // core, clock, ..., world; "facade" (include/tickwire/*.h, src/facade); "apps"
  std::vector<Include> includes;
  std::string code;    // the text with comments and literals blanked (lines kept)
};

// The module a root-relative path belongs to, "" when it is in none.
inline std::string module_of(std::string_view path) {
  const auto parts = [&] {
    std::vector<std::string> out;
    for (const auto& part : std::filesystem::path(path)) out.push_back(part.generic_string());
    return out;
  }();
  if (parts.size() >= 3 && parts[0] == "include" && parts[1] == "tickwire") return parts.size() == 3 ? "facade" : parts[2];
  if (parts.size() >= 3 && parts[0] == "src") return parts[1];
  if (parts.size() >= 2 && parts[0] == "apps") return "apps";
  return "";
}

// Whether a file is C or C++ source: headers, sources, and configured sources (x.cpp.in).
inline bool is_source_file(const std::filesystem::path& path) {
  static constexpr std::string_view kExtensions[] = {".h", ".hh", ".hpp", ".inl", ".ipp", ".c", ".cc", ".cpp", ".cxx"};
  std::filesystem::path p = path;
  if (p.extension() == ".in") p = p.stem();
  const std::string ext = p.extension().string();
  return std::find(std::begin(kExtensions), std::end(kExtensions), ext) != std::end(kExtensions);
}

// The include directives of a text whose comments are blanked: (line, spelled, angled).
inline std::vector<Include> parse_includes(std::string_view text) {
  std::vector<Include> out;
  std::size_t line = 1;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    std::string_view l = text.substr(at, end - at);
    const auto skip_space = [&] { while (!l.empty() && (l.front() == ' ' || l.front() == '\t')) l.remove_prefix(1); };
    skip_space();
    if (!l.empty() && l.front() == '#') {
      l.remove_prefix(1);
      skip_space();
      if (l.substr(0, 7) == "include") {
        l.remove_prefix(7);
        skip_space();
        const char open = l.empty() ? '\0' : l.front();
        const char close = open == '<' ? '>' : '"';
        const std::size_t stop = l.find(close, 1);
        if ((open == '<' || open == '"') && stop != std::string_view::npos) {
          out.push_back(Include{line, std::string(l.substr(1, stop - 1)), open == '<', "", false});
        }
      }
    }
    at = end + 1;
    ++line;
  }
  return out;
}

class SourceTree {
 public:
  // Reads every source file under the root's include/, src/ and apps/ (absent folders are empty).
  static SourceTree scan(const std::filesystem::path& root) {
    SourceTree tree;
    tree.root_ = root;
    for (const std::string_view folder : kScannedFolders) {
      const std::filesystem::path dir = root / folder;
      if (!std::filesystem::is_directory(dir)) continue;
      for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
        if (entry.is_regular_file() && is_source_file(entry.path())) tree.add(root, entry.path());
      }
    }
    std::sort(tree.files_.begin(), tree.files_.end(), [](const SourceFile& a, const SourceFile& b) { return a.path < b.path; });
    for (std::size_t i = 0; i < tree.files_.size(); ++i) tree.index_[tree.files_[i].path] = i;
    for (SourceFile& file : tree.files_) tree.resolve(file);
    return tree;
  }

  const std::filesystem::path& root() const { return root_; }
  const std::vector<SourceFile>& files() const { return files_; }
  const SourceFile* find(std::string_view path) const {
    const auto it = index_.find(path);
    return it == index_.end() ? nullptr : &files_[it->second];
  }
  // Include lines over every file (resolved or not).
  std::size_t include_count() const {
    std::size_t n = 0;
    for (const SourceFile& f : files_) n += f.includes.size();
    return n;
  }

 private:
  void add(const std::filesystem::path& root, const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    SourceFile f;
    f.path = file.lexically_relative(root).generic_string();
    f.module = module_of(f.path);
    f.includes = parse_includes(blank_non_code(text, true));
    f.code = blank_non_code(text, false);
    files_.push_back(std::move(f));
  }

  // A quoted include is looked for beside its file first, then (like every tickwire/... include)
  // on the include path: include/. A path that climbs out of the root names nothing here.
  void resolve(SourceFile& file) const {
    const std::filesystem::path folder = std::filesystem::path(file.path).parent_path();
    for (Include& inc : file.includes) {
      if (!inc.angled) {
        const std::string beside = (folder / inc.spelled).lexically_normal().generic_string();
        if (find(beside) != nullptr) {
          inc.target = beside;
          inc.in_tree = true;
          continue;
        }
      }
      if (inc.spelled.rfind("tickwire/", 0) == 0) {
        inc.target = (std::filesystem::path("include") / inc.spelled).lexically_normal().generic_string();
        inc.in_tree = find(inc.target) != nullptr;
      }
    }
  }

  std::filesystem::path root_;
  std::vector<SourceFile> files_;
  std::map<std::string, std::size_t, std::less<>> index_;
};

}  // namespace tickwire::arch
