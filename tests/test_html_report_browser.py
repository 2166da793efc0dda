"""The HTML report in a real browser: Debian's headless Chromium, driven by Selenium through
Debian's chromedriver, opens the reports of the textbook `fancy_func` and of the Newton
benchmark kernel (loops, three rounds of passes) from file:// URLs and checks what a reader sees:

- the page loads with no console errors and fetches nothing (no network, not even a file);
- every pass run in the explanation's `steps` has its section `step-N`, visible, and the
  pipeline's links lead to it;
- the diffs are single-spaced (one rendered line a diff line);
- the DAG picture is drawn: a non-empty `<svg class="dag">`, a box for every node, every label
  inside its box, and the page never scrolls sideways, however wide the picture.

Each pass's DAG before and after it stand side by side, the shared value CSE made marked.

The playground (`symcompile serve`) on a free port: code typed into its editor shows `return
10` for the textbook program, each pass with its diff and its DAG before and after, with no
console error; example arguments show the time per call before and after.

The report of a 300-statement function: its DAG's overview has a box per statement group and
no sideways scroll; the overview and a group's picture are captured whole (full height, not
the window's), their width bounded.

Screenshots go to the test's tmp dir, or with SYMCOMPILE_SCREENSHOT_DIR set to that directory
under stable names (report.png, dag-overview.png, dag-group.png, playground.png,
cse-step.png), for a person to look at.

Skipped, with the reason, only where Selenium is not importable or the `chromium` or
`chromedriver` program is not installed (`.ci/run` installs them with apt-get).
"""

from __future__ import annotations

import base64
import os
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from benchmarks import bench_loops
from symcompile.examples import fancy
from symcompile.tools import dag, serve
from symcompile.tools.explain import Explanation, explain

# subprocesses, servers or a browser: the full suite's tier (`pytest -m "not slow"` skips them)
pytestmark = pytest.mark.slow


try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.wait import WebDriverWait
except ImportError as error:
    pytest.skip(f"no headless browser test: Selenium is not importable ({error}); "
                "`pip install -e '.[test]'` installs it", allow_module_level=True)

CHROMIUM = shutil.which("chromium")
CHROMEDRIVER = shutil.which("chromedriver")
if CHROMIUM is None or CHROMEDRIVER is None:
    _missing = " and ".join(name for name, path in (("chromium", CHROMIUM),
                                                    ("chromedriver", CHROMEDRIVER)) if path is None)
    pytest.skip(f"no headless browser test: {_missing} not found on PATH; Debian's packages "
                "chromium and chromium-driver provide them (`apt-get install chromium "
                "chromium-driver`, as .ci/run does)", allow_module_level=True)

WIDTH, HEIGHT = 1280, 900

# Headless, as root (no sandbox), no GPU; and none of Chromium's own connections to Google,
# which this machine's closed network refuses.
BROWSER_FLAGS = (
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--no-first-run", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--disable-quic", f"--window-size={WIDTH},{HEIGHT}",
)

REPORTS: dict[str, Callable[[], Explanation]] = {
    "fancy_func": lambda: explain(fancy.fancy_func, 1, 2, 3, 4),
    "newton_cbrt": lambda: explain(bench_loops.newton_cbrt, [1.0, 8.0, 27.5]),
}


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in BROWSER_FLAGS:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # Both paths given: Selenium uses them and never runs Selenium Manager (which downloads).
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    yield driver
    driver.quit()


