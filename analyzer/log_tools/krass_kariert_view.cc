// Krass Kariert (shared/rules/krass_kariert.md) for people: ordered hands,
// the two face-up reserves, chips, the trick with its target combination.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "analyzer/log_tools/game_view.h"
#include "referee/games/krass_kariert/krass_kariert_cards.h"

namespace cardref::log_tools {
namespace {

std::string ComboText(const v1::KrassKariertCombination& combo) {
  if (combo.type() == v1::KRASS_KARIERT_COMBO_TYPE_UNSPECIFIED) return "";
  absl::string_view type = v1::KrassKariertComboType_Name(combo.type());
  absl::ConsumePrefix(&type, "KRASS_KARIERT_COMBO_TYPE_");
  return absl::StrCat(type, " ", combo.key());
}

std::string Name(const std::vector<std::string>& names, int s) {
  return s >= 0 && s < static_cast<int>(names.size()) ? names[s]
                                                     : absl::StrCat("seat ", s);
}

class KrassKariertView : public GameView {
 public:
  CardFace Face(uint32_t card) const override {
    return CardFace{krass_kariert::CardName(static_cast<Card>(card)), ""};
  }

  Table MakeTable(const std::vector<v1::Observation>& views, int viewer,
                  const std::vector<std::string>& names) const override {
    Table table;
    const v1::Observation& pub = views[viewer >= 0 ? viewer : 0];
    const v1::KrassKariertObservation& k = pub.krass_kariert();
    for (int s = 0; s < static_cast<int>(views.size()); ++s) {
      SeatTable seat;
      seat.name = names[s];
      seat.to_act = pub.seat_to_act() == s;
      if (s < k.seats_size()) {
        const v1::KrassKariertObservation::SeatView& v = k.seats(s);
        seat.hand_size = v.hand_size();
        seat.info = absl::StrCat("chips ", v.chips());
        if (!v.active()) absl::StrAppend(&seat.info, ", out of the round");
        seat.extra_title = "reserve";
        for (const auto& slot : v.reserves()) {
          seat.extra.push_back(slot.has_card() ? Face(slot.card()) : CardFace{"-", ""});
        }
      }
      if (s == k.leader() && k.trick() > 0) absl::StrAppend(&seat.info, ", leads");
      if (viewer < 0 || viewer == s) {
        seat.hand_visible = true;
        for (uint32_t card : views[s].krass_kariert().hand()) {
          seat.hand.push_back(Face(card));
        }
        if (views[s].krass_kariert().own_pending_drawn_size() > 0) {
          std::vector<uint32_t> drawn(views[s].krass_kariert().own_pending_drawn().begin(),
                                      views[s].krass_kariert().own_pending_drawn().end());
          absl::StrAppend(&seat.info, ", to place: ", CardsText(drawn));
        }
      }
      table.seats.push_back(std::move(seat));
    }
    Pile trick;
    trick.title = absl::StrCat("trick ", k.trick());
    for (const auto& action : k.current_trick()) {
      if (action.action().has_take_reserve()) {
        trick.cards.push_back(CardFace{"R", ""});
        trick.labels.push_back(absl::StrCat(Name(names, action.seat()), " takes a reserve"));
        continue;
      }
      for (uint32_t card : action.cards()) {
        trick.cards.push_back(Face(card));
        trick.labels.push_back(Name(names, action.seat()));
      }
    }
    table.piles.push_back(std::move(trick));
    std::vector<std::string> status = {absl::StrCat("round ", pub.round()),
                                       absl::StrCat("trick ", k.trick())};
    if (const std::string target = ComboText(k.target()); !target.empty()) {
      status.push_back(absl::StrCat("to beat: ", target, " (", Name(names, k.target_seat()), ")"));
    }
    if (k.draws_in_trick() > 0) status.push_back(absl::StrCat("DRAW cards ", k.draws_in_trick()));
    status.push_back(absl::StrCat("draw pile ", k.draw_pile_size()));
    table.status = absl::StrJoin(status, " · ");
    return table;
  }

