"""The web view in a real browser: Debian's Chromium driven by Selenium (chromium-driver)
against ``rulesub serve`` on 127.0.0.1.

A casino's compliance officer signs in, files a flawed submission and sees its findings at
their lines, files the fix; a reviewer approves it, sees the history and the diff against
the submission it supersedes, opens the signs and prints them. Screenshots of the main
pages are saved under ``RULESUB_TEST_ARTEFACTS`` (else the test's temporary directory);
they are test artefacts, never committed.

Skipped, with the reason, where chromium or chromedriver is absent.
"""

from __future__ import annotations

import base64
import datetime as dt
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from store_db import RECORDED_AT
from webtools import EXAMPLE, FLAWED, PASSWORDS, served

from validator.signage.checked import check_submission
from validator.store import Store
from validator.store import accounts as acct

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
pytestmark = [
    pytest.mark.slow,  # a browser walk: over 20 s; the pages themselves: tests/test_web_pages.py
    pytest.mark.skipif(
        not (CHROMIUM and DRIVER),
        reason="the browser tests need Debian's chromium and chromium-driver "
        "(apt-get install chromium chromium-driver; .ci/run installs them)",
    ),
]
selenium = pytest.importorskip("selenium", reason="selenium is in the test extras")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402


@pytest.fixture(scope="module")
def artefacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = os.environ.get("RULESUB_TEST_ARTEFACTS")
    path = Path(where) if where else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Store, int]]:
    """``rulesub serve`` over a store holding an approved High Card Flush submission
    (Flush Bonus paytable A) that the officer's fix will supersede."""
    tmp = tmp_path_factory.mktemp("browser")
    db = str(tmp / "office.sqlite3")
    store = Store(db)
    for name, role in (("rev", "reviewer"), ("cas", "casino")):
        holder = "Example Downs Racing & Casino" if role == "casino" else None
        acct.add(store, name, role, PASSWORDS[name], holder=holder, by="test")
    older = tmp / "hcf-2026.yaml"
    older.write_text(
        EXAMPLE.read_text(encoding="utf-8")
        .replace("flush_bonus: E,", "flush_bonus: A,")
        .replace("effective: 2027-01-01", "effective: 2026-12-15"),
        encoding="utf-8",
    )
    # recorded before the fixed date it is approved on, whatever day the test runs
    approved = store.record(older, "cas", display="hcf-2026.yaml", now=RECORDED_AT).id
    store.approve(approved, "rev", on=RECORDED_AT.date(), now=RECORDED_AT)
    with served(db) as base:
        yield base, store, approved


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM  # type: ignore[assignment]
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--window-size=1280,1000",
        "--disable-gpu",
    ):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_page_load_timeout(60)
    driver.implicitly_wait(15)  # a form's answer is awaited, however loaded the machine
    try:
        yield driver
    finally:
        driver.quit()


def sign_in(driver: webdriver.Chrome, base: str, name: str) -> None:
    driver.get(f"{base}/login")
    driver.find_element(By.ID, "name").send_keys(name)
    driver.find_element(By.ID, "password").send_keys(PASSWORDS[name])
    driver.find_element(By.ID, "sign-in").click()
    assert driver.find_element(By.CSS_SELECTOR, "header.bar .who").text.startswith(name)


