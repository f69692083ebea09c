#include "analyzer/conformance/replay.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <exception>
#include <limits>
#include <map>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "games/api/game.h"

namespace cardref::conformance {
namespace {

using nlohmann::json;

// Reports stay readable: one decision can list hundreds of actions, and a whole transcript event is long.
constexpr int kMaxListed = 12;
constexpr size_t kMaxJsonText = 400;

// Compact JSON text, cut to kMaxJsonText. Never throws (bad UTF-8 is
// replaced rather than rejected).
std::string Dump(const json& j) {
  std::string text = j.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > kMaxJsonText) {
    text.resize(kMaxJsonText);
    text += "...";
  }
  return text;
}

std::string DescribeNode(const State& state) {
  switch (state.node_type()) {
    case NodeType::kChance:
      return absl::StrCat("a chance event (",
                          ChanceKindName(state.chance_kind()), ")");
    case NodeType::kDecision:
      return absl::StrCat("a decision by seat ", state.current_seat());
    case NodeType::kTerminal:
      return "no more events (the game is over)";
  }
  return "?";
}

// The three kinds of transcript event, told apart by their keys.
enum class EventKind { kDeal, kReshuffle, kDecision };

std::string DescribeEvent(EventKind kind, const json& event) {
  switch (kind) {
    case EventKind::kDeal:
      return event.contains("trump_deck")
                 ? "a chance event (deal, with trump_deck)"
                 : "a chance event (deal)";
    case EventKind::kReshuffle:
      return "a chance event (reshuffle)";
    case EventKind::kDecision:
      return event.contains("seat")
                 ? absl::StrCat("a decision by seat ", Dump(event["seat"]))
                 : "a decision";
  }
  return "?";
}

std::string ListCards(const std::vector<Card>& cards) {
  return absl::StrCat("[", absl::StrJoin(cards, ","), "]");
}

// Multiset difference of two ascending card lists.
std::vector<Card> CardsNotIn(const std::vector<Card>& a,
                             const std::vector<Card>& b) {
  std::vector<Card> out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(),
                      std::back_inserter(out));
  return out;
}

std::optional<JsonDifference> Diff(const json& expected, const json& actual,
                                   const std::string& path) {
  if (expected.is_object() && actual.is_object()) {
    std::vector<std::string> keys;
    for (const auto& item : expected.items()) keys.push_back(item.key());
    for (const auto& item : actual.items()) keys.push_back(item.key());
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    for (const std::string& key : keys) {
      std::string sub = path.empty() ? key : absl::StrCat(path, ".", key);
      auto e = expected.find(key);
      auto a = actual.find(key);
      if (e == expected.end()) return JsonDifference{sub, "absent", Dump(*a)};
      if (a == actual.end()) return JsonDifference{sub, Dump(*e), "absent"};
      if (std::optional<JsonDifference> d = Diff(*e, *a, sub)) return d;
    }
    return std::nullopt;
  }
  if (expected.is_array() && actual.is_array()) {
    const size_t common = std::min(expected.size(), actual.size());
    std::optional<JsonDifference> d;
    for (size_t i = 0; i < common && !d; ++i) {
      d = Diff(expected[i], actual[i], absl::StrCat(path, "[", i, "]"));
    }
    if (!d && expected.size() != actual.size()) {
      std::string sub = absl::StrCat(path, "[", common, "]");
      d = common < expected.size()
              ? JsonDifference{sub, Dump(expected[common]), "absent"}
              : JsonDifference{sub, "absent", Dump(actual[common])};
    }
    if (d && expected.size() != actual.size()) {
      absl::StrAppend(&d->actual, " (", path.empty() ? "the array" : path,
                      " has ", expected.size(), " elements in the transcript, ",
                      actual.size(), " in the engine)");
    }
    return d;
  }
  if (expected == actual) return std::nullopt;
  return JsonDifference{path, Dump(expected), Dump(actual)};
}

// One replay. Every step returns false once it has recorded the difference.
class Replay {
 public:
  Replay(const json& transcript, const GameInfo& info,
         const GameJsonAdapter& adapter, TranscriptReport& report)
      : transcript_(transcript),
        info_(info),
        adapter_(adapter),
        report_(report) {}

