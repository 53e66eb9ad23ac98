// Names and sizes of token-table kinds.
#include "tickwire/wire/types.h"

namespace tickwire::wire {

std::string_view token_kind_name(TokenKind kind) {
  switch (kind) {
    case TokenKind::f32: return "f32";
    case TokenKind::u32: return "u32";
    case TokenKind::i32: return "i32";
    case TokenKind::boolean: return "bool";
  }
  return "?";
}

unsigned token_kind_bytes(TokenKind kind) { return kind == TokenKind::boolean ? 1u : 4u; }

}  // namespace tickwire::wire
