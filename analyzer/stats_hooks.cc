// Game-specific statistics, one GameStatsHook per game that has any.
#include <algorithm>
#include <array>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "analyzer/stats.h"
#include "referee/games/craits/craits.h"

namespace cardref::analyzer {
namespace {

// Craits: how often a seat ends a round with an empty hand, and its mean
// round score (CR-13.2). An empty hand is read from the revealed hands, not
// from went_out: it is going out (CR-11.1) or, rarely, playing a last ace or
// 2 during the crank resolution after someone else went out (CR-11.3).
class CraitsStatsHook final : public GameStatsHook {
 public:
  absl::string_view game_id() const override { return "craits"; }

  std::vector<std::pair<std::string, std::string>> metrics() const override {
    return {{"empty_hand_rate", "empty_hand"},
            {"round_score", "round_score"},
            {"draw_rate", "draw_rate"},
            {"cards_drawn", "cards_drawn"},
            {"fool_call_rate", "fool_calls"},
            {"crank_length", "crank_len"}};
  }

  bool wants_actions() const override { return true; }

  // Per decision: how often the seat draws or calls a fool (CR-9, CR-10);
  // per crank the seat ends by drawing: its length C (CR-7).
  void OnAction(const v1::Observation& before, const v1::ActionEvent& event,
                Metrics& out) const override {
    if (!event.action().has_craits() || !before.has_craits()) return;
    const v1::CraitsAction& a = event.action().craits();
    out["draw_rate"].Add(a.has_draw() ? 1 : 0);
    out["fool_call_rate"].Add(a.has_call_fool() ? 1 : 0);
    if (a.has_draw() && before.craits().phase() == v1::CRAITS_PHASE_CRANK) {
      out["crank_length"].Add(before.craits().crank_count());
    }
  }

  // Cards drawn per round and seat (draws, crank losses CR-7, fives,
  // sevens, fool penalties: whatever made them), by conservation of cards
  // (CR-1.1): held at the end (the round result's hands) = dealt h(r) +
  // drawn - played. A view is no help at the end: after the last action
  // the engine shows the next round's empty hands.
  struct Plays : LogState {
    std::vector<int> per_seat;  // this round so far
  };

  std::unique_ptr<LogState> NewLogState() const override {
    return std::make_unique<Plays>();
  }

  void OnView(const v1::Observation& /*view*/, const v1::LogRecord& record,
              LogState& state, std::vector<Metrics>& seats) const override {
    std::vector<int>& plays = static_cast<Plays&>(state).per_seat;
    plays.resize(seats.size(), 0);
    if (record.has_action() && record.action().action().craits().has_play()) {
      const int seat = record.action().seat();
      if (seat >= 0 && seat < static_cast<int>(plays.size())) ++plays[seat];
    }
    if (!record.has_round_result() || !record.round_result().has_craits()) {
      return;
    }
    const v1::RoundResult& result = record.round_result();
    const int dealt = craits::HandSizeForRound(result.round());
    for (size_t s = 0; s < seats.size(); ++s) {
      if (static_cast<int>(s) >= result.craits().hands_size()) break;
      seats[s]["cards_drawn"].Add(
          result.craits().hands(static_cast<int>(s)).cards_size() + plays[s] -
          dealt);
      plays[s] = 0;
    }
  }

  void OnRoundResult(const v1::RoundResult& result, int seat,
                     Metrics& out) const override {
    if (!result.has_craits()) return;
    const v1::CraitsRoundResult& r = result.craits();
    if (seat < r.hands_size()) {
      out["empty_hand_rate"].Add(r.hands(seat).cards().empty() ? 1 : 0);
    }
    if (seat < r.scores_size()) {
      out["round_score"].Add(static_cast<double>(r.scores(seat)));
    }
  }
};

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

// Krass Kariert, per seat: out_first, per round, whether the seat was
// among the first to leave it with an empty hand (KK-9.3; several seats
// can leave at the same trick; 0 for everyone in a round nobody left),
// (KK-11.3: a charged seat loses one unless it has none), how often a decision
// takes a reserve (KK-6), and how often a play is a STOP (KK-7) or a DRAW
// (KK-8) card, read from the seat's hand just before (card ids 50-51 STOP,
// 52-53 DRAW).
class KrassKariertStatsHook final : public GameStatsHook {
 public:
  absl::string_view game_id() const override { return "krass_kariert"; }

