// A room recording on its way to a file, for `tickwire server --record FILE`: what the writer has
// whole so far is appended after every update, so a killed server leaves a recording that reads up
// to its last whole tick. The file must be a regular one: a FIFO with no reader is refused at once.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tickwire/server/room.h"
#include "tickwire/server/room_recording_writer.h"

namespace tickwire::cli {

// A regular file opened for writing (created or emptied), or null: a FIFO with no reader is refused
// at once instead of blocking open(), and a device or a directory is refused too.
std::FILE* open_regular_for_writing(const std::string& path);

// The room's recording on its way to a file: what is whole so far is appended after every update.
class RecordingFile {
 public:
  RecordingFile(Room& room, const std::string& path, std::string& error) : writer_(room) {
    if (writer_.refused()) {
      error = "--record: the room does not save (" + std::string(reason_name(*writer_.refused())) + ")";
      return;
    }
    file_ = open_regular_for_writing(path);
    if (file_ == nullptr) error = "--record: cannot write " + path + " (a regular file)";
  }
  ~RecordingFile() {
    if (file_ != nullptr) std::fclose(file_);
  }
  RecordingFile(const RecordingFile&) = delete;
  RecordingFile& operator=(const RecordingFile&) = delete;
  bool ok() const { return file_ != nullptr; }
  void flush() {
    chunk_.clear();
    writer_.take_complete(chunk_);
    if (chunk_.empty() || failed_) return;
    failed_ = std::fwrite(chunk_.data(), 1, chunk_.size(), file_) != chunk_.size() || std::fflush(file_) != 0;
  }
  nlohmann::json json() const {
    return {{"bytes", writer_.total_bytes()}, {"ticks", writer_.ticks()}, {"events", writer_.events()},
            {"full", writer_.full()}, {"write_failed", failed_}};
  }

 private:
  RoomRecordingWriter writer_;
  std::FILE* file_ = nullptr;
  std::vector<uint8_t> chunk_;
  bool failed_ = false;
};

}  // namespace tickwire::cli
