// Tests of the generic conformance runner with a fake game written here, so
// that every difference path is exercised without a real engine.
#include "analyzer/conformance/transcript.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "referee/base/rule_error.h"
#include "games/api/game.h"
#include "games/api/params.h"
#include "games/api/registry.h"

namespace cardref::conformance {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// ---------------------------------------------------------------------------
// "pile": a pile of cards 0..pile_size-1, shuffled by a deal event. Seats 0
// and 1 alternately take 1 or 2 cards from the top (PT-4); whoever takes the
// last card wins (NORMAL) or loses (MISERE). With trump_deck, a trump-deck
// event orders the cards {0, 1} and its first card is the seat that starts.
// Action = number of cards taken.

enum class Bug { kNone, kDuplicateLegal };

class PileState : public State {
 public:
  PileState(const Game* game, int size, bool trump, bool misere, Bug bug)
      : State(game), size_(size), trump_(trump), misere_(misere), bug_(bug) {}

  NodeType node_type() const override {
    if (!dealt_ || (trump_ && !trump_done_)) return NodeType::kChance;
    return top_ == size_ ? NodeType::kTerminal : NodeType::kDecision;
  }
  int current_seat() const override {
    return node_type() == NodeType::kDecision ? seat_ : -1;
  }
  void LegalActions(ActionList& out) const override {
    out.clear();
    if (node_type() != NodeType::kDecision) return;
    out.push_back(1);
    if (bug_ == Bug::kDuplicateLegal) out.push_back(1);
    if (size_ - top_ >= 2) out.push_back(2);
  }
  void ApplyLegalAction(Action action) override {
    for (Action k = 0; k < action; ++k) {
      taken_[seat_].push_back(pile_[top_++]);
    }
    last_taker_ = seat_;
    seat_ = 1 - seat_;
  }
  ChanceKind chance_kind() const override {
    return dealt_ ? ChanceKind::kTrumpDeck : ChanceKind::kDeal;
  }
  int ChanceCards(absl::Span<Card> out) const override {
    const int n = dealt_ ? 2 : size_;
    for (int c = 0; c < n; ++c) out[c] = static_cast<Card>(c);
    return n;
  }
  absl::Status ApplyChance(ChanceKind kind,
                           absl::Span<const Card> order) override {
    if (!IsChance()) return absl::FailedPreconditionError("no chance now");
    if (kind != chance_kind()) {
      return absl::InvalidArgumentError("PT-0: wrong chance kind");
    }
    std::vector<Card> want(64);
    want.resize(ChanceCards(absl::MakeSpan(want)));
    std::vector<Card> got(order.begin(), order.end());
    std::sort(got.begin(), got.end());
    if (got != want) {
      return absl::InvalidArgumentError(
          "PT-0: the order is not a permutation of the expected cards");
    }
    if (!dealt_) {
      std::copy(order.begin(), order.end(), pile_.begin());
      dealt_ = true;
    } else {
      seat_ = order[0];
      trump_done_ = true;
    }
    return absl::OkStatus();
  }
  int round() const override { return 1; }
  int rounds_completed() const override { return IsTerminal() ? 1 : 0; }
  int Winner() const { return misere_ ? 1 - last_taker_ : last_taker_; }
  const std::vector<Card>& taken(int seat) const { return taken_[seat]; }
  void VisibleCards(int /*seat*/, std::vector<Card>* out) const override {
    out->clear();
  }
  GameOutcome Outcome() const override {
    GameOutcome o;
    o.scores = {Winner() == 0 ? 1 : 0, Winner() == 1 ? 1 : 0};
    o.ranks = {Winner() == 0 ? 1 : 2, Winner() == 1 ? 1 : 2};
    o.winners = {Winner()};
    return o;
  }
  std::unique_ptr<State> Clone() const override {
    return std::make_unique<PileState>(*this);
  }
  std::string ActionToString(Action action) const override {
    return absl::StrCat("T", action);
  }
  absl::StatusOr<Action> ParseAction(absl::string_view text) const override {
    if (text == "T1") return 1;
    if (text == "T2") return 2;
    return absl::InvalidArgumentError("not T1 or T2");
  }
  std::string DebugString() const override {
    return absl::StrCat("pile state: top ", top_, " of ", size_, ", seat ",
                        seat_);
  }

