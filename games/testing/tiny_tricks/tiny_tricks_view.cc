#include "games/testing/tiny_tricks/tiny_tricks_entry_points.h"

#include "analyzer/log_tools/game_view.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "cardref/v1/tiny_tricks.pb.h"
#include "games/testing/tiny_tricks/tiny_tricks.h"

namespace cardref::tiny_tricks {
namespace {

using log_tools::CardFace;
using log_tools::GameView;
using log_tools::Pile;
using log_tools::SeatTable;
using log_tools::Table;

std::string Name(const std::vector<std::string>& names, int seat) {
  return seat >= 0 && seat < static_cast<int>(names.size())
             ? names[seat]
             : absl::StrCat("seat ", seat);
}

class TinyTricksView final : public GameView {
 public:
  CardFace Face(uint32_t card) const override {
    const std::string name = CardName(static_cast<Card>(card));
    return CardFace{name.substr(1), name.substr(0, 1)};
  }

  Table MakeTable(const std::vector<v1::Observation>& views, int viewer,
                  const std::vector<std::string>& names) const override {
    Table table;
    const v1::Observation& pub = views[viewer >= 0 ? viewer : 0];
    const v1::TinyTricksObservation& t = pub.tiny_tricks();
    for (int s = 0; s < static_cast<int>(views.size()); ++s) {
      SeatTable seat;
      seat.name = Name(names, s);
      seat.to_act = pub.seat_to_act() == s;
      if (s < t.hand_sizes_size()) seat.hand_size = t.hand_sizes(s);
      if (s < t.totals_size()) seat.info = absl::StrCat("total ", t.totals(s));
      if (viewer < 0 || viewer == s) {
        seat.hand_visible = true;
        for (uint32_t c : views[s].tiny_tricks().hand()) {
          seat.hand.push_back(Face(c));
        }
      }
      table.seats.push_back(std::move(seat));
    }
    for (int i = 0; i < t.tricks_size(); ++i) {
      const v1::TinyTricksTrick& trick = t.tricks(i);
      Pile pile;
      pile.title = trick.winner() >= 0
                       ? absl::StrCat("trick ", i + 1, ", won by ",
                                      Name(names, trick.winner()))
                       : absl::StrCat("trick ", i + 1);
      for (int k = 0; k < trick.cards_size(); ++k) {
        pile.cards.push_back(Face(trick.cards(k)));
        pile.labels.push_back(
            Name(names, k < trick.seats_size() ? trick.seats(k) : -1));
      }
      table.piles.push_back(std::move(pile));
    }
    table.status = absl::StrCat("round ", pub.round());
    return table;
  }

  std::vector<std::string> Effects(
      const v1::Observation& /*before*/, const v1::Observation& after,
      const v1::Action* action,
      const std::vector<std::string>& names) const override {
    const v1::TinyTricksObservation& a = after.tiny_tricks();
    if (action == nullptr || a.tricks_size() == 0) return {};
    const v1::TinyTricksTrick& last = a.tricks(a.tricks_size() - 1);
    if (last.winner() < 0) return {};
    return {absl::StrCat(Name(names, last.winner()), " wins the trick")};
  }

  std::vector<std::string> RoundResultLines(
      const v1::RoundResult& result,
      const std::vector<std::string>& names) const override {
    std::vector<std::string> won;
    for (int v : result.tiny_tricks().tricks_won()) {
      won.push_back(absl::StrCat(v));
    }
    return {absl::StrCat("tricks won: ", log_tools::PerSeat(names, won))};
  }

  std::vector<std::string> ScoreColumns(
      const std::vector<std::string>& names) const override {
    return names;
  }

  std::vector<std::string> ScoreRow(
      const v1::RoundResult& result) const override {
    std::vector<std::string> row;
    for (int v : result.tiny_tricks().tricks_won()) {
      row.push_back(absl::StrCat(v));
    }
    return row;
  }

  std::vector<std::string> FinalResultLines(
      const v1::FinalResult& result,
      const std::vector<std::string>& names) const override {
    std::vector<std::string> totals;
    for (int64_t v : result.tiny_tricks().totals()) {
      totals.push_back(absl::StrCat(v));
    }
    return {absl::StrCat("totals: ", log_tools::PerSeat(names, totals))};
  }
};

}  // namespace

std::unique_ptr<GameView> MakeView() {
  return std::make_unique<TinyTricksView>();
}

}  // namespace cardref::tiny_tricks
