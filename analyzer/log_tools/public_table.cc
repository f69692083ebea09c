#include "analyzer/log_tools/public_table.h"

#include <algorithm>
#include <map>
#include <utility>

namespace cardref::log_tools {
namespace {

bool SameCards(const std::vector<CardFace>& a, const std::vector<CardFace>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const CardFace& x, const CardFace& y) {
                      return x.rank == y.rank && x.suit == y.suit;
                    });
}

bool SamePile(const Pile& a, const Pile& b) {
  return a.title == b.title && a.labels == b.labels &&
         SameCards(a.cards, b.cards);
}

// Seat `viewer`'s own table: MakeTable sees that seat's observation only.
Table SeatsOwnTable(const GameView& view,
                    const std::vector<v1::Observation>& views, int viewer,
                    const std::vector<std::string>& names) {
  const std::vector<v1::Observation> own(views.size(), views[viewer]);
  return view.MakeTable(own, viewer, names);
}

// Seat s's row as every other seat draws it: what they disagree on is left
// out, and the hand is a count.
SeatTable PublicSeat(const std::vector<Table>& tables, int s,
                     const std::string& name) {
  SeatTable seat;
  seat.name = name;
  std::vector<const SeatTable*> rows;
  for (int v = 0; v < static_cast<int>(tables.size()); ++v) {
    if (v != s && s < static_cast<int>(tables[v].seats.size())) {
      rows.push_back(&tables[v].seats[s]);
    }
  }
  if (rows.empty()) return seat;  // nobody else sees this seat
  const SeatTable& first = *rows.front();
  auto all = [&](auto same) {
    return std::all_of(rows.begin(), rows.end(),
                       [&](const SeatTable* r) { return same(*r); });
  };
  if (all([&](const SeatTable& r) { return r.hand_size == first.hand_size; })) {
    seat.hand_size = first.hand_size;
  }
  if (all([&](const SeatTable& r) { return r.info == first.info; })) {
    seat.info = first.info;
  }
  if (all([&](const SeatTable& r) {
        return r.extra_title == first.extra_title &&
               SameCards(r.extra, first.extra);
      })) {
    seat.extra = first.extra;
    seat.extra_title = first.extra_title;
  }
  if (all([&](const SeatTable& r) { return r.to_act == first.to_act; })) {
    seat.to_act = first.to_act;
  }
  return seat;
}

}  // namespace

Table PublicTable(const GameView& view,
                  const std::vector<v1::Observation>& views,
                  const std::vector<std::string>& names) {
  const int n = static_cast<int>(views.size());
  std::vector<Table> tables;
  tables.reserve(n);
  for (int v = 0; v < n; ++v) {
    tables.push_back(SeatsOwnTable(view, views, v, names));
  }
  Table out;
  if (tables.empty()) return out;
  for (int s = 0; s < n; ++s) {
    out.seats.push_back(
        PublicSeat(tables, s, s < static_cast<int>(names.size()) ? names[s]
                                                                 : ""));
  }
  const Table& first = tables.front();
  for (size_t p = 0; p < first.piles.size(); ++p) {
    const bool shared =
        std::all_of(tables.begin(), tables.end(), [&](const Table& t) {
          return p < t.piles.size() && SamePile(t.piles[p], first.piles[p]);
        });
    if (shared) out.piles.push_back(first.piles[p]);
  }
  if (std::all_of(tables.begin(), tables.end(), [&](const Table& t) {
        return t.status == first.status;
      })) {
    out.status = first.status;
  }
  return out;
}

std::vector<std::string> PublicEffects(
    const GameView& view, const std::vector<v1::Observation>& before,
    const std::vector<v1::Observation>& after, const v1::Action* action,
    const std::vector<std::string>& names) {
  const size_t n = std::min(before.size(), after.size());
  if (n == 0) return {};
  std::vector<std::string> base =
      view.Effects(before[0], after[0], action, names);
  // How many times each line may still be kept: the fewest any seat has.
  std::map<std::string, int> allowed;
  for (const std::string& line : base) ++allowed[line];
  for (size_t s = 1; s < n; ++s) {
    std::map<std::string, int> counts;
    for (const std::string& line : view.Effects(before[s], after[s], action, names)) {
      ++counts[line];
    }
    for (auto& [line, count] : allowed) count = std::min(count, counts[line]);
  }
  std::vector<std::string> out;
  for (std::string& line : base) {
    int& left = allowed[line];
    if (left > 0) {
      --left;
      out.push_back(std::move(line));
    }
  }
  return out;
}

}  // namespace cardref::log_tools
