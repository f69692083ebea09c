#include "games/kraken/kraken_action.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "referee/base/rule_error.h"

namespace cardref::kraken {

namespace {

constexpr char kRankLetters[] = "789TJQKA";
constexpr char kSuitLetters[] = "CDHS";

absl::Status Malformed(const std::string& why) {
  return IllegalAction("KR-17.3", "malformed action: ", why);
}

// Run field parts.
bool RunPresent(uint32_t f) { return (f & 1) != 0; }
int RunSuit(uint32_t f) { return (f >> 1) & 3; }
int RunStart(uint32_t f) { return (f >> 3) & 7; }
int RunLength(uint32_t f) { return static_cast<int>((f >> 6) & 7) + 3; }
// KR-8.3 order of two runs: first card id, then length.
int RunKey(uint32_t f) {
  return (RunSuit(f) * 8 + RunStart(f)) * 16 + RunLength(f);
}

bool RunFieldValid(uint32_t f) {
  if (!RunPresent(f)) return f == 0;
  return ((f >> 6) & 7) <= 5 && RunStart(f) + RunLength(f) <= 8;
}

int RunValue(int length) { return length == 3 ? 20 : length == 4 ? 50 : 100; }

// Checks one combination's shape and returns its payload bits (a four bit, or
// a run field in the low 9 bits with `is_run` set).
absl::StatusOr<uint32_t> ComboBits(const Combo& c, bool* is_run) {
  *is_run = false;
  switch (c.kind) {
    case ComboKind::kFourJacks:
      if (c.cards != RankCards(kJack)) {
        return IllegalAction("KR-8.2", "FOUR_JACKS must be JC JD JH JS, got ",
                             CardsToString(c.cards));
      }
      return kFourJacksBit;
    case ComboKind::kFour:
      for (int rank = 0; rank < kNumRanks; ++rank) {
        if (c.cards != RankCards(rank)) continue;
        // Ruling: KR-8.2 lists the four jacks as their own kind, so a FOUR
        // of jacks is malformed rather than a second name for FOUR_JACKS.
        if (rank == kJack) {
          return IllegalAction(
              "KR-8.2", "four jacks are declared as FOUR_JACKS, not FOUR");
        }
        if (FourBit(rank) == 0) {
          return IllegalAction("KR-8.2", "four ",
                               std::string(1, kRankLetters[rank]),
                               "s are not a combination (only A, K, Q, T)");
        }
        return FourBit(rank);
      }
      return IllegalAction(
          "KR-8.2", "a FOUR is the four aces, kings, queens or tens, got ",
          CardsToString(c.cards));
    case ComboKind::kRun: {
      const int n = CountCards(c.cards);
      const int suit = c.cards == 0 ? 0 : __builtin_ctz(c.cards) / 8;
      const uint32_t ranks = (c.cards >> (8 * suit)) & 0xFF;
      const int start = ranks == 0 ? 0 : __builtin_ctz(ranks);
      if (n < 3 || (c.cards & ~SuitCards(suit)) != 0 ||
          ranks != (((1u << n) - 1) << start)) {
        return IllegalAction(
            "KR-8.2",
            "a RUN is 3 or more consecutive cards of one suit (order 7 8 9 T J "
            "Q K A, KR-5.3), got ",
            c.cards == 0 ? std::string("no cards") : CardsToString(c.cards));
      }
      *is_run = true;
      return RunField(suit, start, n);
    }
  }
  return Malformed("unknown combination kind");
}

}  // namespace

char SuitLetter(int suit) {
  return suit >= 0 && suit < 4 ? kSuitLetters[suit] : '?';
}

std::string CardName(Card c) {
  if (c >= kNumCards) return "??";
  return std::string{kRankLetters[RankOf(c)], kSuitLetters[SuitOf(c)]};
}

absl::StatusOr<int> ParseSuit(absl::string_view text) {
  if (text.size() == 1) {
    const char s = absl::ascii_toupper(static_cast<unsigned char>(text[0]));
    for (int i = 0; i < 4; ++i) {
      if (kSuitLetters[i] == s) return i;
    }
  }
  return absl::InvalidArgumentError(
      absl::StrCat("'", text, "' is not a suit (C, D, H or S)"));
}

absl::StatusOr<Card> ParseCard(absl::string_view text) {
  absl::string_view rank_text =
      text.substr(0, text.empty() ? 0 : text.size() - 1);
  int rank = -1;
  if (rank_text == "10") {
    rank = kTen;
  } else if (rank_text.size() == 1) {
    const char r =
        absl::ascii_toupper(static_cast<unsigned char>(rank_text[0]));
    for (int i = 0; i < kNumRanks; ++i) {
      if (kRankLetters[i] == r) rank = i;
    }
  }
  if (rank < 0 || text.size() < 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", text,
        "' is not a card (rank 7 8 9 T J Q K A, then suit C D H S)"));
  }
  absl::StatusOr<int> suit = ParseSuit(text.substr(text.size() - 1));
  if (!suit.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", text,
        "' is not a card (rank 7 8 9 T J Q K A, then suit C D H S)"));
  }
  return MakeCard(*suit, rank);
}