  void Run() {
    if (!Setup()) return;
    const json& events = transcript_["events"];
    for (size_t i = 0; i < events.size(); ++i) {
      stage_ = Stage::kEvent;
      event_index_ = static_cast<int>(i);
      if (!Event(event_index_, events[i])) return;
    }
    const int n = report_.num_events;
    stage_ = Stage::kEnd;
    event_index_ = n;
    if (!state_->IsTerminal()) {
      Fail(Stage::kEnd, n, "end of events", "the game is over",
           absl::StrCat("expects ", DescribeNode(*state_)));
      return;
    }
    stage_ = Stage::kResult;
    std::optional<JsonDifference> d = FirstJsonDifference(
        transcript_["result"], adapter_.ResultToJson(*state_));
    if (d) {
      Fail(Stage::kResult, n, d->path.empty() ? "result" : d->path, d->expected,
           d->actual);
    }
  }

  // Records the difference (the first one wins) and the engine state.
  bool Fail(Stage stage, int event_index, std::string subject,
            std::string expected, std::string actual) {
    if (report_.difference) return false;
    report_.difference = Difference{stage, event_index, std::move(subject),
                                    std::move(expected), std::move(actual)};
    if (state_ != nullptr) report_.engine_state = state_->DebugString();
    return false;
  }

  // For an exception: the difference is wherever the replay had got to.
  void FailHere(std::string subject, std::string actual) {
    Fail(stage_, event_index_, std::move(subject), "", std::move(actual));
  }

 private:
  bool Setup() {
    if (!transcript_.is_object()) {
      return Fail(Stage::kSetup, -1, "transcript", "",
                  "the line is not a JSON object");
    }
    for (const auto& item : transcript_.items()) {
      const std::string& key = item.key();
      if (key != "game" && key != "params" && key != "events" &&
          key != "result") {
        return Fail(Stage::kSetup, -1, "transcript", "",
                    absl::StrCat("unknown key '", key, "'"));
      }
    }
    for (const char* key : {"params", "events", "result"}) {
      if (!transcript_.contains(key)) {
        return Fail(Stage::kSetup, -1, "transcript", "",
                    absl::StrCat("no \"", key, "\""));
      }
    }
    if (!transcript_["events"].is_array()) {
      return Fail(Stage::kSetup, -1, "events", "",
                  "\"events\" is not a JSON array");
    }
    if (!transcript_["result"].is_object()) {
      return Fail(Stage::kSetup, -1, "result", "",
                  "\"result\" is not a JSON object");
    }
    report_.num_events = static_cast<int>(transcript_["events"].size());

    absl::StatusOr<GameParams> params =
        ParamsFromJson(transcript_["params"], info_.params);
    if (!params.ok()) {
      return Fail(Stage::kSetup, -1, "params", "",
                  std::string(params.status().message()));
    }
    absl::StatusOr<std::unique_ptr<Game>> game = info_.create(*params);
    if (!game.ok()) {
      return Fail(Stage::kSetup, -1, "params", params->ToString(),
                  absl::StrCat("rejects them: ", game.status().message()));
    }
    game_ = *std::move(game);
    state_ = game_->NewInitialState();
    return true;
  }

