// The live match page: follows the match's public event stream
// (/api/matches/<id>/events, server-sent events) and draws each step with
// the replay page's viewer (replay.js, window.cardrefReplay). EventSource
// resumes after a drop by itself, sending the Last-Event-ID of the last
// event it received, so nothing is missed or repeated; an event the page
// has already drawn would be counted in body[data-repeated], never drawn
// twice. Once the match is over the page reloads into the full replay if
// the referee shows one (every hand; not while a match dealt from the same
// seed is still played), else it stays the public replay of what it drew.
"use strict";
(function () {
  const page = JSON.parse(document.getElementById("page-data").textContent);
  const live = document.getElementById("live");
  let data = null;     // the viewer's data, from the first event
  let viewer = null;   // window.cardrefReplay's controller
  let lastIndex = 0;   // the last event drawn
  let source = null;
  let repeated = 0;

  function setState(state, text) {
    live.dataset.state = state;
    live.textContent = text;
  }

  function mark() {
    document.body.dataset.lastIndex = String(lastIndex);
    document.body.dataset.repeated = String(repeated);
  }

  function onStep(e) {
    const msg = JSON.parse(e.data);
    if (msg.index <= lastIndex) {
      repeated++;
      mark();
      return;
    }
    lastIndex = msg.index;
    if (msg.match) {
      data = Object.assign({}, msg.match, {
        steps: [], scoreRows: [], finalText: "", endText: "", problem: "",
      });
      viewer = window.cardrefReplay(data);
    }
    if (viewer) {
      const step = msg.step;
      if (step.kind === "round_result" && step.scoreRow) data.scoreRows.push(step.scoreRow);
      if (step.kind === "final_result") data.finalText = step.text;
      viewer.addStep(step);
    }
    mark();
  }

  function onEnd(e) {
    const end = JSON.parse(e.data);
    source.close();
    setState("over", "match " + end.status);
    if (data) {
      data.finalText = end.finalText || data.finalText;
      data.problem = end.problem;
      data.endText = "match " + end.status + (end.endReason ? ": " + end.endReason : "");
      viewer.refresh();
    } else {
      document.getElementById("move").textContent = "match " + end.status;
    }
    document.body.dataset.over = "true";
    mark();
    if (page.mode !== "live") return;
    fetch(page.apiUrl).then(function (r) { return r.json(); }).then(function (m) {
      if (m.replay === "full") window.location.reload();
    }).catch(function () {});
  }

  function connect() {
    let url = page.eventsUrl + "?after=" + lastIndex;
    if (page.delay > 0) url += "&delay=" + page.delay;
    source = new EventSource(url);
    source.addEventListener("step", onStep);
    source.addEventListener("end", onEnd);
    source.addEventListener("open", function () { setState("live", "live"); });
    source.addEventListener("error", function () {
      if (source.readyState === EventSource.CLOSED) {
        // Refused (too many streams, not public): try again later.
        setState("refused", "the stream was refused; retrying in 10 s");
        setTimeout(connect, 10000);
      } else {
        setState("reconnecting", "reconnecting");
      }
    });
  }

  document.getElementById("move").textContent =
    page.status === "waiting_for_players" ? "waiting for players" : "";
  setState("connecting", "connecting");
  mark();
  connect();
})();
