#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""flamegraph.py SVG RESULTS - the flame graph of `latency-tracker
flamegraph` in a real browser (headless Chromium through chromedriver and
Selenium): the SVG of tests/tools/data/flame-log.json (offcpu mode) opened
from disk; its title; a frame found by name; hovering shows its name, time
and share; a click zooms (the frame takes the whole width, frames of other
processes are hidden, Reset Zoom appears and brings the widths back); the
Search button's prompt highlights the matching frames and says the share
they cover; Escape clears it.  Screenshots (zoomed and searched) go to
RESULTS.  Prints TAP lines (plan first)."""
import os
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

PLAN = 13
n = 0
failed = 0


def ok(cond, desc, diag=None):
    global n, failed
    n += 1
    print(("ok" if cond else "not ok") + f" {n} - {desc}", flush=True)
    if not cond:
        failed += 1
        if diag is not None:
            print(f"#   {diag}", flush=True)
    return cond


def frame(driver, name):
    for g in driver.find_elements(By.CSS_SELECTOR, "g.fr"):
        if g.get_attribute("data-n") == name:
            return g
    return None


def width(g):
    return float(g.find_element(By.TAG_NAME, "rect").get_attribute("width"))


def main():
    svg, results = os.path.abspath(sys.argv[1]), sys.argv[2]
    print(f"1..{PLAN}", flush=True)
    opts = Options()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu",
              "--disable-dev-shm-usage", "--window-size=1240,420"):
        opts.add_argument(a)
    opts.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
    try:
        run(driver, svg, results)
    finally:
        driver.quit()
    print(f"# ran {n} of {PLAN} planned", flush=True)
    return 0 if n == PLAN and not failed else 1


def run(driver, svg, results):
    driver.get("file://" + svg)
    WebDriverWait(driver, 10).until(
        lambda d: d.execute_script("return typeof frames !== 'undefined' && frames.length > 0"))
    ok("Off-CPU time" in driver.title and "offcpu" in driver.title,
       "the document's title names the mode and the tracker", driver.title)
    heading = driver.find_element(By.ID, "title").text
    ok(heading == driver.title, "the heading is the title", heading)

    leaf = frame(driver, "do_nanosleep+0x7b/0x140")
    sleep = frame(driver, "sleep")
    other = frame(driver, 'db<&"x')
    ok(leaf is not None and sleep is not None and other is not None,
       "frames found by name (a name with markup characters too)")
    if leaf is None or sleep is None or other is None:
        return
    full = float(driver.find_element(By.CSS_SELECTOR, "svg").get_attribute("width")) - 20
    before = width(sleep)

    ActionChains(driver).move_to_element(leaf.find_element(By.TAG_NAME, "rect")).perform()
    details = driver.find_element(By.ID, "details").text
    ok(details == "do_nanosleep+0x7b/0x140 (1.000s, 76.92%)",
       "hover: the frame's name, time and share below the graph", details)

    sleep.find_element(By.TAG_NAME, "rect").click()
    time.sleep(0.2)
    ok(abs(width(sleep) - full) < 0.5 and before < full - 100,
       f"click on 'sleep': its width {before:.1f} -> the whole {full:.0f} px",
       f"width now {width(sleep)}")
    ok(abs(width(leaf) - full) < 0.5, "zoom: its only child stack takes the whole width too")
    ok(not other.is_displayed() and frame(driver, "all").is_displayed(),
       "zoom: another process's frame hidden, the root kept (faded)")
    reset = driver.find_element(By.ID, "reset")
    ok(reset.is_displayed(), "zoom: Reset Zoom shown")
    driver.save_screenshot(os.path.join(results, "zoomed.png"))
    reset.click()
    time.sleep(0.2)
    ok(abs(width(sleep) - before) < 0.5 and other.is_displayed(),
       "Reset Zoom: the widths back, every frame shown")

    driver.find_element(By.ID, "search").click()
    WebDriverWait(driver, 5).until(lambda d: d.switch_to.alert)
    prompt = driver.switch_to.alert
    prompt.send_keys("nanosleep")
    prompt.accept()
    time.sleep(0.2)
    matched = driver.find_element(By.ID, "matched").text
    hits = [g.get_attribute("data-n") for g in driver.find_elements(By.CSS_SELECTOR, "g.fr.match")]
    ok(sorted(hits) == ["__x64_sys_clock_nanosleep+0xdb/0x140",
                        "do_nanosleep+0x7b/0x140", "hrtimer_nanosleep+0x9e/0x170"],
       "search 'nanosleep': the three matching frames highlighted", hits)
    fill = driver.execute_script(
        "return getComputedStyle(arguments[0].querySelector('rect')).fill", leaf)
    ok(fill == "rgb(230, 0, 230)", "search: highlighted in magenta", fill)
    ok(matched == "Matched: 76.92% (1.000s, 3 frames)",
       "search: the share matched, nested matches counted once", matched)
    path = os.path.join(results, "search.png")
    driver.save_screenshot(path)
    with open(path, "rb") as f:
        png = f.read(8)
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    time.sleep(0.2)
    ok(png == b"\x89PNG\r\n\x1a\n" and
       not driver.find_elements(By.CSS_SELECTOR, "g.fr.match"),
       f"screenshots saved ({results}); Escape clears the search")


if __name__ == "__main__":
    sys.exit(main())
