"""The par sheet as text, markdown or printable HTML (with inline SVG plots).

Every renderer reads the JSON of ``validator.par.sheet.build``: one computation, several
readings. Each figure says its method (exact or simulated) and its source rules.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

from validator.money import format_money
from validator.odds.wagers import strategy_text
from validator.par import printed
from validator.par.wagers import holds_nothing, wager_label
from validator.wrapping import held_html


def _pct(x: float | None, places: int = 4) -> str:
    return "—" if x is None else f"{x:.{places}f}%"


#: what a bonus's house edge is: it is paid on another wager's stake and holds nothing itself
BONUS = "a bonus on the wager: edge = minus its return"


def rules_of(w: dict[str, Any]) -> str:
    """The section a priced table's rules are, said missing where its text is (its rows
    then the Rules Submission's: ``wager_label``)."""
    return f"{w['cite']}, missing from the regulation text" if w.get("stated") else w["cite"]


def _num(x: float | None, places: int = 4) -> str:
    return "—" if x is None else f"{x:.{places}f}"


def _ci(ci: list[float] | None) -> str:
    return "" if not ci else f" (95% CI {ci[0]:.4f}% … {ci[1]:.4f}%)"


# -- blocks shared by text and markdown ------------------------------------------------------


def _wager_rows(w: dict[str, Any]) -> list[list[str]]:
    return [
        [
            r["name"],
            r["pays"],
            f"{r['combinations']:,}",
            f"{r['probability']:.8f}",
            f"{r['return']:+.6f}",
        ]
        for r in w["return_table"]
    ]


WAGER_HEAD = ["Outcome", "Pays", "Combinations", "Probability", "Return"]
STRATEGY_HEAD = ["Strategy", "Method", "House edge", "Element of risk", "Avg. total wager", "SD"]


def strategy_name(base: dict[str, Any] | None, key: str) -> str:
    """A strategy as its strategy file names it ("Charles Mousseau's strategy"), not by its
    key; the key where the file gives no name."""
    return ((base or {}).get("names") or {}).get(key, key)


def _strategy_row(name: str, s: dict[str, Any]) -> list[str]:
    return [
        name,
        s["method"] + (f" ({s['rounds']:,} rounds)" if s["method"] == "simulated" else ""),
        _strategy_edge(s),
        _pct(s["element_of_risk_percent"]),
        _num(s["average_total_wager"]),
        _num(s["sd"]),
    ]


def _wager_summary(key: str, w: dict[str, Any]) -> tuple[str, str]:
    top = w["top_award"]
    cycle = (
        f"; top award ({top.get('name', top['outcome'])}, {top['pays']}) "
        f"{printed.one_in(top['probability_exact'])}"
        if top
        else ""
    )
    basis = f" ({BONUS})" if w["basis"] == "bonus" else ""
    if w.get("strategy"):  # paid on the lower of two hands: every deal of both counted
        basis += f" ({strategy_text(w['strategy'])})"
    ah = w.get("approved_hold")
    stated = ""
    if ah:
        verdict = _verdict(w)
        stated = f"; the Board's stated hold {_stated(ah)}: {verdict}" + (
            " (the exact figure stands)"
            if verdict == printed.OUTSIDE
            else " (a progressive's hold: see the progressive below)"
            if verdict == printed.MOVES
            else ""
        )
    return (
        f"house edge {_pct(w['house_edge_percent'])} (exact {w['exact']}){basis}"
        f"{_without(w)}; hit frequency {_pct(100 * w['hit_frequency'])}; SD {w['sd']:.4f}"
        f"{cycle}{stated}"
    ), f"{wager_label(w)} [{rules_of(w)}]"


def _without(w: dict[str, Any]) -> str:
    """What the wager also pays and no figure here prices (the Magic Card and Lucky Bonus on
    the Five Card Hand Bonus Wager): its edge is the paytable's alone."""
    unpriced = w.get("not_in_figure") or []
    return (
        f", before the {' and the '.join(unpriced)} it also pays (not priced)" if unpriced else ""
    )