 protected:
  absl::Status ExplainIllegal(Action action) const override {
    return IllegalAction("PT-4", "take 1 or 2 cards, at most the ",
                         size_ - top_, " left; got ", action);
  }

 private:
  int size_;
  bool trump_;
  bool misere_;
  Bug bug_;
  bool dealt_ = false;
  bool trump_done_ = false;
  std::array<Card, 20> pile_{};
  int top_ = 0;
  int seat_ = 0;
  int last_taker_ = -1;
  std::vector<Card> taken_[2];  // a test double: heap is fine here
};

class PileGame : public Game {
 public:
  PileGame(GameParams params, Bug bug) : Game(std::move(params)), bug_(bug) {}
  absl::string_view id() const override { return "pile"; }
  int rules_version() const override { return 1; }
  int num_seats() const override { return 2; }
  std::unique_ptr<State> NewInitialState() const override {
    return std::make_unique<PileState>(
        this, static_cast<int>(params().GetInt("pile_size")),
        params().GetBool("trump_deck"), params().GetEnum("variant") == "MISERE",
        bug_);
  }

 private:
  Bug bug_;
};

GameInfo PileInfo(Bug bug = Bug::kNone) {
  GameInfo info;
  info.id = "pile";
  info.display_name = "Pile";
  info.rules_prefix = "PT";
  info.min_seats = info.max_seats = 2;
  info.params = {
      ParamSpec::Int("pile_size", 5, 1, 20, "PT-1", "cards in the pile"),
      ParamSpec::Bool("trump_deck", false, "PT-2", "a trump deck chooses"),
      ParamSpec::Enum("variant", "NORMAL", {"NORMAL", "MISERE"}, "PT-3",
                      "who wins"),
  };
  info.create =
      [schema = info.params,
       bug](const GameParams& given) -> absl::StatusOr<std::unique_ptr<Game>> {
    absl::StatusOr<GameParams> params = CompleteParams(given, schema, "PT-0");
    if (!params.ok()) return params.status();
    if (params->GetEnum("variant") == "MISERE" &&
        params->GetInt("pile_size") < 2) {
      return InvalidParameter("PT-3", "MISERE needs pile_size >= 2");
    }
    return std::unique_ptr<Game>(new PileGame(*std::move(params), bug));
  };
  return info;
}

class PileAdapter : public GameJsonAdapter {
 public:
  absl::string_view game_id() const override { return "pile"; }
  absl::StatusOr<Action> ActionFromJson(const json& action) const override {
    if (!action.is_object() || action.value("type", "") != "TAKE") {
      return absl::InvalidArgumentError("type must be TAKE");
    }
    auto count = action.find("count");
    if (count == action.end() || !count->is_number_integer() ||
        count->get<int>() < 1 || count->get<int>() > 3) {
      return absl::InvalidArgumentError("count must be 1..3");
    }
    return static_cast<Action>(count->get<int>());
  }
  json ActionToJson(Action action) const override {
    return {{"type", "TAKE"}, {"count", action}};
  }
  json ResultToJson(const State& terminal) const override {
    const auto& s = static_cast<const PileState&>(terminal);
    return {{"winner", s.Winner()}, {"taken", {s.taken(0), s.taken(1)}}};
  }
};

// An adapter whose author used json::at: a missing field throws.
class ThrowingAdapter : public PileAdapter {
 public:
  absl::StatusOr<Action> ActionFromJson(const json& action) const override {
    return action.at("amount").get<Action>();
  }
};

// ---------------------------------------------------------------------------

json Take(int n) { return {{"type", "TAKE"}, {"count", n}}; }

// Pile 2,0,1 (top first): seat 0 takes card 2, seat 1 takes 0 and 1 and,
// taking the last card, wins. Written out by hand, not by the engine.
json HappyTranscript() {
  return json::parse(R"({
    "game": "pile",
    "params": {"pile_size": 3, "trump_deck": false, "variant": "NORMAL"},
    "events": [
      {"deck": [2, 0, 1]},
      {"seat": 0, "legal": [{"type": "TAKE", "count": 1},
                            {"type": "TAKE", "count": 2}],
       "action": {"type": "TAKE", "count": 1}},
      {"seat": 1, "legal": [{"type": "TAKE", "count": 2},
                            {"type": "TAKE", "count": 1}],
       "action": {"type": "TAKE", "count": 2}}
    ],
    "result": {"winner": 1, "taken": [[2], [0, 1]]}
  })");
}

