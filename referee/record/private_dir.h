// The referee's log directory: logs hold every hand, so the directory is
// the owner's alone (mode 0700), whatever the umask.
#ifndef CARDREF_REFEREE_RECORD_PRIVATE_DIR_H_
#define CARDREF_REFEREE_RECORD_PRIVATE_DIR_H_

#include <string>

#include "absl/status/status.h"

namespace cardref::record {

// Creates `path` (and missing parents) and sets its mode to 0700. An
// existing directory of this user is narrowed to 0700; one of another user
// that others may enter is refused (FAILED_PRECONDITION).
[[nodiscard]] absl::Status MakePrivateDirectory(const std::string& path);

}  // namespace cardref::record

#endif  // CARDREF_REFEREE_RECORD_PRIVATE_DIR_H_
