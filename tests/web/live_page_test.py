#!/usr/bin/python3
"""The web front's pages in headless Chromium, against a live referee.

  live_page_test.py CARDREF_REFEREE CARDREF_LOG --artifacts DIR

- A live match of each real game followed by its page from before the
  first deal to the end: a probe records the page at every change of its
  DOM, and every state it records draws exactly the face-up cards of the
  public stream's table at the event it drew (never a card the stream does
  not show; every hand face down); the final line equals the result
  `cardref_log head` reads from the match's log, and the page turns into
  the full replay, whose last step shows that result too.
- The page's event stream cut mid-match (a proxy drops the connection):
  the browser resumes with Last-Event-ID and the move list holds every
  event of the stream once, in order.
- Player names and versions with markup and script render as text and run
  nothing; names with control or bidi characters never get in.
- Screenshots of the match list, a live page and a replay at a desktop and
  a phone width go to DIR; every page is checked for console errors (a
  Content-Security-Policy violation is one) and for an empty table.

Chromium that cannot start is a failure, never a skip.
"""
import argparse
import os
import sys
import tempfile
import time
import unittest

import grpc

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import web_util

ARGS = None

# One short match of each real game (CI time is tight): its parameters, the
# seed of its deal and of the driver's choices, and the moves the driver
# takes only when it must (random Craits draws a lot). About 450, 70 and 90
# public events.
GAMES = [
    ("craits", {"num_players": 2}, 12, "draw"),
    ("krass_kariert", {"num_players": 3, "hand_size": 5}, 14, None),
    ("kraken", {}, 11, None),
]

HOSTILE_NAMES = [
    '<img src=x onerror="window.pwned=1">',
    "</script><script>window.pwned=2</script>",
    "\"'&amp;<b>bold</b>",
    "<style>*{display:none}</style>",
]
HOSTILE_VERSION = "<svg onload=window.pwned=3>"


class WebPagesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="cardref_web_pages_")
        cls.referee = web_util.Referee(ARGS.referee, cls.tmp)
        cls.driver = web_util.start_browser()
        os.makedirs(ARGS.artifacts, exist_ok=True)

    @classmethod
    def tearDownClass(cls):
        web_util.quit_browser(cls.driver)
        cls.referee.stop()

    # --- helpers ---------------------------------------------------------

    def open(self, url):
        self.driver.get(url)

    def check_page(self, what):
        """No console error, and a table that is not empty."""
        self.assertEqual(web_util.console_errors(self.driver), [],
                         f"console errors on {what}")
        d = self.driver
        if d.find_elements(By.ID, "seats"):
            self.assertTrue(d.find_elements(By.CSS_SELECTOR, "#seats .seat"),
                            f"an empty table on {what}")
        else:
            self.assertGreater(
                len(d.find_elements(By.CSS_SELECTOR, "table.matches tr")), 1,
                f"an empty match list on {what}")

    def screenshots(self, name):
        d = self.driver
        for label, size in (("desktop", web_util.DESKTOP),
                            ("phone", web_util.PHONE)):
            d.set_window_size(*size)
            overflow = d.execute_script(
                "return document.documentElement.scrollWidth - "
                "document.documentElement.clientWidth;")
            self.assertLessEqual(overflow, 0,
                                 f"{name} is wider than a {label} screen")
            d.save_screenshot(
                os.path.join(ARGS.artifacts, f"web_{name}_{label}.png"))
        d.set_window_size(*web_util.DESKTOP)

    def body_data(self, key):
        return self.driver.execute_script(
            "return document.body.dataset[arguments[0]] || '';", key)

    def live_state(self):
        return self.driver.execute_script(
            "const e = document.getElementById('live');"
            "return e ? e.dataset.state : '';")

    def wait_live(self):
        web_util.wait_until(lambda: self.live_state() == "live", 10,
                            "the page's event stream to open")

    def wait_drawn(self, index):
        web_util.wait_until(
            lambda: int(self.body_data("lastIndex") or 0) >= index, 10,
            f"the page to draw event {index}")

    def wait_replay(self):
        web_util.wait_until(
            lambda: self.driver.find_elements(By.ID, "game-data"), 15,
            "the page to turn into the full replay")

    def follow(self, driver_, probe, pause, during=None):
        """Plays `driver_`'s match out while the page follows it."""
        driver_.join()
        driver_.play_out(pause=pause, every=during)
        self.wait_replay()
        probe.drain()

    def check_replay_result(self, expected, name):
        d = self.driver
        d.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
        final = d.find_element(By.ID, "final").text
        self.assertIn("final result", final)
        self.assertIn(expected, final)
        self.check_page(f"the replay of {name}")

    # --- tests -----------------------------------------------------------

    def test_a_live_match_of_each_game_to_its_end(self):
        for game, params, seed, avoid in GAMES:
            with self.subTest(game=game):
                self.live_match(game, params, seed, avoid)
        # The match list, every match on it.
        self.open(self.referee.url("/"))
        rows = self.driver.find_elements(By.CSS_SELECTOR, "table.matches tr")
        self.assertGreaterEqual(len(rows), 1 + len(GAMES))
        self.check_page("the match list")
        self.screenshots("index")

    def live_match(self, game, params, seed, avoid):
        ref = self.referee
        m = web_util.Driver(ref.stub, game, ["ann", "bo", "cy", "di"],
                            seed=seed, params=params, avoid=avoid)
        self.open(ref.url(f"/matches/{m.match_id}"))
        probe = web_util.Probe(self.driver)
        probe.install()
        self.wait_live()

        shot = {"taken": False}

        def midway(decisions):
            # A few decisions in: the live page's screenshots.
            if decisions == 12 and not shot["taken"]:
                shot["taken"] = True
                events = ref.get_json(f"/api/matches/{m.match_id}")
                self.assertEqual(events["status"], "in_progress")
                web_util.wait_until(
                    lambda: self.driver.find_elements(By.CSS_SELECTOR,
                                                      "#seats .seat"),
                    10, "a table")
                self.check_page(f"the live page of {game}")
                self.screenshots(f"live_{game}")

        self.follow(m, probe, pause=0.002, during=midway)
        self.assertTrue(shot["taken"], "the match was over too soon")
        tables, indices, end = web_util.public_tables(ref.http_port,
                                                      m.match_id)
        self.assertEqual(end["status"], "finished")
        drawn = web_util.check_probe(self, probe.snaps, tables, indices)
        print(f"{game}: {m.decisions} decisions, {len(indices)} public "
              f"events, the page recorded {len(probe.snaps)} states")
        self.assertGreater(len(drawn), 3, "the page drew too few states")
        self.assertEqual(drawn[-1], indices[-1], "the page missed the end")
        over = [s for s in probe.snaps if s["over"]]
        self.assertTrue(over, "the page never showed the match over")
        self.assertEqual(over[-1]["lines"], [i - 1 for i in indices])
        self.assertEqual(over[-1]["repeated"], 0)
        expected = web_util.head_result(ARGS.cardref_log,
                                        ref.log_path(m.match_id))
        self.assertIn(expected, over[-1]["final"],
                      "the live page's final table is not the log's result")
        # Then the full replay (every hand), ending in the same result.
        self.assertIn(m.match_id, self.driver.title)
        self.check_replay_result(expected, game)
        self.screenshots(f"replay_{game}")

    def test_a_dropped_stream_resumes_without_gap_or_repeat(self):
        ref = self.referee
        proxy = web_util.CutProxy(ref.http_port)
        try:
            m = web_util.Driver(ref.stub, "kraken", ["ann", "bo", "cy", "di"],
                                seed=2)
            self.open(f"http://127.0.0.1:{proxy.port}/matches/{m.match_id}")
            probe = web_util.Probe(self.driver)
            probe.install()
            self.wait_live()
            m.join()
            for _ in range(15):
                m.step()
            self.wait_drawn(12)
            self.assertGreaterEqual(proxy.cut_all(), 1, "no stream to cut")
            # Played while the page is cut off (it waits 2 s to reconnect).
            for _ in range(15):
                m.step()
            web_util.wait_until(
                lambda: self.live_state() == "live" and proxy.accepted >= 3,
                10, "the page to reconnect")
            m.play_out(pause=0.002)
            self.wait_replay()
            probe.drain()
        finally:
            proxy.close()
        self.assertIn("reconnecting", [s["state"] for s in probe.snaps],
                      "the stream was never cut")
        tables, indices, _ = web_util.public_tables(ref.http_port, m.match_id)
        web_util.check_probe(self, probe.snaps, tables, indices)
        over = [s for s in probe.snaps if s["over"]]
        self.assertTrue(over, "the page never showed the match over")
        self.assertEqual(over[-1]["lines"], [i - 1 for i in indices],
                         "events missed or repeated across the drop")
        self.assertEqual(over[-1]["repeated"], 0)
        self.check_page("the replay after a dropped stream")

    def test_hostile_names_render_as_text(self):
        ref = self.referee
        # Control and bidi characters never get in.
        for bad in ("bell\x07", "esc\x1b[31mred", "\u202egnp.exe"):
            probe_match = web_util.Driver(ref.stub, "kraken", [bad])
            with self.assertRaises(grpc.RpcError) as refused:
                probe_match.join()
            self.assertEqual(refused.exception.code(),
                             grpc.StatusCode.INVALID_ARGUMENT, repr(bad))
        m = web_util.Driver(ref.stub, "kraken", HOSTILE_NAMES, seed=3,
                            version=HOSTILE_VERSION)
        m.join()
        for _ in range(6):
            m.step()
        d = self.driver

        def check_inert(what):
            self.assertIsNone(d.execute_script("return window.pwned;"),
                              f"a name's script ran on {what}")
            for sel in ("#players *", ".seat-name *", "td.players *",
                        "#title *", "img", "svg", "b", "style:not([nonce])"):
                self.assertEqual(d.find_elements(By.CSS_SELECTOR, sel), [],
                                 f"{sel} on {what}")
            self.check_page(what)

        self.open(ref.url("/"))
        listed = d.find_element(By.CSS_SELECTOR, "table.matches").text
        for name in HOSTILE_NAMES:
            self.assertIn(name, listed)
        check_inert("the match list")
        self.open(ref.url(f"/matches/{m.match_id}"))
        self.wait_live()
        web_util.wait_until(
            lambda: d.find_element(By.ID, "players").text, 10, "the players")
        players = d.find_element(By.ID, "players").text
        for name in HOSTILE_NAMES:
            self.assertIn(name, players)
        self.assertIn(HOSTILE_VERSION, players)
        seat_names = [e.text for e in
                      d.find_elements(By.CSS_SELECTOR, ".seat-name")]
        for seat, name in enumerate(HOSTILE_NAMES):
            self.assertEqual(seat_names[seat], f"{seat} {name}")
        check_inert("the live page")
        self.screenshots("live_hostile_names")
        m.play_out()
        self.wait_replay()
        players = d.find_element(By.ID, "players").text
        for name in HOSTILE_NAMES:
            self.assertIn(name, players)
        check_inert("the replay")


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("referee")
    parser.add_argument("cardref_log")
    parser.add_argument("--artifacts", required=True)
    ARGS = parser.parse_args()
    start = time.monotonic()
    result = unittest.TextTestRunner(verbosity=2).run(
        unittest.defaultTestLoader.loadTestsFromTestCase(WebPagesTest))
    print(f"took {time.monotonic() - start:.1f} s")
    sys.exit(0 if result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()
