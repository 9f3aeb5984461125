"""End to end, in a real browser: headless Chromium driven by Selenium through Debian's
chromium-driver, against `letterchess serve` started on a free local port.

The tests do what a person does: enter a board, solve it with a short budget and step through
the replay, play a legal and an illegal word and read the referee's reason, ask for a hint,
save a game and load it again, and open an exported HTML replay from a file, offline.

They need the Debian packages chromium and chromium-driver (`.ci/run` installs them when
missing). With LETTERCHESS_SCREENSHOTS=DIR they also save the screenshots of the README there.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from .conftest import EXAMPLE_BOARD

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,960",
]
#: Seconds to wait for the page to show something the server computes.
PATIENCE = 60
LIKES = ["f6", "f7", "e7", "f8", "e8"]


def api(url, path, body):
    request = urllib.request.Request(
        url + path.lstrip("/"),
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=300) as response:
        return json.loads(response.read())


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`letterchess serve` on a free port; its address. Stopped after the module's tests."""
    log = tmp_path_factory.mktemp("server") / "stderr.txt"
    with open(log, "w") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "solver", "serve", "--port", "0", "--no-browser"],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
        )
    try:
        line = process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert found, f"the server did not start: {line!r} {log.read_text()}"
        url = found.group(0)
        # The first plays and bound of a fresh checkout compile the kernels (seconds): do it
        # here, so that the page's waits measure the page.
        api(url, "/api/game", {"board": EXAMPLE_BOARD})
        api(url, "/api/bound", {"board": EXAMPLE_BOARD})
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    missing = [path for path in (CHROMIUM, CHROMEDRIVER) if not Path(path).exists()]
    if missing:
        pytest.fail(
            f"the browser tests need Chromium and its driver ({', '.join(missing)} missing): "
            "install chromium chromium-driver (as root: apt-get install -y chromium "
            "chromium-driver; .ci/run does it when they are missing)",
            pytrace=False,
        )
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


@pytest.fixture
def downloads(browser, tmp_path):
    """Where the browser saves downloads during one test."""
    browser.execute_cdp_cmd(
        "Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path)}
    )
    return tmp_path


def wait_for(driver, condition, what):
    """Wait until ``condition(driver)`` is true; fail naming ``what`` if it never is."""
    try:
        return WebDriverWait(driver, PATIENCE, poll_frequency=0.05).until(condition)
    except Exception:
        raise AssertionError(f"the page never showed {what}") from None


def text_of(driver, element_id):
    return driver.find_element(By.ID, element_id).get_attribute("textContent")


def shows(element_id, fragment):
    return lambda driver: fragment in text_of(driver, element_id)


def screenshot(driver, name):
    """With LETTERCHESS_SCREENSHOTS=DIR, save the whole page as DIR/name (for the README)."""
    folder = os.environ.get("LETTERCHESS_SCREENSHOTS")
    if folder:
        time.sleep(0.3)  # let the last drawing settle
        size = driver.get_window_size()
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(
            size["width"],
            height + size["height"] - driver.execute_script("return window.innerHeight"),
        )
        driver.save_screenshot(str(Path(folder) / name))
        driver.set_window_size(size["width"], size["height"])


def board_drawn(driver):
    """True once the play board shows the last click (no redraw pending)."""
    board = driver.find_element(By.ID, "play-board")
    return board.find_elements(By.TAG_NAME, "svg") and board.get_attribute("data-busy") is None


def click_squares(driver, names):
    for name in names:
        # Each click redraws the board from the server: wait for it before the next one.
        wait_for(driver, board_drawn, f"the board before the click on {name}")
        driver.find_element(By.CSS_SELECTOR, f'#play-board [data-square="{name}"]').click()
    wait_for(driver, board_drawn, "the board after the clicks")


def downloaded(driver, folder, name):
    path = folder / name
    wait_for(driver, lambda d: path.exists() and path.stat().st_size > 0, f"the download {name}")
    time.sleep(0.2)  # the file is complete once Chromium renames it into place
    return path


def open_page(driver, url):
    driver.get(url)
    wait_for(
        driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#solve-strategy option"), "the page"
    )


