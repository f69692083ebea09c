// cardref_referee's flags, read and checked in one place before the referee
// touches anything: a value out of range is a usage error (exit 2) that
// leaves no log directory, key file or socket behind, and a default that a
// maximum would refuse is caught at start, not at every CreateMatch.
#ifndef CARDREF_TOOLS_REFEREE_FLAGS_H_
#define CARDREF_TOOLS_REFEREE_FLAGS_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "referee/grpc/server.h"

namespace cardref::cli {

struct RefereeConfig {
  // Everything but the organiser token and the signing key, which are read
  // from files once the flags are known to be good.
  grpc_service::ServerOptions server;
  std::string organiser_token_file;
  std::string signing_key_file;  // the default resolved from --log_dir
  absl::Duration shutdown_grace;
  std::string port_file;
  std::string metrics_port_file;
  std::string http_port_file;
  std::string log_sync;  // --log_sync as given (checked), for the start line
};

// INVALID_ARGUMENT naming the flag, its allowed range and the value given.
absl::StatusOr<RefereeConfig> RefereeConfigFromFlags();

}  // namespace cardref::cli

#endif  // CARDREF_TOOLS_REFEREE_FLAGS_H_
