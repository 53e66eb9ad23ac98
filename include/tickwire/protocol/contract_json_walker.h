// The canonical-JSON mode of a contract field table: each field becomes a member keyed by its wire
// name, a nested shape an object, a list an array of objects, an enum its member's wire name. The
// contract's hash and the revision key are this walk, so a field added to a table is in both.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tickwire/protocol/canonical_json.h"
#include "tickwire/protocol/contract_fields.h"
#include "tickwire/wire/shape.h"
#include "tickwire/wire/types.h"

namespace tickwire {

class ContractJsonWalker {
 public:
  void integer(const char* name, uint64_t value, uint64_t, uint64_t) { out_.unsigned_integer(name, value); }
  void real(const char* name, double value, double, double) { out_.number(name, value); }  // finite (asserted)
  void boolean(const char* name, const bool& value) { out_.boolean(name, value); }
  void text(const char* name, const std::string& value, std::size_t, Presence) { out_.string(name, value); }
  template <class E>
  void enum8(const char* name, const E& value, const wire::EnumDef& def) {
    const auto raw = static_cast<uint32_t>(value);
    for (const wire::NamedValue& m : def.members) {
      if (m.value == raw) return out_.string(name, m.name);
    }
    out_.unsigned_integer(name, raw);  // a value the definition lacks (validation refuses it)
  }
  template <class T>
  void shape(const char* name, T& value);
  template <class T>
  void list(const char* name, std::vector<T>& elements, std::size_t) {
    std::vector<CanonicalJsonObject> rendered;
    rendered.reserve(elements.size());
    for (T& e : elements) {
      ContractJsonWalker inner;
      wire::visit_fields(inner, e);
      rendered.push_back(std::move(inner.out_));
    }
    out_.array(name, rendered);
  }

  CanonicalJsonObject& object() { return out_; }

 private:
  CanonicalJsonObject out_;
};

template <class T>
void ContractJsonWalker::shape(const char* name, T& value) {
  ContractJsonWalker inner;
  wire::visit_fields(inner, value);
  out_.object(name, inner.out_);
}

// The canonical JSON object of any contract shape (its table is only read).
template <class T>
CanonicalJsonObject contract_json_object(const T& value) {
  ContractJsonWalker walker;
  wire::visit_fields(walker, const_cast<T&>(value));
  return walker.object();
}

}  // namespace tickwire
