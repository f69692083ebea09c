// Krass Kariert (shared/rules/krass_kariert.md) for people: ordered hands,
// the two face-up reserves, chips, the trick with its target combination.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "games/krass_kariert/krass_kariert_entry_points.h"

#include "analyzer/log_tools/game_view.h"
#include "games/krass_kariert/krass_kariert_cards.h"

namespace cardref::log_tools {
namespace {

// "RUN2 5-6", as the engine names a combination (the proto's types are
// KK-3.5's ranks, the engine's ComboType numbers).
std::string ComboText(const v1::KrassKariertCombination& combo) {
  if (combo.type() == v1::KRASS_KARIERT_COMBO_TYPE_UNSPECIFIED) return "";
  return krass_kariert::StrengthName(krass_kariert::MakeStrength(
      static_cast<krass_kariert::ComboType>(combo.type()), combo.key()));
}

std::string Name(const std::vector<std::string>& names, int s) {
  return s >= 0 && s < static_cast<int>(names.size())
             ? names[s]
             : absl::StrCat("seat ", s);
}

template <typename List>
bool IsPrefix(const List& prefix, const List& list) {
  if (prefix.size() > list.size()) return false;
  for (int i = 0; i < prefix.size(); ++i) {
    if (prefix.Get(i) != list.Get(i)) return false;
  }
  return true;
}

// The combination a PLAY of `cards` forms (KK-3.1, the engine's Classify),
// each X taking its declared value in position order; empty for a STOP or
// DRAW, or cards that form none.
std::string ComboOf(const std::vector<uint32_t>& cards,
                    const v1::Action& action) {
  if (!action.has_krass_kariert() || !action.krass_kariert().has_play() ||
      cards.empty() || cards.size() > 3) {
    return "";
  }
  const auto& x_values = action.krass_kariert().play().x_values();
  int values[3];
  int next_x = 0;
  for (size_t i = 0; i < cards.size(); ++i) {
    const Card c = static_cast<Card>(cards[i]);
    const krass_kariert::CardKind kind = krass_kariert::KindOf(c);
    if (kind == krass_kariert::CardKind::kX) {
      if (next_x >= x_values.size()) return "";
      values[i] = static_cast<int>(x_values.Get(next_x++));
    } else if (kind == krass_kariert::CardKind::kNumber) {
      values[i] = krass_kariert::ValueOf(c);
    } else {
      return "";
    }
  }
  const krass_kariert::Strength s =
      krass_kariert::Classify(values, static_cast<int>(cards.size()));
  return s == krass_kariert::kNoStrength ? "" : krass_kariert::StrengthName(s);
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
          seat.extra.push_back(slot.has_card() ? Face(slot.card())
                                               : CardFace{"-", ""});
        }
      }
      if (s == k.leader() && k.trick() > 0)
        absl::StrAppend(&seat.info, ", leads");
      if (viewer < 0 || viewer == s) {
        seat.hand_visible = true;
        for (uint32_t card : views[s].krass_kariert().hand()) {
          seat.hand.push_back(Face(card));
        }
        if (views[s].krass_kariert().own_pending_drawn_size() > 0) {
          std::vector<uint32_t> drawn(
              views[s].krass_kariert().own_pending_drawn().begin(),
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
        trick.labels.push_back(
            absl::StrCat(Name(names, action.seat()), " takes a reserve"));
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
      status.push_back(absl::StrCat("to beat: ", target, " (",
                                    Name(names, k.target_seat()), ")"));
    }
    if (k.draws_in_trick() > 0)
      status.push_back(absl::StrCat("DRAW cards ", k.draws_in_trick()));
    status.push_back(absl::StrCat("draw pile ", k.draw_pile_size()));
    table.status = absl::StrJoin(status, " · ");
    return table;
  }

  std::vector<std::string> Effects(
      const v1::Observation& before, const v1::Observation& after,
      const v1::Action* action,
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
    if (IsPrefix(b.discard_pile(), a.discard_pile()) &&
        a.discard_pile_size() > b.discard_pile_size()) {
      const std::vector<uint32_t> cards(
          a.discard_pile().begin() + b.discard_pile_size(),
          a.discard_pile().end());
      const std::string combo =
          action != nullptr ? ComboOf(cards, *action) : "";
      out.push_back(absl::StrCat(
          Name(names, before.seat_to_act()), " plays ", CardsText(cards),
          combo.empty() ? "" : absl::StrCat(" (", combo, ")")));
    }
    if (a.drawing_seat() >= 0 && a.drawing_seat() != b.drawing_seat()) {
      out.push_back(absl::StrCat(Name(names, a.drawing_seat()),
                                 " won the trick and draws ", a.drawn_count(),
                                 a.drawn_count() == 1 ? " card" : " cards"));
    }
    if (same_round && !same_trick && a.trick() > 0) {
      out.push_back(absl::StrCat("trick ", b.trick(), " is over; ",
                                 Name(names, a.leader()), " leads trick ",
                                 a.trick()));
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
  std::vector<std::string> ScoreRow(
      const v1::RoundResult& result) const override {
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
}  // namespace cardref::log_tools

namespace cardref::krass_kariert {

std::unique_ptr<log_tools::GameView> MakeView() {
  return std::make_unique<log_tools::KrassKariertView>();
}

}  // namespace cardref::krass_kariert