def _stated(ah: dict[str, Any]) -> str:
    """The Board's stated hold of a wager's JSON: ``23%``, or ``5.3%–11.1%``."""
    from validator.model.notation import stated_range

    return stated_range(f"{ah['from_percent']:g}%", f"{ah['to_percent']:g}%")


def _verdict(w: dict[str, Any]) -> str | None:
    """The wager's exact hold against the Board's stated hold (``printed.range_verdict``)."""
    ah = w.get("approved_hold") or {}
    return printed.range_verdict(ah.get("inside"), bool(w.get("meters")))


# -- text -------------------------------------------------------------------------------------


def _table(head: list[str], rows: list[list[str]]) -> str:
    widths = [
        max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(head)
    ]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    for r in rows:
        lines.append(
            "  ".join(
                c.ljust(w) if i == 0 else c.rjust(w)
                for i, (c, w) in enumerate(zip(r, widths, strict=True))
            )
        )
    return "\n".join(lines)


def _draft_lines(sheet: dict[str, Any]) -> list[str]:
    draft = sheet.get("draft")
    if not draft:
        return []
    return [
        printed.draft_mark(len(draft["findings"])) + ":",
        *(f"  - {n}" for n in draft["findings"]),
        "",
    ]


def _paytables(sheet: dict[str, Any]) -> str | None:
    """Which paytables the sheet prices ("as the submission selects"); None for a Poker
    game, whose wagers are paid from no paytable (the sheet does not say it prices any)."""
    nonbanking = sheet.get("kind") == "nonbanking" or sheet.get("poker")
    return None if nonbanking else sheet["paytables"]


def text(sheet: dict[str, Any]) -> str:
    out = _draft_lines(sheet)
    out.append(f"Par sheet: {sheet['name']} ({sheet.get('source', sheet['chapter'])})")
    named = Path(sheet["submission"]).name if sheet["submission"] else None
    said = _paytables(sheet)
    if said or named:
        out.append(
            (f"paytables: {said}" if said else "the Rules Submission")
            + (f" — {named}" if named else "")
        )
    out += _in_force(sheet)  # under the chapter's name, never only at the end
    names = sheet.get("names", {})
    base = sheet.get("base_game")
    if base:
        wagers = " + ".join(names.get(w, w) for w in base["wagers"])
        per = names.get(base["per"], base["per"])
        out += ["", f"== Base game ({wagers}, per unit of the {per}) =="]
        rows = [_strategy_row(strategy_name(base, n), s) for n, s in base["strategies"].items()]
        if rows:  # no strategy priced (none exact, none simulated): no table, the reason below
            out.append(_table(STRATEGY_HEAD, rows))
        for key, s in base["strategies"].items():
            n = strategy_name(base, key)
            dec = ", ".join(f"{k} {v:.4%}" for k, v in s["decisions"].items())
            q = s.get("dealer_qualifies")
            vi = s.get("volatility_index")
            out.append(
                f"{n}: decisions {dec}"
                # a dealer that qualifies every round has no qualifier to report
                + (f"; dealer qualifies {q:.4%}" if q and q < 1 else "")
                + (f"; volatility index {vi:.4f}" if vi is not None else "")
            )
            if s["method"] == "simulated":
                out.append(f"  house edge{_ci(s['ci95'])}; seed {s['seed']}")
            if "cost_vs_optimal_percent" in s:
                out.append(
                    f"  costs {s['cost_vs_optimal_percent']:.4f}% of the Ante more than optimal"
                )
            ranges = s.get("table_hold_ranges") or []
            if ranges:
                r = ranges[1]
                out.append(
                    f"  a table's hold over {r['rounds']:,} rounds, per unit of the {per}, "
                    "should lie in "
                    f"{r['hold_percent_range'][0]:.2f}% … {r['hold_percent_range'][1]:.2f}% (95%)"
                )
        if base.get("exact_method"):
            out.append(f"(exact: {base['exact_method']})")
        if base.get("not_exact_because"):
            out.append(f"(not derived exactly: {base['not_exact_because']})")
        if base.get("not_simulated_because"):
            out.append(f"(not simulated: {base['not_simulated_because']})")
    for key, w in sheet["wagers"].items():
        summary, title = _wager_summary(key, w)
        out += ["", f"== {title} ==", _table(WAGER_HEAD, _wager_rows(w)), summary]
    for key, p in sheet["progressives"].items():
        letter = f", Paytable {p['paytable']}" if p["paytable"] else ""
        out += ["", f"== Progressive: {_progressive_name(sheet, key)}{letter} =="]
        out.append(_progressive_line(p))
    if sheet.get("poker"):
        from validator.par.poker import lines

        out += ["", "== The house: rake and Bad Beat fund ==", *lines(sheet["poker"])]
    for note in sheet.get("notes") or []:
        if note not in _in_force(sheet):
            out += ["", note]
    if sheet["not_priced"]:
        out += ["", "Not priced:"]
        out += [f"  {names.get(k, k)}: {v}" for k, v in sheet["not_priced"].items()]
    return "\n".join(out) + "\n"