def test_enter_a_board_solve_it_and_step_through_the_replay(browser, server, downloads):
    open_page(browser, server)
    line = browser.find_element(By.ID, "board-line")
    line.send_keys("ABC/DEF", Keys.ENTER)
    wait_for(
        browser, shows("board-error", "a board needs 9 rows, found 2"), "the bad board's error"
    )
    line.clear()
    line.send_keys(EXAMPLE_BOARD)
    browser.find_element(By.ID, "board-use").click()
    wait_for(browser, shows("board-status", "48 tiles"), "the pasted board")
    assert text_of(browser, "board-error") == ""
    assert f"board={EXAMPLE_BOARD}" in browser.current_url  # shared by its address
    # Typing into the grid: a1 becomes an A, and the address follows.
    cell = browser.find_element(By.CSS_SELECTOR, '#editor-grid [data-square="a1"]')
    cell.click()
    cell.send_keys("a")
    assert cell.get_attribute("value") == "A" and "vowel" in cell.get_attribute("class")
    wait_for(
        browser, lambda d: d.current_url.endswith("/AEERIHN"), "the typed letter in the address"
    )
    cell.click()
    cell.send_keys("e")
    wait_for(browser, lambda d: d.current_url.endswith(EXAMPLE_BOARD), "the board restored")
    screenshot(browser, "editor.png")

    # An absurd budget is refused with a message in the page.
    time_limit = browser.find_element(By.ID, "solve-time")
    time_limit.clear()
    time_limit.send_keys("100000")
    browser.find_element(By.ID, "solve-start").click()
    wait_for(browser, shows("solve-error", "at most 300 seconds"), "the refused time limit")

    time_limit.clear()
    browser.find_element(By.ID, "solve-states").send_keys("60")
    Select(browser.find_element(By.ID, "solve-strategy")).select_by_value("beam")
    browser.find_element(By.ID, "solve-start").click()
    wait_for(browser, shows("replay-message", "Solved: score"), "the end of the solve")
    assert browser.find_element(By.ID, "view-replay").is_displayed()
    score = int(re.search(r"score (\d+)", text_of(browser, "replay-message")).group(1))
    assert re.search(r"bound \d+ · gap 0\.\d{3}", text_of(browser, "replay-message"))

    step = browser.find_element(By.CLASS_NAME, "replay-step")
    board = browser.find_element(By.CLASS_NAME, "replay-board")
    assert step.text == "Start"
    opening = board.get_attribute("innerHTML")
    browser.find_element(By.CLASS_NAME, "replay-next").click()
    turns = int(re.fullmatch(r"Turn 1 of (\d+)", step.text).group(1))
    assert board.get_attribute("innerHTML") != opening
    first_row = browser.find_element(By.CSS_SELECTOR, ".replay-turns tr.current")
    word = browser.find_element(By.CSS_SELECTOR, ".replay-word .word").text
    assert word in first_row.text
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    assert step.text == f"Turn 2 of {turns}"
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    assert step.text == f"Turn 1 of {turns}"
    screenshot(browser, "replay.png")
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    assert step.text == "End"
    assert browser.find_element(By.CLASS_NAME, "replay-slider").get_attribute("value") == str(
        turns + 1
    )
    result = browser.find_element(By.CLASS_NAME, "replay-result").text
    assert re.search(rf"score\s+{score}", result)
    search = browser.find_element(By.CLASS_NAME, "replay-search").text
    assert "beam" in search and "60 states" in search and "gap" in search

    browser.find_element(By.ID, "replay-check").click()
    wait_for(browser, shows("replay-message", "Legal game:"), "the referee's verdict")
    assert f"score {score}" in text_of(browser, "replay-message")
    browser.find_element(By.ID, "replay-download").click()
    record = json.loads(downloaded(browser, downloads, "letterchess-game.json").read_text())
    assert record["format"] == "letterchess/record-1" and record["result"]["score"] == score

    # The exported HTML replay, opened from its file.
    browser.find_element(By.ID, "replay-html").click()
    exported = downloaded(browser, downloads, "letterchess-replay.html")
    browser.get(exported.as_uri())
    wait_for(
        browser, lambda d: d.find_elements(By.CLASS_NAME, "replay-step"), "the exported replay"
    )
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    assert browser.find_element(By.CLASS_NAME, "replay-step").text == "End"


def test_a_long_solve_shows_its_progress_and_stops_on_demand(browser, server):
    open_page(browser, f"{server}?board={EXAMPLE_BOARD}")
    wait_for(browser, shows("board-status", "48 tiles"), "the board from the address")
    time_limit = browser.find_element(By.ID, "solve-time")
    time_limit.clear()
    time_limit.send_keys("120")
    browser.find_element(By.ID, "solve-start").click()
    progress = r"Searching… best \d+ · [\d,]+ states · \d+\.\d s"
    wait_for(browser, lambda d: re.match(progress, text_of(d, "solve-progress")), "live progress")
    assert not browser.find_element(By.ID, "solve-start").is_enabled()
    browser.find_element(By.ID, "solve-stop").click()
    wait_for(browser, shows("replay-message", "Solved: score"), "the stopped solve's game")
    assert "stopped: interrupted" in browser.find_element(By.CLASS_NAME, "replay-search").text


