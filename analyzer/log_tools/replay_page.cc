// The replay page's skeleton, style and script. The script reads the JSON
// in #game-data and draws step `current`: the seats with their cards, the
// piles in the middle, the move list and the table of round scores. Text
// goes into the page with textContent only. The web front's live page
// (web/) uses the same style sheet, elements and script, served as files.
#include "analyzer/log_tools/replay_page.h"

namespace cardref::log_tools {

const char kReplayPageHead[] = R"page(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
)page";

const char kReplayPageStyle[] = R"page(body { font-family: sans-serif; margin: 0; background: #1d3b2a; color: #eee; }
header { padding: 8px 16px; background: #12261b; }
header h1 { font-size: 18px; margin: 0; }
#players { font-size: 13px; color: #bcd; }
#controls { padding: 8px 16px; display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
#controls button { font-size: 16px; min-width: 40px; }
#slider { flex: 1; min-width: 200px; }
#position { font-size: 13px; min-width: 110px; }
#main { display: flex; gap: 12px; padding: 0 16px 16px; }
#table { flex: 3; }
#side { flex: 1; min-width: 260px; }
#move { font-size: 16px; padding: 6px 10px; background: #12261b; border-radius: 6px; min-height: 22px; }
#effects { font-size: 13px; color: #ffd; min-height: 18px; padding: 2px 10px; }
#status { font-size: 13px; color: #cfe; padding: 4px 10px; }
.seats { display: flex; flex-wrap: wrap; gap: 10px; margin-top: 8px; }
.seat { background: #24513a; border-radius: 8px; padding: 6px 8px; min-width: 220px; flex: 1; border: 2px solid transparent; }
.seat.to-act { border-color: #ffd54a; }
.seat-name { font-weight: bold; }
.seat-info { font-size: 12px; color: #cde; }
.cards { display: flex; flex-wrap: wrap; gap: 3px; margin-top: 4px; min-height: 54px; }
.card { width: 36px; height: 52px; border-radius: 5px; background: #fdfdf8; color: #111; position: relative; box-shadow: 1px 1px 2px #0008; font-weight: bold; }
.card .rank { position: absolute; top: 2px; left: 4px; font-size: 14px; }
.card .pip { position: absolute; bottom: 3px; right: 4px; font-size: 20px; }
.card.red { color: #c8102e; }
.card.wide .rank { font-size: 11px; top: 18px; left: 2px; }
.card.special { background: #fff3c4; }
.card.back { background: repeating-linear-gradient(45deg, #2a4d8f, #2a4d8f 4px, #3b62ad 4px, #3b62ad 8px); }
.pile { background: #173222; border-radius: 8px; padding: 6px 8px; margin-top: 8px; }
.pile-title { font-size: 12px; color: #cde; }
.played { display: inline-block; text-align: center; margin-right: 4px; }
.played .label { font-size: 10px; color: #cde; max-width: 60px; overflow: hidden; white-space: nowrap; }
#moves { height: 320px; overflow-y: auto; background: #12261b; border-radius: 6px; font-size: 12px; font-family: monospace; padding: 4px; }
#moves div { cursor: pointer; white-space: nowrap; }
#moves div.current { background: #ffd54a; color: #000; }
table.scores { border-collapse: collapse; margin-top: 8px; font-size: 12px; width: 100%; }
table.scores td, table.scores th { border: 1px solid #456; padding: 2px 4px; text-align: right; }
#final { margin-top: 8px; padding: 6px 10px; background: #5a2d0c; border-radius: 6px; font-weight: bold; }
#final:empty { display: none; }
)page";

const char kReplayPageBody[] = R"page(<body>
<header><h1 id="title"></h1><div id="players"></div></header>
<div id="controls">
<button id="first" title="first step (Home)">&laquo;</button>
<button id="back" title="step back (left arrow)">&#x25C0;</button>
<button id="forward" title="step forward (right arrow)">&#x25B6;</button>
<button id="last" title="last step (End)">&raquo;</button>
<input type="range" id="slider" min="0" max="0" value="0" aria-label="step">
<span id="position"></span>
</div>
<div id="main">
<div id="table">
<div id="move"></div>
<div id="effects"></div>
<div id="status"></div>
<div id="center"></div>
<div class="seats" id="seats"></div>
<div id="final"></div>
</div>
<div id="side">
<div id="moves"></div>
<table class="scores" id="scores"></table>
</div>
</div>
)page";

const char kReplayPageScript[] = R"page("use strict";
// cardrefReplay(data): draws data.steps into the page's elements and returns
// { addStep(step), show(i), follow() }: a live page adds steps as they come
// and is drawn at its newest step while following.
window.cardrefReplay = (function () {
  const SUITS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function card(face) {
    const rank = face[0], suit = face[1];
    const c = el("div", "card");
    if (suit === "H" || suit === "D") c.classList.add("red");
    if (!suit) c.classList.add("special");
    if (rank.length > 2) c.classList.add("wide");
    c.appendChild(el("span", "rank", rank));
    if (suit) c.appendChild(el("span", "pip", SUITS[suit] || suit));
    c.title = rank + suit;
    return c;
  }

  function backs(n) {
    const box = el("div", "cards");
    for (let i = 0; i < Math.min(n, 24); i++) box.appendChild(el("div", "card back"));
    if (n > 24) box.appendChild(el("span", "seat-info", "+" + (n - 24)));
    return box;
  }

  // "#12 [1] alice: play 8S": the seat number tells apart a bot that sits
  // in two seats under one name.
  function moveText(step) {
    return "#" + step.record + " " + (step.seat >= 0 ? "[" + step.seat + "] " : "") +
      step.text;
  }

  function cards(list) {
    const box = el("div", "cards");
    for (const f of list) box.appendChild(card(f));
    return box;
  }

  return function (data) {
    const steps = data.steps;
    let current = 0;
    let following = false;
    const byId = function (id) { return document.getElementById(id); };
    const moves = byId("moves");
    const slider = byId("slider");

    function drawTable(step) {
      const t = step.table;
      byId("move").textContent = moveText(step);
      byId("effects").textContent = step.effects.concat(step.details).join(" \u00b7 ");
      byId("status").textContent = t.status;
      const center = byId("center");
      center.replaceChildren();
      for (const p of t.piles) {
        const pile = el("div", "pile");
        pile.appendChild(el("div", "pile-title", p.title));
        const row = el("div", "cards");
        p.cards.forEach(function (f, i) {
          const played = el("div", "played");
          played.appendChild(card(f));
          if (p.labels.length > i) played.appendChild(el("div", "label", p.labels[i]));
          row.appendChild(played);
        });
        pile.appendChild(row);
        center.appendChild(pile);
      }
      const seats = byId("seats");
      seats.replaceChildren();
      t.seats.forEach(function (s, i) {
        const box = el("div", "seat");
        if (s.toAct) box.classList.add("to-act");
        box.appendChild(el("div", "seat-name", i + " " + s.name));
        box.appendChild(el("div", "seat-info",
          s.info + " \u00b7 " + s.handSize + (s.handSize === 1 ? " card" : " cards")));
        box.appendChild(s.visible ? cards(s.hand) : backs(s.handSize));
        if (s.extra.length) {
          box.appendChild(el("div", "seat-info", s.extraTitle));
          box.appendChild(cards(s.extra));
        }
        seats.appendChild(box);
      });
      const last = current === steps.length - 1;
      byId("final").textContent =
        last ? (data.finalText || data.problem || data.endText || "") : "";
    }

    function drawScores(step) {
      const table = byId("scores");
      table.replaceChildren();
      const head = el("tr");
      head.appendChild(el("th", "", "round"));
      for (const c of data.scoreColumns) head.appendChild(el("th", "", c));
      table.appendChild(head);
      for (let r = 0; r < step.rounds && r < data.scoreRows.length; r++) {
        const tr = el("tr");
        tr.appendChild(el("td", "", String(r + 1)));
        for (const v of data.scoreRows[r]) tr.appendChild(el("td", "", v));
        table.appendChild(tr);
      }
    }

    function addLine(s, i) {
      const line = el("div", "", moveText(s));
      line.dataset.record = String(s.record);
      line.addEventListener("click", function () { show(i); });
      moves.appendChild(line);
    }

    function show(i) {
      if (!steps.length) return;
      current = Math.max(0, Math.min(steps.length - 1, i));
      following = current === steps.length - 1;
      const step = steps[current];
      drawTable(step);
      drawScores(step);
      slider.value = String(current);
      byId("position").textContent =
        "step " + (current + 1) + " / " + steps.length + " \u00b7 round " + step.round;
      const lines = moves.children;
      for (let k = 0; k < lines.length; k++) lines[k].classList.toggle("current", k === current);
      const line = lines[current];
      if (line) {
        const top = line.offsetTop - moves.offsetTop;
        if (top < moves.scrollTop || top > moves.scrollTop + moves.clientHeight - 20) {
          moves.scrollTop = top - moves.clientHeight / 2;
        }
      }
    }

    byId("title").textContent =
      data.gameName + " \u00b7 match " + data.matchId +
      (data.viewer >= 0 ? " \u00b7 as seen by " + data.names[data.viewer] : "");
    byId("players").textContent = data.seats.map(function (s) {
      return s.seat + " " + s.name + (s.version ? " (" + s.version + ")" : "");
    }).join(" \u00b7 ");
    steps.forEach(addLine);
    slider.max = String(Math.max(0, steps.length - 1));
    slider.addEventListener("input", function () { show(Number(slider.value)); });
    byId("first").addEventListener("click", function () { show(0); });
    byId("back").addEventListener("click", function () { show(current - 1); });
    byId("forward").addEventListener("click", function () { show(current + 1); });
    byId("last").addEventListener("click", function () { show(steps.length - 1); });
    document.addEventListener("keydown", function (e) {
      if (e.target === slider) return;  // the slider moves by itself
      if (e.key === "ArrowRight") { show(current + 1); e.preventDefault(); }
      else if (e.key === "ArrowLeft") { show(current - 1); e.preventDefault(); }
      else if (e.key === "Home") { show(0); e.preventDefault(); }
      else if (e.key === "End") { show(steps.length - 1); e.preventDefault(); }
    });

    return {
      // A step after the last: drawn at once if the page shows the last one.
      addStep: function (step) {
        const follow = following || !steps.length;
        steps.push(step);
        addLine(step, steps.length - 1);
        slider.max = String(steps.length - 1);
        if (follow) show(steps.length - 1);
      },
      show: show,
      // Draws the newest step again (after data.finalText and the like
      // changed) if the page shows it.
      refresh: function () { if (following) show(steps.length - 1); },
    };
  };
})();

(function () {
  const embedded = document.getElementById("game-data");
  if (embedded) window.cardrefReplay(JSON.parse(embedded.textContent)).show(0);
})();
)page";

}  // namespace cardref::log_tools