def _money(text: str | None) -> str:
    """A stated amount of the JSON (a meter, a reseed, a wager: ``"30000.00"``) as printed,
    as every document prints a stated amount: whole dollars without cents (``$30,000``),
    cents where there are any (``$2.50``)."""
    if text is None:
        return "—"
    return format_money(text)


def _computed(text: str) -> str:
    """A computed amount of the JSON (a break-even meter, a reserve per reset: ``"296008.00"``)
    as printed: always to the cent (``$296,008.00``), as every document prints a computed
    figure, so that one line never shows a figure with cents beside one without."""
    return format_money(text, cents=True)


def _progressive_name(sheet: dict[str, Any], key: str) -> str:
    """A progressive's name as the chapter writes it: its wager sheet's (a paytable after
    the first is keyed ``table:B``), else the sheet's names."""
    return sheet["wagers"].get(key, {}).get("name") or sheet.get("names", {}).get(key, key)


def _progressive_line(p: dict[str, Any]) -> str:
    parts = [
        f"meter {_money(p['meter'])} on a {_money(p['wager_amount'])} wager: return "
        f"{_pct(p['return_percent_at_meter'])}",
        f"break-even meter {_computed(p['break_even_meter'])}"
        if p["break_even_meter"]
        else "no break-even",
        f"top award probability {printed.one_in(p['top_award_probability_exact'])}",
    ]
    if p["long_run_return_percent"] is not None:
        increments = p.get("increment_by_meter") or {}
        each = (
            "increments " + ", ".join(f"{n.capitalize()} {v}%" for n, v in increments.items())
            if len(increments) > 1  # every meter's flow is counted (§ 641a.12(e)'s three)
            else f"increment {p['increment_percent']}%, reseed {_money(p['reseed'])}"
        )
        reserve = p["reserve"] or {}
        if reserve.get("moves_to_meter") and reserve.get("reserve_increment_percent"):
            each += f", and the reserve's {reserve['reserve_increment_percent']}%"
        parts.append(f"long-run return {_pct(p['long_run_return_percent'])} ({each})")
    r = p["reserve"]
    if r and r["reserve_increment_percent"] and r.get("moves_to_meter"):
        parts.append(
            f"the reserve ({r['reserve_increment_percent']}%) moves onto the meter at each "
            f"reset: {_computed(r['expected_reserve_per_reset'])} per reset on average"
        )
    elif r and r["reserve_increment_percent"]:  # no reserve stated: nothing to fund a reseed
        verdict = "funds" if r["funds_reseed"] else "does not fund"
        parts.append(
            f"the reserve ({r['reserve_increment_percent']}%) {verdict} the reseed: "
            f"{_computed(r['expected_reserve_per_reset'])} per reset on average, surplus "
            f"{_computed(r['surplus_per_reset'])}"
        )
    return "; ".join(parts)


# -- markdown ---------------------------------------------------------------------------------


def _md_table(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in rows]
    return "\n".join(lines)


