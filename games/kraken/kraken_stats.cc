#include "games/kraken/kraken_entry_points.h"

#include "analyzer/stats_hook.h"

#include <algorithm>
#include <array>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "cardref/v1/kraken.pb.h"

namespace cardref::analyzer {
namespace {

// Kraken (KR-7, KR-14), from the round results alone. Per team t of a
// round (the seat's team in the player table):
//   burden_won     when t carried the burden (KR-7.6): it succeeded
//   made_ahead     when t made trump: its raw beat the defenders' (KR-14.3)
//   challenged     t challenged at least once: defenders at level >= 1,
//                  makers at level >= 2 (KR-7.2..7.4)
//   challenge_won  when t made the round's last challenge (level >= 1 and t
//                  is the burden team): it succeeded
//   bonus_points   t's valid trick claims + stuk + declarations (KR-12.3,
//                  KR-13.3, KR-8.4), also apart as trick_bonus, stuk,
//                  declarations; round_score is t's KR-14.5 score.
// Extra tables: per team (partners' names, sorted, joined by "+"), per
// player and per team for each variant "<trump_mode>/<rule_set>", and per
// variant for the whole table (level1..3: how often a round reached each
// challenge level; burden_won and made_ahead over every round; bonus points
// of both teams per round; spades: how often spades were trump, and
// spades_burden_won: how often the burden team succeeded then).
class KrakenStatsHook final : public GameStatsHook {
 public:
  absl::string_view game_id() const override { return "kraken"; }

  std::vector<std::pair<std::string, std::string>> metrics() const override {
    return {{"burden_won", "burden_won"},
            {"made_ahead", "made_ahead"},
            {"challenged", "challenged"},
            {"challenge_won", "chall_won"},
            {"bonus_points", "bonus_pts"}};
  }

  void OnRoundResult(const v1::RoundResult& result, int seat,
                     Metrics& out) const override {
    if (!result.has_kraken()) return;
    AddTeamRound(result.kraken(), seat % 2, out);
  }

  std::vector<ExtraTableSpec> extra_tables() const override {
    const std::vector<std::pair<std::string, std::string>> team_metrics = {
        {"win", "win"},
        {"round_score", "round_score"},
        {"burden_won", "burden_won"},
        {"made_ahead", "made_ahead"},
        {"challenged", "challenged"},
        {"challenge_won", "chall_won"},
        {"trick_bonus", "trick_bonus"},
        {"stuk", "stuk"},
        {"declarations", "declarations"}};
    return {
        {"teams", "team", "win", "games", team_metrics},
        {"players by variant", "player variant", "win", "games", team_metrics},
        {"variants",
         "variant",
         "burden_won",
         "rounds",
         {{"burden_won", "burden_won"},
          {"made_ahead", "made_ahead"},
          {"level1", "level1"},
          {"level2", "level2"},
          {"level3", "level3"},
          {"challenge_won", "chall_won"},
          {"trick_bonus", "trick_bonus"},
          {"stuk", "stuk"},
          {"declarations", "declarations"},
          {"spades", "spades"},
          {"spades_burden_won", "spades_won"}}},
    };
  }

  void OnLog(const record::GameLog& log, ExtraRows& out) const override {
    const v1::LogHeader& header = log.header();
    const std::string variant = absl::StrCat(
        EnumParam(header, "trump_mode"), "/", EnumParam(header, "rule_set"));
    std::vector<std::string> names;
    for (const v1::SeatInfo& seat : header.seats()) {
      names.push_back(seat.player_name().empty()
                          ? absl::StrCat("seat", seat.seat())
                          : seat.player_name());
    }
    if (names.size() != 4) return;
    std::array<std::string, 2> teams;
    for (int t = 0; t < 2; ++t) {
      std::array<std::string, 2> pair = {names[t], names[t + 2]};
      std::sort(pair.begin(), pair.end());
      teams[t] = absl::StrCat(pair[0], "+", pair[1]);
    }
    auto& team_rows = out["teams"];
    auto& player_rows = out["players by variant"];
    auto& variant_rows = out["variants"];
    for (const v1::LogRecord& record : log.records) {
      if (record.has_round_result() && record.round_result().has_kraken()) {
        const v1::KrakenRoundResult& r = record.round_result().kraken();
        for (int t = 0; t < 2; ++t) {
          AddTeamRound(r, t, team_rows[teams[t]]);
          AddTeamRound(r, t, team_rows[absl::StrCat(teams[t], " ", variant)]);
        }
        for (int s = 0; s < 4; ++s) {
          AddTeamRound(r, s % 2,
                       player_rows[absl::StrCat(names[s], " ", variant)]);
        }
        AddTableRound(r, variant_rows[variant]);
        AddTableRound(r, variant_rows["all"]);
      }
      if (record.has_final_result() && record.final_result().has_kraken()) {
        const v1::KrakenFinalResult& f = record.final_result().kraken();
        for (int t = 0; t < 2; ++t) {
          const double won =
              f.has_winner_team() && f.winner_team() == t ? 1 : 0;
          team_rows[teams[t]]["win"].Add(won);
          team_rows[absl::StrCat(teams[t], " ", variant)]["win"].Add(won);
        }
        for (int s = 0; s < 4; ++s) {
          player_rows[absl::StrCat(names[s], " ", variant)]["win"].Add(
              f.has_winner_team() && f.winner_team() == s % 2 ? 1 : 0);
        }
      }
    }
  }