def url_matching(driver: webdriver.Chrome, pattern: str) -> re.Match[str]:
    """Wait for the page a click leads to (the click returns before the answer arrives)."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 30).until(lambda d: re.search(pattern, d.current_url))
    found = re.search(pattern, driver.current_url)
    assert found, driver.current_url
    return found


def sign_out(driver: webdriver.Chrome) -> None:
    driver.find_element(By.CSS_SELECTOR, "header.bar form button").click()
    url_matching(driver, "/login")


def file_submission(driver: webdriver.Chrome, base: str, path: Path) -> int:
    driver.get(f"{base}/upload")
    driver.find_element(By.ID, "file").send_keys(str(path))
    driver.find_element(By.ID, "file-it").click()
    return int(url_matching(driver, r"/submissions/(\d+)$").group(1))


def shot(driver: webdriver.Chrome, artefacts: Path, name: str) -> None:
    height = driver.execute_script("return document.body.scrollHeight")
    driver.set_window_size(1280, min(max(1000, int(height)), 4000))
    assert driver.save_screenshot(str(artefacts / f"{name}.png"))
    driver.set_window_size(1280, 1000)


def test_officer_files_reviewer_approves_and_prints_signs(
    server: tuple[str, Store, int], browser: webdriver.Chrome, artefacts: Path, tmp_path: Path
) -> None:
    base, store, old_id = server
    driver = browser

    driver.get(f"{base}/submissions")
    assert "/login" in driver.current_url  # not signed in: the login page
    shot(driver, artefacts, "01-login")

    # the casino's officer files a flawed submission: its findings sit at their lines
    sign_in(driver, base, "cas")
    flawed = FLAWED / "hcf-progressive.yaml"
    flawed_id = file_submission(driver, base, flawed)
    expected = sorted((f.line, f.code) for f in check_submission(flawed).findings)
    rows = driver.find_elements(By.CSS_SELECTOR, "tr.finding")
    shown = sorted((int(r.get_attribute("data-line")), r.get_attribute("data-code")) for r in rows)
    assert shown == expected and len(shown) == 3
    for r in rows:  # each finding row follows the source line it names
        above = r.find_element(By.XPATH, "preceding-sibling::tr[@id][1]")
        assert above.get_attribute("id") == f"L{r.get_attribute('data-line')}"
    assert "§ 678a.12(d)(3)" in driver.find_element(By.ID, "source").text
    shot(driver, artefacts, "02-flawed-submission")

    # the fix
    # effective 60 days after the day the walk runs, approved on that day: before it takes
    # effect whatever the day (an approval after the effective date is a finding)
    today = dt.datetime.now(dt.UTC).date()
    example = tmp_path / EXAMPLE.name
    example.write_text(
        EXAMPLE.read_text(encoding="utf-8").replace(
            "effective: 2027-01-01", f"effective: {today + dt.timedelta(days=60)}"
        ),
        encoding="utf-8",
    )
    fixed_id = file_submission(driver, base, example)
    assert "0 errors" in driver.find_element(By.ID, "counts").text
    fixed = check_submission(example).findings  # information only (the published range)
    assert all(f.severity != "error" for f in fixed)
    rows = driver.find_elements(By.CSS_SELECTOR, "tr.finding")
    shown = sorted((int(r.get_attribute("data-line")), r.get_attribute("data-code")) for r in rows)
    assert shown == sorted((f.line, f.code) for f in fixed)
    assert not driver.find_elements(By.ID, "approve")  # a casino does not approve
    driver.get(f"{base}/")
    shot(driver, artefacts, "03-facilities-casino")
    sign_out(driver)

    # the reviewer approves it
    sign_in(driver, base, "rev")
    driver.get(f"{base}/submissions/{flawed_id}")
    driver.find_element(By.ID, "reason").send_keys("progressive meter below $30,000")
    driver.find_element(By.ID, "reject").click()
    flashes = driver.find_elements(By.ID, "flash")
    assert flashes, driver.page_source[-3000:]
    assert "rejected by rev" in flashes[0].text
    driver.get(f"{base}/submissions/{fixed_id}")
    # the day it was filed (the server's clock), before the submission's effective date
    driver.execute_script(f"document.getElementById('on').value = '{today.isoformat()}'")
    driver.find_element(By.ID, "note").send_keys("signs checked")
    driver.find_element(By.ID, "approve").click()
    flashes = driver.find_elements(By.ID, "flash")
    assert flashes, driver.page_source[-3000:]
    flash = flashes[0].text
    assert f"approved by rev; it supersedes #{old_id}" in flash
    assert store.get(fixed_id).status == "approved"
    assert store.get(old_id).status == "superseded"

    # the history: approved, superseded, rejected, with who acted
    history = driver.find_element(By.ID, "history").text
    # in words, as `history` says it: never the store's action words ("approve by rev")
    assert f"rev approved #{fixed_id} on " in history and "rev rejected #" in history
    assert "approve by" not in history
    assert "SUPERSEDED" in history.upper()
    shot(driver, artefacts, "04-approved-submission")

    # the diff against the submission it superseded, with the hold delta
    driver.find_element(By.ID, "tab-diff").click()
    diff = driver.find_element(By.ID, "section-diff").text
    assert f"approved #{old_id}" in diff
    assert "Paytable A → Paytable E" in diff or ("Paytable A" in diff and "Paytable E" in diff)
    assert "Hold:" in diff
    shot(driver, artefacts, "05-diff")

    driver.find_element(By.ID, "tab-math").click()
    assert "Hold:" in driver.find_element(By.ID, "section-math").text
    shot(driver, artefacts, "06-math")

    # the par sheet: exact figures only, the derived optimal strategy with its plot; the
    # exact count may be made by this request (tens of seconds on a busy machine)
    driver.set_page_load_timeout(600)
    driver.get(f"{base}/submissions/{fixed_id}/par")
    driver.set_page_load_timeout(60)
    par = driver.find_element(By.ID, "section-par")
    assert "Base game" in par.text and "Optimal strategy" in par.text and "2.6645%" in par.text
    assert "simulated:" not in par.text
    # matplotlib's plots, drawn by the browser: the distribution and the return against the
    # meter, each with titled axes
    plots = [p.get_attribute("innerHTML") for p in par.find_elements(By.CSS_SELECTOR, "svg")]
    assert any("Probability (%)" in p for p in plots)
    assert any("Return to the player (%)" in p for p in plots)
    shot(driver, artefacts, "07-par")

    driver.get(f"{base}/")
    shot(driver, artefacts, "07-facilities-reviewer")

    # the signs, printed
    driver.get(f"{base}/submissions/{fixed_id}/signs")
    assert "Example Downs" in driver.page_source
    shot(driver, artefacts, "08-signs")
    pdf = base64.b64decode(driver.print_page())
    assert pdf.startswith(b"%PDF")
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    assert pages >= 4  # one page per sign: the example's table needs four
    (artefacts / "signs.pdf").write_bytes(pdf)
