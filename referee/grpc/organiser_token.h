// The organiser's credential as the referee and the organiser's tools read
// it: a bearer token from a file or the environment, never from the command
// line, sent as the gRPC metadata `authorization: Bearer <token>`
// (docs/auth.md).
#ifndef CARDREF_REFEREE_GRPC_ORGANISER_TOKEN_H_
#define CARDREF_REFEREE_GRPC_ORGANISER_TOKEN_H_

#include <cstddef>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "grpcpp/grpcpp.h"

namespace cardref::grpc_service {

inline constexpr char kOrganiserTokenEnv[] = "CARDREF_ORGANISER_TOKEN";
inline constexpr size_t kMinOrganiserTokenChars = 16;
inline constexpr absl::string_view kBearerPrefix = "Bearer ";

// The organiser token from `token_file` if given (the file must belong to
// this process's user and be closed to group and others, else
// FAILED_PRECONDITION: referee/base/secret_file.h), else from
// $CARDREF_ORGANISER_TOKEN, else nullopt. Surrounding whitespace is trimmed. INVALID_ARGUMENT for a token
// shorter than kMinOrganiserTokenChars or with characters outside printable
// ASCII; the token itself never appears in a message.
[[nodiscard]] absl::StatusOr<std::optional<std::string>> LoadOrganiserToken(
    const std::string& token_file);

// Adds the credential to a client call (no-op for nullopt).
void AddOrganiserCredential(const std::optional<std::string>& token,
                            grpc::ClientContext* context);

}  // namespace cardref::grpc_service

#endif  // CARDREF_REFEREE_GRPC_ORGANISER_TOKEN_H_
