// cardref_make_golden_logs --out_dir=testdata/logs
//
// Writes the golden logs of testdata/logs (README.md there): random games
// with fixed dealing and bot seeds, played through the referee's service
// layer. The card content is a pure function of the seeds; timestamps and
// match ids are not, so a rerun writes different bytes. Never overwrites:
// tests must fail when a golden log stops auditing, not regenerate it.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "analyzer/testing/test_logs.h"
#include "games/all_games.h"
#include "tools/cli_flags.h"

ABSL_FLAG(std::string, out_dir, "", "Directory for the golden logs");
ABSL_FLAG(bool, every_game, false,
          "Instead: one log of every registered game (the test-only ones "
          "included) with its default parameters and fewest seats, named "
          "<game>.cardlog, for the suites that must cover every game");

namespace {

struct Golden {
  const char* file;
  int players;
  uint64_t dealing_seed;
  uint64_t bot_seed;
  std::vector<std::string> names;
  std::string game = "craits";
  // Besides num_players (Craits: game_length=SHORT); empty: defaults.
  std::vector<std::pair<std::string, cardref::v1::ParamValue>> params;
  std::string file_name = "";  // when `file` is empty
};

cardref::v1::ParamValue Int(int64_t v) {
  cardref::v1::ParamValue p;
  p.set_int_value(v);
  return p;
}

cardref::v1::ParamValue Enum(const std::string& v) {
  cardref::v1::ParamValue p;
  p.set_enum_value(v);
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  cardref::cli::ParseFlagsWithoutArgsOrExit(
      argc, argv, "cardref_make_golden_logs",
      "Writes the golden logs of testdata/logs (testdata/logs/README.md).\nUsage: cardref_make_golden_logs --out_dir=DIR");
  const std::string out_dir = absl::GetFlag(FLAGS_out_dir);
  if (out_dir.empty()) {
    std::fprintf(stderr, "--out_dir is required\n");
    return 2;
  }
  std::vector<Golden> goldens = {
      {"craits_2p_short.cardlog", 2, 1001, 11, {"alice", "bob"}, "craits", {}},
      {"craits_3p_short.cardlog",
       3,
       1002,
       12,
       {"bob", "carol", "alice"},
       "craits",
       {}},
      {"craits_4p_short.cardlog",
       4,
       1003,
       13,
       {"carol", "alice", "dave", "bob"},
       "craits",
       {}},
      {"krass_kariert_3p.cardlog",
       3,
       2001,
       21,
       {"erin", "frank", "grace"},
       "krass_kariert",
       {{"chips_per_player", Int(2)}, {"hand_size", Int(5)}}},
      // The fourth name is hostile on purpose: the text and HTML tools must
      // show it as text (tests/log_tools).
      {"kraken_2rounds.cardlog",
       4,
       3001,
       31,
       {"heidi", "ivan", "judy", "</script><b>mallory</b> & \"co\""},
       "kraken",
       {{"trump_mode", Enum("RANDOM")},
        {"rounds", Int(2)},
        {"last_trick_bonus", Int(10)}}},
  };
  if (absl::GetFlag(FLAGS_every_game)) {
    goldens.clear();
    for (const std::string& id : cardref::AllGames().Ids()) {
      const cardref::GameInfo* info = *cardref::AllGames().Find(id);
      Golden g{"", info->min_seats, 4001, 41, {}, id, {}, id + ".cardlog"};
      for (const cardref::ParamSpec& spec : info->params) {
        if (spec.name == "num_players") {
          g.params.emplace_back("num_players", Int(info->min_seats));
        }
      }
      goldens.push_back(std::move(g));
    }
  }
  namespace fs = std::filesystem;
  const fs::path scratch = fs::temp_directory_path() /
                           ("cardref_golden_" + std::to_string(getpid()));
  fs::create_directories(scratch);
  int failures = 0;
  for (const Golden& g : goldens) {
    const std::string name = g.file[0] != '\0' ? g.file : g.file_name;
    const fs::path target = fs::path(out_dir) / name;
    if (fs::exists(target)) {
      std::fprintf(stderr, "%s exists: not overwriting it\n", target.c_str());
      ++failures;
      continue;
    }
    cardref::analyzer::testlogs::RandomMatchOptions options;
    options.game = g.game;
    if (g.game == "craits" && g.file[0] != '\0') {
      options.params =
          cardref::analyzer::testlogs::CraitsParams(g.players, true);
    } else if (g.game == "krass_kariert") {
      (*options.params.mutable_values())["num_players"].set_int_value(
          g.players);
    }
    for (const auto& [name, value] : g.params) {
      (*options.params.mutable_values())[name] = value;
    }
    options.dealing_seed = g.dealing_seed;
    options.bot_seed = g.bot_seed;
    options.player_names = g.names;
    options.illegal_per_mille = 20;
    options.out_of_turn_per_mille = 10;
    options.timeout_per_mille = 5;
    absl::StatusOr<std::string> path =
        cardref::analyzer::testlogs::PlayRandomMatch(scratch.string(), options);
    if (!path.ok()) {
      std::fprintf(stderr, "%s: %s\n", name.c_str(),
                   std::string(path.status().message()).c_str());
      ++failures;
      continue;
    }
    fs::copy_file(*path, target);
    std::printf("wrote %s\n", target.c_str());
  }
  fs::remove_all(scratch);
  return failures == 0 ? 0 : 1;
}