def markdown(sheet: dict[str, Any], *, return_tables: bool = True) -> str:
    draft = [f"> {line}" if line else "" for line in _draft_lines(sheet)]
    out = [
        *draft,
        f"# Par sheet: {sheet['name']}",
        "",
        f"{sheet.get('source', sheet['chapter'])}"
        + (f"; paytables: {_paytables(sheet)}" if _paytables(sheet) else ""),
        *(f"\n**{note}**" for note in _in_force(sheet)),
    ]
    base = sheet.get("base_game")
    if base:
        out += ["", "## Base game"]
        rows = [_strategy_row(strategy_name(base, n), s) for n, s in base["strategies"].items()]
        if rows:  # no strategy priced: no table, the reason below
            out += ["", _md_table(STRATEGY_HEAD, rows)]
        for key, s in base["strategies"].items():
            n = strategy_name(base, key)
            dec = ", ".join(f"{k} {v:.4%}" for k, v in s["decisions"].items())
            out += ["", f"- **{n}** ({s['method']}): {dec}. Source: {s['source']}"]
        for label, why in (
            ("Exact", "exact_method"),
            ("Not derived exactly", "not_exact_because"),
            ("Not simulated", "not_simulated_because"),
        ):
            if base.get(why):
                out += ["", f"{label}: {base[why]}"]
    for key, w in sheet["wagers"].items():
        summary, title = _wager_summary(key, w)
        table = ["", _md_table(WAGER_HEAD, _wager_rows(w))] if return_tables else []
        out += ["", f"## {title}", *table, "", summary]
    for key, p in sheet["progressives"].items():
        name = _progressive_name(sheet, key) + (
            f", Paytable {p['paytable']}" if p["paytable"] else ""
        )
        out += ["", f"## Progressive: {name}", "", _progressive_line(p)]
    if sheet.get("poker"):
        from validator.par.poker import lines

        out += ["", "## The house: rake and Bad Beat fund", ""]
        out += [f"- {line}" for line in lines(sheet["poker"])]
    for note in sheet.get("notes") or []:
        if note not in _in_force(sheet):
            out += ["", note]
    return "\n".join(out) + "\n"


def _in_force(sheet: dict[str, Any]) -> list[str]:
    """The chapter's state on the effective date, where it was not in force: said first."""
    return list((sheet.get("identification") or {}).get("in_force") or ())


# -- HTML -------------------------------------------------------------------------------------

CSS = """
@page { size: letter; margin: 0.6in; }
body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 10pt; color: #111; }
h1 { font-size: 18pt; margin: 0 0 4pt; } h2 { font-size: 13pt; margin: 14pt 0 4pt; }
table { border-collapse: collapse; margin: 4pt 0; page-break-inside: avoid; width: 100%; }
th, td { border: 1px solid #999; padding: 2pt 5pt; } td.n { text-align: right; }
table.glance td.fig { white-space: nowrap; }  /* "10.0312% ± 4.9017 percentage points" */
table.glance th:last-child { width: 38%; }  /* the method in lines, not a column of words */
td:first-child { min-width: 14em; }  /* a wager's name is read on one line where it can be */
figure { page-break-inside: avoid; margin: 6pt 0; } figcaption { font-size: 9pt; color: #333; }
section { page-break-inside: avoid; }
.method { font-size: 9pt; color: #444; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2pt 12pt;
  margin: 4pt 0 8pt; }
dl.facts dt { font-weight: bold; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; font-size: 9pt; }
.draft { border: 2pt solid #a00; color: #a00; padding: 4pt; margin-bottom: 8pt; }
.rest > :first-child { break-before: page; }
svg { max-width: 100%; height: auto; }
.nb { white-space: nowrap; }
"""


def _h(s: object) -> str:
    """Text set in the sheet, each citation kept whole where a line wraps."""
    return held_html(str(s))


def _figure_class(cell: str) -> str:
    """A figure's cell, right aligned; one that is a figure kept on one line where the
    table asks (``glance``: "10.0312% ± 4.9017 percentage points" never in four)."""
    return " class='n fig'" if re.match(r"-?[0-9]", cell) else " class=n"


