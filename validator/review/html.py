"""The review pack as one printable HTML document.

Print layout (CSS paged media, US Letter): the cover with the findings on the first pages;
the changes, the paytable math, the par sheet, the signage proofs and the approval block
each start a new page, as a person assembling the pack would put them. A table row, a
paytable, a sign and the approval block are never split across pages; a heading never ends a
page. Every page carries the file, its sha256, a blank for the approval date and its
number ("Page N of M"), and, where the pack is from the store, the head of its audit chain
on a line of its own; the cover's contents give the page each section starts on.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from validator.counts import plural
from validator.diff.names import in_words
from validator.diff.render import (
    cell,
    delta_text,
    direction,
    holds_text,
    long_run_text,
    metered,
    percent,
    sides,
    stated,
)
from validator.model.notation import format_rate, stated_range
from validator.odds.wagers import strategy_text
from validator.par.printed import OUTSIDE, draft_mark, page_foot, range_verdict
from validator.review.build import PAGE_STARTS, ReviewPack
from validator.review.cover import field_name
from validator.signage.build import PLACEMENT, Line, Paytable
from validator.wrapping import held_html

CSS = """
@page { size: Letter; margin: 0.6in 0.6in 0.85in 0.6in; }
html { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 10pt;
  color: #000; }
body { margin: 0; }
h1 { font-size: 18pt; margin: 0 0 4pt 0; }
h2 { font-size: 14pt; margin: 14pt 0 6pt 0; border-bottom: 1.5pt solid #000;
  break-after: avoid; }
h3 { font-size: 11pt; margin: 10pt 0 4pt 0; break-after: avoid; }
section.page-start { break-before: page; }
table { border-collapse: collapse; width: 100%; margin: 4pt 0 8pt 0; }
th, td { border: 0.5pt solid #666; padding: 2pt 4pt; text-align: left; vertical-align: top; }
th { background: #eee; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.v { white-space: nowrap; }
td.v.prose { white-space: normal; }  /* a methodology in words wraps in its cell */
tr, .keep { break-inside: avoid; }
.changed { font-weight: bold; }
.cite { color: #333; font-size: 8.5pt; }
.nb { white-space: nowrap; }
.error { color: #a00; font-weight: bold; }
.draft { border: 2pt solid #a00; color: #a00; padding: 4pt; font-weight: bold; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2pt 12pt; }
dl.facts dt { font-weight: bold; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.sign { border: 1pt solid #000; padding: 6pt 10pt; margin: 0 0 10pt 0; break-inside: avoid; }
.sign .title { font-size: 12pt; font-weight: bold; }
.sign p { margin: 4pt 0; }
.sign table { margin: 2pt 0 4pt 0; }
.sign th, .sign td { padding: 0.5pt 4pt; }
.approval { break-inside: avoid; }
.approval .field { margin: 26pt 0 0 0; border-top: 0.75pt solid #000; padding-top: 2pt;
  width: 70%; }
.approval .field.waived { margin-top: 78pt; }  /* room to write the reasons above the line */
.approval .box { display: inline-block; width: 10pt; height: 10pt; border: 1pt solid #000;
  margin: 0 6pt 0 18pt; vertical-align: middle; }
.par td.n { text-align: right; font-variant-numeric: tabular-nums; }
.par .method, .par figcaption { color: #333; font-size: 8.5pt; }
.par section, .par figure { break-inside: avoid; margin: 0 0 6pt 0; }
blockquote.quote { margin: 2pt 0 0 0; padding: 1pt 4pt; border-left: 2pt solid #999;
  font-size: 8.5pt; }
table.toc { width: 60%; }
footer.every-page { margin-top: 2em; font-size: 8pt; color: #333; }
@media print { footer.every-page { display: none; } }
@media screen { body { max-width: 8in; margin: 1em auto; } }
"""


def _value_class(value: str) -> str:
    """A stated value's cell: a figure kept on one line ("$1,000", "10%"); words that run
    longer (a methodology, a list of levels) wrap, so that every column stays on the page."""
    return "v prose" if len(value) > 24 else "v"


def _e(value: object) -> str:
    """Text set in the pack, each citation kept whole where a line wraps."""
    return held_html("" if value is None else str(value))


def render_html(pack: ReviewPack, pages: dict[str, int] | None = None) -> str:
    """The pack as one printable page. ``pages``: the page each section starts on, where a
    first printing found them (``paged_review``), for the contents; none, no page column."""
    title = f"Review pack: {pack.value('facility')} · {pack.game_name}"
    foot = f"sha256 {pack.sha256} · {_ended(pack)}"
    draft = pack_draft(pack)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{'DRAFT · ' if draft else ''}{escape(title)}</title>",
        f"<style>{CSS}{page_foot(foot, draft, second=chain_line(pack))}</style></head><body>",
    ]
    for key, _ in pack.sections:
        cls = ' class="page-start"' if key in PAGE_STARTS else ""
        parts.append(f'<section id="{key}"{cls}>')
        if key == "submission":
            parts.append(_cover(pack, pages))
        elif key == "summary":
            parts.append(summary_section(pack, (pages or {}).get("approval")))
        else:
            parts.append(_SECTION[key](pack))
        parts.append("</section>")
    parts.append(f'<footer class="every-page">{_e(foot)}</footer>')
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def chain_line(pack: ReviewPack) -> str | None:
    """The audit chain's head as the cover words it, for the foot of every printed page (a
    line of its own: with the sha256 on one line the foot would outrun the page); ``None``
    where the pack is not from the store."""
    return f"Audit chain head {pack.audit_head}" if pack.audit_head is not None else None


def _ended(pack: ReviewPack) -> str:
    """What every page's foot says of the decision: the day approved, else how the filing
    ended and when, else the blank the officer fills in."""
    r = pack.record
    if pack.is_approved:
        return f"Approved on: {r.approved_on}"
    status = getattr(r, "status", None) if r is not None else None
    ended = getattr(r, "decided_at", None)
    if status == "rejected":
        return f"Rejected on {r.rejected_on}"
    if status in ("withdrawn", "replaced") and ended is not None:
        return f"{status.title()} on {ended:%Y-%m-%d}"
    return "Approved on: ______________"


def pack_draft(pack: ReviewPack) -> str | None:
    """The DRAFT mark of a pack prepared from a submission with errors (every page, the
    cover); ``None`` where it has none."""
    errors = pack.counts["errors"]
    return draft_mark(errors) if errors and not pack.is_approved else None


def approval_terms(pack: ReviewPack) -> str | None:
    """Why approval is not open, where the submission has errors: ``rulesub approve`` needs
    none, or each waived with its reason."""
    errors = [f for f in pack.findings if f.severity == "error"]
    if not errors or pack.decided is not None:
        return None
    where = "; ".join(f"line {f.line}" + (f", {f.cite}" if f.cite else "") for f in errors)
    return (
        f"Approval is not open: the submission had {plural(len(errors), 'error')} when this "
        f"pack was prepared ({where}). It may be approved only once each is fixed (a corrected "
        "filing, and a new pack) or waived, each with its reason written below."
    )


def paged_review(pack: ReviewPack) -> str:
    """The pack's HTML with its contents' page numbers, found by printing it once (the
    contents keep their size, so no page moves; without ``pdftotext`` no numbers)."""
    from validator.review.pdf import render_pdf, section_pages

    first = render_pdf(render_html(pack, {}), "the review pack")  # the same layout, blank
    return render_html(pack, section_pages(first, dict(pack.sections[1:])))


def shown_label(label: str | None) -> str:
    """The submission compared with, as a person names it: the store's record as it
    describes itself, a file by its name (never the directories it sits in)."""
    if not label:
        return ""
    return label if label.startswith("approved") else Path(label).name


def compared_with(pack: ReviewPack) -> str:
    """The submission compared with, and whether it is the approval on record or a file
    the officer gave (which nothing shows to be the approved one)."""
    if pack.against_label is None:
        return f"nothing: {pack.not_compared}"
    shown = shown_label(pack.against_label)
    return (
        shown
        if pack.approved is not None
        else f"{shown} (a file given, not the approval on record)"
    )


def cover_facts(pack: ReviewPack) -> list[tuple[str, str]]:
    """The cover's facts, in order; the audit chain's head only when the store gave one."""
    rows = [
        ("Office", pack.office or "(no office set)"),
        ("Certificate holder", pack.value("certificate_holder")),
        ("Facility", pack.value("facility")),
        ("Game", pack.game_name),
        ("Effective date", pack.value("effective")),
        ("File", Path(pack.file).name),
        ("Filing sha256", pack.sha256),
        ("Regulation version", pack.regulation_version or "(no game)"),
        ("Prepared on", pack.generated_at.strftime("%Y-%m-%d %H:%M UTC")),
        ("Prepared by", pack.prepared_by),
        ("Recorded", _recorded(pack)),
        ("Compared with", compared_with(pack)),
    ]
    if pack.audit_head is not None:
        rows.append(("Audit chain head", str(pack.audit_head)))
    return rows


def _cover(pack: ReviewPack, pages: dict[str, int] | None) -> str:
    facts = "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in cover_facts(pack))
    c = pack.counts
    # the page column only in a printing (the PDF's, its first printing's blank); a page
    # read on screen, or printed from the browser, has links, not numbers it cannot know
    toc = "".join(
        f"<tr><td><a href='#{key}'>{_e(heading)}</a></td>"
        + (f"<td class='num'>{pages.get(key, '')}</td>" if pages is not None else "")
        + "</tr>"
        for key, heading in pack.sections[1:]
    )
    page_head = "<th>Page</th>" if pages is not None else ""
    draft = pack_draft(pack)
    return (
        f"<h1>{_e(pack.heading('submission'))}</h1>"
        + (f"<p class='draft'>{_e(draft)}.</p>" if draft else "")
        + f'<dl class="facts">{facts}</dl>'
        "<p>The regulation version is a hash of the game files the findings and the math "
        "were computed from; the same version gives the same figures.</p>"
        f"<p><strong>{plural(c['errors'], 'error')}{WAIVED if pack.errors_waived else ''}, "
        f"{plural(c['warnings'], 'warning')}, "
        f"{plural(c['info'], 'informational finding')}.</strong></p>"
        f"<h2>Contents</h2><table class='toc'><thead><tr><th>Section</th>{page_head}</tr>"
        f"</thead><tbody>{toc}</tbody></table>"
    )


def summary_section(pack: ReviewPack, approval_page: int | None = None) -> str:
    """One page first: each wager's hold before and after, the findings by severity, where
    the decision is signed."""
    from validator.review.cover import hold_rows, no_hold

    c = pack.counts
    where = f"page {approval_page}" if approval_page else "on the last page of this pack"
    rows = "".join(
        f"<tr><td>{_e(w)}</td><td class='num'>{_e(a)}</td><td class='num'>{_e(b)}</td>"
        f"<td class='num'>{_e(d)}</td></tr>"
        for w, a, b, d in hold_rows(pack)
    )
    holds = (
        "<table><thead><tr><th>Wager</th><th>Before</th><th>After</th><th>Change</th></tr>"
        f"</thead><tbody>{rows}</tbody></table>"
        if rows
        else f"<p>{_e(no_hold(pack))}</p>"
    )
    return (
        f"<h2>{_e(pack.heading('summary'))}</h2>"
        f"<h3>Hold of each wager</h3>{holds}"
        "<h3>Findings by severity</h3><table><tbody>"
        f"<tr><th scope='row'>Errors</th><td class='num'>{c['errors']}</td></tr>"
        f"<tr><th scope='row'>Warnings</th><td class='num'>{c['warnings']}</td></tr>"
        f"<tr><th scope='row'>Informational</th><td class='num'>{c['info']}</td></tr>"
        "</tbody></table>"
        f"<p>The decision is signed in the <a href='#approval'>{_e(pack.heading('approval'))}</a> "
        f"block, {where}.</p>"
    )


def _recorded(pack: ReviewPack) -> str:
    r = pack.record
    if r is None:
        return "not recorded in the database"
    text = f"#{r.id}, {r.status}, recorded {r.recorded_at:%Y-%m-%d} by {r.recorded_by}"
    if r.approved_by:
        text += f"; approved by {r.approved_by} on {r.approved_on}"
    return text


def _findings(pack: ReviewPack) -> str:
    out = [f"<h2>{_e(pack.heading('findings'))}</h2>"]
    if not pack.findings:
        out.append("<p>None: the validator finds nothing in this submission.</p>")
        return "".join(out)
    from validator.review.cover import quoted_line

    out.append(
        "<table><thead><tr><th>Severity</th><th>Line</th><th>Finding</th>"
        "<th>Section</th></tr></thead><tbody>"
    )
    for f in pack.findings:
        hint = _comply(f)
        quote = quoted_line(pack, f.line)
        said = (
            f"<blockquote class='quote'>line {f.line}: <code>{_e(quote)}</code></blockquote>"
            if quote
            else ""
        )
        out.append(
            f"<tr><td class='{_e(f.severity)}'>{_e(f.severity)}</td>"
            f"<td class='num'>{f.line}</td>"
            f"<td>{_e(in_words(pack.game, f.message))}{hint}{_asked(f, pack)}{said}</td>"
            f"<td>{_e(f.cite or '')}</td></tr>"
        )
    out.append("</tbody></table>")
    return "".join(out)


#: beside the count of errors an approval waived, each
WAIVED = " (each waived by the approval)"
#: over the proofs of a filing approved with each error waived
SIGNS_WAIVED = (
    "Each error is waived by the approval: the proofs below carry the DRAFT mark the "
    "signage gives any submission with errors; the approval decides their posting."
)

#: how a pack names a waiver written in the filing, which only the approval grants
FILING_WAIVER = "The filing asks to waive it; not waived unless the approval says so"


def approval_waiver(pack: ReviewPack, f: Any) -> str | None:
    """The approval's waiver of finding ``f``, in words, where the record holds one: a
    decided filing's pack says so at the finding, not only in its approval block."""
    reasons = [r for code, r in pack.waived if code == f.code]
    if not reasons or not pack.is_approved:
        return None
    return f"Waived by the approval ({pack.record.approved_by}): {reasons[0]}"


def _asked(f: Any, pack: ReviewPack) -> str:
    granted = approval_waiver(pack, f)
    if granted:
        return f"<br><span class='cite'>{_e(granted)}</span>"
    if not f.filing_waiver:
        return ""
    return f"<br><span class='cite'>{_e(FILING_WAIVER)}: {_e(f.filing_waiver)}</span>"


def _comply(f: Any) -> str:
    """What would comply, in words where the check gives them (money printed); else the
    change to the file in its own notation, set as the file's text is."""
    if f.remedy:
        return f"<br><span class='cite'>What would comply: {_e(f.remedy)}</span>"
    if f.hint:
        return (
            "<br><span class='cite'>What would comply, in the file: "
            f"<code>{_e(f.hint)}</code></span>"
        )
    return ""


def changes_section(pack: ReviewPack) -> str:
    out = [f"<h2>{_e(pack.heading('changes'))}</h2>"]
    if pack.against_label is None:
        out.append(f"<p>Not compared: {_e(pack.not_compared)}.</p>")
        return "".join(out)
    out.append(f"<p>Old: {_e(compared_with(pack))}<br>New: {_e(Path(pack.file).name)}</p>")
    if pack.diff is None:
        out.append(f"<p class='error'>No diff: {_e(pack.diff_problem)}</p>")
        return "".join(out)
    diff = pack.diff
    if not diff.changes:
        out.append("<p>No selection or stated value changed.</p>")
    for c in diff.changes:
        if not c.hands:
            continue
        out.append(
            f"<div class='keep'><h3>{_e(c.title)}: {_e(sides(c)[0])} → "
            f"{_e(sides(c)[1])}</h3><p class='cite'>{_e(field_name(pack.game, c.path))} "
            f"{_e(c.cite or '')}</p><table><thead><tr><th>Hand</th>"
            f"<th>{_e(sides(c)[0])}</th><th>{_e(sides(c)[1])}</th>"
            "<th>Change</th></tr></thead><tbody>"
        )
        for row in c.hands:
            cls = " class='num changed'" if row.changed else " class='num'"
            out.append(
                f"<tr><td>{_e(row.name)}</td><td{cls}>{_e(cell(row.old, row.old_as))}</td>"
                f"<td{cls}>{_e(cell(row.new, row.new_as))}</td><td>{_e(direction(row))}</td></tr>"
            )
        out.append("</tbody></table>")
        if c.has_hold:
            out.append(f"<p>{_hold(c)}</p>")
        out.append("</div>")
    others = [c for c in diff.changes if not c.hands]
    if others:
        out.append(
            "<h3>Other changes</h3><table><thead><tr><th>What</th><th>Old</th><th>New</th>"
            "<th>Section</th><th>Hold</th></tr></thead><tbody>"
        )
        for c in others:
            hold = _hold(c) if c.has_hold else ""
            out.append(
                f"<tr><td>{_e(field_name(pack.game, c.path))}</td>"
                + "".join(f"<td class='{_value_class(v)}'>{_e(v)}</td>" for v in stated(c))
                + f"<td>{_e(c.cite or '')}</td><td>{hold}</td></tr>"
            )
        out.append("</tbody></table>")
    if diff.new_findings:
        out.append(
            f"<p>{plural(len(diff.new_findings), 'finding')} "
            f"{'is' if len(diff.new_findings) == 1 else 'are'} new in this submission "
            "(listed under Findings).</p>"
        )
    return "".join(out)


def _hold(c: Any) -> str:
    text = f"Hold: {holds_text(c)}"
    if c.hold_delta is not None:
        text += f" (<strong>{_e(delta_text(c))}</strong>)"
    exact = [h.value for h in (c.hold_old, c.hold_new) if h is not None and h.value is not None]
    if exact:
        text += " exact: " + " → ".join(_e(v) for v in exact)
    at, long_run = metered(c), long_run_text(c)
    if at:
        text += f" ({_e(at)})"
    if long_run:
        text += f"<br>{_e(long_run)}"
    return text


def unpriced(pack: ReviewPack) -> str:
    """Why the math section prices nothing: the web view's tab asks it of every filing."""
    if not pack.banking:
        return (
            "No paytable: in a nonbanking game the players wager against each other and the "
            "house earns the rake (the Par sheet)."
        )
    return "The submission selects no paytable the odds engine prices."


def math_section(pack: ReviewPack) -> str:
    out = [f"<h2>{_e(pack.heading('math'))}</h2>"]
    if not pack.priced:
        out.append(f"<p>{_e(unpriced(pack))}</p>")
    for p in pack.priced:
        out.append(f"<div class='keep'><h3>{_e(p.title)}</h3>")
        out.append(f"<p class='cite'>{_e(p.cite or '')}</p>")
        r = p.result
        if r is None:
            out.append(f"<p>Not priced: {_e(p.why_not)}</p></div>")
            continue
        out.append(
            "<table><thead><tr><th>Hand</th><th>Combinations</th><th>Probability</th>"
            "<th>Payout</th><th>Contribution (%)</th></tr></thead><tbody>"
        )
        for c in r.categories:
            out.append(
                f"<tr><td class='v'>{_e(c.name)}</td><td class='num'>{c.combinations:,}</td>"
                f"<td class='num'>{_e(c.probability)}</td>"
                f"<td class='num v'>{_e(c.payout)}</td>"  # "10,000 to 1" on one line
                f"<td class='num'>{percent(c.contribution, 6, sign=True)}</td></tr>"
            )
        out.append(
            f"<tr><td><strong>Total</strong></td><td class='num'>{r.total:,}</td>"
            "<td class='num'>1</td><td></td>"
            f"<td class='num'>{percent(-r.hold, 6, sign=True)}</td></tr></tbody></table>"
        )
        label = "Returned per unit (a bonus)" if r.basis == "bonus" else "Hold"
        shown = -r.hold if r.basis == "bonus" else r.hold  # a bonus's return, not its hold
        out.append(f"<p><strong>{label}: {percent(shown)}%</strong> exact {_e(shown)}")
        ah = r.approved_hold
        if ah is not None:
            verdict = range_verdict(r.inside_approved, bool(r.meters))
            rng = stated_range(format_rate(ah.low), format_rate(ah.high))
            word = "Board's stated hold" if ah.low == ah.high else "Board's stated range"
            out.append(f"; {word} {rng}: {'OUTSIDE' if verdict == OUTSIDE else verdict}")
        out.append(f"; hit frequency {percent(r.hit_frequency)}%")
        for m in r.meters:
            out.append(f"<br>Meter: {_e(m.describe())}")
        if r.strategy:
            out.append(f"<br>Counted over {_e(strategy_text(r.strategy))}.")
        out.append("</p></div>")
    return "".join(out)


def par_section(pack: ReviewPack) -> str:
    """The par sheet, as ``rulesub par --format html`` renders it (its headings one level
    down), without the return tables the math section prints."""
    from validator.par.render import html_body
    from validator.review.par import method

    out = [f"<h2>{_e(pack.heading('par'))}</h2>"]
    sheet = pack.par
    if sheet is None:
        out.append(f"<p>No par sheet: {_e(in_words(pack.game, pack.par_problem or ''))}</p>")
        return "".join(out)
    body = html_body(sheet, return_tables=False).replace("<h2>", "<h3>").replace("</h2>", "</h3>")
    draft = pack_draft(pack)  # the web view shows this section alone: it says so itself
    if draft:
        out.append(f"<p class='draft'>{_e(draft)}.</p>")
    out.append(f"<p class='cite'>{_e(method(pack.banking))}</p><div class='par'>{body}</div>")
    return "".join(out)


def _signage(pack: ReviewPack) -> str:
    out = [f"<h2>{_e(pack.heading('signage'))}</h2>"]
    signs = pack.signs
    if signs is None:
        out.append(f"<p>No signage: {_e(pack.signs_problem)}</p>")
        return "".join(out)
    if signs.draft:
        out.append(
            f"<p>{_e(SIGNS_WAIVED)}</p>"
            if pack.errors_waived
            else "<p class='draft'>DRAFT: the submission has errors; these signs may not be "
            "posted as they are.</p>"
        )
    out.append(
        f"<p>{plural(len(signs.signs), 'sign')}, each as it is to be posted, with the section "
        "behind every line.</p>"
    )
    for n, sign in enumerate(signs.signs, 1):
        out.append(
            f"<div class='sign'><div class='title'>Sign {n} of {len(signs.signs)}: "
            f"{_e(sign.title)}</div><div class='cite'>"
            f"{_e(PLACEMENT.get(sign.placement, sign.placement))} [{_e(sign.cite)}]</div>"
        )
        for item in sign.items:
            if isinstance(item, Line) and not sign.cites(item):
                out.append(f"<p>{_e(item.text)}</p>")
            elif isinstance(item, Line):
                out.append(f"<p>{_e(item.text)} <span class='cite'>[{_e(item.cite)}]</span></p>")
            elif isinstance(item, Paytable):
                out.append(
                    f"<p><strong>{_e(item.title)}</strong> "
                    f"<span class='cite'>[{_e(item.cite)}]</span></p><table><thead><tr>"
                    f"<th>Hand</th><th class='num'>{_e(item.column)}</th></tr></thead><tbody>"
                )
                out += [
                    f"<tr><td>{_e(h)}</td><td class='num'>{_e(p)}</td></tr>" for h, p in item.rows
                ]
                out.append("</tbody></table>")
                out += [
                    f"<p>{_e(x.text)} <span class='cite'>[{_e(x.cite)}]</span></p>"
                    for x in item.lines
                ]
        out.append("</div>")
    return "".join(out)


def _decided(pack: ReviewPack) -> str:
    """The approval block of a filing the store records a decision for: the decision and
    its waivers, as recorded, and no blank to sign again."""
    waived = "".join(f"<li><code>{_e(c)}</code>: {_e(r)}</li>" for c, r in pack.waived)
    return (
        f"<p><strong>Decision recorded:</strong> {_e(pack.decided or '')}</p>"
        + (f"<p>Findings waived, with the reasons:</p><ul>{waived}</ul>" if waived else "")
        + "<p class='cite'>This pack is a copy for the record of a filing already decided; "
        "it is not signed again.</p>"
    )


def _prepared(c: dict[str, int]) -> str:
    """The findings counted as the cover counts them, the informational ones too."""
    return (
        f"{plural(c['errors'], 'error')}, {plural(c['warnings'], 'warning')}, "
        f"{plural(c['info'], 'informational finding')}"
    )


def _approval(pack: ReviewPack) -> str:
    c = pack.counts
    if pack.decided is not None:
        return (
            f"<div class='approval'><h2>{_e(pack.heading('approval'))}</h2>"
            f"<p>{_e(pack.value('facility'))} · {_e(pack.game_name)} · effective "
            f"{_e(pack.value('effective'))}<br>File {_e(Path(pack.file).name)}, sha256 "
            f"{_e(pack.sha256)}<br>Regulation version {_e(pack.regulation_version)}<br>"
            f"Findings when prepared: {_prepared(c)}</p>"
            f"{_decided(pack)}</div>"
        )
    terms = approval_terms(pack)
    decision = (
        "<p>Decision:<span class='box'></span>Approved<span class='box'></span>Rejected</p>"
        if terms is None
        else f"<p class='draft'>{_e(terms)}</p><p>Decision:<span class='box'></span>Approved, "
        "every error waived as written below<span class='box'></span>Rejected</p>"
    )
    return (
        f"<div class='approval'><h2>{_e(pack.heading('approval'))}</h2>"
        f"<p>{_e(pack.value('facility'))} · {_e(pack.game_name)} · effective "
        f"{_e(pack.value('effective'))}<br>File {_e(Path(pack.file).name)}, sha256 "
        f"{_e(pack.sha256)}<br>"
        f"Regulation version {_e(pack.regulation_version)}<br>"
        f"Findings when prepared: {_prepared(c)}</p>"
        f"{decision}"
        "<div class='field'>Name of the approving officer</div>"
        "<div class='field'>Title</div>"
        "<div class='field'>Date of approval (YYYY-MM-DD)</div>"
        "<div class='field'>Signature</div>"
        "<div class='field waived'>Findings waived, with the reasons</div>"
        "<p class='cite'>The office's policy: rules are implemented only after the written "
        "notice of approval; an effective date before the approval date is a finding.</p>"
        "</div>"
    )


_SECTION = {
    "findings": _findings,
    "changes": changes_section,
    "math": math_section,
    "par": par_section,
    "signage": _signage,
    "approval": _approval,
}
