"""The office's day in a real browser (Debian's Chromium through Selenium), on SQLite and on
PostgreSQL: a reviewer finds a filing by its facility, narrows the list to the pending ones,
reads the review pack in the browser, downloads it as PDF (its pages counted), approves it;
a casino withdraws its own pending filing; the audit log, filtered to the approved filing,
tells its story in words. Every page visited passes axe-core's WCAG 2.1 AA rules with no
violation, at 1280 and at 390 pixels wide.

axe-core comes from the npm registry (``.ci/run`` installs it into ``.ci/node_modules``);
the test is skipped, with the reason, where it, chromium or chromedriver is absent.
Screenshots go to ``RULESUB_TEST_ARTEFACTS`` (else the test's temporary directory).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from store_db import BACKENDS, RECORDED_AT, database
from webtools import EXAMPLE, HOLDER, PASSWORDS, other_holders_submission, served

from validator import PROJECT_ROOT
from validator.store import Store
from validator.store import accounts as acct

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
AXE = Path(os.environ.get("RULESUB_AXE", PROJECT_ROOT / ".ci/node_modules/axe-core/axe.min.js"))
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not (CHROMIUM and DRIVER),
        reason="the browser tests need Debian's chromium and chromium-driver "
        "(apt-get install chromium chromium-driver; .ci/run installs them)",
    ),
    pytest.mark.skipif(
        not AXE.is_file(),
        reason="the accessibility checks need axe-core: "
        "npm install --no-save --prefix .ci axe-core (.ci/run does)",
    ),
]
selenium = pytest.importorskip("selenium", reason="selenium is in the test extras")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

AXE_RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


@pytest.fixture(scope="module")
def artefacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = os.environ.get("RULESUB_TEST_ARTEFACTS")
    path = Path(where) if where else tmp_path_factory.mktemp("office-screens")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM  # type: ignore[assignment]
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(arg)
    options.add_argument("--window-size=1280,1000")
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_page_load_timeout(600)  # the par sheet may be counted by the request
    driver.implicitly_wait(15)
    try:
        yield driver
    finally:
        driver.quit()


class Visit:
    """The browser, with axe-core run on every page it reads."""

    def __init__(self, driver: webdriver.Chrome, base: str, artefacts: Path, tag: str) -> None:
        self.driver, self.base, self.artefacts, self.tag = driver, base, artefacts, tag
        self.axe = AXE.read_text(encoding="utf-8")
        self.checked: list[str] = []

    def accessible(self) -> None:
        """axe-core's WCAG 2.1 AA rules on the page as it is now: no violation."""
        d = self.driver
        d.execute_script(self.axe)
        result = d.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}})"
            ".then(r => done(r.violations.map(v => [v.id, v.help,"
            " v.nodes.slice(0, 3).map(n => n.target.join(' '))])))"
            ".catch(e => done([['axe-error', String(e), []]]));",
            AXE_RULES,
        )
        assert result == [], (d.current_url, result)
        self.checked.append(d.current_url)

    def get(self, path: str) -> None:
        self.driver.get(self.base + path)
        self.accessible()

    def click(self, element_id: str, url: str | None = None) -> None:
        self.driver.find_element(By.ID, element_id).click()
        if url:
            WebDriverWait(self.driver, 60).until(lambda d: re.search(url, d.current_url))
        self.accessible()

    def narrow(self, name: str) -> None:
        """The page at 390 pixels wide: usable (no sideways scrolling of the page itself),
        accessible, and photographed."""
        d = self.driver
        d.set_window_size(390, 900)
        try:
            overflow = d.execute_script(
                "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 1, (d.current_url, overflow)
            self.accessible()
            self.shot(f"{name}-390", 390)
        finally:
            d.set_window_size(1280, 1000)

    def shot(self, name: str, width: int = 1280) -> None:
        d = self.driver
        height = int(d.execute_script("return document.body.scrollHeight"))
        d.set_window_size(width, min(max(800, height), 2400))
        assert d.save_screenshot(str(self.artefacts / f"{self.tag}-{name}.png"))
        d.set_window_size(width, 900 if width == 390 else 1000)

    def sign_in(self, name: str) -> None:
        self.get("/login")
        d = self.driver
        d.find_element(By.ID, "name").send_keys(name)
        d.find_element(By.ID, "password").send_keys(PASSWORDS[name])
        d.find_element(By.ID, "sign-in").click()
        assert d.find_element(By.CSS_SELECTOR, "header.bar .who").text.startswith(name)
        self.accessible()

    def sign_out(self) -> None:
        self.driver.find_element(By.CSS_SELECTOR, "header.bar form button").click()
        WebDriverWait(self.driver, 30).until(lambda d: "/login" in d.current_url)

    def download(self, href: str) -> httpx.Response:
        """What the link gives the signed-in browser (its session cookie sent along)."""
        cookies = {c["name"]: c["value"] for c in self.driver.get_cookies()}
        return httpx.get(href, cookies=cookies, timeout=600)


@pytest.fixture(scope="module", params=BACKENDS)
def office(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, Store, dict[str, int]]]:
    """``rulesub serve`` over a store with two holders' filings, one of them a second
    pending filing the casino will withdraw; recorded at ``RECORDED_AT``, before the
    approval's fixed date (the server keeps the real clock)."""
    tmp = tmp_path_factory.mktemp(f"office-{request.param}")
    for db in database(request.param, tmp):
        store = Store(db)
        for name, role in (("rev", "reviewer"), ("cas", "casino")):
            holder = HOLDER if role == "casino" else None
            acct.add(store, name, role, PASSWORDS[name], holder=holder, by="test")
        ids = {
            "example": store.record(
                EXAMPLE, "cas", display="high-card-flush.yaml", now=RECORDED_AT
            ).id
        }
        later = tmp / "hcf-2027-06.yaml"
        later.write_text(
            EXAMPLE.read_text(encoding="utf-8").replace(
                "effective: 2027-01-01", "effective: 2027-06-01"
            ),
            encoding="utf-8",
        )
        ids["later"] = store.record(later, "cas", display="hcf-2027-06.yaml", now=RECORDED_AT).id
        ids["harbour"] = store.record(
            other_holders_submission(tmp), "test", display="harbour-hcf.yaml", now=RECORDED_AT
        ).id
        with served(db) as base:
            yield base, store, ids
        store.dispose()