def _html_table(
    head: list[str], rows: list[list[str]], words: tuple[int, ...] = (), cls: str = ""
) -> str:
    """A table whose first column names its rows and whose others are figures (right
    aligned), but the columns ``words`` that hold sentences (left aligned)."""
    th = "".join(f"<th>{_h(h)}</th>" for h in head)
    body = "".join(
        "<tr>"
        + "".join(
            f"<td{'' if i == 0 or i in words else _figure_class(c)}>{_h(c)}</td>"
            for i, c in enumerate(r)
        )
        + "</tr>"
        for r in rows
    )
    at = f" class={cls}" if cls else ""
    return f"<table{at}><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def html_report(sheet: dict[str, Any]) -> str:
    """The printable report: a whole HTML document, its identification block and every
    wager's house edge on page 1."""
    ident = sheet.get("identification") or {}
    foot = f"Par sheet: {sheet['name']}" + (
        f" · sha256 {ident['sha256']}" if ident.get("sha256") else ""
    )
    glance = summary_table(sheet)
    draft = sheet.get("draft")
    mark = printed.draft_mark(len(draft["findings"])) if draft else None
    return "\n".join(
        [
            "<!doctype html><html lang=en><head><meta charset=utf-8>",
            f"<title>{'DRAFT · ' if draft else ''}Par sheet: {html.escape(sheet['name'])}</title>"
            f"<style>{CSS}{printed.page_foot(foot, mark)}</style></head><body>",
            draft_banner(sheet),
            f"<h1>Par sheet: {_h(sheet['name'])}</h1>",
            identification(sheet),
            glance,
            published_table(sheet),
            "<div class=rest>" if glance else "<div>",  # the rest from page 2, after the glance
            html_body(sheet),
            "</div></body></html>\n",
        ]
    )


def draft_banner(sheet: dict[str, Any]) -> str:
    draft = sheet.get("draft")
    if not draft:
        return ""
    items = "".join(f"<li>{_h(n)}</li>" for n in draft["findings"])
    said = printed.draft_mark(len(draft["findings"])).removeprefix("DRAFT")
    return f"<div class=draft><strong>DRAFT</strong>{_h(said)}.<ul>{items}</ul></div>"


def identification(sheet: dict[str, Any]) -> str:
    """Who and what the sheet is for: holder, facility, game, effective date, regulation
    version, the submission's sha256, prepared on."""
    ident = sheet.get("identification") or {}
    rows = [
        ("Certificate holder", ident.get("certificate_holder")),
        ("Facility", ident.get("facility")),
        ("Game", f"{sheet['name']} ({sheet.get('source', sheet['chapter'])})"),
        ("Effective date", ident.get("effective")),
        ("In force", " ".join(ident.get("in_force") or ())),
        ("Regulation version", ident.get("regulation_version")),
        ("Submission sha256", ident.get("sha256")),
        ("Prepared on", ident.get("prepared_on")),
        ("Paytables", _paytables(sheet)),
    ]
    facts = "".join(f"<dt>{_h(k)}</dt><dd>{_h(v)}</dd>" for k, v in rows if v)
    return f"<dl class=facts>{facts}</dl>"


def summary_table(sheet: dict[str, Any]) -> str:
    """Every wager's house edge, and the base game's per strategy: the sheet at a glance."""
    rows: list[list[str]] = []
    base = sheet.get("base_game")
    in_base = set(base.get("wagers") or ()) if base else set()  # what its rows settle
    if base:
        for key, st in base["strategies"].items():
            rows.append(
                [f"Base game, {strategy_name(base, key)}", _strategy_edge(st), st["method"]]
            )
    for w in sheet["wagers"].values():
        flag = holds_nothing(w)  # the note at the end says why it needs a second look
        method = "exact" if flag is None else f"exact; {flag} (see the notes)"
        if w["basis"] == "bonus":  # paid on another wager's stake: no hold of its own
            method = f"exact; {BONUS}"
            if w.get("wager") in in_base:  # never to be added to the rows that hold it
                method += "; already in the base game above"
        elif w["meters"]:  # a progressive's hold is its meter's: said where it is given
            method += ", with the meter at its seed"
        method += _without(w)
        rows.append([wager_label(w), _pct(w["house_edge_percent"]), method])
    for k, v in sheet.get("not_priced", {}).items():
        name = sheet.get("names", {}).get(k, k)
        if sheet.get("not_priced_wagers", {}).get(k, k) in in_base:  # settled in its figure
            rows.append([name, "in the base game above", f"not priced alone: {v}"])
        else:
            rows.append([name, "not priced", str(v)])
    if not rows:  # a nonbanking game: no wager of the house's; its figures follow at once
        return ""
    return "<h2>House edge of every wager</h2>" + _html_table(
        ["Wager", "House edge", "Method"], rows, words=(2,), cls="glance"
    )