class TranscriptTest : public ::testing::Test {
 protected:
  TranscriptTest() {
    EXPECT_TRUE(registry_.Register(PileInfo()).ok());
    sources_.games = &registry_;
    sources_.adapter = [this](absl::string_view id) -> const GameJsonAdapter* {
      return id == "pile" ? &adapter_ : nullptr;
    };
  }

  TranscriptReport Run(const json& transcript, int line = 7) {
    return ReplayTranscript(transcript.dump(), line, sources_);
  }

  // The difference of a transcript expected to differ.
  Difference Diff(const json& transcript) {
    TranscriptReport report = Run(transcript);
    EXPECT_FALSE(report.ok()) << "expected a difference";
    return report.difference.value_or(Difference{});
  }

  GameRegistry registry_;
  PileAdapter adapter_;
  GameSources sources_;
};

TEST_F(TranscriptTest, HappyPath) {
  TranscriptReport report = Run(HappyTranscript());
  ASSERT_TRUE(report.ok()) << report.difference->ToString();
  EXPECT_EQ(report.line, 7);
  EXPECT_EQ(report.game_id, "pile");
  EXPECT_EQ(report.num_events, 3);
  EXPECT_EQ(report.decisions, 2);
  EXPECT_EQ(FormatGameLine("pile.jsonl", report),
            "OK pile.jsonl:7 pile (2 decisions)");
}

TEST_F(TranscriptTest, HappyPathWithTrumpDeckAfterDeck) {
  // The trump deck [1, 0] makes seat 1 start.
  json t = HappyTranscript();
  t["params"]["trump_deck"] = true;
  t["events"][0]["trump_deck"] = {1, 0};
  t["events"][1]["seat"] = 1;
  t["events"][2]["seat"] = 0;
  t["result"] = {{"winner", 0}, {"taken", {{0, 1}, {2}}}};
  TranscriptReport report = Run(t);
  ASSERT_TRUE(report.ok()) << report.difference->ToString();
  EXPECT_EQ(report.decisions, 2);
}

TEST_F(TranscriptTest, ExtraWhitespaceAndKeyOrderDoNotMatter) {
  std::string text =
      "  {\"result\": {\"taken\": [[2], [0, 1]], \"winner\": 1},"
      " \"events\": " +
      HappyTranscript()["events"].dump(2) +
      ", \"params\": {\"variant\": \"NORMAL\", \"pile_size\": 3,"
      " \"trump_deck\": false}, \"game\": \"pile\"}\r";
  // dump(2) spans lines; a transcript line may not, so join it back.
  text.erase(std::remove(text.begin(), text.end(), '\n'), text.end());
  TranscriptReport report = ReplayTranscript(text, 1, sources_);
  EXPECT_TRUE(report.ok()) << report.difference->ToString();
}

