// A copy of the real tree's include/, src/ and apps/ in the test's temp directory, to plant one
// violation in and prove a gate sees it: the violations the copy had before the plant are the
// baseline, so a test asserts what the plant added, exactly, whatever state the real tree is in.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "hard_gates.h"
#include "support.h"

namespace tickwire::arch {

class PlantedTree {
 public:
  PlantedTree() : root_(unique_dir()) {
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_);
    for (const std::string_view folder : kScannedFolders) {
      const std::filesystem::path from = std::filesystem::path(TICKWIRE_SOURCE_DIR) / folder;
      if (std::filesystem::is_directory(from)) {
        std::filesystem::copy(from, root_ / folder, std::filesystem::copy_options::recursive);
      }
    }
    baseline_ = violations();
  }
  ~PlantedTree() {
    std::error_code ignored;
    std::filesystem::remove_all(root_, ignored);
  }
  PlantedTree(const PlantedTree&) = delete;
  PlantedTree& operator=(const PlantedTree&) = delete;

  const std::filesystem::path& root() const { return root_; }

  // Writes a new file (root-relative).
  void write(const std::string& path, const std::string& text) const { test::write_file_text(root_ / path, text); }
  // Appends one line to a file of the copy; returns its line number.
  std::size_t append_line(const std::string& path, const std::string& line) const {
    std::string text = test::read_file_text(root_ / path);
    if (!text.empty() && text.back() != '\n') text += '\n';
    const std::size_t number = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
    test::write_file_text(root_ / path, text + line + "\n");
    return number;
  }
  // Removes every line of a file of the copy that contains `needle`.
  void remove_lines_with(const std::string& path, const std::string& needle) const {
    std::ifstream in(root_ / path);
    std::string kept;
    for (std::string line; std::getline(in, line);) {
      if (line.find(needle) == std::string::npos) kept += line + "\n";
    }
    test::write_file_text(root_ / path, kept);
  }
  void remove(const std::string& path) const { std::filesystem::remove(root_ / path); }

  // Every gate's violations on the copy as it is now.
  std::vector<Violation> violations() const {
    std::vector<Violation> out;
    for (const GateReport& report : check_all(SourceTree::scan(root_))) {
      out.insert(out.end(), report.violations.begin(), report.violations.end());
    }
    return out;
  }
  // The violations the plants added to the copy's baseline.
  std::vector<Violation> planted() const {
    std::vector<Violation> added;
    for (const Violation& v : violations()) {
      if (std::find(baseline_.begin(), baseline_.end(), v) == baseline_.end()) added.push_back(v);
    }
    return added;
  }

 private:
  static std::filesystem::path unique_dir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    const std::string name = info == nullptr ? "tree" : std::string(info->test_suite_name()) + "_" + info->name();
    return std::filesystem::path(::testing::TempDir()) / ("tw_architecture_" + name + "_" + std::to_string(::getpid()));
  }

  std::filesystem::path root_;
  std::vector<Violation> baseline_;
};

}  // namespace tickwire::arch
