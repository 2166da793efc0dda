"""The HTML report in a real browser: Debian's headless Chromium, driven by Selenium through
Debian's chromedriver, opens the reports of the textbook `fancy_func` and of the Newton
benchmark kernel (loops, three rounds of passes) from file:// URLs and checks what a reader sees:

- the page loads with no console errors and fetches nothing (no network, not even a file);
- every pass run in the explanation's `steps` has its section `step-N`, visible, and the
  pipeline's links lead to it;
- the diffs are single-spaced (one rendered line a diff line);
- the DAG picture is drawn: a non-empty `<svg class="dag">`, a box for every node, every label
  inside its box, and the page never scrolls sideways, however wide the picture.

The playground (`symcompile serve`) on a free port: code typed into its editor shows `return
10` for the textbook program, each pass and the DAG, with no console error; a screenshot is
taken into the test's tmp dir (looked at: the editor on the left, the optimized source, the
timing line and the first pass diffs, coloured, on the right); example arguments show the time
per call before and after.

The report of a 300-statement function: screenshots of the page and of its DAG's overview
picture, taken into the test's tmp dir, are PNGs no wider than the window.

Skipped, with the reason, only where Selenium is not importable or the `chromium` or
`chromedriver` program is not installed (`.ci/run` installs them with apt-get).
"""

from __future__ import annotations

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
    nodes = len(dag.build_graph(explanation.final_ir).labels)
    svg = driver.find_element(By.CSS_SELECTOR, "svg.dag")
    assert svg.is_displayed()
    assert svg.size["width"] > 0 and svg.size["height"] > 0
    assert len(svg.find_elements(By.TAG_NAME, "rect")) >= nodes
    # Each label follows its box (dag.to_svg); the labels sticking out of their boxes.
    outside = driver.execute_script("""
        return Array.from(arguments[0].querySelectorAll('text'), text => {
            const box = text.previousElementSibling.getBBox(), label = text.getBBox();
            const inside = label.x >= box.x && label.x + label.width <= box.x + box.width
                && label.y >= box.y && label.y + label.height <= box.y + box.height;
            return inside ? null : text.textContent;
        }).filter(label => label !== null);""", svg)
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
    screenshot = tmp_path / "playground.png"
    assert browser.save_screenshot(str(screenshot))
    assert is_png(screenshot)
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


def test_report_and_dag_of_a_300_statement_function_screenshot_within_the_window(
        browser: webdriver.Chrome, make_module: Callable[[str], Any], tmp_path: Path) -> None:
    explanation = explain(make_module(chain_source(300)).chain, 1.0, 2.0)
    path = tmp_path / "chain.html"
    explanation.to_html(path)
    browser.get(path.as_uri())
    page_shot, dag_shot = tmp_path / "report.png", tmp_path / "dag.png"
    assert browser.save_screenshot(str(page_shot))
    svg = browser.find_element(By.CSS_SELECTOR, "svg.dag")
    browser.execute_script("arguments[0].scrollIntoView()", svg)
    assert svg.screenshot(str(dag_shot))
    for shot in (page_shot, dag_shot):
        assert is_png(shot)
        width, height = png_size(shot)
        assert 0 < width <= WIDTH and 0 < height <= 4000, (shot.name, width, height)
    assert svg.size["width"] <= browser.execute_script(
        "return document.documentElement.clientWidth")
