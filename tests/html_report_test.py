#!/usr/bin/python3
"""The analyzer's HTML report in headless Chromium.

  html_report_test.py CARDREF_ANALYZE OUT_DIR LOG_DIR...

Writes OUT_DIR/report.html with `cardref_analyze stats --html`, opens it in
headless Chromium (chromium-driver, python3-selenium; --no-sandbox as root)
with every host name unresolvable, so anything fetched from the network
would fail, and checks: no console error, every game has its panel with
the ratings chart (one interval bar per player), score histograms and the
head-to-head heat map, all drawn at a visible size. Keeps a screenshot,
OUT_DIR/html_report.png, as the test's artifact. Run with /usr/bin/python3
(Debian's selenium).
"""

import os
import re
import subprocess
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def main():
    if len(sys.argv) < 4:
        fail("usage: html_report_test.py CARDREF_ANALYZE OUT_DIR LOG_DIR...")
    analyze, out_dir, logs = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(out_dir, exist_ok=True)
    report = os.path.join(out_dir, "report.html")
    if os.path.exists(report):
        os.remove(report)
    run = subprocess.run([analyze, "stats", "--quiet", "--bootstrap=50",
                          "--html=" + report] + logs,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # Exit 1 is expected: the tampered logs are skipped by the statistics.
    if run.returncode not in (0, 1) or not os.path.exists(report):
        fail("cardref_analyze failed: " + run.stderr.decode())
    html = open(report, encoding="utf-8").read()
    # Self-contained: no script, no external resource (the SVG namespace
    # URI is a name, never fetched).
    if re.search(r"<script|<link|<img|\bsrc=|\bhref=|@import|url\(", html):
        fail("the page refers to something outside itself")
    games = re.findall(r'<section class="game" id="game-([a-z_]+)"', html)
    if sorted(games) != ["craits", "kraken", "krass_kariert"]:
        fail("panels for every game expected, got %s" % games)

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ["--headless=new", "--disable-gpu", "--window-size=1400,2000",
                "--host-resolver-rules=MAP * ~NOTFOUND"]:
        options.add_argument(arg)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"),
                              options=options)
    try:
        driver.get("file://" + os.path.abspath(report))
        errors = [e for e in driver.get_log("browser")
                  if e.get("level") in ("SEVERE", "ERROR")]
        if errors:
            fail("console errors: %s" % errors)
        if driver.title != "cardref analysis":
            fail("title is %r" % driver.title)
        for game in games:
            panel = driver.find_element(By.ID, "game-" + game)
            for chart in ["svg.ratings", "svg.heatmap", "svg.histogram"]:
                found = panel.find_elements(By.CSS_SELECTOR, chart)
                if not found:
                    fail("%s: no %s" % (game, chart))
                size = found[0].size
                if size["width"] < 50 or size["height"] < 30:
                    fail("%s: %s drawn at %s" % (game, chart, size))
            bars = panel.find_elements(By.CSS_SELECTOR, "svg.ratings line.interval")
            rows = panel.find_elements(By.CSS_SELECTOR, "table")[0]
            players = len(rows.find_elements(By.TAG_NAME, "tr")) - 1
            if len(bars) != players or players < 2:
                fail("%s: %d interval bars for %d players" %
                     (game, len(bars), players))
        audit = driver.find_element(By.ID, "audit").text
        if "MISMATCH" not in audit or "CORRUPT" not in audit:
            fail("the audit section does not list the tampered logs")
        shot = os.path.join(out_dir, "html_report.png")
        driver.save_screenshot(shot)
        print("OK: %d game panels, screenshot %s" % (len(games), shot))
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
