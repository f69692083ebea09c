#include "tournament/bot_sandbox.h"

#include <unistd.h>

#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "tournament/bot_path.h"

namespace cardref::tournament {

absl::StatusOr<std::unique_ptr<BotLauncher>> StartBotSandbox(
    const std::string& server, int slots, const BotFolders& folders) {
  absl::StatusOr<sandbox::RefereeAddress> address = BotsRefereeAddress(server);
  if (!address.ok()) return address.status();
  char work[] = "/tmp/cardref-bot-sandbox.XXXXXX";
  if (mkdtemp(work) == nullptr) {
    return absl::InternalError("cannot make a folder under /tmp");
  }
  absl::Status checked = CheckBotsAreNotOrganiser(*address, work);
  rmdir(work);
  if (!checked.ok()) return checked;
  sandbox::HostOptions host;
  host.bot_slots = slots;
  return BotLauncher::Sandboxed(host, *address, folders);
}

absl::StatusOr<UidRange> ParseSandboxUidRange(absl::string_view text) {
  absl::StatusOr<UidRange> range = ParseUidRange(text);
  if (!range.ok()) return range.status();
  if (range->last > 2147483647u) {
    return absl::InvalidArgumentError(absl::StrCat(
        text, ": sandboxed bots need uids below 2147483648 (bubblewrap "
        "cannot map larger ones)"));
  }
  return range;
}

}  // namespace cardref::tournament