def test_play_legal_and_illegal_words_hints_save_and_load(browser, server, downloads):
    open_page(browser, f"{server}?board={EXAMPLE_BOARD}")
    wait_for(browser, shows("board-status", "48 tiles"), "the board from the address")
    browser.find_element(By.ID, "play-start").click()
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#play-board svg"), "the board")
    wait_for(browser, shows("play-bound", "Best possible from here"), "the bound")

    click_squares(browser, LIKES)
    assert text_of(browser, "play-word") == "LIKES"
    browser.find_element(By.ID, "play-submit").click()
    wait_for(browser, shows("play-message", "LIKES +35"), "the legal word")
    assert text_of(browser, "play-points") == "35" and text_of(browser, "play-left") == "43"
    assert "turns=-f6f7e7f8e8" in browser.current_url

    click_squares(browser, ["a9", "b9", "c9"])
    browser.find_element(By.ID, "play-submit").click()
    wait_for(browser, shows("play-message", "Not legal"), "the referee's verdict")
    assert text_of(browser, "play-message") == "Not legal: LIV is not in the dictionary (scowl-70)"
    browser.find_element(By.ID, "play-clear").click()

    # A vowel moved like a king: click it, then the empty square; then spell with it.
    click_squares(browser, ["b6", "b5"])
    wait_for(browser, shows("play-moves", "b6-b5"), "the move")
    click_squares(browser, ["b5", "b4"])
    browser.find_element(By.ID, "play-submit").click()
    wait_for(browser, shows("play-message", "Not legal"), "the illegal move's verdict")
    assert text_of(browser, "play-message") == (
        "Not legal: move 1 (b6-b5): E is a vowel and moves like a knight, "
        "b5 is not a knight's move from b6"
    )
    browser.find_element(By.ID, "play-clear").click()

    browser.find_element(By.ID, "play-hint").click()
    wait_for(
        browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#play-hints li")) == 10, "hints"
    )
    best = api(server, "/api/plays", {"board": EXAMPLE_BOARD, "turns": [{"path": LIKES}], "top": 1})
    hint = browser.find_element(By.CSS_SELECTOR, "#play-hints li")
    assert hint.text.startswith(f"{best['plays'][0]['word']} {best['plays'][0]['score']}")
    hint.click()
    wait_for(browser, shows("play-word", best["plays"][0]["word"]), "the hint on the board")
    screenshot(browser, "play.png")
    browser.find_element(By.ID, "play-submit").click()
    points = 35 + best["plays"][0]["score"]
    wait_for(browser, lambda d: text_of(d, "play-points") == str(points), "the hint played")

    browser.find_element(By.ID, "play-save").click()
    saved = downloaded(browser, downloads, "letterchess-game.json")
    record = json.loads(saved.read_text())
    assert [turn["word"] for turn in record["turns"]] == ["LIKES", best["plays"][0]["word"]]
    assert record["format"] == "letterchess/record-1" and "result" not in record  # in progress
    browser.find_element(By.ID, "play-restart").click()
    wait_for(browser, lambda d: text_of(d, "play-points") == "0", "the restart")
    browser.find_element(By.ID, "play-load").send_keys(str(saved))
    wait_for(browser, lambda d: text_of(d, "play-points") == str(points), "the loaded game")


def test_a_shared_game_opens_where_it_was(browser, server):
    open_page(browser, f"{server}?board={EXAMPLE_BOARD}&view=play&turns=-f6f7e7f8e8")
    wait_for(browser, lambda d: text_of(d, "play-points") == "35", "the shared game")
    assert "LIKES" in text_of(browser, "play-turns")


def test_the_html_replay_of_show_works_offline_from_a_file(browser, tmp_path):
    out = tmp_path / "example.html"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "solver",
            "show",
            "tests/data/example-game.json",
            "--html",
            str(out),
        ],
        cwd=REPO,
        check=True,
        capture_output=True,
    )
    browser.get_log("browser")  # forget the earlier tests' messages
    browser.get(out.as_uri())
    wait_for(browser, lambda d: d.find_elements(By.CLASS_NAME, "replay-step"), "the replay")
    # Nothing was fetched: the page is one file.
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0
    step = browser.find_element(By.CLASS_NAME, "replay-step")
    next_button = browser.find_element(By.CLASS_NAME, "replay-next")
    for number in range(1, 8):
        next_button.click()
        assert step.text == f"Turn {number} of 7"
    assert browser.find_element(By.CSS_SELECTOR, ".replay-word .word").text == "LAND"
    assert browser.find_element(By.CSS_SELECTOR, ".replay-word .total").text == "score 434"
    next_button.click()
    assert step.text == "End" and not next_button.is_enabled()
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.HOME)
    assert step.text == "Start"
    browser.find_element(By.CSS_SELECTOR, '.replay-turns tr[data-step="3"]').click()
    assert step.text == "Turn 3 of 7"
    assert "UTERINE" in browser.find_element(By.CLASS_NAME, "replay-turn").text
    assert "E F J V" in browser.find_element(By.CLASS_NAME, "replay-result").text
    severe = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert severe == []
