"""What the web front's tests share: a referee with its web front on free
ports, a driver that plays a match one decision at a time over gRPC, a
plain reader of server-sent events, a TCP proxy that can cut its
connections, and headless Chromium with a probe that records the page at
every change.

PYTHONPATH must hold the generated stubs (build/python) and tests/ (for
referee_test_util).
"""
import http.client
import json
import os
import random
import shutil
import socket
import subprocess
import tempfile
import threading
import time

import grpc

from cardref.v1 import game_pb2
from cardref.v1 import referee_pb2
from cardref.v1 import referee_pb2_grpc

from referee_test_util import short_match

OVER = (game_pb2.MATCH_STATUS_FINISHED, game_pb2.MATCH_STATUS_ABORTED)


def wait_for_file(path, proc, what):
    for _ in range(400):
        if os.path.exists(path) and open(path).read().strip():
            return int(open(path).read().strip())
        if proc.poll() is not None:
            raise AssertionError(f"the referee exited ({proc.returncode}) "
                                 f"before writing its {what}; its stderr is "
                                 f"in {os.path.dirname(path)}/referee.stderr")
        time.sleep(0.025)
    proc.kill()
    raise AssertionError(f"the referee did not write its {what}")


class Referee:
    """cardref_referee with --http_port=0, logging to tmp/logs (its stderr
    to tmp/referee.stderr)."""

    def __init__(self, referee_bin, tmp, *flags):
        self.tmp = tmp
        port_file = os.path.join(tmp, "port")
        http_file = os.path.join(tmp, "http_port")
        for f in (port_file, http_file):
            if os.path.exists(f):
                os.remove(f)
        self.log_dir = os.path.join(tmp, "logs")
        self.proc = subprocess.Popen(
            [referee_bin, "--port=0", f"--port_file={port_file}",
             f"--log_dir={self.log_dir}", "--http_port=0",
             f"--http_port_file={http_file}", *flags],
            stdout=subprocess.DEVNULL,
            stderr=open(os.path.join(tmp, "referee.stderr"), "w"))
        self.port = wait_for_file(port_file, self.proc, "port")
        self.http_port = wait_for_file(http_file, self.proc, "web port")
        self.channel = grpc.insecure_channel(f"localhost:{self.port}")
        self.stub = referee_pb2_grpc.RefereeStub(self.channel)

    def url(self, path):
        return f"http://127.0.0.1:{self.http_port}{path}"

    def log_path(self, match_id):
        return os.path.join(self.log_dir, match_id + ".cardlog")

    def get(self, path, headers=None):
        """(status, headers, body) of a GET."""
        conn = http.client.HTTPConnection("127.0.0.1", self.http_port,
                                          timeout=30)
        conn.request("GET", path, headers=headers or {})
        resp = conn.getresponse()
        body = resp.read()
        conn.close()
        return resp.status, dict(resp.getheaders()), body

    def get_json(self, path):
        status, _, body = self.get(path)
        assert status == 200, (path, status, body)
        return json.loads(body)

    def stop(self):
        self.channel.close()
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Driver:
    """Plays every seat of one match, one decision per step(), choosing
    among the legal actions with a seeded RNG (those whose notation starts
    with `avoid` only when there is nothing else), dealt from `seed` too.
    `params` override the game's short parameters
    (referee_test_util.SHORT)."""

    def __init__(self, stub, game, names, seed=1, params=None, version="v1",
                 avoid=None, **fields):
        self.stub = stub
        fields.setdefault("dealing_seed", seed)
        request = short_match(game, open=True, **fields)
        for name, value in (params or {}).items():
            if isinstance(value, int):
                request.params.values[name].int_value = value
            else:
                request.params.values[name].enum_value = value
        created = stub.CreateMatch(request)
        self.match_id = created.match_id
        self.num_seats = created.num_seats
        self.rng = random.Random(seed)
        self.names = names
        self.version = version
        self.avoid = avoid
        self.tokens = []
        self.decisions = 0
        self.step_seconds = []  # each decision's observe + submit

    def join(self):
        for seat in range(self.num_seats):
            joined = self.stub.JoinMatch(referee_pb2.JoinMatchRequest(
                match_id=self.match_id, seat=seat,
                player_name=self.names[seat % len(self.names)],
                player_version=self.version))
            self.tokens.append(joined.token)

    def observe(self, seat):
        return self.stub.GetObservation(referee_pb2.SeatRequest(
            match_id=self.match_id, seat=seat, token=self.tokens[seat]))

    def step(self):
        """One decision; False once the match is over."""
        start = time.perf_counter()
        obs = self.observe(0)
        if obs.status in OVER:
            return False
        seat = obs.seat_to_act
        if seat != 0:
            obs = self.observe(seat)
        actions = list(obs.legal_actions)
        if self.avoid:
            actions = ([a for a in actions
                        if not a.notation.startswith(self.avoid)] or actions)
        action = actions[self.rng.randrange(len(actions))]
        self.stub.SubmitAction(referee_pb2.SubmitActionRequest(
            match_id=self.match_id, seat=seat, token=self.tokens[seat],
            action=action, decision_version=obs.version))
        self.step_seconds.append(time.perf_counter() - start)
        self.decisions += 1
        return True

    def play_out(self, pause=0.0, every=None):
        """Plays to the end; `pause` seconds after each decision; `every`
        is called after each decision with the decision count."""
        while self.step():
            if every is not None:
                every(self.decisions)
            if pause:
                time.sleep(pause)


