#include "games/craits/craits_cards.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace cardref::craits {

namespace {
constexpr char kRankLetters[] = "A23456789TJQK";
constexpr char kSuitLetters[] = "CDHS";
}  // namespace

char SuitLetter(int suit) {
  return suit >= 0 && suit < kNumSuits ? kSuitLetters[suit] : '?';
}

int ParseSuitLetter(char letter) {
  switch (absl::ascii_toupper(static_cast<unsigned char>(letter))) {
    case 'C':
      return kClubs;
    case 'D':
      return kDiamonds;
    case 'H':
      return kHearts;
    case 'S':
      return kSpades;
    default:
      return -1;
  }
}

std::string CardToString(Card c) {
  if (c >= kNumCards) return "??";
  return std::string{kRankLetters[RankOf(c)], kSuitLetters[SuitOf(c)]};
}

absl::StatusOr<Card> ParseCard(absl::string_view text) {
  std::string t = absl::AsciiStrToUpper(absl::StripAsciiWhitespace(text));
  if (t.size() == 3 && t[0] == '1' && t[1] == '0') t = "T" + t.substr(2);
  if (t.size() == 2) {
    int suit = ParseSuitLetter(t[1]);
    for (int r = 0; r < kNumRanks; ++r) {
      if (kRankLetters[r] == t[0] && suit >= 0) return MakeCard(suit, r);
    }
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "CR-0.1: '", text,
      "' is not a card (rank A 2-9 T J Q K, then suit C D H S, e.g. TH)"));
}

std::string CardsToString(CardMask cards) {
  std::string out = "{";
  bool first = true;
  for (CardMask m = cards; m != 0; m &= m - 1) {
    if (!first) out += ", ";
    first = false;
    out += CardToString(LowestCard(m));
  }
  out += "}";
  return out;
}

}  // namespace cardref::craits