  std::vector<std::pair<std::string, std::string>> metrics() const override {
    return {{"chips_lost", "chips_lost"},
            {"out_first", "out_first"},
            {"reserve_rate", "reserves"},
            {"stop_rate", "stops"},
            {"draw_card_rate", "draws"}};
  }

  bool wants_actions() const override { return true; }

  void OnAction(const v1::Observation& before, const v1::ActionEvent& event,
                Metrics& out) const override {
    if (!event.action().has_krass_kariert()) return;
    const v1::KrassKariertAction& a = event.action().krass_kariert();
    out["reserve_rate"].Add(a.has_take_reserve() ? 1 : 0);
    if (!a.has_play()) return;
    bool stop = false, draw = false;
    const auto& hand = before.krass_kariert().hand();
    for (uint32_t position : a.play().positions()) {
      if (position >= static_cast<uint32_t>(hand.size())) continue;
      stop |= hand[position] == 50 || hand[position] == 51;
      draw |= hand[position] == 52 || hand[position] == 53;
    }
    out["stop_rate"].Add(stop ? 1 : 0);
    out["draw_card_rate"].Add(draw ? 1 : 0);
  }

  struct RoundState : LogState {
    bool someone_left = false;  // in the current round
  };

  std::unique_ptr<LogState> NewLogState() const override {
    return std::make_unique<RoundState>();
  }

  // The active flags only drop within a round (the deal resets them), so
  // the first view with an inactive seat names who left first.
  void OnView(const v1::Observation& view, const v1::LogRecord& record,
              LogState& state, std::vector<Metrics>& seats) const override {
    RoundState& round = static_cast<RoundState&>(state);
    if (!view.has_krass_kariert()) return;
    const auto& views = view.krass_kariert().seats();
    if (!round.someone_left) {
      bool any = false;
      for (const auto& v : views) any |= !v.active();
      if (any) {
        round.someone_left = true;
        const int n = std::min(static_cast<int>(seats.size()), views.size());
        for (int s = 0; s < n; ++s) {
          seats[s]["out_first"].Add(views[s].active() ? 0 : 1);
        }
      }
    }
    if (record.has_round_result()) {
      if (!round.someone_left) {
        for (Metrics& m : seats) m["out_first"].Add(0);
      }
      round.someone_left = false;
    }
  }

  void OnRoundResult(const v1::RoundResult& result, int seat,
                     Metrics& out) const override {
    if (!result.has_krass_kariert()) return;
    // A charged seat without a chip is eliminated and loses none (KK-11.3).
    const auto& charged = result.krass_kariert().charged();
    const auto& eliminated = result.krass_kariert().eliminated();
    const bool lost =
        std::find(charged.begin(), charged.end(), seat) != charged.end() &&
        std::find(eliminated.begin(), eliminated.end(), seat) ==
            eliminated.end();
    out["chips_lost"].Add(lost ? 1 : 0);
  }
};

}  // namespace

const GameStatsHook* FindStatsHook(absl::string_view game_id) {
  static const std::vector<const GameStatsHook*>* hooks =
      new std::vector<const GameStatsHook*>{
          new CraitsStatsHook, new KrassKariertStatsHook, new KrakenStatsHook};
  for (const GameStatsHook* hook : *hooks) {
    if (hook->game_id() == game_id) return hook;
  }
  return nullptr;
}

}  // namespace cardref::analyzer
