// The C API's result codes by name, for logs and bindings that print them.
#include "tickwire/tickwire_c.h"

extern "C" {

const char* tw_result_name(tw_result result) {
  switch (result) {
    case TW_OK: return "ok";
    case TW_ERR_INVALID_ARGUMENT: return "invalid_argument";
    case TW_ERR_REFUSED: return "refused";
    case TW_ERR_NOT_READY: return "not_ready";
    case TW_ERR_EMPTY: return "empty";
    case TW_ERR_OUT_OF_MEMORY: return "out_of_memory";
    case TW_ERR_INTERNAL: return "internal";
  }
  return "unknown";
}

}  // extern "C"
