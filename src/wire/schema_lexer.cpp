// Scanning a schema text into tokens. A character no token can start becomes a one-character
// `bad` token, so the parser reports it with its line instead of the lexer guessing.
#include "schema_lexer.h"

namespace tickwire::wire::detail {
namespace {

bool is_word_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_word_char(char c) { return is_word_start(c) || is_digit(c) || c == '.' || c == '-'; }
bool is_number_char(char c) { return is_word_char(c) || c == '+'; }
bool is_punct(char c) {
  return c == '{' || c == '}' || c == '(' || c == ')' || c == ';' || c == ',' || c == '=';
}

}  // namespace

LexToken SchemaLexer::take() {
  if (buffered_ == 0) return scan();
  LexToken t = buffer_[0];
  buffer_[0] = buffer_[1];
  --buffered_;
  return t;
}

const LexToken& SchemaLexer::lookahead(std::size_t n) {
  while (buffered_ <= n) buffer_[buffered_++] = scan();
  return buffer_[n];
}

void SchemaLexer::skip_space() {
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (c == '\n') {
      ++line_;
    } else if (c != ' ' && c != '\t' && c != '\r') {
      return;
    }
    ++pos_;
  }
}

LexToken SchemaLexer::scan() {
  skip_space();
  LexToken t;
  t.line = line_;
  if (pos_ >= text_.size()) return t;  // end
  const std::size_t start = pos_;
  const char c = text_[pos_];
  if (is_word_start(c)) {
    t.kind = LexKind::word;
    while (pos_ < text_.size() && is_word_char(text_[pos_])) ++pos_;
  } else if (is_digit(c) || (c == '-' && pos_ + 1 < text_.size() && is_digit(text_[pos_ + 1]))) {
    t.kind = LexKind::number;
    ++pos_;
    while (pos_ < text_.size() && is_number_char(text_[pos_])) ++pos_;
  } else {
    t.kind = is_punct(c) ? LexKind::punct : LexKind::bad;
    ++pos_;
  }
  t.text = text_.substr(start, pos_ - start);
  return t;
}

}  // namespace tickwire::wire::detail
