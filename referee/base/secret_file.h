// Files that hold secrets: the referee's signing key, the organiser token,
// a TLS private key. Such a file must belong to the user reading it and be
// closed to group and others (no read, write or execute bit for them):
// a file that another user owns can be replaced by that user, and one
// that others may read is no longer secret. A file that breaks the rule is
// refused, never used with a warning. docs/auth.md, "Secret files".
#ifndef CARDREF_REFEREE_BASE_SECRET_FILE_H_
#define CARDREF_REFEREE_BASE_SECRET_FILE_H_

#include <sys/stat.h>
#include <sys/types.h>

#include <cstddef>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace cardref {

// OK iff `st` is a regular file owned by `reader` with no permission bit
// for group or others. Else FAILED_PRECONDITION: "<what> <path> is owned
// by uid 65534 (nobody), not by the user reading it, uid 0 (root): ...;
// chown ..." or "<what> <path> has mode 0644: group or others may read or
// write it; chmod 600 <path>".
[[nodiscard]] absl::Status CheckSecretFileStat(const struct stat& st,
                                               uid_t reader,
                                               absl::string_view what,
                                               const std::string& path);

// Opens `path` (following symbolic links), checks the file opened with
// CheckSecretFileStat for this process's effective user, and reads it
// whole. NOT_FOUND if it does not exist, INVALID_ARGUMENT if it is larger
// than `max_bytes`; `what` names the file in messages ("key file").
[[nodiscard]] absl::StatusOr<std::string> ReadSecretFile(
    const std::string& path, absl::string_view what, size_t max_bytes);

}  // namespace cardref

#endif  // CARDREF_REFEREE_BASE_SECRET_FILE_H_
