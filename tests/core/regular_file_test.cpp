// read_regular_file: a regular file's bytes up to its cap; anything else named, without blocking.
#include "tickwire/core/regular_file.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace tickwire {
namespace {

std::filesystem::path scratch(const char* name) {
  return std::filesystem::temp_directory_path() / (std::string("tickwire-regular-") + name + "-" + std::to_string(::getpid()));
}

TEST(RegularFile, ReadsAFileWholeUpToItsCap) {
  const auto path = scratch("text");
  std::ofstream(path) << "twelve bytes";
  const FileText read = read_regular_file(path, 12);
  ASSERT_TRUE(read) << read.error;
  EXPECT_EQ(read.text, "twelve bytes");
  const FileText over = read_regular_file(path, 11);
  EXPECT_EQ(over.problem, FileProblem::too_large);
  EXPECT_TRUE(over.text.empty());
  EXPECT_NE(over.error.find("is over 11 bytes"), std::string::npos) << over.error;
  std::filesystem::remove(path);
}

TEST(RegularFile, NamesAMissingFileAFifoAndADirectory) {
  const FileText missing = read_regular_file(scratch("missing"), 100);
  EXPECT_EQ(missing.problem, FileProblem::cannot_open);
  EXPECT_NE(missing.error.find("cannot open"), std::string::npos) << missing.error;
  const auto fifo = scratch("fifo");
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const FileText from_fifo = read_regular_file(fifo, 100);  // no writer: would block a plain open()
  EXPECT_EQ(from_fifo.problem, FileProblem::not_a_regular_file);
  std::filesystem::remove(fifo);
  const FileText directory = read_regular_file(std::filesystem::temp_directory_path(), 100);
  EXPECT_EQ(directory.problem, FileProblem::not_a_regular_file);
  EXPECT_NE(directory.error.find("is not a regular file"), std::string::npos) << directory.error;
}

TEST(RegularFile, AnEmptyFileIsEmptyText) {
  const auto path = scratch("empty");
  std::ofstream(path).flush();
  const FileText read = read_regular_file(path, 0);
  ASSERT_TRUE(read) << read.error;
  EXPECT_TRUE(read.text.empty());
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace tickwire
