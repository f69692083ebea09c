// Kraken <-> conformance JSON (../shared/conformance/README.md):
//   CHOOSE_TRUMP {suit}   PASS_TRUMP   ACCEPT_TRUMP   CHALLENGE
//   PASS_CHALLENGE   DECLARE {combos: [{kind, cards}]}
//   PLAY {card, declare_stuk}   CLAIM_BONUS {bonus}   DECLINE_BONUS
// Suits are the letters C D H S; DECLARE kinds FOUR_JACKS, FOUR, RUN with
// cards sorted by id, combinations in KR-8.3 canonical order on output (any
// order on input: a declaration is a set). Result: round_scores
// ([team 0, team 1] per round), totals, winner_team (null for a draw).
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "games/kraken/kraken_entry_points.h"
#include "analyzer/conformance/json_adapter.h"
#include "analyzer/conformance/json_util.h"
#include "games/kraken/kraken.h"

namespace cardref::conformance {
namespace {

namespace kr = ::cardref::kraken;

constexpr absl::string_view kGame = "kraken";

absl::Status Bad(absl::string_view field, absl::string_view why) {
  return BadActionField(kGame, field, why);
}

absl::StatusOr<int> SuitField(const nlohmann::json& a) {
  auto it = a.find("suit");
  if (it == a.end()) return Bad("suit", "missing");
  if (!it->is_string())
    return Bad("suit", "must be \"C\", \"D\", \"H\" or \"S\"");
  const std::string s = it->get<std::string>();
  for (int suit = 0; suit < kr::kNumSuits; ++suit) {
    if (s == std::string(1, kr::SuitLetter(suit))) return suit;
  }
  return Bad("suit", "must be \"C\", \"D\", \"H\" or \"S\"");
}

absl::StatusOr<Card> CardValue(const nlohmann::json& c,
                               absl::string_view field) {
  if (!c.is_number_integer()) return Bad(field, "a card must be an integer");
  const int64_t v = c.get<int64_t>();
  if (v < 0 || v >= kr::kNumCards) {
    return Bad(field, absl::StrCat("a card id is 0..31, got ", v));
  }
  return static_cast<Card>(v);
}

absl::StatusOr<kr::Declaration> CombosField(const nlohmann::json& a) {
  auto it = a.find("combos");
  if (it == a.end()) return Bad("combos", "missing");
  if (!it->is_array()) return Bad("combos", "must be an array");
  kr::Declaration d;
  for (const nlohmann::json& combo : *it) {
    if (!combo.is_object()) return Bad("combos", "each entry is an object");
    if (d.size == kr::kMaxCombos) return Bad("combos", "too many combinations");
    kr::Combo c;
    auto kind = combo.find("kind");
    if (kind == combo.end() || !kind->is_string()) {
      return Bad("combos[].kind", "missing or not a string");
    }
    const std::string k = kind->get<std::string>();
    if (k == "FOUR_JACKS") {
      c.kind = kr::ComboKind::kFourJacks;
    } else if (k == "FOUR") {
      c.kind = kr::ComboKind::kFour;
    } else if (k == "RUN") {
      c.kind = kr::ComboKind::kRun;
    } else {
      return Bad("combos[].kind",
                 absl::StrCat("'", k, "' is not FOUR_JACKS, FOUR or RUN"));
    }
    auto cards = combo.find("cards");
    if (cards == combo.end() || !cards->is_array()) {
      return Bad("combos[].cards", "missing or not an array");
    }
    for (const nlohmann::json& cj : *cards) {
      absl::StatusOr<Card> card = CardValue(cj, "combos[].cards");
      if (!card.ok()) return card.status();
      if (c.cards & kr::CardBit(*card)) {
        return Bad("combos[].cards", "a card is listed twice");
      }
      c.cards |= kr::CardBit(*card);
    }
    d.Add(c);
  }
  return d;
}

class KrakenJsonAdapter final : public GameJsonAdapter {
 public:
  absl::string_view game_id() const override { return "kraken"; }

