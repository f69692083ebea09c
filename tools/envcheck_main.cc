// cardref_envcheck [--bots=2] [--format=text|json]
//
// What this machine does to fair timing of bots (cores against bots, SMT,
// frequency governor and turbo, a hypervisor, swap) and what the bot
// sandbox will and will not enforce on it (cgroup version and usable
// controllers, namespaces and bwrap, seccomp). docs/sandbox.md.
#include <iostream>
#include <string>

#include "absl/flags/flag.h"
#include "sandbox/environment.h"
#include "tools/cli_flags.h"

ABSL_FLAG(int, bots, 2,
          "bots that run at once (matches at once times seats): the CPU plan "
          "is made for them");
ABSL_FLAG(double, reserved_cores, 0.5,
          "cores' worth kept for the referee and the runner");
ABSL_FLAG(int, cores_per_bot, 1, "cores a bot may use");
ABSL_FLAG(std::string, format, "text", "text or json");
ABSL_FLAG(std::string, bwrap, "/usr/bin/bwrap", "the bubblewrap program");

namespace {

constexpr char kUsage[] =
    "cardref_envcheck: what spoils fair timing on this machine and what the\n"
    "bot sandbox enforces here (run it as root, as the tournament runs).\n"
    "Usage: cardref_envcheck [--bots=2] [--reserved_cores=0.5]\n"
    "                        [--cores_per_bot=1] [--format=text|json]\n";

}  // namespace

int main(int argc, char** argv) {
  cardref::cli::ParseFlagsWithoutArgsOrExit(argc, argv, "cardref_envcheck",
                                            kUsage);
  const std::string format = absl::GetFlag(FLAGS_format);
  cardref::sandbox::ProbeOptions options;
  options.bots = absl::GetFlag(FLAGS_bots);
  options.reserved_cores = absl::GetFlag(FLAGS_reserved_cores);
  options.cores_per_bot = absl::GetFlag(FLAGS_cores_per_bot);
  options.bwrap = absl::GetFlag(FLAGS_bwrap);
  if ((format != "text" && format != "json") || options.bots < 1 ||
      options.cores_per_bot < 1 || !(options.reserved_cores >= 0)) {
    std::cerr << "cardref_envcheck: expected --format=text or json, --bots "
                 ">= 1, --cores_per_bot >= 1 and --reserved_cores >= 0\n"
              << kUsage;
    return cardref::cli::kExitUsage;
  }
  const cardref::sandbox::EnvReport report =
      cardref::sandbox::ProbeEnvironment(options);
  std::cout << (format == "json"
                    ? cardref::sandbox::FormatEnvironmentJson(report)
                    : cardref::sandbox::FormatEnvironmentText(report));
  return 0;
}