class EventReader:
    """One server-sent event stream, read with http.client."""

    def __init__(self, http_port, path, headers=None, timeout=30):
        self.conn = http.client.HTTPConnection("127.0.0.1", http_port,
                                               timeout=timeout)
        self.conn.request("GET", path, headers=headers or {})
        self.resp = self.conn.getresponse()
        self.status = self.resp.status
        self.headers = dict(self.resp.getheaders())

    def events(self):
        """Yields (id or None, event name, data as parsed JSON) until the
        server closes the stream."""
        fields = {}
        while True:
            line = self.resp.readline()
            if not line:
                return
            line = line.decode("utf-8").rstrip("\n")
            if line == "":
                if "event" in fields or "data" in fields:
                    yield (int(fields["id"]) if "id" in fields else None,
                           fields.get("event", "message"),
                           json.loads(fields.get("data", "null")))
                fields = {}
                continue
            if line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            fields[name] = value[1:] if value.startswith(" ") else value

    def close(self):
        self.conn.close()


def read_all(http_port, path, headers=None):
    """Every event of a stream that ends (a match over)."""
    reader = EventReader(http_port, path, headers)
    assert reader.status == 200, (path, reader.status)
    out = list(reader.events())
    reader.close()
    return out


def public_tables(http_port, match_id):
    """The public stream of a match over: ({index: step table}, [indices in
    order], the end event's data)."""
    events = read_all(http_port, f"/api/matches/{match_id}/events")
    assert events and events[-1][1] == "end", events[-1:]
    steps = [(i, data) for i, name, data in events if name == "step"]
    return ({i: data["step"]["table"] for i, data in steps},
            [i for i, _ in steps], events[-1][2])


def table_cards(table):
    """The face-up cards of a public table (its piles and the seats' face-up
    cards and visible hands) as the page titles them, sorted."""
    faces = []
    for pile in table["piles"]:
        faces += [rank + suit for rank, suit in pile["cards"]]
    for seat in table["seats"]:
        faces += [rank + suit for rank, suit in seat["extra"]]
        if seat["visible"]:
            faces += [rank + suit for rank, suit in seat["hand"]]
    return sorted(faces)


def head_result(cardref_log, log):
    """The `result:` line of `cardref_log head LOG`."""
    out = subprocess.run([cardref_log, "head", log], check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("result: "):
            return line[len("result: "):]
    raise AssertionError("no result line in cardref_log head " + log)


class CutProxy:
    """A TCP proxy on a free loopback port to 127.0.0.1:target_port;
    cut_all() closes every connection it carries (both ways), as a network
    that drops them would."""

    def __init__(self, target_port):
        self.target_port = target_port
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.open = []
        self.accepted = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.target_port))
            with self.lock:
                self.open.append((client, server))
                self.accepted += 1
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b),
                                 daemon=True).start()

    @staticmethod
    def _pump(src, dst):
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut_all(self):
        with self.lock:
            pairs, self.open = self.open, []
        for pair in pairs:
            for s in pair:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()
        return len(pairs)

    def close(self):
        self.listener.close()
        self.cut_all()


# Desktop and phone sizes of the screenshots.
DESKTOP = (1400, 1000)
PHONE = (390, 844)


