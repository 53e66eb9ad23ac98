// The C API's clock helpers: the library's one real clock source (clock/system_clock.h) as int64
// nanoseconds, so a C game reads time where an app should and passes it down as `now_ns`.
#include "tickwire/clock/system_clock.h"
#include "tickwire/tickwire_c.h"

extern "C" {

int64_t tw_mono_now_ns(void) { return tickwire::mono_now().ns(); }

int64_t tw_wall_now_ns(void) { return tickwire::wall_now().ns(); }

}  // extern "C"
