// cardref_log: game logs for people.
//
//   cardref_log cat [--seat=N] FILE
//   cardref_log json FILE
//   cardref_log from-json FILE.jsonl OUT
//   cardref_log verify FILE|DIR...
//   cardref_log head FILE
//   cardref_log html [--seat=N] FILE -o PAGE.html
//
// Each subcommand answers --help (cardref_log cat --help). Exit status as
// cardref_analyze: 0 success, 1 a file is not OK, 2 usage errors.
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "analyzer/cli.h"
#include "analyzer/log_tools/log_cli.h"
#include "games/all_games.h"
#include "tools/cli_flags.h"
#include "tools/version.h"

ABSL_FLAG(int, seat, -1,
          "cat, html: show only what this seat could see (its own cards, the "
          "public events); -1: every seat's cards");
ABSL_FLAG(std::string, o, "", "html: the page to write (replaced if present)");
ABSL_FLAG(std::string, referee_key, "",
          "verify: the referee's Ed25519 public key (64 hex digits, or a file "
          "holding it) every log must be signed with; empty: each log's own "
          "header key");

namespace {

constexpr char kCat[] =
    "  cardref_log cat [--seat=N] FILE\n"
    "      The game as text, round by round: the header, each deal with\n"
    "      every hand, each action in the game's notation with the player's\n"
    "      name and its effects (draws, cranks, tricks, combos), refused\n"
    "      submissions, faults, round results and the final result. Each\n"
    "      line starts with the record's number in the file (0 = header).\n"
    "      --seat=N: only what seat N saw (its own cards, public events).\n";
constexpr char kJson[] =
    "  cardref_log json FILE\n"
    "      Every record as protobuf's JSON mapping, one record per line.\n";
constexpr char kFromJson[] =
    "  cardref_log from-json FILE.jsonl OUT\n"
    "      Builds the binary log OUT (never overwritten) from JSON lines as\n"
    "      `json` writes them; json then from-json gives the same bytes.\n"
    "      A bad line is reported as 'line N: <field>: <problem>'.\n";
constexpr char kVerify[] =
    "  cardref_log verify [--referee_key=HEX|FILE] FILE|DIR...\n"
    "      Framing and checksums, then the hash chain, signature and seed\n"
    "      commitment (no replay), one line per file: 'OK <file> (...,\n"
    "      signed|unsigned)', 'TORN|CORRUPT <file>: <problem> at byte\n"
    "      <offset> ...' or 'TAMPERED <file>: record <i> at byte <offset>\n"
    "      ...'. A directory stands for every *.cardlog file below it.\n";
constexpr char kHead[] =
    "  cardref_log head FILE\n"
    "      The header (game, match, seats, parameters) and the result.\n";
constexpr char kHtml[] =
    "  cardref_log html [--seat=N] FILE -o PAGE.html\n"
    "      One self-contained page replaying the game: the table with the\n"
    "      seats' cards, the trick, pile or combo in play, step forward and\n"
    "      back (buttons, arrow keys, a slider), round scores, the moves.\n";

constexpr char kIntro[] = "Game logs for people.\nUsage:\n";
constexpr char kOutro[] =
    "Exit status: 0 success, 1 a file is not OK, 2 usage errors.\n"
    "--version prints the version.\n";

std::string Usage(const std::string& command) {
  const std::vector<std::pair<const char*, const char*>> commands = {
      {"cat", kCat},       {"json", kJson}, {"from-json", kFromJson},
      {"verify", kVerify}, {"head", kHead}, {"html", kHtml}};
  for (const auto& [name, text] : commands) {
    if (command == name) return std::string(kIntro) + text + kOutro;
  }
  std::string all = kIntro;
  for (const auto& [name, text] : commands) all += text;
  return all + kOutro;
}

// The first argument that is not a flag (or a flag's value): the command.
std::string CommandOf(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] != '-') return argv[i];
    if (std::strcmp(argv[i], "-o") == 0 || std::strcmp(argv[i], "--o") == 0 ||
        std::strcmp(argv[i], "--seat") == 0) {
      ++i;  // skip the flag's value
    }
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--version") == 0) {
      std::cout << "cardref_log " << cardref::kVersion << "\n";
      return 0;
    }
  }
  const std::string usage = Usage(CommandOf(argc, argv));
  const std::vector<std::string> positional =
      cardref::cli::ParseFlagsOrExit(argc, argv, usage);
  if (positional.empty()) {
    std::cerr << "cardref_log: missing command\n\n" << usage;
    return cardref::analyzer::kExitUsage;
  }
  const std::string& command = positional[0];
  const std::vector<std::string> args(positional.begin() + 1, positional.end());
  const int seat = absl::GetFlag(FLAGS_seat);
  const std::string page = absl::GetFlag(FLAGS_o);
  namespace lt = cardref::log_tools;
  if (command != "cat" && command != "html" && seat != -1) {
    std::cerr << "cardref_log " << command
              << ": --seat applies to cat and html only\n";
    return cardref::analyzer::kExitUsage;
  }
  if (command != "html" && !page.empty()) {
    std::cerr << "cardref_log " << command << ": -o applies to html only\n";
    return cardref::analyzer::kExitUsage;
  }
  if (command == "cat") {
    return lt::RunCat(args, seat, cardref::AllGames(), std::cout, std::cerr);
  }
  if (command == "json") {
    return lt::RunJson(args, cardref::AllGames(), std::cout, std::cerr);
  }
  if (command == "from-json")
    return lt::RunFromJson(args, std::cout, std::cerr);
  if (command == "verify") {
    return lt::RunVerify(args, std::cout, std::cerr,
                         absl::GetFlag(FLAGS_referee_key));
  }
  if (command == "head") return lt::RunHead(args, std::cout, std::cerr);
  if (command == "html") {
    return lt::RunHtml(args, page, seat, cardref::AllGames(), std::cout,
                       std::cerr);
  }
  std::cerr << "cardref_log: unknown command '" << command << "'\n\n" << usage;
  return cardref::analyzer::kExitUsage;
}