def start_browser():
    """Headless Chromium through Debian's chromedriver, with a fresh
    profile; raises (the test fails) if it cannot start."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="cardref_web_chromium_")
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu",
                 "--disable-quic", "--no-first-run",
                 "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage",
                 f"--window-size={DESKTOP[0]},{DESKTOP[1]}",
                 f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"),
                              options=options)
    driver.cardref_profile = profile
    return driver


def quit_browser(driver):
    driver.quit()
    shutil.rmtree(driver.cardref_profile, ignore_errors=True)


def console_errors(driver):
    """The page's console errors since the last call (CSP violations are
    among them)."""
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


# Installed in a page by Probe.install: after every change of the page's
# DOM, what it shows is recorded in sessionStorage (which outlives the
# reload into the full replay): the event index drawn last, the face-up
# cards of the table and of each seat's hand, the hidden cards' count, the
# final line, the events counted as repeated, and once the match is over
# the record of every line of the move list.
PROBE_JS = r"""
if (!window.cardrefProbe) {
  window.cardrefProbe = true;
  let last = "";
  const record = function () {
    const b = document.body;
    const titles = function (root, sel) {
      return Array.from(root.querySelectorAll(sel)).map(function (c) {
        return c.title;
      });
    };
    const hands = [], extras = [], backs = [];
    document.querySelectorAll("#seats .seat").forEach(function (s) {
      const boxes = s.querySelectorAll(":scope > .cards");
      hands.push(boxes.length ? titles(boxes[0], ".card:not(.back)") : []);
      backs.push(boxes.length ? boxes[0].querySelectorAll(".card.back").length : 0);
      for (let k = 1; k < boxes.length; k++) {
        extras.push.apply(extras, titles(boxes[k], ".card"));
      }
    });
    const over = b.dataset.over === "true";
    const snap = {
      i: Number(b.dataset.lastIndex || 0),
      repeated: Number(b.dataset.repeated || 0),
      cards: titles(document, "#center .card").concat(extras).sort(),
      hands: hands,
      backs: backs,
      seats: hands.length,
      final: (document.getElementById("final") || {}).textContent || "",
      state: (document.getElementById("live") || {dataset: {}}).dataset.state || "",
      over: over,
      lines: over ? Array.from(document.querySelectorAll("#moves > div"))
                        .map(function (d) { return Number(d.dataset.record); })
                  : null,
    };
    const text = JSON.stringify(snap);
    if (text === last) return;
    last = text;
    const n = Number(sessionStorage.getItem("probe-n") || 0);
    sessionStorage.setItem("probe-" + n, text);
    sessionStorage.setItem("probe-n", String(n + 1));
  };
  new MutationObserver(record).observe(document.documentElement, {
    subtree: true, childList: true, attributes: true, characterData: true});
  record();
}
"""

DRAIN_JS = r"""
const n = Number(sessionStorage.getItem("probe-n") || 0);
const from = Number(sessionStorage.getItem("probe-read") || 0);
const out = [];
for (let k = from; k < n; k++) out.push(sessionStorage.getItem("probe-" + k));
for (let k = from; k < n; k++) sessionStorage.removeItem("probe-" + k);
sessionStorage.setItem("probe-read", String(n));
return out;
"""


class Probe:
    """Records a live page at every change (PROBE_JS) and collects what it
    recorded."""

    def __init__(self, driver):
        self.driver = driver
        self.snaps = []

    def install(self):
        self.driver.execute_script("sessionStorage.clear();")
        self.driver.execute_script(PROBE_JS)

    def drain(self):
        self.snaps += [json.loads(s) for s in
                       self.driver.execute_script(DRAIN_JS)]
        return self.snaps


def wait_until(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("timed out waiting for " + what)


def check_probe(test, snaps, tables, indices):
    """What a probe recorded against the public stream: every recorded state
    draws exactly the face-up cards of the table of the event it says it
    drew (so never a card the stream does not show), with every hand face
    down in the counts the stream gives; returns the event indices drawn,
    in order."""
    drawn = []
    test.assertTrue(snaps, "the probe recorded nothing")
    for snap in snaps:
        i = snap["i"]
        if i == 0:
            test.assertEqual(snap["cards"], [], "cards before any event")
            continue
        test.assertIn(i, tables, f"the page drew event {i}, not in the stream")
        table = tables[i]
        test.assertEqual(snap["seats"], len(table["seats"]),
                         f"seats drawn at event {i}")
        test.assertEqual(snap["cards"], table_cards(table),
                         f"face-up cards drawn at event {i}")
        for seat, hand in enumerate(snap["hands"]):
            test.assertEqual(hand, [], f"seat {seat}'s hand shown at {i}")
            test.assertEqual(snap["backs"][seat],
                             min(table["seats"][seat]["handSize"], 24),
                             f"seat {seat}'s hidden cards at event {i}")
        if not drawn or drawn[-1] != i:
            drawn.append(i)
    test.assertEqual(drawn, sorted(drawn), "the page went back in time")
    return drawn