TEST_F(TranscriptTest, WrongSeat) {
  json t = HappyTranscript();
  t["events"][1]["seat"] = 1;
  Difference d = Diff(t);
  EXPECT_EQ(d.stage, Stage::kEvent);
  EXPECT_EQ(d.event_index, 1);
  EXPECT_EQ(d.ToString(), "event 1: seat: transcript 1; engine 0");
}

TEST_F(TranscriptTest, ActionExtraInEngine) {
  json t = HappyTranscript();
  // json::array: a braced single json is a copy under clang, an array under
  // GCC (nlohmann/json#2311).
  t["events"][2]["legal"] = json::array({Take(2)});
  t["events"][2]["action"] = Take(2);
  Difference d = Diff(t);
  EXPECT_EQ(d.event_index, 2);
  EXPECT_EQ(d.subject, "legal actions");
  EXPECT_EQ(d.actual,
            "extra in the engine: [{\"count\":1,\"type\":\"TAKE\"} (T1)] "
            "(transcript lists 1, engine 2)");
}

TEST_F(TranscriptTest, ActionMissingFromEngine) {
  json t = HappyTranscript();
  t["events"][1]["legal"].push_back(Take(3));
  Difference d = Diff(t);
  EXPECT_EQ(d.event_index, 1);
  EXPECT_EQ(d.ToString(),
            "event 1: legal actions: missing from the engine: "
            "[{\"count\":3,\"type\":\"TAKE\"} (T3)] "
            "(transcript lists 3, engine 2)");
}

TEST_F(TranscriptTest, MissingAndExtraTogether) {
  json t = HappyTranscript();
  t["events"][1]["legal"] = {Take(1), Take(3)};
  Difference d = Diff(t);
  EXPECT_THAT(d.actual, HasSubstr("missing from the engine: [{\"count\":3"));
  EXPECT_THAT(d.actual, HasSubstr("extra in the engine: [{\"count\":2"));
}

TEST_F(TranscriptTest, UnreadableLegalAction) {
  json t = HappyTranscript();
  t["events"][1]["legal"].push_back({{"type", "GRAB"}});
  Difference d = Diff(t);
  EXPECT_EQ(d.event_index, 1);
  EXPECT_EQ(d.subject, "legal[2]");
  EXPECT_EQ(d.actual, "cannot read {\"type\":\"GRAB\"}: type must be TAKE");
}

TEST_F(TranscriptTest, DuplicateLegalAction) {
  json t = HappyTranscript();
  t["events"][1]["legal"].push_back(Take(1));
  Difference d = Diff(t);
  EXPECT_EQ(d.subject, "legal[2]");
  EXPECT_THAT(d.actual, HasSubstr("duplicates legal[0] (both are T1)"));
}

TEST_F(TranscriptTest, EngineListingAnActionTwiceIsADifference) {
  GameRegistry buggy;
  ASSERT_TRUE(buggy.Register(PileInfo(Bug::kDuplicateLegal)).ok());
  GameSources sources = sources_;
  sources.games = &buggy;
  TranscriptReport report =
      ReplayTranscript(HappyTranscript().dump(), 1, sources);
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.difference->ToString(),
            "event 1: legal actions: the engine lists "
            "{\"count\":1,\"type\":\"TAKE\"} (T1) twice");
}

TEST_F(TranscriptTest, IllegalActionIsRejectedWithTheRule) {
  // Seat 0 takes 2, leaving one card; the transcript then has seat 1 take 2.
  json t = HappyTranscript();
  t["events"][1]["action"] = Take(2);
  t["events"][2]["legal"] = json::array({Take(1)});
  t["events"][2]["action"] = Take(2);
  Difference d = Diff(t);
  EXPECT_EQ(d.event_index, 2);
  EXPECT_EQ(d.subject, "action");
  EXPECT_EQ(d.expected, "{\"count\":2,\"type\":\"TAKE\"} (T2)");
  EXPECT_EQ(d.actual,
            "rejects it: PT-4: take 1 or 2 cards, at most the 1 left; got 2 "
            "(the transcript does not list it as legal either)");
}

