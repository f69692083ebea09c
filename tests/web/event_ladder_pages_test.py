#!/usr/bin/python3
"""The event page and the ladder's pages in headless Chromium, against
real cardref_tournament and cardref_ladder processes (docs/web.md).

  event_ladder_pages_test.py event TOOLS_DIR --artifacts DIR
  event_ladder_pages_test.py ladder TOOLS_DIR --artifacts DIR

- event: a short duplicate tournament with --http_port=0; its page, opened
  as soon as it serves, shows more finished matches as they finish, then
  the standings of the finished deal sets (a table per game, with
  intervals), faults per bot, and links to each match's page on the
  event's own referee.
- ladder: a ladder of three example bots played by `cardref_ladder run`,
  one entrant renamed to markup behind the store's back (an older store
  may hold any name); `cardref_ladder serve` draws the leaderboard and the
  entrant's page with the name as text (no script of it runs), a rating
  chart, no empty table; the owner-only addresses answer 401 without a
  credential, 403 with another entrant's and the bot's output with its
  own.

Every page is checked for console errors (a CSP violation is one) and
photographed at a desktop and a phone width into DIR. Chromium that cannot
start is a failure, never a skip.
"""
import argparse
import hashlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from selenium.webdriver.common.by import By

import web_util

PARAMS = "--params=game_length=SHORT,rounds=4"
HOSTILE = '<img src=x onerror="window.pwned=1">&amp;</td>'


