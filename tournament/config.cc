#include "tournament/config.h"

#include <fstream>
#include <sstream>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/text_format.h"
#include "tournament/bot_folders.h"
#include "tournament/bot_pool.h"

namespace cardref::tournament {
namespace {

// Collects the parser's errors instead of printing them.
class ErrorCollector : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override {
    errors.push_back(absl::StrCat(line + 1, ":", column + 1, ": ", message));
  }
  std::vector<std::string> errors;
};

}  // namespace

absl::StatusOr<GameSpec> ParseGameSpec(const std::string& text) {
  std::vector<std::string> parts = absl::StrSplit(text, ':');
  GameSpec game{parts[0], 0};
  if (game.id.empty() || parts.size() > 2 ||
      (parts.size() == 2 &&
       (!absl::SimpleAtoi(parts[1], &game.players) || game.players < 1))) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a game is id or id:players (a game id from ListGames, alone or "
        "with a player count after a colon); got '", text,
        "'"));
  }
  return game;
}

absl::StatusOr<v1::TournamentConfig> ReadConfigFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    return absl::NotFoundError(absl::StrCat("cannot read --config ", path));
  }
  std::stringstream text;
  text << in.rdbuf();
  v1::TournamentConfig config;
  google::protobuf::TextFormat::Parser parser;
  ErrorCollector errors;
  parser.RecordErrorsTo(&errors);
  if (!parser.ParseFromString(text.str(), &config)) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ":", absl::StrJoin(errors.errors, "; "),
        " (expected a cardref.v1.TournamentConfig in protobuf text format, "
        "see proto/cardref/v1/tournament.proto)"));
  }
  return config;
}

absl::Status ApplyConfig(const v1::TournamentConfig& config,
                         EventOptions* options) {
  for (const v1::TournamentBot& bot : config.bots()) {
    if (bot.name().empty() || (bot.command().empty() != bot.remote())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "a bot in the config needs a name and a command (a remote one a "
          "name and no command), got name '",
          bot.name(), "'"));
    }
    // The same checks as --bot: the name's characters.
    absl::StatusOr<BotSpec> spec = ParseBotSpec(absl::StrCat(
        bot.name(), "=", bot.remote() ? "remote" : bot.command(0)));
    if (!spec.ok()) return spec.status();
    BotSpec added;
    added.name = bot.name();
    added.command = {bot.command().begin(), bot.command().end()};
    added.remote = bot.remote();
    added.invitable = bot.invitable() || IsKnownInvitableBot(added.command);
    options->schedule.bots.push_back(std::move(added));
    if (!bot.folder().empty()) {
      if (absl::Status s =
              AddBotFolder(absl::StrCat(bot.name(), "=", bot.folder()),
                           options->schedule.bots, &options->bot_folders);
          !s.ok()) {
        return s;
      }
    }
  }
  if (!config.bot_lifetime().empty()) {
    options->bot_lifetime = config.bot_lifetime();
  }
  if (config.bot_pool() > 0) options->bot_pool = config.bot_pool();
  if (!config.sprt().empty()) options->sprt = config.sprt();
  for (const std::string& g : config.games()) {
    absl::StatusOr<GameSpec> game = ParseGameSpec(g);
    if (!game.ok()) return game.status();
    options->schedule.games.push_back(*game);
  }
  if (!config.schedule().empty()) {
    absl::StatusOr<ScheduleKind> kind = ParseScheduleKind(config.schedule());
    if (!kind.ok()) return kind.status();
    options->schedule.kind = *kind;
  }
  if (config.duplicate()) options->schedule.duplicate = true;
  if (!config.seatings().empty()) {
    absl::StatusOr<SeatingsKind> seatings =
        ParseSeatingsKind(config.seatings());
    if (!seatings.ok()) return seatings.status();
    options->schedule.seatings = *seatings;
  }
  if (config.matches() > 0) options->schedule.matches = config.matches();
  if (config.concurrency() > 0) options->concurrency = config.concurrency();
  if (!config.out().empty()) options->out_dir = config.out();
  if (!config.shard().empty()) options->shard = config.shard();
  if (!config.params().empty()) options->match.params = config.params();
  if (!config.server().empty()) options->server = config.server();
  if (config.decision_time_limit_ms() > 0) {
    options->match.decision_time_limit_ms = config.decision_time_limit_ms();
  }
  if (config.join_timeout_s() > 0) {
    options->match.join_timeout_s = config.join_timeout_s();
  }
  if (config.match_budget_s() > 0) {
    options->match.match_budget_s = config.match_budget_s();
  }
  return absl::OkStatus();
}

}  // namespace cardref::tournament
