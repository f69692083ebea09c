// The table of a game as a person sees it at one moment: each seat's
// cards (or their count), the piles or tricks in play, one status line.
// Games draw it (game_view.h); the playback and the replay page show it.
#ifndef CARDREF_ANALYZER_LOG_TOOLS_TABLE_H_
#define CARDREF_ANALYZER_LOG_TOOLS_TABLE_H_

#include <string>
#include <vector>

namespace cardref::log_tools {

struct CardFace {
  std::string rank;
  std::string suit;
  std::string Text() const { return rank + suit; }
};

struct SeatTable {
  std::string name;
  std::vector<CardFace> hand;  // empty when hidden from the viewer
  int hand_size = 0;
  bool hand_visible = false;
  std::vector<CardFace> extra;  // face-up cards in front of the seat
  std::string extra_title;      // what `extra` is ("reserve")
  std::string info;             // "total 32", "chips 4", "team 0, maker"
  bool to_act = false;
};

// Cards in the middle of the table: the discard pile, the trick, a combo.
struct Pile {
  std::string title;
  std::vector<CardFace> cards;
  std::vector<std::string> labels;  // per card (who played it); may be empty
};

struct Table {
  std::vector<SeatTable> seats;
  std::vector<Pile> piles;
  std::string status;  // one line: round, suit, trump, counts
};

}  // namespace cardref::log_tools

#endif  // CARDREF_ANALYZER_LOG_TOOLS_TABLE_H_
