#include "games/kraken/kraken_notation.h"

#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "games/kraken/kraken_action.h"

namespace cardref::kraken {

namespace {

// Keyword of each action kind, index = ActionKind value.
constexpr absl::string_view kKeywords[] = {
    "",        "trump", "pass",  "accept", "challenge", "pass-challenge",
    "declare", "play",  "claim", "decline"};

absl::string_view ComboKeyword(ComboKind kind) {
  switch (kind) {
    case ComboKind::kFourJacks:
      return "four_jacks";
    case ComboKind::kFour:
      return "four";
    case ComboKind::kRun:
      return "run";
  }
  return "?";
}

absl::Status Bad(absl::string_view text, absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("cannot parse Kraken action '", text, "': ", why));
}

// "8S,9S,TS" or "8S9STS".
absl::StatusOr<CardMask> ParseCardList(absl::string_view text) {
  CardMask m = 0;
  for (absl::string_view piece : absl::StrSplit(text, ',', absl::SkipEmpty())) {
    std::vector<absl::string_view> cards;
    if (piece.size() == 2 ||
        (piece.size() == 3 && piece.substr(0, 2) == "10")) {
      cards.push_back(piece);
    } else if (piece.size() % 2 == 0) {
      for (size_t i = 0; i < piece.size(); i += 2)
        cards.push_back(piece.substr(i, 2));
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("'", piece, "' is not a list of cards"));
    }
    for (absl::string_view c : cards) {
      absl::StatusOr<Card> card = ParseCard(c);
      if (!card.ok()) return card.status();
      if (m & CardBit(*card)) {
        return absl::InvalidArgumentError(
            absl::StrCat(CardName(*card), " is listed twice"));
      }
      m |= CardBit(*card);
    }
  }
  return m;
}

}  // namespace

std::string KrakenActionToString(Action action) {
  absl::StatusOr<KrakenAction> a = Decode(action);
  if (!a.ok()) return absl::StrCat("invalid(0x", absl::Hex(action), ")");
  std::string out(kKeywords[static_cast<int>(a->kind)]);
  switch (a->kind) {
    case ActionKind::kChooseTrump:
      absl::StrAppend(&out, " ", std::string(1, SuitLetter(a->suit)));
      break;
    case ActionKind::kDeclare:
      for (int i = 0; i < a->declaration.size; ++i) {
        const Combo& c = a->declaration.combos[i];
        absl::StrAppend(&out, " ", ComboKeyword(c.kind), ":");
        bool first = true;
        for (CardMask m = c.cards; m != 0; m &= m - 1) {
          absl::StrAppend(&out, first ? "" : ",",
                          CardName(static_cast<Card>(__builtin_ctz(m))));
          first = false;
        }
      }
      break;
    case ActionKind::kPlay:
      absl::StrAppend(&out, " ", CardName(a->card),
                      a->declare_stuk ? "+stuk" : "");
      break;
    case ActionKind::kClaimBonus:
      absl::StrAppend(&out, " ", BonusName(a->bonus));
      break;
    default:
      break;
  }
  return out;
}

absl::StatusOr<Action> ParseKrakenAction(absl::string_view text) {
  std::vector<absl::string_view> words =
      absl::StrSplit(text, absl::ByAnyChar(" \t\n"), absl::SkipEmpty());
  if (words.empty()) return Bad(text, "empty");
  const std::string keyword = absl::AsciiStrToLower(words[0]);
  KrakenAction a;
  int kind = 0;
  for (int k = 1; k <= 9; ++k) {
    if (kKeywords[k] == keyword) kind = k;
  }
  if (kind == 0) {
    return Bad(text,
               "unknown keyword (trump, pass, accept, challenge, "
               "pass-challenge, declare, play, claim, decline)");
  }
  a.kind = static_cast<ActionKind>(kind);
  const size_t args = words.size() - 1;
  switch (a.kind) {
    case ActionKind::kChooseTrump: {
      if (args != 1) return Bad(text, "expected 'trump <suit>'");
      absl::StatusOr<int> suit = ParseSuit(words[1]);
      if (!suit.ok()) return Bad(text, suit.status().message());
      a.suit = *suit;
      break;
    }
    case ActionKind::kDeclare:
      for (size_t i = 1; i < words.size(); ++i) {
        std::pair<absl::string_view, absl::string_view> kv =
            absl::StrSplit(words[i], absl::MaxSplits(':', 1));
        const std::string kw = absl::AsciiStrToLower(kv.first);
        Combo c;
        if (kw == "four_jacks") {
          c.kind = ComboKind::kFourJacks;
        } else if (kw == "four") {
          c.kind = ComboKind::kFour;
        } else if (kw == "run") {
          c.kind = ComboKind::kRun;
        } else {
          return Bad(text,
                     "a combination is four_jacks:, four: or run: "
                     "followed by its cards");
        }
        absl::StatusOr<CardMask> cards = ParseCardList(kv.second);
        if (!cards.ok()) return Bad(text, cards.status().message());
        c.cards = *cards;
        if (a.declaration.size == kMaxCombos) {
          return Bad(text, "too many combinations");
        }
        a.declaration.Add(c);
      }
      break;
    case ActionKind::kPlay: {
      if (args != 1)
        return Bad(text, "expected 'play <card>' or 'play <card>+stuk'");
      absl::string_view card_text = words[1];
      const size_t plus = card_text.find('+');
      if (plus != absl::string_view::npos) {
        if (absl::AsciiStrToLower(card_text.substr(plus + 1)) != "stuk") {
          return Bad(text, "only '+stuk' may follow the card");
        }
        a.declare_stuk = true;
        card_text = card_text.substr(0, plus);
      }
      absl::StatusOr<Card> card = ParseCard(card_text);
      if (!card.ok()) return Bad(text, card.status().message());
      a.card = *card;
      break;
    }
    case ActionKind::kClaimBonus: {
      if (args != 1) return Bad(text, "expected 'claim <bonus type>'");
      absl::StatusOr<Bonus> bonus = ParseBonus(absl::AsciiStrToUpper(words[1]));
      if (!bonus.ok()) return Bad(text, bonus.status().message());
      a.bonus = *bonus;
      break;
    }
    default:
      if (args != 0) return Bad(text, "this action takes no argument");
      break;
  }
  return Encode(a);
}

}  // namespace cardref::kraken