std::string CardsToString(CardMask m) {
  std::string out;
  for (; m != 0; m &= m - 1) {
    if (!out.empty()) out += ' ';
    out += CardName(static_cast<Card>(__builtin_ctz(m)));
  }
  return out;
}

absl::string_view ActionKindName(ActionKind kind) {
  switch (kind) {
    case ActionKind::kChooseTrump:
      return "CHOOSE_TRUMP";
    case ActionKind::kPassTrump:
      return "PASS_TRUMP";
    case ActionKind::kAcceptTrump:
      return "ACCEPT_TRUMP";
    case ActionKind::kChallenge:
      return "CHALLENGE";
    case ActionKind::kPassChallenge:
      return "PASS_CHALLENGE";
    case ActionKind::kDeclare:
      return "DECLARE";
    case ActionKind::kPlay:
      return "PLAY";
    case ActionKind::kClaimBonus:
      return "CLAIM_BONUS";
    case ActionKind::kDeclineBonus:
      return "DECLINE_BONUS";
  }
  return "UNKNOWN";
}

absl::string_view ComboKindName(ComboKind kind) {
  switch (kind) {
    case ComboKind::kFourJacks:
      return "FOUR_JACKS";
    case ComboKind::kFour:
      return "FOUR";
    case ComboKind::kRun:
      return "RUN";
  }
  return "UNKNOWN";
}

absl::string_view BonusName(Bonus bonus) {
  switch (bonus) {
    case Bonus::kNone:
      return "NONE";
    case Bonus::kRun3:
      return "RUN3";
    case Bonus::kRun4:
      return "RUN4";
    case Bonus::kTrumpRun3Stuk:
      return "TRUMP_RUN3_STUK";
    case Bonus::kTrumpRun4Stuk:
      return "TRUMP_RUN4_STUK";
    case Bonus::kFourOfAKind:
      return "FOUR_OF_A_KIND";
    case Bonus::kFourJacks:
      return "FOUR_JACKS";
    case Bonus::kStuk:
      return "STUK";
  }
  return "UNKNOWN";
}

absl::StatusOr<Bonus> ParseBonus(absl::string_view name) {
  for (int b = 1; b < kNumBonusTypes; ++b) {
    if (BonusName(static_cast<Bonus>(b)) == name) return static_cast<Bonus>(b);
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "'", name,
      "' is not a bonus type (RUN3, RUN4, TRUMP_RUN3_STUK, TRUMP_RUN4_STUK, "
      "FOUR_OF_A_KIND, FOUR_JACKS, STUK)"));
}

int BonusValue(Bonus bonus) {
  static constexpr int kValues[kNumBonusTypes] = {0,  20,  50,  40,
                                                  70, 100, 200, 20};
  return kValues[static_cast<int>(bonus) & 7];
}

int ComboValue(const Combo& combo) {
  switch (combo.kind) {
    case ComboKind::kFourJacks:
      return 200;
    case ComboKind::kFour:
      return 100;
    case ComboKind::kRun:
      return RunValue(CountCards(combo.cards));
  }
  return 0;
}

bool Declaration::operator==(const Declaration& o) const {
  if (size != o.size) return false;
  for (int i = 0; i < size; ++i) {
    if (!(combos[i] == o.combos[i])) return false;
  }
  return true;
}

bool KrakenAction::operator==(const KrakenAction& o) const {
  return kind == o.kind && suit == o.suit && card == o.card &&
         declare_stuk == o.declare_stuk && bonus == o.bonus &&
         declaration == o.declaration;
}

CardMask RunFieldCards(uint32_t field) {
  if (!RunPresent(field)) return 0;
  return (((CardMask{1} << RunLength(field)) - 1) << RunStart(field))
         << (8 * RunSuit(field));
}

int DeclarationPoints(uint32_t payload) {
  int points = (payload & kFourJacksBit) ? 200 : 0;
  points += 100 * __builtin_popcount(payload & 0x1E);
  for (int shift : {kRunAShift, kRunBShift}) {
    const uint32_t f = (payload >> shift) & 0x1FF;
    if (RunPresent(f)) points += RunValue(RunLength(f));
  }
  return points;
}

int DeclarationBestCombo(uint32_t payload) {
  if (payload & kFourJacksBit) return 200;
  if (payload & 0x1E) return 100;
  int best = 0;
  for (int shift : {kRunAShift, kRunBShift}) {
    const uint32_t f = (payload >> shift) & 0x1FF;
    if (RunPresent(f)) best = std::max(best, RunValue(RunLength(f)));
  }
  return best;
}