TEST_F(TranscriptTest, UnreadableAction) {
  json t = HappyTranscript();
  t["events"][1]["action"] = {{"type", "TAKE"}};
  Difference d = Diff(t);
  EXPECT_EQ(d.subject, "action");
  EXPECT_THAT(d.actual, HasSubstr("count must be 1..3"));
}

TEST_F(TranscriptTest, DecisionWhereTheEngineExpectsADeal) {
  json t = HappyTranscript();
  t["events"].erase(0);
  Difference d = Diff(t);
  EXPECT_EQ(d.ToString(),
            "event 0: next event: transcript a decision by seat 0; engine "
            "expects a chance event (deal)");
}

TEST_F(TranscriptTest, DealWhereTheEngineExpectsADecision) {
  json t = HappyTranscript();
  t["events"].insert(t["events"].begin() + 1, json{{"deck", {0, 1, 2}}});
  Difference d = Diff(t);
  EXPECT_EQ(d.ToString(),
            "event 1: next event: transcript a chance event (deal); engine "
            "expects a decision by seat 0");
}

TEST_F(TranscriptTest, WrongChanceKind) {
  json t = HappyTranscript();
  t["events"][0] = {{"reshuffle", {2, 0, 1}}};
  Difference d = Diff(t);
  EXPECT_EQ(d.ToString(),
            "event 0: chance kind: transcript reshuffle; engine deal");
}

TEST_F(TranscriptTest, TrumpDeckTheEngineDoesNotExpect) {
  json t = HappyTranscript();
  t["events"][0]["trump_deck"] = {0, 1};
  Difference d = Diff(t);
  EXPECT_EQ(d.ToString(),
            "event 0: next event: transcript a chance event (trump_deck); "
            "engine expects a decision by seat 0");
}

TEST_F(TranscriptTest, TrumpDeckTheTranscriptLacks) {
  json t = HappyTranscript();
  t["params"]["trump_deck"] = true;
  Difference d = Diff(t);
  EXPECT_EQ(d.ToString(),
            "event 1: next event: transcript a decision by seat 0; engine "
            "expects a chance event (trump_deck)");
}

TEST_F(TranscriptTest, DeckThatIsNotAPermutation) {
  json t = HappyTranscript();
  t["events"][0]["deck"] = {2, 0, 5};
  Difference d = Diff(t);
  EXPECT_EQ(d.event_index, 0);
  EXPECT_EQ(d.subject, "deck");
  EXPECT_EQ(d.expected, "3 cards [2,0,5]");
  EXPECT_EQ(d.actual,
            "rejects it: PT-0: the order is not a permutation of the expected "
            "cards; cards it does not expect: [5]; cards it expects that are "
            "absent: [1]");
}

TEST_F(TranscriptTest, DeckWithANonCard) {
  json t = HappyTranscript();
  t["events"][0]["deck"] = {2, "x", 1};
  EXPECT_EQ(Diff(t).actual, "deck[1] = \"x\" is not a card id");
  t["events"][0]["deck"] = {2, 256, 1};
  EXPECT_EQ(Diff(t).actual, "deck[1] = 256 is not a card id");
}

TEST_F(TranscriptTest, EventAfterTheGameIsOver) {
  json t = HappyTranscript();
  t["events"].push_back(
      {{"seat", 0}, {"legal", {Take(1)}}, {"action", Take(1)}});
  Difference d = Diff(t);
  EXPECT_EQ(d.ToString(),
            "event 3: game ended early: transcript a decision by seat 0; "
            "engine the game is over");
}

TEST_F(TranscriptTest, EventsEndBeforeTheGame) {
  json t = HappyTranscript();
  t["events"].erase(2);
  TranscriptReport report = Run(t);
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.difference->stage, Stage::kEnd);
  EXPECT_EQ(report.difference->ToString(),
            "end (after 2 events): end of events: transcript the game is "
            "over; engine expects a decision by seat 1");
  EXPECT_EQ(report.engine_state, "pile state: top 1 of 3, seat 1");
  EXPECT_EQ(report.decisions, 1);
}

