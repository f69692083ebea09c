// Whole-file reads with errors as absl::Status.
#ifndef CARDREF_REFEREE_BASE_FILE_UTIL_H_
#define CARDREF_REFEREE_BASE_FILE_UTIL_H_

#include <string>

#include "absl/status/statusor.h"

namespace cardref {

// NOT_FOUND if the file does not exist, other errors with the path and the
// system's reason.
absl::StatusOr<std::string> ReadFileToString(const std::string& path);

}  // namespace cardref

#endif  // CARDREF_REFEREE_BASE_FILE_UTIL_H_
