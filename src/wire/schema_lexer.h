// The schema text's tokens: words (names, keywords, dotted tokens), numbers, and the punctuation
// `{ } ( ) ; , =`. Whitespace between tokens is free; every token knows its line for diagnostics.
// Internal to the parser; scans lazily with two tokens of lookahead, never allocating.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tickwire::wire::detail {

enum class LexKind : uint8_t { word, number, punct, end, bad };

struct LexToken {
  LexKind kind = LexKind::end;
  std::string_view text;
  uint32_t line = 1;
  bool is(char punct) const { return kind == LexKind::punct && text.size() == 1 && text[0] == punct; }
  bool is_word(std::string_view w) const { return kind == LexKind::word && text == w; }
};

class SchemaLexer {
 public:
  explicit SchemaLexer(std::string_view text) : text_(text) {}

  const LexToken& peek() { return lookahead(0); }
  const LexToken& peek2() { return lookahead(1); }
  LexToken take();

 private:
  const LexToken& lookahead(std::size_t n);
  LexToken scan();
  void skip_space();

  std::string_view text_;
  std::size_t pos_ = 0;
  uint32_t line_ = 1;
  LexToken buffer_[2];
  std::size_t buffered_ = 0;
};

}  // namespace tickwire::wire::detail