  std::vector<std::string> Effects(
      const v1::Observation& before, const v1::Observation& after,
      const std::vector<std::string>& names) const override {
    const v1::KrassKariertObservation& b = before.krass_kariert();
    const v1::KrassKariertObservation& a = after.krass_kariert();
    std::vector<std::string> out;
    // A round's lists start again at its deal: compare within a round only.
    const bool same_round = b.trick() > 0 && a.trick() >= b.trick() &&
                            a.discard_pile_size() >= b.discard_pile_size();
    const bool same_trick = same_round && a.trick() == b.trick();
    // The cards played: the new end of the round's discard pile (the trick
    // itself is cleared when the play ends it).
    if (same_round && a.discard_pile_size() > b.discard_pile_size()) {
      std::vector<uint32_t> cards(a.discard_pile().begin() + b.discard_pile_size(),
                                  a.discard_pile().end());
      std::string combo;
      if (same_trick && a.current_trick_size() > b.current_trick_size()) {
        combo = ComboText(a.current_trick(a.current_trick_size() - 1).combination());
      }
      const int seat = before.seat_to_act();
      out.push_back(absl::StrCat(Name(names, seat), " plays ", CardsText(cards),
                                 combo.empty() ? "" : absl::StrCat(" (", combo, ")")));
    }
    if (a.drawing_seat() >= 0 && a.drawing_seat() != b.drawing_seat()) {
      out.push_back(absl::StrCat(Name(names, a.drawing_seat()), " won the trick and draws ",
                                 a.drawn_count(), a.drawn_count() == 1 ? " card" : " cards"));
    }
    if (same_round && !same_trick && a.trick() > 0) {
      out.push_back(absl::StrCat("trick ", b.trick(), " is over; ", Name(names, a.leader()),
                                 " leads trick ", a.trick()));
    }
    for (int s = 0; s < a.seats_size() && s < b.seats_size(); ++s) {
      if (b.seats(s).active() && !a.seats(s).active() && same_round) {
        out.push_back(absl::StrCat(Name(names, s), " is out of cards"));
      }
    }
    return out;
  }

  std::vector<std::string> RoundResultLines(
      const v1::RoundResult& result,
      const std::vector<std::string>& names) const override {
    const v1::KrassKariertRoundResult& r = result.krass_kariert();
    std::vector<int> charged(r.charged().begin(), r.charged().end());
    std::vector<std::string> chips;
    for (int v : r.chips()) chips.push_back(absl::StrCat(v));
    std::vector<std::string> out = {
        absl::StrCat("loses a chip: ", SeatList(names, charged)),
        absl::StrCat("chips: ", PerSeat(names, chips))};
    if (r.eliminated_size() > 0) {
      std::vector<int> gone(r.eliminated().begin(), r.eliminated().end());
      out.push_back(absl::StrCat("eliminated: ", SeatList(names, gone)));
    }
    return out;
  }

  std::vector<std::string> ScoreColumns(
      const std::vector<std::string>& names) const override {
    return names;
  }
  std::vector<std::string> ScoreRow(const v1::RoundResult& result) const override {
    std::vector<std::string> row;
    for (int v : result.krass_kariert().chips()) row.push_back(absl::StrCat(v));
    return row;
  }

  std::vector<std::string> FinalResultLines(
      const v1::FinalResult& result,
      const std::vector<std::string>& names) const override {
    const v1::KrassKariertFinalResult& f = result.krass_kariert();
    std::vector<std::string> chips;
    for (int v : f.chips()) chips.push_back(absl::StrCat(v));
    std::vector<int> losers(f.losers().begin(), f.losers().end());
    return {absl::StrCat("chips: ", PerSeat(names, chips)),
            absl::StrCat("losers: ", SeatList(names, losers))};
  }
};

}  // namespace

std::unique_ptr<GameView> MakeKrassKariertView() {
  return std::make_unique<KrassKariertView>();
}

}  // namespace cardref::log_tools