  bool Event(int i, const json& event) {
    if (!event.is_object()) {
      return Fail(Stage::kEvent, i, "event", "",
                  absl::StrCat("not a JSON object: ", Dump(event)));
    }
    const bool deal = event.contains("deck");
    const bool reshuffle = event.contains("reshuffle");
    const bool decision = event.contains("seat") || event.contains("legal") ||
                          event.contains("action");
    if (deal + reshuffle + decision != 1) {
      return Fail(Stage::kEvent, i, "event", "",
                  absl::StrCat("not one of deck / reshuffle / decision: ",
                               Dump(event)));
    }
    const EventKind kind = deal        ? EventKind::kDeal
                           : reshuffle ? EventKind::kReshuffle
                                       : EventKind::kDecision;
    for (const auto& item : event.items()) {
      const std::string& key = item.key();
      const bool known =
          kind == EventKind::kDeal ? key == "deck" || key == "trump_deck"
          : kind == EventKind::kReshuffle
              ? key == "reshuffle"
              : key == "seat" || key == "legal" || key == "action";
      if (!known) {
        return Fail(Stage::kEvent, i, "event", "",
                    absl::StrCat("unknown key '", key, "' in ", Dump(event)));
      }
    }
    if (state_->IsTerminal()) {
      return Fail(Stage::kEvent, i, "game ended early",
                  DescribeEvent(kind, event), "the game is over");
    }
    switch (kind) {
      case EventKind::kDeal:
        if (!Chance(i, ChanceKind::kDeal, event, "deck")) return false;
        return !event.contains("trump_deck") ||
               Chance(i, ChanceKind::kTrumpDeck, event, "trump_deck");
      case EventKind::kReshuffle:
        return Chance(i, ChanceKind::kReshuffle, event, "reshuffle");
      case EventKind::kDecision:
        return Decision(i, event);
    }
    return false;
  }

  bool Chance(int i, ChanceKind kind, const json& event, const char* key) {
    const std::string wanted =
        absl::StrCat("a chance event (", ChanceKindName(kind), ")");
    if (!state_->IsChance()) {
      return Fail(Stage::kEvent, i, "next event", wanted,
                  absl::StrCat("expects ", DescribeNode(*state_)));
    }
    if (state_->chance_kind() != kind) {
      return Fail(Stage::kEvent, i, "chance kind",
                  std::string(ChanceKindName(kind)),
                  std::string(ChanceKindName(state_->chance_kind())));
    }
    const json& list = event[key];
    if (!list.is_array()) {
      return Fail(Stage::kEvent, i, key, "",
                  absl::StrCat("not a JSON array: ", Dump(list)));
    }
    std::vector<Card> order;
    for (size_t j = 0; j < list.size(); ++j) {
      const json& c = list[j];
      if (!c.is_number_integer() || c.get<int64_t>() < 0 ||
          c.get<int64_t>() > std::numeric_limits<Card>::max()) {
        return Fail(
            Stage::kEvent, i, key, "",
            absl::StrCat(key, "[", j, "] = ", Dump(c), " is not a card id"));
      }
      order.push_back(static_cast<Card>(c.get<int64_t>()));
    }
    absl::Status status = state_->ApplyChance(kind, order);
    if (!status.ok()) {
      std::array<Card, 64> buffer;
      const int n = std::clamp(state_->ChanceCards(absl::MakeSpan(buffer)), 0,
                               static_cast<int>(buffer.size()));
      std::vector<Card> wanted_cards(buffer.begin(), buffer.begin() + n);
      std::vector<Card> given = order;
      std::sort(given.begin(), given.end());
      std::string detail = absl::StrCat("rejects it: ", status.message());
      std::vector<Card> unexpected = CardsNotIn(given, wanted_cards);
      std::vector<Card> absent = CardsNotIn(wanted_cards, given);
      if (!unexpected.empty()) {
        absl::StrAppend(&detail,
                        "; cards it does not expect: ", ListCards(unexpected));
      }
      if (!absent.empty()) {
        absl::StrAppend(
            &detail, "; cards it expects that are absent: ", ListCards(absent));
      }
      return Fail(Stage::kEvent, i, key,
                  absl::StrCat(order.size(), " cards ", Dump(list)), detail);
    }
    return true;
  }

  // "{"type":"PLAY","card":12} (QC)": the transcript's form and ours.
  std::string DescribeAction(Action action) const {
    return absl::StrCat(Dump(adapter_.ActionToJson(action)), " (",
                        state_->ActionToString(action), ")");
  }

  std::string ListActions(const std::vector<Action>& actions) const {
    std::vector<std::string> parts;
    for (size_t k = 0; k < actions.size() && k < kMaxListed; ++k) {
      parts.push_back(DescribeAction(actions[k]));
    }
    if (actions.size() > static_cast<size_t>(kMaxListed)) {
      parts.push_back(
          absl::StrCat("... ", actions.size() - kMaxListed, " more"));
    }
    return absl::StrCat("[", absl::StrJoin(parts, ", "), "]");
  }