def wait_port(path, proc, what, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if os.path.exists(path):
            text = open(path).read().strip()
            if text:
                return int(text)
        if proc.poll() is not None:
            raise AssertionError(f"{what} exited ({proc.returncode}) before "
                                 f"serving")
        time.sleep(0.02)
    raise AssertionError(f"{what} did not write its web port")


def http(url, credential=None):
    """(status, body) of a GET."""
    request = urllib.request.Request(url)
    if credential:
        request.add_header("Authorization", f"Bearer {credential}")
    try:
        with urllib.request.urlopen(request, timeout=20) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


class Pages:
    def __init__(self, artifacts):
        self.artifacts = artifacts
        os.makedirs(artifacts, exist_ok=True)
        self.driver = web_util.start_browser()

    def close(self):
        web_util.quit_browser(self.driver)

    def check(self, what, table_css):
        errors = web_util.console_errors(self.driver)
        assert errors == [], f"console errors on {what}: {errors}"
        rows = self.driver.find_elements(By.CSS_SELECTOR, f"{table_css} tr")
        assert len(rows) > 1, f"an empty table ({table_css}) on {what}"
        assert self.driver.execute_script("return window.pwned;") is None, \
            f"a name's markup ran on {what}"

    def screenshots(self, name):
        d = self.driver
        for label, size in (("desktop", web_util.DESKTOP),
                            ("phone", web_util.PHONE)):
            d.set_window_size(*size)
            overflow = d.execute_script(
                "return document.documentElement.scrollWidth - "
                "document.documentElement.clientWidth;")
            assert overflow <= 0, f"{name} is wider than a {label} screen"
            d.save_screenshot(
                os.path.join(self.artifacts, f"web_{name}_{label}.png"))
        d.set_window_size(*web_util.DESKTOP)


def event_test(tools, pages, tmp):
    out = os.path.join(tmp, "event")
    port_file = os.path.join(tmp, "event.port")
    bot = f"{tools}/cardref_bot --quiet --strategy="
    argv = [f"{tools}/cardref_tournament", f"--out={out}", "--trust_bots",
            PARAMS, "--games=craits:2", "--matches=2", "--duplicate",
            "--concurrency=1", "--http_port=0",
            f"--http_port_file={port_file}", "--http_linger_s=60",
            f"--bot=random={bot}random", f"--bot=first={bot}first",
            f"--bot=heuristic={bot}heuristic"]
    print("$", " ".join(argv), flush=True)
    log = open(os.path.join(tmp, "tournament.out"), "w")
    proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT)
    try:
        port = wait_port(port_file, proc, "cardref_tournament")
        d = pages.driver
        d.get(f"http://127.0.0.1:{port}/")
        seen = set()

        def finished():
            return int(d.execute_script(
                "return document.body.dataset.finished || '0';"))

        def over():
            return d.execute_script("return document.body.dataset.over;") \
                == "true"

        referee_checked = False
        deadline = time.monotonic() + 40
        while not over() and time.monotonic() < deadline:
            seen.add(finished())
            if not referee_checked:
                live = [a.get_attribute("href") for a in
                        d.find_elements(By.CSS_SELECTOR, "#matches a")
                        if a.text != "replay"]
                if live:
                    # The event's own referee serves the match's page while
                    # the event runs (it stops with the event).
                    try:
                        status, body = http(live[0])
                        assert status == 200, (status, body[:300])
                        assert b"<html" in body
                        referee_checked = True
                    except urllib.error.URLError:
                        if not over():
                            raise
            time.sleep(0.1)
        assert over(), "the page never said the event was over"
        total = len(json.load(open(os.path.join(out, "report.json")))
                    ["matches"])
        web_util.wait_until(lambda: finished() == total, 10,
                            "the page to show every match finished")
        seen.add(finished())
        assert len(seen) >= 2, f"the page never updated: {sorted(seen)}"
        print(f"event page: finished counts seen {sorted(seen)} of {total}; "
              f"a match page on the event's referee checked: "
              f"{referee_checked}")
        web_util.wait_until(
            lambda: d.find_elements(By.CSS_SELECTOR, "#standings table tr"),
            15, "the standings")
        standings = d.find_element(By.ID, "standings").text
        for name in ("random", "first", "heuristic"):
            assert name in standings, standings
        assert ".." in standings, f"no interval: {standings}"
        replays = [a for a in d.find_elements(By.CSS_SELECTOR, "#matches a")
                   if a.text == "replay"]
        assert len(replays) == total, f"{len(replays)} replays of {total}"
        pages.check("the event page", "#matches table")
        pages.check("the event page", "#faults table")
        pages.check("the event page", "#standings table")
        pages.screenshots("event")
        # A replay from the event's own front, after its referee stopped.
        replays[0].click()
        web_util.wait_until(lambda: d.find_elements(By.ID, "game-data"), 10,
                            "the replay")
        assert web_util.console_errors(d) == []
        api = json.loads(http(f"http://127.0.0.1:{port}/api/event")[1])
        assert api["counts"]["finished"] == total, api["counts"]
        assert all(m["deal_set_over"] for m in api["matches"])
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def ladder_cmd(tools, *args):
    argv = [f"{tools}/cardref_ladder", *args]
    print("$", " ".join(argv), flush=True)
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=120)
    print(r.stdout[-3000:], flush=True)
    assert r.returncode == 0, f"cardref_ladder {args[0]} exited {r.returncode}"
    return r.stdout


