// Craits (shared/rules/craits.md) for people: the discard pile with the
// active suit, the crank count, the stock, the draws each step caused.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "games/craits/craits_entry_points.h"

#include "analyzer/log_tools/game_view.h"
#include "games/craits/craits_cards.h"

namespace cardref::log_tools {
namespace {

// The Suit enum of common.proto: 1 = C, 2 = D, 3 = H, 4 = S.
std::string SuitLetter(int suit) {
  return suit >= 1 && suit <= 4 ? std::string(1, "CDHS"[suit - 1]) : "";
}

constexpr int kPileShown = 8;  // the newest cards of the discard pile

class CraitsView : public GameView {
 public:
  CardFace Face(uint32_t card) const override {
    const std::string text = craits::CardToString(static_cast<Card>(card));
    return CardFace{text.substr(0, 1), text.substr(1)};
  }

  Table MakeTable(const std::vector<v1::Observation>& views, int viewer,
                  const std::vector<std::string>& names) const override {
    Table table;
    const v1::Observation& pub = views[viewer >= 0 ? viewer : 0];
    const v1::CraitsObservation& c = pub.craits();
    for (int s = 0; s < static_cast<int>(views.size()); ++s) {
      SeatTable seat;
      seat.name = names[s];
      seat.to_act = pub.seat_to_act() == s;
      if (s < c.seats_size()) {
        seat.hand_size = c.seats(s).hand_size();
        seat.info = absl::StrCat("total ", c.seats(s).total());
        if (c.seats(s).missed_turn())
          absl::StrAppend(&seat.info, ", misses a turn");
      }
      if (s == c.dealer()) absl::StrAppend(&seat.info, ", dealer");
      if (s == c.vulnerable_seat()) absl::StrAppend(&seat.info, ", last card");
      if (viewer < 0 || viewer == s) {
        seat.hand_visible = true;
        for (uint32_t card : views[s].craits().hand())
          seat.hand.push_back(Face(card));
      }
      table.seats.push_back(std::move(seat));
    }
    Pile pile;
    const int n = c.discard_pile_size();
    pile.title = absl::StrCat("discard pile (", n, n == 1 ? " card" : " cards",
                              n > kPileShown ? ", newest shown" : "", ")");
    for (int i = std::max(0, n - kPileShown); i < n; ++i) {
      pile.cards.push_back(Face(c.discard_pile(i)));
    }
    table.piles.push_back(std::move(pile));
    std::vector<std::string> status = {absl::StrCat("round ", c.round())};
    if (c.has_top_card())
      status.push_back(absl::StrCat("top ", Face(c.top_card()).Text()));
    if (!SuitLetter(c.active_suit()).empty()) {
      status.push_back(absl::StrCat("suit ", SuitLetter(c.active_suit())));
    }
    if (c.crank_count() > 0)
      status.push_back(absl::StrCat("crank ", c.crank_count()));
    status.push_back(absl::StrCat("stock ", c.stock_size()));
    status.emplace_back(c.direction() < 0 ? "counter-clockwise" : "clockwise");
    table.status = absl::StrJoin(status, " · ");
    return table;
  }

  std::vector<std::string> Effects(
      const v1::Observation& before, const v1::Observation& after,
      const v1::Action* action,
      const std::vector<std::string>& names) const override {
    (void)action;  // the observations say it all
    const v1::CraitsObservation& b = before.craits();
    const v1::CraitsObservation& a = after.craits();
    std::vector<std::string> out;
    for (const v1::CraitsDraw& d : a.last_draws()) {
      std::string line =
          absl::StrCat(Name(names, d.seat()), " draws ", d.drawn(),
                       d.drawn() == 1 ? " card" : " cards");
      if (d.drawn() != d.requested())
        absl::StrAppend(&line, " of ", d.requested());
      absl::StrAppend(&line, " (", d.cause(), ")");
      out.push_back(line);
    }
    // The suit in force when it is not the top card's own (an 8 or 9).
    if (a.has_top_card() && a.active_suit() != b.active_suit()) {
      const std::string top_suit = Face(a.top_card()).suit;
      if (SuitLetter(a.active_suit()) != top_suit) {
        out.push_back(
            absl::StrCat("suit is now ", SuitLetter(a.active_suit())));
      }
    }
    if (a.crank_count() != b.crank_count()) {
      out.push_back(a.crank_count() > 0
                        ? absl::StrCat("crank ", a.crank_count())
                        : "the crank is over");
    }
    if (a.direction() != b.direction() && b.direction() != 0 &&
        a.round() == b.round()) {
      out.emplace_back("direction reversed");
    }
    if (a.vulnerable_seat() != b.vulnerable_seat() &&
        a.vulnerable_seat() >= 0) {
      out.push_back(
          absl::StrCat(Name(names, a.vulnerable_seat()), " has one card left"));
    }
    for (int s = 0; s < a.seats_size() && s < b.seats_size(); ++s) {
      if (a.seats(s).missed_turn() && !b.seats(s).missed_turn()) {
        out.push_back(absl::StrCat(Name(names, s), " will miss a turn"));
      }
    }
    return out;
  }

  std::vector<std::string> RoundResultLines(
      const v1::RoundResult& result,
      const std::vector<std::string>& names) const override {
    const v1::CraitsRoundResult& r = result.craits();
    std::vector<std::string> scores;
    for (int64_t v : r.scores()) scores.push_back(absl::StrCat(v));
    std::vector<std::string> out = {
        absl::StrCat("scores: ", PerSeat(names, scores),
                     r.exhausted() ? " (exhausted: action limit)" : "")};
    std::vector<std::string> hands;
    for (int s = 0; s < r.hands_size(); ++s) {
      std::vector<uint32_t> cards(r.hands(s).cards().begin(),
                                  r.hands(s).cards().end());
      hands.push_back(cards.empty() ? "-" : CardsText(cards));
    }
    out.push_back(absl::StrCat("hands left: ", PerSeat(names, hands)));
    return out;
  }

  std::vector<std::string> ScoreColumns(
      const std::vector<std::string>& names) const override {
    return names;
  }
  std::vector<std::string> ScoreRow(
      const v1::RoundResult& result) const override {
    std::vector<std::string> row;
    for (int64_t v : result.craits().scores()) row.push_back(absl::StrCat(v));
    return row;
  }

  std::vector<std::string> FinalResultLines(
      const v1::FinalResult& result,
      const std::vector<std::string>& names) const override {
    const v1::CraitsFinalResult& f = result.craits();
    std::vector<std::string> totals;
    for (int64_t v : f.totals()) totals.push_back(absl::StrCat(v));
    std::vector<std::string> out = {
        absl::StrCat("totals: ", PerSeat(names, totals))};
    if (f.exhausted_rounds_size() > 0) {
      out.push_back(absl::StrCat("exhausted rounds: ",
                                 absl::StrJoin(f.exhausted_rounds(), ", ")));
    }
    return out;
  }

 private:
  static std::string Name(const std::vector<std::string>& names, int s) {
    return s >= 0 && s < static_cast<int>(names.size())
               ? names[s]
               : absl::StrCat("seat ", s);
  }
};

}  // namespace
}  // namespace cardref::log_tools

namespace cardref::craits {

std::unique_ptr<log_tools::GameView> MakeView() {
  return std::make_unique<log_tools::CraitsView>();
}

}  // namespace cardref::craits
