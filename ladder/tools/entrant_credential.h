// Entrant credentials (docs/ladder.md, "Entrant credentials"): a secret an
// entrant's author presents to the ladder's web front (HTTP
// `Authorization: Bearer <credential>`) to see its own bots' output and
// timings and download its own logs. The store keeps only its SHA-256; the
// credential is printed once, when it is issued.
#ifndef CARDREF_LADDER_TOOLS_ENTRANT_CREDENTIAL_H_
#define CARDREF_LADDER_TOOLS_ENTRANT_CREDENTIAL_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ladder/store/store.h"

namespace cardref::ladder {

// The hash the store keeps of `credential`: SHA-256, 64 lower-case hex
// digits.
std::string CredentialSha256(absl::string_view credential);

// A new credential of `entrant`, stored (hashed) in `store`; the only time
// it exists in clear. NOT_FOUND for an unknown entrant.
[[nodiscard]] absl::StatusOr<std::string> IssueEntrantCredential(
    LadderStore& store, absl::string_view entrant, int64_t now_micros);

// The entrant whose credential in force `credential` is; nullopt if none.
[[nodiscard]] absl::StatusOr<std::optional<EntrantCredential>>
CheckEntrantCredential(LadderStore& store, absl::string_view credential);

namespace cli {

// `cardref_ladder credential`: issues a credential of `entrant` and prints
// it (once), or with `revoke` revokes every credential of it.
[[nodiscard]] absl::Status Credential(const std::string& store,
                                      const std::string& entrant, bool revoke,
                                      int64_t now_micros, std::ostream& out);

}  // namespace cli
}  // namespace cardref::ladder

#endif  // CARDREF_LADDER_TOOLS_ENTRANT_CREDENTIAL_H_