  bool Decision(int i, const json& event) {
    for (const char* key : {"seat", "legal", "action"}) {
      if (!event.contains(key)) {
        return Fail(Stage::kEvent, i, "event", "",
                    absl::StrCat("decision without \"", key, "\""));
      }
    }
    const json& seat_json = event["seat"];
    const json& legal_json = event["legal"];
    if (!seat_json.is_number_integer()) {
      return Fail(Stage::kEvent, i, "seat", "",
                  absl::StrCat("not an integer: ", Dump(seat_json)));
    }
    if (!legal_json.is_array()) {
      return Fail(Stage::kEvent, i, "legal", "",
                  absl::StrCat("not a JSON array: ", Dump(legal_json)));
    }
    const int64_t seat = seat_json.get<int64_t>();
    if (state_->node_type() != NodeType::kDecision) {
      return Fail(Stage::kEvent, i, "next event",
                  absl::StrCat("a decision by seat ", seat),
                  absl::StrCat("expects ", DescribeNode(*state_)));
    }
    if (state_->current_seat() != seat) {
      return Fail(Stage::kEvent, i, "seat", absl::StrCat(seat),
                  absl::StrCat(state_->current_seat()));
    }

    // The transcript's legal set, through the adapter.
    std::vector<Action> listed;
    std::map<Action, size_t> index_of;
    for (size_t j = 0; j < legal_json.size(); ++j) {
      absl::StatusOr<Action> action = adapter_.ActionFromJson(legal_json[j]);
      const std::string subject = absl::StrCat("legal[", j, "]");
      if (!action.ok()) {
        return Fail(Stage::kEvent, i, subject, "",
                    absl::StrCat("cannot read ", Dump(legal_json[j]), ": ",
                                 action.status().message()));
      }
      auto [it, inserted] = index_of.emplace(*action, j);
      if (!inserted) {
        return Fail(
            Stage::kEvent, i, subject, "",
            absl::StrCat(Dump(legal_json[j]), " duplicates legal[", it->second,
                         "] (both are ", state_->ActionToString(*action), ")"));
      }
      listed.push_back(*action);
    }
    std::sort(listed.begin(), listed.end());

    // The engine's, checked against its own contract too.
    ActionList engine_list;
    state_->LegalActions(engine_list);
    std::vector<Action> engine(engine_list.begin(), engine_list.end());
    std::sort(engine.begin(), engine.end());
    auto dup = std::adjacent_find(engine.begin(), engine.end());
    if (dup != engine.end()) {
      return Fail(
          Stage::kEvent, i, "legal actions", "",
          absl::StrCat("the engine lists ", DescribeAction(*dup), " twice"));
    }
    std::vector<Action> missing;  // listed by the transcript only
    std::vector<Action> extra;    // listed by the engine only
    std::set_difference(listed.begin(), listed.end(), engine.begin(),
                        engine.end(), std::back_inserter(missing));
    std::set_difference(engine.begin(), engine.end(), listed.begin(),
                        listed.end(), std::back_inserter(extra));
    if (!missing.empty() || !extra.empty()) {
      std::vector<std::string> parts;
      if (!missing.empty()) {
        parts.push_back(
            absl::StrCat("missing from the engine: ", ListActions(missing)));
      }
      if (!extra.empty()) {
        parts.push_back(
            absl::StrCat("extra in the engine: ", ListActions(extra)));
      }
      return Fail(
          Stage::kEvent, i, "legal actions", "",
          absl::StrCat(absl::StrJoin(parts, "; "), " (transcript lists ",
                       listed.size(), ", engine ", engine.size(), ")"));
    }

    absl::StatusOr<Action> action = adapter_.ActionFromJson(event["action"]);
    if (!action.ok()) {
      return Fail(Stage::kEvent, i, "action", "",
                  absl::StrCat("cannot read ", Dump(event["action"]), ": ",
                               action.status().message()));
    }
    const std::string described = DescribeAction(*action);
    absl::Status status = state_->ApplyAction(*action);
    if (!status.ok()) {
      std::string detail = absl::StrCat("rejects it: ", status.message());
      if (index_of.count(*action) == 0) {
        absl::StrAppend(&detail,
                        " (the transcript does not list it as legal either)");
      }
      return Fail(Stage::kEvent, i, "action", described, detail);
    }
    ++report_.decisions;
    return true;
  }

