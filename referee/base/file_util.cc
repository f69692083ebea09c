#include "referee/base/file_util.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace cardref {

absl::StatusOr<std::string> ReadFileToString(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    int err = errno;
    std::string why = absl::StrCat("cannot open ", path, ": ", strerror(err));
    return err == ENOENT ? absl::NotFoundError(why)
                         : absl::FailedPreconditionError(why);
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) {
    return absl::DataLossError(absl::StrCat("error reading ", path));
  }
  return std::move(buffer).str();
}

}  // namespace cardref