TEST_F(TranscriptTest, WrongResultValue) {
  json t = HappyTranscript();
  t["result"]["taken"][1][1] = 5;
  Difference d = Diff(t);
  EXPECT_EQ(d.stage, Stage::kResult);
  EXPECT_EQ(d.event_index, 3);
  EXPECT_EQ(d.ToString(), "result: taken[1][1]: transcript 5; engine 1");
}

TEST_F(TranscriptTest, FirstDifferingResultKeyInKeyOrder) {
  json t = HappyTranscript();
  t["result"]["winner"] = 0;
  t["result"]["taken"][0][0] = 9;
  EXPECT_EQ(Diff(t).subject, "taken[0][0]");  // "taken" < "winner"
}

TEST_F(TranscriptTest, ResultKeyMissingOrExtra) {
  json t = HappyTranscript();
  t["result"].erase("winner");
  EXPECT_EQ(Diff(t).ToString(), "result: winner: transcript absent; engine 1");
  t = HappyTranscript();
  t["result"]["bonus"] = 0;
  EXPECT_EQ(Diff(t).ToString(), "result: bonus: transcript 0; engine absent");
}

TEST_F(TranscriptTest, ResultArrayOfOtherLength) {
  json t = HappyTranscript();
  t["result"]["taken"].push_back(json::array());
  EXPECT_EQ(Diff(t).ToString(),
            "result: taken[2]: transcript []; engine absent (taken has 3 "
            "elements in the transcript, 2 in the engine)");
}

TEST_F(TranscriptTest, MalformedJsonLine) {
  TranscriptReport report =
      ReplayTranscript(R"({"game": "pile", "params": )", 12, sources_);
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.line, 12);
  EXPECT_EQ(report.difference->stage, Stage::kSetup);
  EXPECT_EQ(report.difference->subject, "malformed JSON");
  EXPECT_THAT(report.difference->actual, HasSubstr("parse error"));
  EXPECT_THAT(FormatGameLine("x.jsonl", report),
              StartsWith("DIFF x.jsonl:12 setup: malformed JSON: "));
  EXPECT_TRUE(report.engine_state.empty());
}

TEST_F(TranscriptTest, LineThatIsNotATranscriptObject) {
  EXPECT_FALSE(ReplayTranscript("[1, 2]", 1, sources_).ok());
  json t = HappyTranscript();
  t.erase("game");
  EXPECT_EQ(Diff(t).ToString(),
            "setup: game: no \"game\" string naming the game");
  t = HappyTranscript();
  t.erase("result");
  EXPECT_EQ(Diff(t).ToString(), "setup: transcript: no \"result\"");
  t = HappyTranscript();
  t["comment"] = "hi";
  EXPECT_EQ(Diff(t).ToString(), "setup: transcript: unknown key 'comment'");
  t = HappyTranscript();
  t["events"] = json::object();
  EXPECT_EQ(Diff(t).subject, "events");
}

TEST_F(TranscriptTest, MalformedEvents) {
  json t = HappyTranscript();
  t["events"][1] = 5;
  EXPECT_EQ(Diff(t).ToString(), "event 1: event: not a JSON object: 5");
  t = HappyTranscript();
  t["events"][1]["note"] = "x";
  EXPECT_THAT(Diff(t).ToString(),
              StartsWith("event 1: event: unknown key 'note'"));
  t = HappyTranscript();
  t["events"][0]["seat"] = 0;
  EXPECT_THAT(Diff(t).ToString(),
              StartsWith("event 0: event: not one of deck / reshuffle"));
  t = HappyTranscript();
  t["events"][1].erase("legal");
  EXPECT_EQ(Diff(t).ToString(), "event 1: event: decision without \"legal\"");
  t = HappyTranscript();
  t["events"][1]["seat"] = "0";
  EXPECT_EQ(Diff(t).ToString(), "event 1: seat: not an integer: \"0\"");
}

