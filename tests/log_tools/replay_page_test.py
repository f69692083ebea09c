#!/usr/bin/python3
"""The replay page of `cardref_log html` in headless Chromium.

  replay_page_test.py CARDREF_LOG LOG_OR_DIR... --artifacts DIR

A directory stands for every *.cardlog in it (one log of every registered
game: cardref_make_golden_logs --every_game).

For each log: writes the page, opens it (file://, no server, the page loads
nothing else), and checks that it loads without console errors, that
stepping forward with the arrow key and the button changes the table, that
stepping back restores it exactly, that the slider's last step shows the
final scores as `cardref_log head` reports them, and that player names are
shown as text (a hostile name creates no element). Saves one screenshot per
log in DIR. Chromium that cannot start is a failure (as root it runs with
--no-sandbox), never a skip.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import unittest

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

ARGS = None


def start_browser():
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    options.add_argument("--headless=new")
    options.add_argument("--disable-gpu")
    options.add_argument("--disable-dev-shm-usage")
    options.add_argument("--window-size=1400,1000")
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")  # Chromium refuses root otherwise
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"),
                            options=options)


def head_result(log):
    out = subprocess.run([ARGS.cardref_log, "head", log], check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("result: "):
            return line[len("result: "):]
    raise AssertionError("no result line in cardref_log head " + log)


class ReplayPageTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="cardref_replay_page_")
        cls.driver = start_browser()  # raises (the test fails) if it cannot

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()

    def table(self):
        return self.driver.find_element(By.ID, "table").get_attribute(
            "innerHTML")

    def check_log(self, log):
        name = os.path.splitext(os.path.basename(log))[0]
        page = os.path.join(self.tmp, name + ".html")
        subprocess.run([ARGS.cardref_log, "html", log, "-o", page],
                       check=True, capture_output=True)
        d = self.driver
        d.get("file://" + page)
        d.get_log("browser")  # drop what came before this page
        d.refresh()
        start = self.table()
        self.assertIn("card", start)
        body = d.find_element(By.TAG_NAME, "body")

        body.send_keys(Keys.ARROW_RIGHT)
        after_one = self.table()
        self.assertNotEqual(after_one, start, "ArrowRight changed nothing")
        d.find_element(By.ID, "forward").click()
        after_two = self.table()
        self.assertNotEqual(after_two, after_one, "the forward button did nothing")
        d.find_element(By.ID, "back").click()
        self.assertEqual(self.table(), after_one, "back did not restore step 1")
        body.send_keys(Keys.ARROW_LEFT)
        self.assertEqual(self.table(), start, "ArrowLeft did not restore step 0")

        # The slider over the whole game: its last step shows the result.
        slider = d.find_element(By.ID, "slider")
        last = int(slider.get_attribute("max"))
        self.assertGreater(last, 5)
        d.execute_script(
            "const s = arguments[0]; s.value = s.max;"
            "s.dispatchEvent(new Event('input'));", slider)
        final = d.find_element(By.ID, "final").text
        self.assertIn(head_result(log), final)
        self.assertIn("final result", final)
        os.makedirs(ARGS.artifacts, exist_ok=True)
        d.save_screenshot(
            os.path.join(ARGS.artifacts, "replay_" + name + "_final.png"))
        rows = d.find_elements(By.CSS_SELECTOR, "#scores tr")
        self.assertGreater(len(rows), 1, "no round scores at the last step")
        self.assertTrue(
            d.find_element(By.ID, "moves").find_elements(By.CSS_SELECTOR,
                                                         "div.current"))
        # Every move names its seat's number as well as its name: one bot in
        # two seats plays under one name.
        data = json.loads(d.find_element(By.ID, "game-data")
                          .get_attribute("textContent"))
        # Read in one call: a WebDriver round trip per move made this test
        # a minute long.
        lines = d.execute_script(
            "return Array.from(document.querySelectorAll('#moves div'),"
            " e => e.textContent);")
        self.assertEqual(len(lines), len(data["steps"]))
        seated = 0
        for line, step in zip(lines, data["steps"]):
            seat = f"[{step['seat']}] " if step["seat"] >= 0 else ""
            seated += bool(seat)
            self.assertEqual(line, f"#{step['record']} {seat}{step['text']}")
        self.assertGreater(seated, 5)  # the smallest game has 7 moves

        # Names are text: no element of the page comes from a player's name.
        names = d.find_element(By.ID, "players").text
        self.assertEqual(d.find_elements(By.CSS_SELECTOR, "#players *"), [])
        self.assertEqual(d.find_elements(By.CSS_SELECTOR, ".seat-name *"), [])
        os.makedirs(ARGS.artifacts, exist_ok=True)
        body.send_keys(Keys.HOME)
        body.send_keys(Keys.ARROW_RIGHT * min(40, last))
        d.save_screenshot(os.path.join(ARGS.artifacts, "replay_" + name + ".png"))

        errors = [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
        self.assertEqual(errors, [], "console errors")
        return names

    def test_seat_view_draws_other_hands_face_down(self):
        log = next(l for l in ARGS.logs if "kraken_2rounds" in l)
        page = os.path.join(self.tmp, "seat1.html")
        subprocess.run([ARGS.cardref_log, "html", "--seat=1", log, "-o", page],
                       check=True, capture_output=True)
        d = self.driver
        d.get("file://" + page)
        seats = d.find_elements(By.CSS_SELECTOR, ".seat")
        self.assertEqual(len(seats), 4)
        for i, seat in enumerate(seats):
            faces = seat.find_elements(By.CSS_SELECTOR, ".card:not(.back)")
            backs = seat.find_elements(By.CSS_SELECTOR, ".card.back")
            if i == 1:
                self.assertEqual((len(faces), len(backs)), (8, 0))
            else:
                self.assertEqual((len(faces), len(backs)), (0, 8))
        self.assertIn("as seen by ivan", d.find_element(By.ID, "title").text)

    def test_every_log(self):
        for log in ARGS.logs:
            with self.subTest(log=log):
                names = self.check_log(log)
                if "kraken_2rounds" in log:  # a golden log, a hostile name
                    self.assertIn("</script><b>mallory</b>", names)


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("cardref_log")
    parser.add_argument("logs", nargs="+")
    parser.add_argument("--artifacts", required=True)
    ARGS = parser.parse_args()
    logs = []
    for entry in ARGS.logs:
        if os.path.isdir(entry):
            found = sorted(os.path.join(entry, f) for f in os.listdir(entry)
                           if f.endswith(".cardlog"))
            if not found:
                parser.error("no .cardlog in " + entry)
            logs.extend(found)
        else:
            logs.append(entry)
    ARGS.logs = logs
    result = unittest.TextTestRunner(verbosity=2).run(
        unittest.defaultTestLoader.loadTestsFromTestCase(ReplayPageTest))
    sys.exit(0 if result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()
