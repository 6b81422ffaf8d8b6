"""The review pack as one Markdown document: the same sections as the HTML, the diff and
the signage in the words of their own Markdown renderers, one heading level down."""

from __future__ import annotations

from validator.counts import plural
from validator.diff.names import in_words
from validator.markdown import md_code as _code
from validator.markdown import md_text as _md
from validator.odds.wagers import strategy_text
from validator.review.build import ReviewPack
from validator.review.cover import hold_rows, no_hold, quoted_line
from validator.review.html import (
    FILING_WAIVER,
    SIGNS_WAIVED,
    WAIVED,
    approval_terms,
    approval_waiver,
    cover_facts,
    pack_draft,
    unpriced,
)


def _demote(markdown: str, levels: int = 2) -> str:
    """Headings of an embedded document, ``levels`` deeper."""
    return "\n".join(
        ("#" * levels + line) if line.startswith("#") else line for line in markdown.splitlines()
    )


def render_markdown(pack: ReviewPack) -> str:
    h = dict(pack.sections)
    c = pack.counts
    out = [f"# {h['submission']}", ""]
    draft = pack_draft(pack)
    if draft:
        out += [f"> **{_md(draft)}.**", ""]
    out += [f"- **{k}:** {_md(v)}" for k, v in cover_facts(pack)]
    out += [
        "",
        f"**{plural(c['errors'], 'error')}{WAIVED if pack.errors_waived else ''}, "
        f"{plural(c['warnings'], 'warning')}, "
        f"{plural(c['info'], 'informational finding')}.**",
    ]
    out += ["", "Contents: " + " · ".join(_md(heading) for _, heading in pack.sections[1:])]
    out += [
        "",
        f"## {h['summary']}",
        "",
    ]
    holds = hold_rows(pack)
    if holds:
        out += ["| Wager | Before | After | Change |", "|---|---:|---:|---:|"]
        out += [f"| {_md(w)} | {_md(a)} | {_md(b)} | {_md(d)} |" for w, a, b, d in holds]
    else:
        out.append(_md(no_hold(pack)))
    out += ["", f"The decision is signed under {h['approval']}, at the end of this pack."]
    out += ["", f"## {h['findings']}", ""]
    if pack.findings:
        for f in pack.findings:
            said = in_words(pack.game, f.message)
            cite = f" ({_md(f.cite)})" if f.cite else ""  # the file's form: no section
            out.append(f"- **{f.severity}**, line {f.line}: {_md(said)}{cite}")
            if f.remedy:
                out.append(f"  What would comply: {_md(f.remedy)}")
            granted = approval_waiver(pack, f)
            if granted:
                out.append(f"  {_md(granted)}")
            elif f.filing_waiver:
                out.append(f"  {_md(FILING_WAIVER)}: {_md(f.filing_waiver)}")
            quote = quoted_line(pack, f.line)
            if quote:
                out.append(f"  > line {f.line}: {_code(quote.strip())}")
    else:
        out.append("None: the validator finds nothing in this submission.")
    out += ["", f"## {h['changes']}", ""]
    if pack.against_label is None:
        out.append(f"Not compared: {_md(pack.not_compared)}.")
    elif pack.diff is None:
        out.append(f"No diff: {_md(pack.diff_problem)}")
    else:
        from dataclasses import replace
        from pathlib import Path

        from validator.diff.render import render_markdown as diff_markdown
        from validator.review.html import shown_label

        shown = replace(  # the submissions by their names, never the directories they sit in
            pack.diff,
            old_label=shown_label(pack.against_label),
            new_label=Path(pack.file).name,
        )
        out.append(_demote(diff_markdown(shown)))
    if "math" in h:
        out += ["", f"## {h['math']}", ""]
    for p in pack.priced:
        out += [f"### {_md(p.title)}", "", f"{_md(p.cite or '')}", ""]
        r = p.result
        if r is None:
            out.append(f"Not priced: {_md(p.why_not)}")
            out.append("")
            continue
        out += ["| Hand | Combinations | Probability | Payout |", "|---|---:|---:|---:|"]
        out += [
            f"| {_md(x.name)} | {x.combinations:,} | {x.probability} | {_md(x.payout)} |"
            for x in r.categories
        ]
        from validator.diff.render import percent

        out += [
            "",
            f"Hold {percent(r.hold)}% (exact {r.hold}); hit frequency {percent(r.hit_frequency)}%",
            "",
        ]
        if r.strategy:
            out += [f"Counted over {_md(strategy_text(r.strategy))}.", ""]
    if not pack.priced and "math" in h:
        out.append(_md(unpriced(pack)))
    out += ["", f"## {h['par']}", ""]
    sheet = pack.par
    if sheet is None:
        out.append(f"No par sheet: {_md(in_words(pack.game, pack.par_problem or ''))}")
    else:
        from validator.par.render import markdown as par_markdown
        from validator.review.par import method

        out += [_md(method(pack.banking)), "", _demote(par_markdown(sheet, return_tables=False))]
    out += ["", f"## {h['signage']}", ""]
    if pack.signs is None:
        out.append(f"No signage: {_md(pack.signs_problem)}")
    else:
        from validator.signage.render import render_markdown as signs_markdown

        if pack.errors_waived and pack.signs.draft:
            out += [_md(SIGNS_WAIVED), ""]
        out.append(_demote(signs_markdown(pack.signs)))
    out += [
        "",
        f"## {h['approval']}",
        "",
        f"{_md(pack.value('facility'))} · {_md(pack.game_name)} · effective "
        f"{_md(pack.value('effective'))}; sha256 `{pack.sha256}`; regulation version "
        f"`{pack.regulation_version}`; findings when prepared: "
        f"{plural(c['errors'], 'error')}, {plural(c['warnings'], 'warning')}, "
        f"{plural(c['info'], 'informational finding')}",
        "",
    ]
    if pack.decided is not None:  # decided: the record's decision, nothing to sign again
        out += [f"Decision recorded: {_md(pack.decided)}", ""]
        if pack.waived:
            out += ["Findings waived, with the reasons:", ""]
            out += [f"- {_code(c)}: {_md(r)}" for c, r in pack.waived]
            out.append("")
        out.append(
            "This pack is a copy for the record of a filing already decided; it is not "
            "signed again."
        )
        return "\n".join(out) + "\n"
    out += [
        *_decision(pack),
        "",
        "Name of the approving officer: ______________________________",
        "",
        "Title: ______________________________",
        "",
        "Date of approval: ______________________________",
        "",
        "Signature: ______________________________",
        "",
        "Findings waived, with the reasons: ______________________________",
    ]
    return "\n".join(out) + "\n"


def _decision(pack: ReviewPack) -> list[str]:
    """The approval's decision: open, or why not yet (``approval_terms``)."""
    terms = approval_terms(pack)
    if terms is None:
        return ["Decision: [ ] Approved  [ ] Rejected"]
    return [
        f"**{_md(terms)}**",
        "",
        "Decision: [ ] Approved, every error waived as written below  [ ] Rejected",
    ]