  absl::StatusOr<Action> ActionFromJson(
      const nlohmann::json& a) const override {
    absl::StatusOr<std::string> type_or = ActionType(kGame, a);
    if (!type_or.ok()) return type_or.status();
    const std::string& type = *type_or;
    kr::KrakenAction act;
    int kind = 0;
    for (int k = 1; k <= 9; ++k) {
      if (kr::ActionKindName(static_cast<kr::ActionKind>(k)) == type) kind = k;
    }
    if (kind == 0) {
      return Bad("type",
                 absl::StrCat("unknown Kraken action type '", type, "'"));
    }
    act.kind = static_cast<kr::ActionKind>(kind);
    switch (act.kind) {
      case kr::ActionKind::kChooseTrump: {
        absl::StatusOr<int> suit = SuitField(a);
        if (!suit.ok()) return suit.status();
        act.suit = *suit;
        break;
      }
      case kr::ActionKind::kDeclare: {
        absl::StatusOr<kr::Declaration> d = CombosField(a);
        if (!d.ok()) return d.status();
        act.declaration = *d;
        break;
      }
      case kr::ActionKind::kPlay: {
        auto card = a.find("card");
        if (card == a.end()) return Bad("card", "missing");
        absl::StatusOr<Card> c = CardValue(*card, "card");
        if (!c.ok()) return c.status();
        act.card = *c;
        absl::StatusOr<bool> stuk =
            OptionalBoolField(kGame, a, "declare_stuk", false);
        if (!stuk.ok()) return stuk.status();
        act.declare_stuk = *stuk;
        break;
      }
      case kr::ActionKind::kClaimBonus: {
        auto bonus = a.find("bonus");
        if (bonus == a.end() || !bonus->is_string()) {
          return Bad("bonus", "missing or not a string");
        }
        absl::StatusOr<kr::Bonus> b = kr::ParseBonus(bonus->get<std::string>());
        if (!b.ok()) return Bad("bonus", b.status().message());
        act.bonus = *b;
        break;
      }
      default:
        break;
    }
    return kr::Encode(act);
  }

  nlohmann::json ActionToJson(Action action) const override {
    absl::StatusOr<kr::KrakenAction> a = kr::Decode(action);
    if (!a.ok()) return {{"type", "INVALID"}, {"action", action}};
    nlohmann::json j = {{"type", std::string(kr::ActionKindName(a->kind))}};
    switch (a->kind) {
      case kr::ActionKind::kChooseTrump:
        j["suit"] = std::string(1, kr::SuitLetter(a->suit));
        break;
      case kr::ActionKind::kDeclare: {
        nlohmann::json combos = nlohmann::json::array();
        for (int i = 0; i < a->declaration.size; ++i) {
          const kr::Combo& c = a->declaration.combos[i];
          nlohmann::json cards = nlohmann::json::array();
          for (kr::CardMask m = c.cards; m != 0; m &= m - 1) {
            cards.push_back(__builtin_ctz(m));
          }
          combos.push_back({{"kind", std::string(kr::ComboKindName(c.kind))},
                            {"cards", std::move(cards)}});
        }
        j["combos"] = std::move(combos);
        break;
      }
      case kr::ActionKind::kPlay:
        j["card"] = a->card;
        j["declare_stuk"] = a->declare_stuk;
        break;
      case kr::ActionKind::kClaimBonus:
        j["bonus"] = std::string(kr::BonusName(a->bonus));
        break;
      default:
        break;
    }
    return j;
  }

  nlohmann::json ResultToJson(const State& terminal) const override {
    const auto* s = dynamic_cast<const kr::KrakenState*>(&terminal);
    if (s == nullptr) return nullptr;
    const kr::KrakenGameResult r = s->Result();
    nlohmann::json rounds = nlohmann::json::array();
    for (const auto& row : r.round_scores) rounds.push_back({row[0], row[1]});
    return {{"round_scores", std::move(rounds)},
            {"totals", {r.totals[0], r.totals[1]}},
            {"winner_team", r.winner_team < 0 ? nlohmann::json(nullptr)
                                              : nlohmann::json(r.winner_team)}};
  }
};

}  // namespace
}  // namespace cardref::conformance

namespace cardref::kraken {

std::unique_ptr<conformance::GameJsonAdapter> MakeJsonAdapter() {
  return std::make_unique<conformance::KrakenJsonAdapter>();
}

}  // namespace cardref::kraken
