// The event page: draws the event's matches, standings and faults per bot
// from /api/event and /api/standings (first from the page's data), and
// fetches them again every two seconds until the event is over. Text goes
// into the page with textContent only: bot names are chosen by strangers.
"use strict";
(function () {
  const page = JSON.parse(document.getElementById("page-data").textContent);
  const POLL_MS = 2000;

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }

  // `wide`: the columns left out on a phone (web.css hides .players there).
  function table(headers, rows, cls, wide) {
    const narrow = function (i) { return wide && wide.indexOf(i) >= 0 ? "players" : ""; };
    const t = el("table", null, "matches " + (cls || ""));
    const head = el("tr");
    headers.forEach(function (h, i) { head.appendChild(el("th", h, narrow(i))); });
    t.appendChild(head);
    rows.forEach(function (cells) {
      const tr = el("tr");
      cells.forEach(function (c, i) {
        const td = el("td", null, narrow(i));
        if (c instanceof Node) td.appendChild(c); else td.textContent = c === undefined ? "" : String(c);
        tr.appendChild(td);
      });
      t.appendChild(tr);
    });
    // Wide tables scroll inside their box on a phone; the page does not.
    const box = el("div", null, "scroll");
    box.appendChild(t);
    return box;
  }

  function fixed(x) {
    return typeof x === "number" ? x.toFixed(1) : "";
  }

  function replace(id, child) {
    const box = document.getElementById(id);
    box.replaceChildren(child);
  }

  function drawEvent(ev) {
    document.getElementById("event-name").textContent = ev.event || "";
    const counts = Object.keys(ev.counts || {}).sort().map(function (k) {
      return k + " " + ev.counts[k];
    });
    const summary = document.getElementById("summary");
    summary.textContent = (ev.over ? "Over. " : ev.started ? "In play. " : "Starting. ") +
      ev.matches.length + " matches: " + counts.join(", ");
    document.body.dataset.finished = String((ev.counts || {}).finished || 0);
    document.body.dataset.over = String(!!ev.over);
    const rows = ev.matches.map(function (m) {
      let link = m.match_id || "";
      // The event's referee stops with the event: its pages with it.
      if (m.links && m.links.page && !ev.over) {
        link = el("a", m.match_id);
        link.href = m.links.page;
      }
      let replay = "";
      if (m.replay) {
        replay = el("a", "replay");
        replay.href = m.replay;
      }
      let result = "";
      if (m.scores) result = m.scores.join(" : ");
      else if (m.status === "finished" && !m.deal_set_over) result = "(shown when its deal set is over)";
      const faults = (m.faults || []).filter(function (f) { return f; }).join("; ");
      return [m.key, m.game, m.bots.join(", "), m.status, link, replay, result,
              faults || m.reason || ""];
    });
    replace("matches", rows.length ? table(
      ["match", "game", "bots", "status", "live page", "replay", "scores", "notes"], rows, "event-matches",
      [1, 7])
      : el("p", "No match scheduled.", "note"));
    const frows = ev.faults.map(function (f) {
      const limits = Object.keys(f.limits || {}).map(function (k) { return k + " " + f.limits[k]; });
      return [f.bot, f.matches, f.timeouts, f.rejections, f.absent, f.played_for, limits.join(", ")];
    });
    replace("faults", frows.length ? table(
      ["bot", "matches with faults", "timeouts", "rejected", "absent in", "played by referee", "ended at a limit"],
      frows, "event-faults") : el("p", "No bot.", "note"));
  }

  function drawStandings(st) {
    const box = el("div");
    const games = st.ratings && st.ratings.games ? st.ratings.games : [];
    if (st.error) box.appendChild(el("p", "Standings could not be computed: " + st.error, "note"));
    if (!games.length) {
      box.appendChild(el("p", "No finished deal set yet." +
        (st.pending_logs ? " (" + st.pending_logs + " finished matches wait for their deal sets.)" : ""),
        "note"));
    }
    games.forEach(function (g) {
      box.appendChild(el("h3", g.game + " (" + g.games + " games)"));
      const rows = (g.players || []).map(function (p) {
        let interval = "";
        if (typeof p.ci_low === "number" || typeof p.ci_high === "number") {
          interval = (typeof p.ci_low === "number" ? fixed(p.ci_low) : "") + " .. " +
                     (typeof p.ci_high === "number" ? fixed(p.ci_high) : "");
        }
        return [p.player, fixed(p.rating), interval, p.games, p.ci_note || ""];
      });
      box.appendChild(table(["player", "rating", "95% interval", "games", "note"], rows, "standings",
                            [4]));
    });
    box.appendChild(el("p", "From " + st.logs + " logs of finished deal sets" +
      (st.pending_logs ? "; " + st.pending_logs + " more once their deal sets are over" : "") + ".",
      "note standings-note"));
    replace("standings", box);
    document.body.dataset.standingsLogs = String(st.logs || 0);
  }

  function fetchJson(url) {
    return fetch(url, { cache: "no-store" }).then(function (r) {
      if (!r.ok) throw new Error(url + ": " + r.status);
      return r.json();
    });
  }

  let over = false;
  let afterOver = 3;  // the last standings may come just after the end
  function poll() {
    Promise.all([fetchJson(page.eventUrl), fetchJson(page.standingsUrl)])
      .then(function (both) {
        drawEvent(both[0]);
        drawStandings(both[1]);
        over = !!both[0].over;
      })
      .catch(function () { /* the runner has stopped: keep what is drawn */ })
      .finally(function () {
        if (!over || afterOver-- > 0) setTimeout(poll, POLL_MS);
      });
  }

  drawEvent(page.event);
  drawStandings(page.standings);
  over = !!page.event.over;
  setTimeout(poll, POLL_MS);
})();
