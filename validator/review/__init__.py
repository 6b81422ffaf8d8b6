"""The review pack: one printable document an officer reads and signs.

``build_pack(path, display, old_path, old_label)`` gathers the findings, the changes
against the approved submission (with the exact holds before and after), the math of the
selected paytables, the signage proofs and the regulation version; ``render_html`` and
``render_markdown`` write it; ``validator.review.pdf.print_pdf`` prints the HTML with
headless Chromium.
"""

from validator.review.build import SECTIONS, ReviewPack, build_pack
from validator.review.html import render_html
from validator.review.markdown import render_markdown

__all__ = ["SECTIONS", "ReviewPack", "build_pack", "render_html", "render_markdown"]