TEST_F(TranscriptTest, UnknownGame) {
  json t = HappyTranscript();
  t["game"] = "chess";
  TranscriptReport report = Run(t);
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.game_id, "chess");
  EXPECT_EQ(report.difference->ToString(),
            "setup: game: unknown game 'chess'; known: pile");
}

TEST_F(TranscriptTest, GameWithoutAdapter) {
  sources_.adapter = [](absl::string_view) { return nullptr; };
  EXPECT_EQ(Diff(HappyTranscript()).ToString(),
            "setup: game: no JSON adapter for game 'pile'");
}

TEST_F(TranscriptTest, BadParams) {
  struct Case {
    const char* name;
    json value;
    const char* detail;
  };
  const Case cases[] = {
      {"size", 3,
       "setup: params: unknown parameter 'size'; the engine knows: "
       "pile_size, trump_deck, variant"},
      {"pile_size", "3",
       "setup: params: parameter 'pile_size' must be a JSON integer, got "
       "\"3\""},
      {"pile_size", 3.0,
       "setup: params: parameter 'pile_size' must be a JSON integer, got "
       "3.0"},
      {"trump_deck", 1,
       "setup: params: parameter 'trump_deck' must be a JSON bool, got 1"},
      {"variant", 2,
       "setup: params: parameter 'variant' must be a JSON string (enum "
       "name), got 2"},
      {"pile_size", 50,
       "setup: params: transcript pile_size=50,trump_deck=false,"
       "variant=NORMAL; engine rejects them: PT-1: parameter 'pile_size' "
       "must be in 1..20, got 50"},
      {"variant", "REVERSE",
       "setup: params: transcript pile_size=3,trump_deck=false,"
       "variant=REVERSE; engine rejects them: PT-3: parameter 'variant' must "
       "be one of NORMAL, MISERE, got 'REVERSE'"},
  };
  for (const Case& c : cases) {
    json t = HappyTranscript();
    t["params"][c.name] = c.value;
    EXPECT_EQ(Diff(t).ToString(), c.detail) << c.name;
  }
}

TEST_F(TranscriptTest, CrossParameterConstraintNamesTheRule) {
  json t = HappyTranscript();
  t["params"]["pile_size"] = 1;
  t["params"]["variant"] = "MISERE";
  EXPECT_THAT(Diff(t).actual,
              HasSubstr("rejects them: PT-3: MISERE needs pile_size >= 2"));
}

TEST_F(TranscriptTest, ParameterMissingFromTheTranscript) {
  json t = HappyTranscript();
  t["params"].erase("variant");
  EXPECT_EQ(Diff(t).actual,
            "engine parameter 'variant' is not in the transcript (which "
            "gives every parameter of the spec)");
  t["params"] = json::array();
  EXPECT_EQ(Diff(t).actual, "\"params\" must be a JSON object, got array");
}

TEST_F(TranscriptTest, AdapterExceptionCostsOnlyThatGame) {
  ThrowingAdapter throwing;
  sources_.adapter = [&](absl::string_view) { return &throwing; };
  Difference d = Diff(HappyTranscript());
  EXPECT_EQ(d.stage, Stage::kEvent);
  EXPECT_EQ(d.event_index, 1);
  EXPECT_EQ(d.subject, "exception");
  EXPECT_THAT(d.actual, HasSubstr("replay threw (adapter or engine bug)"));
}

