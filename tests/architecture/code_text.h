// C++ source text with what is not code blanked out: the hard gates read include lines and
// identifiers, and a name in a comment or a string ("the ReplicationServer builds ...") is no
// reference. Blanking keeps every newline, so a line number in the blanked text is the file's.
#pragma once

#include <cctype>
#include <cstddef>
#include <string>
#include <string_view>

namespace tickwire::arch {

inline bool is_identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

namespace detail {

// Blanks text[from, to) except its newlines.
inline void blank(std::string& text, std::size_t from, std::size_t to) {
  for (std::size_t i = from; i < to && i < text.size(); ++i) {
    if (text[i] != '\n') text[i] = ' ';
  }
}

// The end (one past) of a quoted literal starting at `open` ('"' or '\''), escapes honoured; a
// literal left open at the end of its line ends there (the compiler would refuse it anyway).
inline std::size_t quoted_end(std::string_view text, std::size_t open) {
  const char quote = text[open];
  std::size_t i = open + 1;
  while (i < text.size() && text[i] != quote && text[i] != '\n') i += text[i] == '\\' ? 2 : 1;
  return i < text.size() && text[i] == quote ? i + 1 : std::min(i, text.size());
}

// The end (one past) of a raw string literal whose opening quote is at `open`: R"delim( ... )delim".
inline std::size_t raw_end(std::string_view text, std::size_t open) {
  const std::size_t paren = text.find('(', open + 1);
  if (paren == std::string_view::npos) return text.size();
  // Built by appending (GCC 12 at -O3 misreads ")" + std::string as an overlapping memcpy).
  std::string close(1, ')');
  close.append(text.substr(open + 1, paren - open - 1));
  close.push_back('"');
  const std::size_t end = text.find(close, paren + 1);
  return end == std::string_view::npos ? text.size() : end + close.size();
}

// The end (one past) of a preprocessing number starting at `at`: digits, letters, '.', the digit
// separator '\'' and a sign after an exponent (so 100'000 opens no character literal).
inline std::size_t number_end(std::string_view text, std::size_t at) {
  std::size_t i = at + 1;
  while (i < text.size()) {
    const char c = text[i];
    const char before = text[i - 1];
    const bool sign = (c == '+' || c == '-') && (before == 'e' || before == 'E' || before == 'p' || before == 'P');
    if (!is_identifier_char(c) && c != '.' && c != '\'' && !sign) break;
    ++i;
  }
  return i;
}

inline bool is_literal_prefix(std::string_view word) {
  return word == "u8" || word == "u" || word == "U" || word == "L";
}

inline bool is_raw_prefix(std::string_view word) {
  return word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR";
}

}  // namespace detail

// Blanks comments and, unless `keep_literals`, string and character literals (raw ones included).
// With keep_literals the include lines still read `#include "tickwire/..."`; without, only code
// tokens are left.
inline std::string blank_non_code(std::string_view source, bool keep_literals) {
  std::string text(source);
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    if (c == '/' && next == '/') {
      const std::size_t end = std::min(text.find('\n', i), text.size());
      detail::blank(text, i, end);
      i = end;
    } else if (c == '/' && next == '*') {
      const std::size_t close = text.find("*/", i + 2);
      const std::size_t end = close == std::string::npos ? text.size() : close + 2;
      detail::blank(text, i, end);
      i = end;
    } else if (c == '"' || c == '\'') {
      const std::size_t end = detail::quoted_end(text, i);
      if (!keep_literals) detail::blank(text, i, end);
      i = end;
    } else if (std::isdigit(static_cast<unsigned char>(c)) != 0) {
      i = detail::number_end(text, i);
    } else if (is_identifier_char(c)) {
      std::size_t end = i;
      while (end < text.size() && is_identifier_char(text[end])) ++end;
      const std::string_view word(text.data() + i, end - i);
      if (end < text.size() && text[end] == '"' && detail::is_raw_prefix(word)) {
        const std::size_t literal_end = detail::raw_end(text, end);
        if (!keep_literals) detail::blank(text, end, literal_end);
        end = literal_end;
      } else if (end < text.size() && (text[end] == '"' || text[end] == '\'') && detail::is_literal_prefix(word)) {
        const std::size_t literal_end = detail::quoted_end(text, end);
        if (!keep_literals) detail::blank(text, end, literal_end);
        end = literal_end;
      }
      i = end;
    } else {
      ++i;
    }
  }
  return text;
}

}  // namespace tickwire::arch
