// The C API's vocabulary handle: a GameVocabulary a C game fills through checked calls, which the
// server and client configs copy from.
#pragma once

#include "c_boundary.h"
#include "tickwire/protocol/vocabulary.h"

struct tw_vocabulary {
  tickwire::GameVocabulary vocabulary;
  tickwire::capi::ErrorText error;
};