TEST(ParamsFromJsonTest, TypesFollowTheSchema) {
  std::vector<ParamSpec> schema = PileInfo().params;
  absl::StatusOr<GameParams> p = ParamsFromJson(
      json::parse(R"({"pile_size": 4, "trump_deck": true, "variant": "X"})"),
      schema);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->GetInt("pile_size"), 4);
  EXPECT_TRUE(p->GetBool("trump_deck"));
  EXPECT_EQ(p->GetEnum("variant"), "X");  // values are the engine's to check
  EXPECT_FALSE(ParamsFromJson(json::parse(R"({"pile_size": 18446744073709551615,
      "trump_deck": true, "variant": "X"})"),
                              schema)
                   .ok());
  EXPECT_EQ(ParamsFromJson(json::parse(R"({"pile_size": -3,
      "trump_deck": true, "variant": "X"})"),
                           schema)
                ->GetInt("pile_size"),
            -3);
}

TEST(FirstJsonDifferenceTest, NumbersCompareByValue) {
  EXPECT_FALSE(FirstJsonDifference(json::parse("[3, -1]"),
                                   json{uint64_t{3}, int64_t{-1}}));
  EXPECT_FALSE(
      FirstJsonDifference(json::parse(R"({"a": null})"), json{{"a", nullptr}}));
  std::optional<JsonDifference> d =
      FirstJsonDifference(json::parse(R"({"a": {"b": [1, 2]}})"),
                          json::parse(R"({"a": {"b": [1, 3]}})"));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->path, "a.b[1]");
  EXPECT_EQ(d->expected, "2");
  EXPECT_EQ(d->actual, "3");
  d = FirstJsonDifference(json(1), json("1"));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->path, "");
  EXPECT_EQ(d->actual, "\"1\"");
}

// ---------------------------------------------------------------------------
// Files.

class CheckFileTest : public TranscriptTest {
 protected:
  std::string WriteFile(const std::string& name, const std::string& text) {
    std::string path =
        (std::filesystem::path(::testing::TempDir()) / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
};

TEST_F(CheckFileTest, EveryLineIsReplayedAndABadLineStopsOnlyItself) {
  json wrong_seat = HappyTranscript();
  wrong_seat["events"][1]["seat"] = 1;
  std::string path = WriteFile(
      "mixed.jsonl", HappyTranscript().dump() + "\n\n{not json\n" +
                         wrong_seat.dump() + "\n" + HappyTranscript().dump());
  FileReport report = CheckFile(path, sources_);
  ASSERT_TRUE(report.status.ok()) << report.status;
  ASSERT_EQ(report.games.size(), 4u);
  EXPECT_EQ(report.num_ok(), 2);
  EXPECT_EQ(report.num_differ(), 2);
  std::vector<std::string> lines;
  for (const TranscriptReport& g : report.games) {
    lines.push_back(FormatGameLine("f", g));
  }
  EXPECT_THAT(lines, ::testing::ElementsAre(
                         "OK f:1 pile (2 decisions)",
                         StartsWith("DIFF f:3 setup: malformed JSON: "),
                         "DIFF f:4 event 1: seat: transcript 1; engine 0",
                         "OK f:5 pile (2 decisions)"));
}

TEST_F(CheckFileTest, CrlfLineEndings) {
  std::string path =
      WriteFile("crlf.jsonl", HappyTranscript().dump() + "\r\n" +
                                  HappyTranscript().dump() + "\r\n");
  FileReport report = CheckFile(path, sources_);
  ASSERT_TRUE(report.status.ok());
  EXPECT_EQ(report.num_ok(), 2);
}

TEST_F(CheckFileTest, UnreadableOrEmptyFilesAreErrors) {
  FileReport missing = CheckFile("/nonexistent/dir/x.jsonl", sources_);
  EXPECT_EQ(missing.status.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(missing.status.message()), HasSubstr("cannot open"));
  EXPECT_FALSE(CheckFile(::testing::TempDir(), sources_).status.ok());
  FileReport empty = CheckFile(WriteFile("empty.jsonl", "\n  \n"), sources_);
  EXPECT_EQ(empty.status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(empty.games.empty());
}

}  // namespace
}  // namespace cardref::conformance