def ladder_test(tools, pages, tmp):
    db = os.path.join(tmp, "l.db")
    ladder_cmd(tools, "init", f"--db={db}", "--name=web test", "--games=craits:3",
               PARAMS, "--decision_time_limit_ms=2000")
    for name, strategy in (("heuristic", "heuristic"), ("first", "first"),
                           ("randomish", "random")):
        ladder_cmd(tools, "add", f"--db={db}", f"--entrant={name}",
                   f"--command={tools}/cardref_bot --strategy={strategy} "
                   "--quiet",
                   "--content_hash=" + hashlib.sha256(name.encode()).hexdigest())
    ladder_cmd(tools, "run", f"--db={db}", "--trust_bots", "--matches=10",
               "--workers=1")
    credential = ladder_cmd(tools, "credential", f"--db={db}",
                            "--entrant=first").strip().splitlines()[-1]
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE entrants SET name = ? WHERE name = 'randomish'",
                     (HOSTILE,))
        match = conn.execute(
            "SELECT m.id FROM matches m JOIN match_seats s ON s.match_id = "
            "m.id JOIN versions v ON v.id = s.version_id JOIN entrants e ON "
            "e.id = v.entrant_id WHERE m.state = 'finished' AND e.name = "
            "'first' ORDER BY m.id DESC LIMIT 1").fetchone()[0]
        # An entrant with no seat in that match.
        outsider = conn.execute(
            "SELECT e.name FROM entrants e WHERE e.name <> 'first' AND "
            "e.id NOT IN (SELECT v.entrant_id FROM "
            "match_seats s JOIN versions v ON v.id = s.version_id WHERE "
            "s.match_id = ?) LIMIT 1", (match,)).fetchone()[0]
    other = ladder_cmd(tools, "credential", f"--db={db}",
                       f"--entrant={outsider}").strip().splitlines()[-1]
    port_file = os.path.join(tmp, "ladder.port")
    proc = subprocess.Popen(
        [f"{tools}/cardref_ladder", "serve", f"--db={db}", "--http_port=0",
         f"--http_port_file={port_file}"],
        stdout=subprocess.DEVNULL, stderr=open(os.path.join(tmp, "serve.err"), "w"))
    try:
        port = wait_port(port_file, proc, "cardref_ladder serve")
        base = f"http://127.0.0.1:{port}"
        d = pages.driver
        d.get(base + "/")
        pages.check("the leaderboard", "table.leaderboard")
        text = d.find_element(By.TAG_NAME, "body").text
        assert HOSTILE in text, "the hostile name is not shown as text"
        pages.screenshots("ladder_leaderboard")
        # The hostile entrant's own page, through its (escaped) link.
        link = [a for a in d.find_elements(By.CSS_SELECTOR, "ul.entrants a")
                if a.text == HOSTILE]
        assert link, "no link to the hostile entrant's page"
        link[0].click()
        web_util.wait_until(
            lambda: "Entrant" in d.find_element(By.TAG_NAME, "h1").text, 10,
            "the entrant's page")
        pages.check("the hostile entrant's page", "table.versions")
        assert HOSTILE in d.find_element(By.TAG_NAME, "h1").text
        pages.check("the hostile entrant's page", "table.matches")
        pages.screenshots("ladder_entrant")
        # The leader's page has its rating chart.
        d.get(base + "/entrants/heuristic")
        assert d.find_elements(By.CSS_SELECTOR, "svg.chart polyline"), \
            "no rating chart"
        pages.check("the leader's page", "table.versions")
        d.get(base + "/matches")
        pages.check("the recent matches", "table.matches")
        d.get(f"{base}/matches/{match}")
        web_util.wait_until(lambda: d.find_elements(By.ID, "game-data"), 10,
                            "the replay")
        assert web_util.console_errors(d) == []
        # Owner-only.
        path = f"{base}/api/matches/{match}/stderr"
        assert http(path)[0] == 401
        status, body = http(path, other)
        assert status == 403 and b"not a game of entrant" in body, body
        status, body = http(path, credential)
        assert status == 200, body
        assert json.loads(body)["entrant"] == "first"
        status, body = http(f"{base}/api/matches/{match}/timings", credential)
        assert status == 200 and json.loads(body)["seats"][0]["decisions"] > 0
        status, body = http(f"{base}/api/matches/{match}/log", credential)
        assert status == 200 and len(body) > 100, (status, body[:200])
        standings = json.loads(http(base + "/api/standings")[1])
        assert len(standings["games"][0]["standings"]) >= 2, standings
        print("ladder pages: leaderboard, entrant, matches, replay and the "
              "owner-only addresses checked")
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=("event", "ladder"))
    parser.add_argument("tools")
    parser.add_argument("--artifacts", required=True)
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix=f"cardref_web_{args.mode}_")
    pages = Pages(args.artifacts)
    try:
        (event_test if args.mode == "event" else ladder_test)(
            args.tools, pages, tmp)
    finally:
        pages.close()
    shutil.rmtree(tmp, ignore_errors=True)
    print("OK")


if __name__ == "__main__":
    sys.exit(main())