absl::StatusOr<uint32_t> EncodeDeclaration(const Declaration& declaration) {
  if (declaration.size < 0 || declaration.size > kMaxCombos) {
    return Malformed(absl::StrCat("a declaration holds 0..", kMaxCombos,
                                  " combinations, got ", declaration.size));
  }
  uint32_t fours = 0;
  uint32_t runs[3] = {0, 0, 0};
  int num_runs = 0;
  for (int i = 0; i < declaration.size; ++i) {
    const Combo& c = declaration.combos[i];
    bool is_run = false;
    absl::StatusOr<uint32_t> bits = ComboBits(c, &is_run);
    if (!bits.ok()) return bits.status();
    if (is_run) {
      for (int j = 0; j < num_runs; ++j) {
        if (runs[j] == *bits) {
          return IllegalAction("KR-8.3", "RUN ", CardsToString(c.cards),
                               " is named twice");
        }
      }
      if (num_runs == 2) {
        return IllegalAction("KR-8.3",
                             "an 8-card hand holds at most two runs of 3+ "
                             "cards; this declaration names three");
      }
      runs[num_runs++] = *bits;
    } else {
      if (fours & *bits) {
        return IllegalAction("KR-8.3", ComboKindName(c.kind), " ",
                             CardsToString(c.cards), " is named twice");
      }
      fours |= *bits;
    }
  }
  if (num_runs == 2 && RunKey(runs[1]) < RunKey(runs[0])) {
    std::swap(runs[0], runs[1]);
  }
  return fours | (runs[0] << kRunAShift) | (runs[1] << kRunBShift);
}

Declaration DecodeDeclaration(uint32_t payload) {
  Declaration d;
  if (payload & kFourJacksBit) {
    d.Add({ComboKind::kFourJacks, RankCards(kJack)});
  }
  for (int rank : {kTen, kQueen, kKing, kAce}) {
    if (payload & FourBit(rank)) d.Add({ComboKind::kFour, RankCards(rank)});
  }
  for (int shift : {kRunAShift, kRunBShift}) {
    const uint32_t f = (payload >> shift) & 0x1FF;
    if (RunPresent(f)) d.Add({ComboKind::kRun, RunFieldCards(f)});
  }
  return d;
}

absl::StatusOr<Action> Encode(const KrakenAction& a) {
  switch (a.kind) {
    case ActionKind::kChooseTrump:
      if (a.suit < 0 || a.suit > 3) {
        return Malformed(absl::StrCat("suit must be 0..3, got ", a.suit));
      }
      return ChooseTrumpAction(a.suit);
    case ActionKind::kPassTrump:
    case ActionKind::kAcceptTrump:
    case ActionKind::kChallenge:
    case ActionKind::kPassChallenge:
    case ActionKind::kDeclineBonus:
      return MakeAction(a.kind);
    case ActionKind::kDeclare: {
      absl::StatusOr<uint32_t> payload = EncodeDeclaration(a.declaration);
      if (!payload.ok()) return payload.status();
      return DeclareAction(*payload);
    }
    case ActionKind::kPlay:
      if (a.card >= kNumCards) {
        return Malformed(absl::StrCat("card id must be 0..31, got ", a.card));
      }
      return PlayAction(a.card, a.declare_stuk);
    case ActionKind::kClaimBonus:
      if (a.bonus == Bonus::kNone ||
          static_cast<int>(a.bonus) >= kNumBonusTypes) {
        return Malformed("CLAIM_BONUS needs one of the seven bonus types");
      }
      return ClaimBonusAction(a.bonus);
  }
  return Malformed(
      absl::StrCat("unknown action kind ", static_cast<int>(a.kind)));
}

absl::StatusOr<KrakenAction> Decode(Action action) {
  KrakenAction a;
  const uint32_t kind = action >> kKindShift;
  const uint32_t payload = PayloadOf(action);
  if (kind < 1 || kind > 9) {
    return Malformed(absl::StrCat("unknown action kind ", kind, " in 0x",
                                  absl::Hex(action)));
  }
  a.kind = static_cast<ActionKind>(kind);
  switch (a.kind) {
    case ActionKind::kChooseTrump:
      if (payload > 3) break;
      a.suit = static_cast<int>(payload);
      return a;
    case ActionKind::kPassTrump:
    case ActionKind::kAcceptTrump:
    case ActionKind::kChallenge:
    case ActionKind::kPassChallenge:
    case ActionKind::kDeclineBonus:
      if (payload != 0) break;
      return a;
    case ActionKind::kPlay:
      if (payload >= 64) break;
      a.card = PlayedCard(action);
      a.declare_stuk = PlayStuk(action);
      return a;
    case ActionKind::kClaimBonus:
      if (payload == 0 || payload >= kNumBonusTypes) break;
      a.bonus = ClaimedBonus(action);
      return a;
    case ActionKind::kDeclare: {
      if (payload >= (1u << 23)) break;
      const uint32_t ra = (payload >> kRunAShift) & 0x1FF;
      const uint32_t rb = (payload >> kRunBShift) & 0x1FF;
      if (!RunFieldValid(ra) || !RunFieldValid(rb)) break;
      // Ruling: one integer per declaration; Encode (and so the notation and
      // the JSON adapter) sorts, and a value with the runs out of KR-8.3
      // order is malformed rather than silently re-sorted.
      if (rb != 0 && (ra == 0 || RunKey(ra) >= RunKey(rb))) break;
      a.declaration = DecodeDeclaration(payload);
      return a;
    }
  }
  return Malformed(absl::StrCat("bad payload for ", ActionKindName(a.kind),
                                " in 0x", absl::Hex(action)));
}

}  // namespace cardref::kraken