def _strategy_edge(s: dict[str, Any]) -> str:
    """A strategy's house edge; simulated, with its 95% interval's half width in the unit
    it is in: ``10.7292% ± 9.9710 percentage points``."""
    edge = _pct(s["house_edge_percent"])
    if s.get("ci95"):
        edge += f" ± {(s['ci95'][1] - s['ci95'][0]) / 2:.4f} percentage points"
    return edge


def published_table(sheet: dict[str, Any]) -> str:
    """Every published figure the game files name beside the computed one: agrees, or
    differs with the reason."""
    rows: list[list[str]] = []
    for w in sheet["wagers"].values():
        ah = w.get("approved_hold")
        if not ah:
            continue
        published = _stated(ah)
        kind = "hold" if ah["from_percent"] == ah["to_percent"] else "hold range"
        where = f"the Board's stated {kind} ({ah.get('cite', '')})"
        said = _verdict(w)
        if said == printed.INSIDE:
            verdict = "agrees: the exact hold lies in the range"
        elif said == printed.MOVES:
            verdict = (
                f"{printed.MOVES}: the Board's figure states no meter; the progressive below "
                "gives the return at every meter"
            )
        else:
            verdict = "differs: the exact hold lies outside the range; the exact figure stands"
            other = ah.get("other_reading")
            if other:
                verdict += (
                    f" (reading of the ranking: {other['name']}, "
                    f"{_pct(other['hold_percent'])}"
                    + (", inside the range)" if other["inside"] else ")")
                )
        rows.append([wager_label(w), where, published, _pct(w["house_edge_percent"]), verdict])
    for f in sheet.get("published") or []:
        got = f["computed_percent"]
        if f["agrees"]:
            verdict = "agrees"
        else:
            verdict = f"differs: {f['reason']}" if got is not None else str(f["reason"])
        rows.append(
            [
                f"Base game, {strategy_name(sheet.get('base_game'), f['strategy'])}: {f['figure']}",
                str(f["by"]),
                str(f["published"]),
                "—" if got is None else _pct(got),
                verdict,
            ]
        )
    if not rows:
        return ""
    return (  # one section: its heading never left alone at the foot of a page
        "<section><h2>Published figures beside the computed ones</h2>"
        + _html_table(
            ["Wager", "Published by", "Published", "Computed (exact)", "Agrees or differs"], rows
        )
        + "</section>"
    )