  const json& transcript_;
  const GameInfo& info_;
  const GameJsonAdapter& adapter_;
  TranscriptReport& report_;
  Stage stage_ = Stage::kSetup;  // where Run() is, for FailHere
  int event_index_ = -1;
  std::unique_ptr<Game> game_;    // outlives state_, which points to it
  std::unique_ptr<State> state_;  // declared after game_: destroyed first
};

}  // namespace

std::string Difference::ToString() const {
  std::string where;
  switch (stage) {
    case Stage::kSetup:
      where = "setup";
      break;
    case Stage::kEvent:
      where = absl::StrCat("event ", event_index);
      break;
    case Stage::kEnd:
      where = absl::StrCat("end (after ", event_index, " events)");
      break;
    case Stage::kResult:
      where = "result";
      break;
  }
  if (expected.empty()) return absl::StrCat(where, ": ", subject, ": ", actual);
  return absl::StrCat(where, ": ", subject, ": transcript ", expected,
                      "; engine ", actual);
}

absl::StatusOr<GameParams> ParamsFromJson(
    const nlohmann::json& params, const std::vector<ParamSpec>& schema) {
  if (!params.is_object()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "\"params\" must be a JSON object, got ", params.type_name()));
  }
  GameParams out;
  for (const auto& item : params.items()) {
    const std::string& name = item.key();
    const json& value = item.value();
    const ParamSpec* spec = FindParamSpec(schema, name);
    if (spec == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown parameter '", name,
                       "'; the engine knows: ", ParamNames(schema)));
    }
    auto wrong_type = [&](absl::string_view what) {
      return absl::InvalidArgumentError(absl::StrCat("parameter '", name,
                                                     "' must be a JSON ", what,
                                                     ", got ", Dump(value)));
    };
    switch (spec->type) {
      case ParamType::kBool:
        if (!value.is_boolean()) return wrong_type("bool");
        out.Set(name, value.get<bool>());
        break;
      case ParamType::kInt:
        if (value.is_number_unsigned()) {
          const uint64_t u = value.get<uint64_t>();
          if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
            return wrong_type("64-bit integer");
          }
          out.Set(name, static_cast<int64_t>(u));
        } else if (value.is_number_integer()) {
          out.Set(name, value.get<int64_t>());
        } else {
          return wrong_type("integer");
        }
        break;
      case ParamType::kEnum:
        if (!value.is_string()) return wrong_type("string (enum name)");
        out.Set(name, value.get<std::string>());
        break;
    }
  }
  // The README gives every parameter: one missing means the engine's schema
  // and the spec's table disagree on a name.
  for (const ParamSpec& s : schema) {
    if (!out.Has(s.name)) {
      return absl::InvalidArgumentError(
          absl::StrCat("engine parameter '", s.name,
                       "' is not in the transcript (which gives every "
                       "parameter of the spec)"));
    }
  }
  return out;
}

std::optional<JsonDifference> FirstJsonDifference(
    const nlohmann::json& expected, const nlohmann::json& actual) {
  return Diff(expected, actual, "");
}

TranscriptReport ReplayGame(const nlohmann::json& transcript,
                            const GameInfo& info,
                            const GameJsonAdapter& adapter, int line_number) {
  TranscriptReport report;
  report.line = line_number;
  report.game_id = info.id;
  Replay replay(transcript, info, adapter, report);
  // nlohmann::json reports misuse by exceptions; an adapter that trips one
  // (e.g. json::at on a missing field) costs its game, not the run.
  try {
    replay.Run();
  } catch (const std::exception& e) {
    replay.FailHere(
        "exception",
        absl::StrCat("replay threw (adapter or engine bug): ", e.what()));
  }
  return report;
}

}  // namespace cardref::conformance
