// Kraken (shared/rules/kraken.md) for people: four hands, the trick in
// play and the last one won, trump, maker and level, team totals.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "games/kraken/kraken_entry_points.h"

#include "analyzer/log_tools/game_view.h"
#include "games/kraken/kraken_action.h"

namespace cardref::log_tools {
namespace {

std::string SuitLetter(int suit) {
  return suit >= 1 && suit <= 4 ? std::string(1, "CDHS"[suit - 1]) : "";
}

std::string Name(const std::vector<std::string>& names, int s) {
  return s >= 0 && s < static_cast<int>(names.size())
             ? names[s]
             : absl::StrCat("seat ", s);
}

// "team 0 (alice + carol)": partners sit opposite (KR-2.1).
std::string TeamName(const std::vector<std::string>& names, int team) {
  return absl::StrCat("team ", team, " (", Name(names, team), " + ",
                      Name(names, team + 2), ")");
}

std::string BonusName(v1::KrakenBonus bonus) {
  absl::string_view name = v1::KrakenBonus_Name(bonus);
  absl::ConsumePrefix(&name, "KRAKEN_BONUS_");
  return std::string(name);
}

// Where the new items of `after` start: b.size() if `before` is its
// prefix, else 0 (the list started again).
template <typename List>
int NewFrom(const List& before, const List& after) {
  if (before.size() > after.size()) return 0;
  for (int i = 0; i < before.size(); ++i) {
    if (before.Get(i) != after.Get(i)) return 0;
  }
  return before.size();
}

class KrakenView : public GameView {
 public:
  CardFace Face(uint32_t card) const override {
    const std::string text = kraken::CardName(static_cast<Card>(card));
    return CardFace{text.substr(0, 1), text.substr(1)};
  }

  Pile TrickPile(const v1::KrakenTrick& trick, const std::string& title,
                 const std::vector<std::string>& names) const {
    Pile pile;
    pile.title = title;
    for (const auto& played : trick.cards()) {
      pile.cards.push_back(Face(played.card()));
      pile.labels.push_back(absl::StrCat(
          Name(names, played.seat()), played.declare_stuk() ? " (stuk)" : ""));
    }
    return pile;
  }

  Table MakeTable(const std::vector<v1::Observation>& views, int viewer,
                  const std::vector<std::string>& names) const override {
    Table table;
    const v1::Observation& pub = views[viewer >= 0 ? viewer : 0];
    const v1::KrakenObservation& k = pub.kraken();
    for (int s = 0; s < static_cast<int>(views.size()); ++s) {
      SeatTable seat;
      seat.name = names[s];
      seat.to_act = pub.seat_to_act() == s;
      seat.hand_size = s < k.hand_sizes_size() ? k.hand_sizes(s) : 0;
      seat.info = absl::StrCat("team ", s % 2);
      if (s == k.dealer()) absl::StrAppend(&seat.info, ", dealer");
      if (s == k.maker()) absl::StrAppend(&seat.info, ", maker");
      if (s < k.stuk_declared_size() && k.stuk_declared(s)) {
        absl::StrAppend(&seat.info, ", stuk");
      }
      if (viewer < 0 || viewer == s) {
        seat.hand_visible = true;
        for (uint32_t card : views[s].kraken().hand())
          seat.hand.push_back(Face(card));
      }
      table.seats.push_back(std::move(seat));
    }
    if (k.has_current_trick() && k.current_trick().cards_size() > 0) {
      table.piles.push_back(
          TrickPile(k.current_trick(),
                    absl::StrCat("trick ", k.current_trick().number()), names));
    } else if (k.phase() == v1::KRAKEN_PHASE_PLAY) {
      table.piles.push_back(
          Pile{absl::StrCat("trick ", k.completed_tricks_size() + 1), {}, {}});
    }
    if (k.completed_tricks_size() > 0) {
      const v1::KrakenTrick& last =
          k.completed_tricks(k.completed_tricks_size() - 1);
      table.piles.push_back(
          TrickPile(last,
                    absl::StrCat("trick ", last.number(), " won by ",
                                 Name(names, last.winner()), " (",
                                 last.points(), " points)"),
                    names));
    }
    if (k.turned_trump_cards_size() > 0) {
      Pile turned;
      turned.title = "trump deck, turned";
      for (uint32_t c : k.turned_trump_cards()) turned.cards.push_back(Face(c));
      table.piles.push_back(std::move(turned));
    }
    std::vector<std::string> status = {absl::StrCat("round ", pub.round())};
    if (!SuitLetter(k.trump()).empty()) {
      status.push_back(absl::StrCat("trump ", SuitLetter(k.trump())));
      status.push_back(absl::StrCat("maker ", Name(names, k.maker())));
      status.push_back(absl::StrCat("level ", k.level()));
    } else if (!SuitLetter(k.proposed_suit()).empty()) {
      status.push_back(
          absl::StrCat("proposed ", SuitLetter(k.proposed_suit())));
    }
    if (k.totals_size() == 2) {
      status.push_back(
          absl::StrCat("totals ", k.totals(0), " : ", k.totals(1)));
    }
    table.status = absl::StrJoin(status, " · ");
    return table;
  }

