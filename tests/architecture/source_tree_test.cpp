// The scanner under the hard gates: include lines found with their line numbers (not in comments),
// resolved the way the compiler finds them, modules named from paths, and code read without its
// comments and literals. A gate is only as good as what this reads.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "code_text.h"
#include "source_tree.h"
#include "support.h"

namespace tickwire::arch {
namespace {

// A small tree in the test's temp directory, removed when the test ends.
class ScratchTree : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::path(::testing::TempDir()) /
            ("tw_architecture_scan_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
             std::to_string(::getpid()));
    std::filesystem::remove_all(root_);
  }
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(root_, ignored);
  }
  void write(const std::string& path, const std::string& text) const { test::write_file_text(root_ / path, text); }

  std::filesystem::path root_;
};

TEST(ModuleOf, NamesModulesFromPaths) {
  EXPECT_EQ(module_of("include/tickwire/replication/delta/snapshot_delta_codec.h"), "replication");
  EXPECT_EQ(module_of("include/tickwire/server.h"), "facade");
  EXPECT_EQ(module_of("src/facade/c_server.cpp"), "facade");
  EXPECT_EQ(module_of("src/replication/builder/client_snapshot_builder.cpp"), "replication");
  EXPECT_EQ(module_of("apps/tickwire/main.cpp"), "apps");
  EXPECT_EQ(module_of("tests/core/bits_test.cpp"), "");
  EXPECT_EQ(module_of("src/loose.cpp"), "");
}

TEST(CodeText, BlanksCommentsAndLiteralsButKeepsLines) {
  const std::string source =
      "int a = 100'000; // ReplicationServer\n"
      "/* encode_snapshot_delta\n   spans */ int b;\n"
      "const char* s = \"ClientSnapshotBuilder\"; char c = '\\'';\n"
      "auto r = R\"x(ReplicationServer )\" still raw)x\"; int after_raw;\n";
  const std::string code = blank_non_code(source, false);
  EXPECT_EQ(code.size(), source.size());
  EXPECT_EQ(std::count(code.begin(), code.end(), '\n'), std::count(source.begin(), source.end(), '\n'));
  EXPECT_EQ(code.find("ReplicationServer"), std::string::npos);
  EXPECT_EQ(code.find("encode_snapshot_delta"), std::string::npos);
  EXPECT_EQ(code.find("ClientSnapshotBuilder"), std::string::npos);
  EXPECT_EQ(code.find("still"), std::string::npos);
  EXPECT_NE(code.find("int b;"), std::string::npos);
  EXPECT_NE(code.find("int after_raw;"), std::string::npos);
  EXPECT_NE(code.find("100'000"), std::string::npos);  // a digit separator opens no character literal
  const std::string kept = blank_non_code(source, true);
  EXPECT_NE(kept.find("\"ClientSnapshotBuilder\""), std::string::npos);
  EXPECT_EQ(kept.find("// ReplicationServer"), std::string::npos);
}

TEST(ParseIncludes, FindsDirectivesWithLinesNotComments) {
  const std::string text = blank_non_code(
      "// #include \"tickwire/world/map.h\"\n"
      "#include <vector>\n"
      "  #  include \"tickwire/core/assert.h\"  // why\n"
      "/*\n#include \"tickwire/logic/graph.h\"\n*/\n"
      "#include_next <x.h>\n"
      "#include \"local.h\"\n",
      true);
  const auto includes = parse_includes(text);
  ASSERT_EQ(includes.size(), 3u);
  EXPECT_EQ(includes[0].line, 2u);
  EXPECT_EQ(includes[0].spelled, "vector");
  EXPECT_TRUE(includes[0].angled);
  EXPECT_EQ(includes[1].line, 3u);
  EXPECT_EQ(includes[1].spelled, "tickwire/core/assert.h");
  EXPECT_FALSE(includes[1].angled);
  EXPECT_EQ(includes[2].line, 8u);
  EXPECT_EQ(includes[2].spelled, "local.h");
}

TEST_F(ScratchTree, ResolvesIncludesAsTheCompilerWould) {
  write("include/tickwire/core/assert.h", "// a\n#pragma once\n");
  write("include/tickwire/world/map.h", "// b\n#pragma once\n");
  write("src/replication/delta/delta_coding.h", "// c\n#pragma once\n");
  write("src/replication/delta/encoder.cpp",
        "// d\n"
        "#include \"delta_coding.h\"\n"
        "#include <tickwire/core/assert.h>\n"
        "#include \"../../../include/tickwire/world/map.h\"\n"
        "#include \"tickwire/core/missing.h\"\n"
        "#include \"bandwidth_bench.h\"\n"
        "#include <vector>\n");
  write("tests/core/ignored_test.cpp", "#include \"tickwire/world/map.h\"\n");
  const SourceTree tree = SourceTree::scan(root_);
  ASSERT_EQ(tree.files().size(), 4u);  // tests/ is outside the scan
  const SourceFile* encoder = tree.find("src/replication/delta/encoder.cpp");
  ASSERT_NE(encoder, nullptr);
  EXPECT_EQ(encoder->module, "replication");
  ASSERT_EQ(encoder->includes.size(), 6u);
  EXPECT_EQ(encoder->includes[0].target, "src/replication/delta/delta_coding.h");
  EXPECT_TRUE(encoder->includes[0].in_tree);
  EXPECT_EQ(encoder->includes[1].target, "include/tickwire/core/assert.h");
  EXPECT_EQ(encoder->includes[2].target, "include/tickwire/world/map.h");
  EXPECT_EQ(encoder->includes[3].target, "include/tickwire/core/missing.h");
  EXPECT_FALSE(encoder->includes[3].in_tree);
  EXPECT_EQ(encoder->includes[4].target, "");  // only the build's include path knows it
  EXPECT_EQ(encoder->includes[5].target, "");  // a system header
  EXPECT_EQ(tree.include_count(), 6u);
}

}  // namespace
}  // namespace tickwire::arch