def html_body(sheet: dict[str, Any], *, return_tables: bool = True) -> str:
    """The report's content, below its title, for a document of its own or one that holds
    it (the review pack, the web view: those print the selected paytables' tables in their
    own math section, so ``return_tables=False`` leaves them out here)."""
    out = [
        f"<p>{_h(sheet.get('source', sheet['chapter']))}"
        + (f"; paytables: {_h(_paytables(sheet))}" if _paytables(sheet) else "")
        + (f" ({_h(Path(sheet['submission']).name)})" if sheet["submission"] else "")
        + "</p>",
    ]
    base = sheet.get("base_game")
    names = sheet.get("names", {})
    if base:
        out.append(
            f"<h2>Base game</h2><p class=method>Wagers "
            f"{_h(', '.join(names.get(w, w) for w in base['wagers']))}; figures per unit of "
            f"the {_h(names.get(base['per'], base['per']))} [{_h(base['cite'] or '')}]</p>"
        )
        rows = [_strategy_row(strategy_name(base, n), s) for n, s in base["strategies"].items()]
        if rows:  # no strategy priced: no table, the reason below
            out.append(_html_table(STRATEGY_HEAD, rows))
        for why in ("not_exact_because", "not_simulated_because"):
            if base.get(why):
                label = "Not derived exactly" if why == "not_exact_because" else "Not simulated"
                out.append(f"<p class=method>{label}: {_h(base[why])}</p>")
        for key, s in base["strategies"].items():
            n = strategy_name(base, key)
            dist = s.get("result_distribution") or []
            method = (
                "exact: every player hand against every dealer hand"
                + (f" ({base['exact_method']})" if base.get("exact_method") else "")
                if s["method"] == "exact"
                else f"simulated: {s['rounds']:,} rounds, seed {s['seed']}"
            )
            dec = "; ".join(f"{_h(k)} {v:.4%}" for k, v in s["decisions"].items())
            chart = printed.bar_chart(
                [(f"{p['net']:+g}", p["probability"] * 100) for p in dist],
                title=f"A round's result, {n}: house edge {_pct(s['house_edge_percent'])}",
                xlabel=f"Net result (units of the {names.get(base['per'], base['per'])})",
                ylabel="Probability (%)",
                method=method.split(" (")[0],
            )
            out.append(
                f"<section><h2>{_h(n)}</h2><p class=method>{_h(method)}. "
                f"Source: {_h(s['source'])}</p>"
                f"<p>Decisions: {dec}</p><figure class=plot>{chart}<figcaption>Distribution of "
                f"a round's result per unit of the {_h(names.get(base['per'], base['per']))} "
                f"({_h(s['method'])})"
                "</figcaption></figure></section>"
            )
    for key, w in sheet["wagers"].items():
        summary, title = _wager_summary(key, w)
        table = _html_table(WAGER_HEAD, _wager_rows(w)) if return_tables else ""
        counted = (  # C(52, 5) × 47 × C(46, 5): the up card is one of the dealer's six
            f"every deal of both hands counted ({w['combinations']:,}, the dealer's face-up "
            "card told apart)"
            if w.get("strategy")
            else f"every hand counted ({w['combinations']:,})"
        )
        out.append(
            f"<section><h2>{_h(title)}</h2>{table}"
            f"<p>{_h(summary)}</p><p class=method>exact: {counted}; "
            f"rules {_h(rules_of(w))}</p></section>"
        )
    for key, p in sheet["progressives"].items():
        pts = [(float(c["meter"]), c["return_percent"]) for c in p["curve"]]
        name = _progressive_name(sheet, key) + (
            f", Paytable {p['paytable']}" if p["paytable"] else ""
        )
        chart = printed.line_chart(
            pts,
            title=f"Return versus the meter, {name}",
            xlabel=f"Meter amount (on a {_money(p['wager_amount'])} wager)",
            ylabel="Return to the player (%)",
            method="exact: every hand counted, the meter's share valued at each amount",
            mark_y=("100% (break-even)", 100.0),
            mark_x=(f"meter {_money(p['meter'])}", float(p["meter"])),
            x_money=True,
        )
        cite = sheet["wagers"].get(key, {}).get("cite")
        out.append(
            f"<section><h2>Progressive: {_h(name)}</h2><p>{_h(_progressive_line(p))}</p>"
            f"<figure class=plot>{chart}<figcaption>Return (%) versus the meter (exact; "
            "dashed: 100%)"
            + (f"; rules {_h(cite)}" if cite else "")
            + "</figcaption></figure></section>"
        )
    if sheet.get("poker"):
        from validator.par.poker import lines

        out.append("<section><h2>The house: rake and Bad Beat fund</h2>")
        out += [f"<p>{_h(line)}</p>" for line in lines(sheet["poker"])]
        out.append("</section>")
    for note in sheet.get("notes") or []:
        if note not in _in_force(sheet):  # on the first page already, beside the chapter
            out.append(f"<p>{_h(note)}</p>")
    return "\n".join(out)


RENDERERS = {"text": text, "markdown": markdown, "html": html_report}
