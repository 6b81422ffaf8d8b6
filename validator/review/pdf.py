"""HTML printed to PDF by headless Chromium (Debian's ``chromium``): the review pack, and any
print-ready page rulesub makes (signs, the par sheet)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from validator.errors import RulesubError

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
TIMEOUT_S = 180


class PdfError(RulesubError):
    """No PDF could be printed: a message for the officer."""


def chromium() -> str | None:
    found = os.environ.get("RULESUB_CHROMIUM")
    if found:
        return found
    return next((p for name in CHROMIUM_NAMES if (p := shutil.which(name))), None)


def render_pdf(html: str, what: str = "the document") -> bytes:
    """``html`` printed by headless Chromium: the PDF's bytes (``PdfError`` where none)."""
    browser = chromium()
    if browser is None:
        raise PdfError(
            "printing to PDF needs Chromium (Debian: apt-get install chromium); "
            "--format html prints from any browser"
        )
    with tempfile.TemporaryDirectory(prefix="rulesub-print-") as tmp:
        page = Path(tmp) / "page.html"
        page.write_text(html, encoding="utf-8")
        pdf = Path(tmp) / "page.pdf"
        try:
            done = subprocess.run(
                [
                    browser,
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-quic",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    f"--user-data-dir={Path(tmp) / 'profile'}",
                    "--no-pdf-header-footer",
                    f"--print-to-pdf={pdf}",
                    page.as_uri(),
                ],
                capture_output=True,
                timeout=TIMEOUT_S,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as e:
            raise PdfError(f"Chromium could not print {what}: {e}") from None
        if done.returncode != 0 or not pdf.is_file() or pdf.stat().st_size == 0:
            tail = done.stderr.decode(errors="replace").strip().splitlines()[-1:]
            raise PdfError(f"Chromium could not print {what}" + (f": {tail[0]}" if tail else ""))
        return pdf.read_bytes()


def print_pdf(html: str, out: Path, what: str = "the review pack") -> None:
    """Print ``html`` to ``out``: written whole (a temporary file, then a rename) or not
    at all."""
    from validator.files import write_whole

    write_whole(Path(out), render_pdf(html, what))


def page_texts(pdf: bytes) -> list[str] | None:
    """Each page's text (poppler's ``pdftotext``); None where it is not installed."""
    tool = shutil.which("pdftotext")
    if tool is None:
        return None
    try:
        done = subprocess.run(
            [tool, "-layout", "-", "-"], input=pdf, capture_output=True, timeout=60, check=True
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.decode("utf-8", errors="replace").split("\f")


def section_pages(pdf: bytes, headings: dict[str, str]) -> dict[str, int]:
    """The page each section starts on: the first page that opens with its heading (below
    a DRAFT's mark, which heads every page of one)."""
    pages = page_texts(pdf) or []
    found: dict[str, int] = {}
    for key, heading in headings.items():
        for number, text in enumerate(pages, 1):
            if opening(text) == heading:
                found[key] = number
                break
    return found


def opening(page: str) -> str:
    """A printed page's first line of its own: the running DRAFT mark above it passed over."""
    lines = [ln.strip() for ln in page.splitlines() if ln.strip()]
    if lines and lines[0].startswith("DRAFT:"):
        lines = lines[1:]
    return lines[0] if lines else ""