def pdf_pages(data: bytes, tmp: Path) -> int:
    path = tmp / "pack.pdf"
    path.write_bytes(data)
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True)
    found = re.search(r"^Pages:\s+(\d+)", info.stdout, re.M)
    assert found, info.stdout
    return int(found.group(1))


def test_the_office_finds_reads_decides_and_tells_the_story(
    office: tuple[str, Store, dict[str, int]],
    browser: webdriver.Chrome,
    artefacts: Path,
    tmp_path: Path,
) -> None:
    base, store, ids = office
    backend = "postgresql" if store.url.startswith("postgresql") else "sqlite"
    visit = Visit(browser, base, artefacts, backend)
    d = browser
    sid = ids["example"]

    # the reviewer's home page: what waits, oldest first, with its age and holder
    visit.sign_in("rev")
    pending = d.find_element(By.ID, "pending").text
    assert pending.index(f"#{sid}") < pending.index(f"#{ids['harbour']}")
    assert HOLDER in pending and "High Card Flush" in pending
    visit.shot("home")
    visit.narrow("home")

    # finds the filing by its facility, then only the pending ones
    visit.get("/submissions")
    d.find_element(By.ID, "q").send_keys("Example Downs")
    visit.click("find", r"q=Example\+Downs")
    found = d.find_element(By.ID, "submissions").text
    assert f"#{sid}" in found and f"#{ids['harbour']}" not in found
    Select(d.find_element(By.ID, "status")).select_by_value("submitted")
    visit.click("find", r"status=submitted")
    assert "q=Example+Downs" in d.current_url  # the search is kept
    assert "2 found" in d.find_element(By.ID, "total").text
    visit.shot("submissions")
    visit.narrow("submissions")

    # opens it, reads the review pack in the browser, downloads the PDF
    d.find_element(By.LINK_TEXT, f"#{sid}").click()
    WebDriverWait(d, 60).until(lambda d: d.current_url.endswith(f"/submissions/{sid}"))
    visit.accessible()
    visit.click("tab-review", r"/review$")
    assert "Paytable math" in d.find_element(By.ID, "document-review").text
    visit.shot("review")
    pdf = visit.download(d.find_element(By.ID, "review-pdf").get_attribute("href") or "")
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
    assert pdf_pages(pdf.content, tmp_path) >= 3
    for tab in ("tab-diff", "tab-math", "tab-par", "tab-signs"):
        visit.click(tab)
        assert d.find_element(By.CSS_SELECTOR, "header.bar nav")  # navigation on every page

    # approves it
    visit.get(f"/submissions/{sid}")
    # the server keeps the real clock: an approval dated the day the filing was recorded is
    # never after today (nor before the recording, nor on or after its effective date)
    on = RECORDED_AT.date().isoformat()
    d.execute_script(f"document.getElementById('on').value = '{on}'")
    visit.click("approve", rf"/submissions/{sid}$")
    assert f"Submission {sid} approved by rev" in d.find_element(By.ID, "flash").text
    assert store.get(sid).status == "approved"
    visit.sign_out()

    # the casino withdraws its other pending filing; it stays in the record
    visit.sign_in("cas")
    visit.get(f"/submissions/{ids['later']}")
    visit.click("withdraw", rf"/submissions/{ids['later']}$")
    assert "withdrawn by cas" in d.find_element(By.ID, "flash").text
    assert "WITHDRAWN" in d.find_element(By.TAG_NAME, "h1").text.upper()
    assert store.get(ids["later"]).status == "withdrawn"
    visit.narrow("withdrawn")
    visit.sign_out()

    # the audit log, filtered to the approved filing, tells its story in words
    visit.sign_in("rev")
    visit.get("/audit")
    d.find_element(By.ID, "submission").send_keys(str(sid))
    visit.click("filter", rf"submission={sid}")
    story = [e.text for e in d.find_elements(By.CSS_SELECTOR, "#audit td.words")]
    assert story == [
        f"rev approved #{sid} (Example Downs · High Card Flush, effective 2027-01-01) on {on}",
        f"cas filed #{sid} (Example Downs · High Card Flush, effective 2027-01-01) as "
        "high-card-flush.yaml: 0 errors, 0 warnings",
    ]
    visit.shot("audit")
    visit.get(f"/audit?submission={ids['later']}")
    assert f"cas withdrew #{ids['later']}" in d.find_element(By.ID, "audit").text
    visit.narrow("audit")
    visit.sign_out()
    visit.sign_in("cas")  # a casino files; a reviewer decides
    visit.get("/upload")
    assert len(set(visit.checked)) >= 15