 private:
  static std::string EnumParam(const v1::LogHeader& header,
                               const std::string& name) {
    auto it = header.params().values().find(name);
    return it == header.params().values().end() ? std::string("?")
                                                : it->second.enum_value();
  }

  static int Bonus(const v1::KrakenTeamPoints& p) {
    return p.trick_bonus() + p.stuk() + p.declarations();
  }

  // One round from team t's side.
  static void AddTeamRound(const v1::KrakenRoundResult& r, int t,
                           Metrics& out) {
    if (r.teams_size() != 2 || r.scores_size() != 2) return;
    const v1::KrakenTeamPoints& mine = r.teams(t);
    const v1::KrakenTeamPoints& theirs = r.teams(1 - t);
    const bool burden = r.burden_team() == t;
    if (burden) out["burden_won"].Add(r.success() ? 1 : 0);
    if (r.makers_team() == t) {
      out["made_ahead"].Add(mine.raw() > theirs.raw() ? 1 : 0);
    }
    const bool challenged =
        r.makers_team() == t ? r.level() >= 2 : r.level() >= 1;
    out["challenged"].Add(challenged ? 1 : 0);
    if (burden && r.level() >= 1) {
      out["challenge_won"].Add(r.success() ? 1 : 0);
    }
    out["bonus_points"].Add(Bonus(mine));
    out["trick_bonus"].Add(mine.trick_bonus());
    out["stuk"].Add(mine.stuk());
    out["declarations"].Add(mine.declarations());
    out["round_score"].Add(static_cast<double>(r.scores(t)));
  }

  // One round for the whole table.
  static void AddTableRound(const v1::KrakenRoundResult& r, Metrics& out) {
    if (r.teams_size() != 2) return;
    const int m = r.makers_team() == 1 ? 1 : 0;
    out["burden_won"].Add(r.success() ? 1 : 0);
    out["made_ahead"].Add(r.teams(m).raw() > r.teams(1 - m).raw() ? 1 : 0);
    out["level1"].Add(r.level() >= 1 ? 1 : 0);
    out["level2"].Add(r.level() >= 2 ? 1 : 0);
    out["level3"].Add(r.level() >= 3 ? 1 : 0);
    if (r.level() >= 1) out["challenge_won"].Add(r.success() ? 1 : 0);
    out["trick_bonus"].Add(r.teams(0).trick_bonus() + r.teams(1).trick_bonus());
    out["stuk"].Add(r.teams(0).stuk() + r.teams(1).stuk());
    out["declarations"].Add(r.teams(0).declarations() +
                            r.teams(1).declarations());
    // Spades rounds (KR-14.4 doubles them when spades_double is on).
    const bool spades = r.trump() == v1::SUIT_SPADES;
    out["spades"].Add(spades ? 1 : 0);
    if (spades) out["spades_burden_won"].Add(r.success() ? 1 : 0);
  }
};

}  // namespace
}  // namespace cardref::analyzer

namespace cardref::kraken {

const analyzer::GameStatsHook& StatsHook() {
  static const analyzer::KrakenStatsHook* hook = new analyzer::KrakenStatsHook;
  return *hook;
}

}  // namespace cardref::kraken
