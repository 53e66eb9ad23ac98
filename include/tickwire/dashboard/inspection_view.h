// The snapshot inspector's answer: a SnapshotInspection as JSON, its records' kinds named by the
// vocabulary. It opens {"owner":N, (the dashboard matches an answer to its request by it).
#pragma once

#include <string>

#include "tickwire/protocol/vocabulary.h"
#include "tickwire/snapshot_inspection.h"

namespace tickwire::dashboard {

std::string render_inspection(const SnapshotInspection& inspection, const GameVocabulary& vocabulary);

}  // namespace tickwire::dashboard
