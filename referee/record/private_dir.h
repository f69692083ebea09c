// The referee's log directory: logs hold every hand, so the directory is
// the owner's alone (mode 0700), whatever the umask, and so is every
// folder the referee creates on the way to it (among them, by default, the
// folder of its signing key: docs/log_format.md, "The referee's key").
#ifndef CARDREF_REFEREE_RECORD_PRIVATE_DIR_H_
#define CARDREF_REFEREE_RECORD_PRIVATE_DIR_H_

#include <string>

#include "absl/status/status.h"

namespace cardref::record {

// Creates `path` and its missing parents, each mode 0700 whatever the
// umask (parents that exist are left as they are). An existing `path` of
// this user is narrowed to 0700; one of another user that others may enter
// is refused (FAILED_PRECONDITION).
[[nodiscard]] absl::Status MakePrivateDirectory(const std::string& path);

}  // namespace cardref::record

#endif  // CARDREF_REFEREE_RECORD_PRIVATE_DIR_H_