@pytest.fixture(scope="module", params=list(REPORTS))
def report(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> tuple[Explanation, Path]:
    """An explanation and its HTML report, written once for the module."""
    explanation = REPORTS[request.param]()
    path = tmp_path_factory.mktemp("report") / f"{request.param}.html"
    explanation.to_html(path)
    return explanation, path


@pytest.fixture
def page(browser: webdriver.Chrome, report: tuple[Explanation, Path],
         ) -> tuple[webdriver.Chrome, Explanation]:
    """The browser with the report freshly loaded, its console log holding only this load."""
    explanation, path = report
    browser.get_log("browser")  # reading the log empties it
    browser.get(path.as_uri())
    # `get` waits for the load event, but on a loaded machine it can hand back a page still
    # parsing a long report: wait (bounded) until the document says it is complete
    WebDriverWait(browser, 60).until(
        lambda _: browser.execute_script("return document.readyState") == "complete")
    return browser, explanation


def test_page_loads_with_no_console_errors_and_fetches_nothing(
        page: tuple[webdriver.Chrome, Explanation]) -> None:
    driver, explanation = page
    assert driver.execute_script("return document.readyState") == "complete"
    assert driver.title == f"symcompile: {explanation.name}"
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == []
    fetched = driver.execute_script(
        "return performance.getEntriesByType('resource').map(entry => entry.name)")
    assert [url for url in fetched if not url.startswith("data:")] == []


def test_every_pass_has_a_visible_section_the_pipeline_links_to(
        page: tuple[webdriver.Chrome, Explanation]) -> None:
    driver, explanation = page
    assert explanation.steps
    links = driver.find_elements(By.CSS_SELECTOR, "nav ol.pipeline a")
    assert [link.get_attribute("href").rpartition("#")[2] for link in links] == \
        [f"step-{index}" for index in range(len(explanation.steps))]
    for index, (step, link) in enumerate(zip(explanation.steps, links)):
        section = driver.find_element(By.ID, f"step-{index}")
        assert section.is_displayed()
        assert section.find_element(By.TAG_NAME, "h3").text == f"{step.name} (round {step.round})"
        link.click()
        assert driver.execute_script("return location.hash") == f"#step-{index}"
        top = driver.execute_script(
            "return document.getElementById(arguments[0]).getBoundingClientRect().top",
            f"step-{index}")
        assert -1 <= top < HEIGHT / 2, f"step-{index} is not at the top of the window"


def test_diff_lines_are_single_spaced(page: tuple[webdriver.Chrome, Explanation]) -> None:
    driver, explanation = page
    # A diff's rendered lines: the height of its <pre> inside the padding, in lines (the height
    # of a coloured line, a block of its own).
    rendered = driver.execute_script("""
        return Array.from(document.querySelectorAll('section.pass pre'), pre => {
            const style = getComputedStyle(pre);
            const inner = pre.clientHeight - parseFloat(style.paddingTop)
                - parseFloat(style.paddingBottom);
            return inner / pre.querySelector('.hunk').getBoundingClientRect().height;
        });""")
    assert [round(lines, 1) for lines in rendered] == \
        [float(len(step.diff.splitlines())) for step in explanation.steps]


def test_dag_picture_is_drawn_with_a_box_per_node_and_labels_inside(
        page: tuple[webdriver.Chrome, Explanation]) -> None:
    driver, explanation = page
    assert explanation.final_ir is not None
    # the final DAG: one picture, or for a big function the overview of its statement groups
    # (shown) and each group's picture (folded)
    pictures = dag.pictures(explanation.final_ir)
    svg = driver.find_element(By.CSS_SELECTOR, ".final-dag svg.dag")
    assert svg.is_displayed()
    assert svg.size["width"] > 0 and svg.size["height"] > 0
    assert len(svg.find_elements(By.TAG_NAME, "rect")) >= len(pictures[0][1].labels)
    # Each label follows its box (dag.to_svg); the labels sticking out of their boxes, in
    # every picture (the final DAG's and each pass's before and after, scaled to fit).
    assert len(driver.find_elements(By.CSS_SELECTOR, "svg.dag")) == \
        len(pictures) + 2 * len(explanation.steps)
    outside = driver.execute_script("""
        return Array.from(document.querySelectorAll('svg.dag text'), text => {
            const box = text.previousElementSibling.getBBox(), label = text.getBBox();
            const inside = label.x >= box.x && label.x + label.width <= box.x + box.width
                && label.y >= box.y && label.y + label.height <= box.y + box.height;
            return inside ? null : text.textContent;
        }).filter(label => label !== null);""")
    assert outside == []


def test_page_does_not_scroll_sideways(page: tuple[webdriver.Chrome, Explanation]) -> None:
    driver, _ = page
    scroll_width, client_width = driver.execute_script(
        "const root = document.documentElement; return [root.scrollWidth, root.clientWidth]")
    assert scroll_width <= client_width


# ---- the playground (`symcompile serve`, tools/serve.py) in the browser

TYPED = """def add(a, b):
    return a + b

def fancy_func(a, b, c, d):
    e = add(a, b)
    f = add(c, d)
    return add(e, f)

def lesson():
    return fancy_func(1, 2, 3, 4)
"""


@pytest.fixture(scope="module")
def playground() -> Iterator[str]:
    server = serve.make_server(port=0, limits=serve.Limits(seconds=30, megabytes=1024))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()
    thread.join()


def is_png(path: Path) -> bool:
    return path.stat().st_size > 1000 and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def shot_path(tmp_path: Path, name: str) -> Path:
    """Where a screenshot goes: SYMCOMPILE_SCREENSHOT_DIR/name if that is set, else tmp_path."""
    directory = os.environ.get("SYMCOMPILE_SCREENSHOT_DIR")
    if not directory:
        return tmp_path / name
    Path(directory).mkdir(parents=True, exist_ok=True)
    return Path(directory) / name


def capture_whole(driver: webdriver.Chrome, element: Any, path: Path) -> tuple[int, int]:
    """A screenshot of the whole element, however far it reaches below the window (Chromium's
    DevTools protocol); the element's width and height in CSS pixels."""
    x, y, width, height = driver.execute_script(
        "arguments[0].scrollIntoView(); const box = arguments[0].getBoundingClientRect();"
        "return [box.left + scrollX, box.top + scrollY, Math.ceil(box.width),"
        " Math.ceil(box.height)]", element)
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": x, "y": y, "width": width, "height": height, "scale": 1}})
    path.write_bytes(base64.b64decode(shot["data"]))
    return width, height


def test_playground_shows_return_10_for_typed_code(browser: webdriver.Chrome, playground: str,
                                                  tmp_path: Path) -> None:
    browser.get_log("browser")
    browser.get(playground)
    assert "separate Python process" in browser.find_element(By.ID, "note").text
    source = browser.find_element(By.ID, "source")
    source.send_keys(Keys.CONTROL, "a")
    source.send_keys(Keys.DELETE)
    source.send_keys(TYPED)
    optimized = browser.find_element(By.ID, "optimized")
    WebDriverWait(browser, 60).until(lambda _: "def lesson" in optimized.text)
    assert optimized.text.rstrip().endswith("return 10")
    assert browser.find_element(By.ID, "error").text == ""
    passes = browser.find_elements(By.CSS_SELECTOR, "#passes section.pass h3")
    assert any(h3.text.startswith("fold_constants") for h3 in passes)
    assert browser.find_element(By.CSS_SELECTOR, "#dag svg.dag").is_displayed()
    assert "return 10" in browser.execute_script(
        "return document.getElementById('optimized').innerText")
    sections = browser.find_elements(By.CSS_SELECTOR, "#passes section.pass")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#passes details.dag-step")) == \
        len(sections) == len(passes)
    fold = [section for section in sections
            if section.find_element(By.TAG_NAME, "h3").text.startswith("fold_constants")][-1]
    added = fold.find_elements(By.CSS_SELECTOR, "figure.after g.node.added text")
    assert [node.text for node in added] == ["return 10"]
    screenshot = shot_path(tmp_path, "playground.png")
    assert browser.save_screenshot(str(screenshot))
    assert is_png(screenshot) and png_size(screenshot) == (WIDTH, browser.execute_script(
        "return innerHeight"))
    assert [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"] == []


def test_playground_times_the_typed_arguments(browser: webdriver.Chrome, playground: str) -> None:
    browser.get(playground)
    WebDriverWait(browser, 60).until(
        lambda driver: driver.find_element(By.ID, "optimized").text.strip() != "")
    browser.find_element(By.ID, "function").send_keys("fancy_func")
    browser.find_element(By.ID, "args").send_keys("1, 2, 3, 4")
    timing = browser.find_element(By.ID, "timing")
    WebDriverWait(browser, 60).until(lambda _: timing.text.startswith("per call: before"))
    assert "after" in timing.text and timing.text.endswith("x)")


# ---- screenshots of the report and its DAG for a 300-statement function

def chain_source(length: int) -> str:
    """A function of `length` statements, each using the one before (as tests/test_dag.py)."""
    body = [f"    a{i} = a{i - 1} * {i % 7 + 1}.0 + y" for i in range(1, length)]
    return "\n".join(["def chain(x, y):", "    a0 = x + y", *body, f"    return a{length - 1}", ""])


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_report_and_dag_of_a_300_statement_function_captured_whole_and_bounded(
        browser: webdriver.Chrome, make_module: Callable[[str], Any], tmp_path: Path) -> None:
    explanation = explain(make_module(chain_source(300)).chain, 1.0, 2.0)
    assert explanation.final_ir is not None
    pictures = dag.pictures(explanation.final_ir)
    path = tmp_path / "chain.html"
    explanation.to_html(path)
    browser.get(path.as_uri())
    page_shot = shot_path(tmp_path, "report.png")
    assert browser.save_screenshot(str(page_shot))
    assert is_png(page_shot) and png_size(page_shot)[0] == WIDTH
    client_width = browser.execute_script("return document.documentElement.clientWidth")
    assert browser.execute_script("return document.documentElement.scrollWidth") <= client_width
    overview = browser.find_element(By.CSS_SELECTOR, ".final-dag svg.dag")
    groups = overview.find_elements(By.CSS_SELECTOR, "g.node.group")
    assert len(groups) == len(pictures) - 1 >= 2
    # no sideways scroll inside the picture's box either
    box = browser.find_element(By.CSS_SELECTOR, ".final-dag .dag-picture")
    assert browser.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth",
                                  box)
    shots = {"dag-overview.png": overview}
    first_group = browser.find_element(By.CSS_SELECTOR, ".final-dag details")
    first_group.find_element(By.TAG_NAME, "summary").click()
    shots["dag-group.png"] = first_group.find_element(By.CSS_SELECTOR, "svg.dag")
    for name, element in shots.items():
        shot = shot_path(tmp_path, name)
        width, height = capture_whole(browser, element, shot)
        assert is_png(shot)
        assert png_size(shot) == (width, height), name  # the whole picture, not the window's
        assert 0 < width <= client_width and 0 < height <= 4000, (name, width, height)
    assert png_size(shot_path(tmp_path, "dag-group.png"))[1] > HEIGHT  # taller than the window


def test_a_passs_dag_before_and_after_stand_side_by_side(
        browser: webdriver.Chrome, make_module: Callable[[str], Any], tmp_path: Path) -> None:
    module = make_module("def norm_ratio(x, y):\n"
                         "    return (x * x + y * y) / (1.0 + (x * x + y * y))\n")
    explanation = explain(module.norm_ratio, 1.5, 2.5)
    path = tmp_path / "cse.html"
    explanation.to_html(path)
    browser.get(path.as_uri())
    index = [step.name for step in explanation.steps].index("eliminate_common_subexpressions")
    section = browser.find_element(By.ID, f"step-{index}")
    before, after = (section.find_element(By.CSS_SELECTOR, f"figure.{side}")
                     for side in ("before", "after"))
    assert before.location["y"] == after.location["y"]
    assert after.location["x"] >= before.location["x"] + before.size["width"]
    merged = [[node.text for node in figure.find_elements(By.CSS_SELECTOR, "g.node.merged text")]
              for figure in (before, after)]
    assert merged[0].count("x * x + y * y") == 2 and merged[1] == ["t = x * x + y * y"]
    shot = shot_path(tmp_path, "cse-step.png")
    capture_whole(browser, section, shot)
    assert is_png(shot)