  std::vector<std::string> Effects(
      const v1::Observation& before, const v1::Observation& after,
      const v1::Action* action,
      const std::vector<std::string>& names) const override {
    (void)action;  // the observations say it all
    const v1::KrakenObservation& b = before.kraken();
    const v1::KrakenObservation& a = after.kraken();
    std::vector<std::string> out;
    // Lists grow within a round and start again at a deal; a round's end
    // leaves them in place until then (the envelope's round moves on).
    const int turned_before =
        NewFrom(b.turned_trump_cards(), a.turned_trump_cards());
    for (int i = turned_before; i < a.turned_trump_cards_size(); ++i) {
      out.push_back(absl::StrCat("the trump deck turns ",
                                 Face(a.turned_trump_cards(i)).Text()));
    }
    if (!SuitLetter(a.trump()).empty() && a.trump() != b.trump()) {
      out.push_back(absl::StrCat("trump is ", SuitLetter(a.trump()), ", maker ",
                                 Name(names, a.maker())));
    }
    if (a.level() > b.level()) {
      out.push_back(
          absl::StrCat("level ", a.level(), " (stakes x", 1 << a.level(), ")"));
    }
    if (a.declarations_size() == 4 && b.declarations_size() != 4) {
      const v1::KrakenContest& c = a.contest();
      out.push_back(
          c.winner_seat() < 0
              ? std::string("nothing declared")
              : absl::StrCat("declarations: ", Name(names, c.winner_seat()),
                             " wins with best ", c.best_value(),
                             ", team points ",
                             absl::StrJoin(c.points(), " : ")));
    }
    const int done_before =
        b.completed_tricks_size() <= a.completed_tricks_size()
            ? b.completed_tricks_size()
            : 0;
    for (int i = done_before; i < a.completed_tricks_size(); ++i) {
      const v1::KrakenTrick& t = a.completed_tricks(i);
      out.push_back(
          absl::StrCat("trick ", t.number(), " won by ",
                       Name(names, t.winner()), ": ", t.points(), " points",
                       t.bonus() == v1::KRAKEN_BONUS_UNSPECIFIED
                           ? ""
                           : absl::StrCat(", bonus ", BonusName(t.bonus()))));
    }
    if (a.completed_tricks_size() == b.completed_tricks_size() &&
        a.completed_tricks_size() > 0) {
      const v1::KrakenTrick& t =
          a.completed_tricks(a.completed_tricks_size() - 1);
      const v1::KrakenTrick& u =
          b.completed_tricks(b.completed_tricks_size() - 1);
      if (t.claim() != u.claim() &&
          t.claim() == v1::KRAKEN_CLAIM_STATUS_CLAIMED) {
        out.push_back(absl::StrCat("bonus ", BonusName(t.bonus()), " claimed"));
      } else if (t.claim() != u.claim() &&
                 t.claim() == v1::KRAKEN_CLAIM_STATUS_DECLINED) {
        out.push_back(
            absl::StrCat("bonus ", BonusName(t.bonus()), " declined"));
      }
    }
    return out;
  }

  std::vector<std::string> RoundResultLines(
      const v1::RoundResult& result,
      const std::vector<std::string>& names) const override {
    const v1::KrakenRoundResult& r = result.kraken();
    std::vector<std::string> out = {absl::StrCat(
        "trump ", SuitLetter(r.trump()), ", maker ", Name(names, r.maker()),
        ", level ", r.level(), ", factor ", r.factor(), "; ",
        TeamName(names, r.burden_team()),
        r.success() ? " carried the burden" : " failed the burden")};
    for (int t = 0; t < r.teams_size(); ++t) {
      const v1::KrakenTeamPoints& p = r.teams(t);
      out.push_back(absl::StrCat(
          TeamName(names, t), ": ", p.tricks_won(), " tricks, card points ",
          p.card_points(), ", last trick ", p.last_trick(), ", trick bonus ",
          p.trick_bonus(), ", stuk ", p.stuk(), ", declarations ",
          p.declarations(), ", pit ", p.pit(), ", raw ", p.raw()));
    }
    out.push_back(absl::StrCat("scores: ", absl::StrJoin(r.scores(), " : ")));
    return out;
  }

  std::vector<std::string> ScoreColumns(
      const std::vector<std::string>& names) const override {
    return {TeamName(names, 0), TeamName(names, 1)};
  }
  std::vector<std::string> ScoreRow(
      const v1::RoundResult& result) const override {
    std::vector<std::string> row;
    for (int64_t v : result.kraken().scores()) row.push_back(absl::StrCat(v));
    return row;
  }

  std::vector<std::string> FinalResultLines(
      const v1::FinalResult& result,
      const std::vector<std::string>& names) const override {
    const v1::KrakenFinalResult& f = result.kraken();
    return {absl::StrCat(
        "team totals: ", absl::StrJoin(f.totals(), " : "), "; ",
        f.has_winner_team()
            ? absl::StrCat(TeamName(names, f.winner_team()), " wins")
            : std::string("a draw"))};
  }
};

}  // namespace
}  // namespace cardref::log_tools

namespace cardref::kraken {

std::unique_ptr<log_tools::GameView> MakeView() {
  return std::make_unique<log_tools::KrakenView>();
}

}  // namespace cardref::kraken
