"""Accessibility audits of a page with axe-core (Deque's engine), vendored in ``vendor/``.

:func:`audit` injects ``vendor/axe.min.js`` into a Playwright page and runs
``axe.run(document, {resultTypes: ['violations']})``; each rule the page breaks comes back as a
:class:`Violation`. :func:`summary` makes one line of counts by impact, :func:`describe` a
readable list (rule, impact, nodes, targets, markup and axe's reason) for a failing test.

The pages send ``Content-Security-Policy: script-src 'self'``, which blocks the inline script
``page.add_script_tag`` inserts. Audit pages of a browser context made with
``bypass_csp=True``; :func:`audit` says so when the script did not load.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from playwright.sync_api import Error, Page

AXE: Final = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
IMPACTS: Final = ("critical", "serious", "moderate", "minor")
"""axe's impacts, worst first."""
BLOCKING: Final = frozenset(IMPACTS)
"""The impacts a page must not have: every one (minor included)."""
KEPT: Final = 3
"""How many of a violation's nodes are described (targets, markup and reasons)."""
SNIPPET: Final = 160
"""The most characters of an element's markup quoted."""

RUN: Final = r"""async (kept) => {
  const results = await axe.run(document, { resultTypes: ["violations"] });
  const element = (node) => node.target.length === 1 && typeof node.target[0] === "string"
    ? document.querySelector(node.target[0]) : null;
  const named = (node) => {  // which name mismatches which text
    const found = element(node);
    if (!found) return "";
    const by = (found.getAttribute("aria-labelledby") ?? "").split(/\s+/).filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? "").join(" ");
    const name = found.getAttribute("aria-label") ?? by;
    const text = found.innerText.replace(/\s+/g, " ").trim();
    return `: its name is ${JSON.stringify(name)}, its visible text ${JSON.stringify(text)}`;
  };
  const reasons = (node, rule) => [...node.any, ...node.all, ...node.none]
    .map((check) => check.message).filter(Boolean).join("; ")
    + (rule === "label-content-name-mismatch" ? named(node) : "");
  return results.violations.map((v) => ({
    rule: v.id,
    impact: v.impact ?? "minor",
    help: v.help,
    url: v.helpUrl,
    nodes: v.nodes.length,
    targets: v.nodes.slice(0, kept).map((n) => n.target.flat(Infinity).join(" >> ")),
    reasons: v.nodes.slice(0, kept).map((n) => reasons(n, v.id)),
    html: v.nodes.slice(0, kept).map((n) => n.html),
  }));
}"""


@dataclass(frozen=True)
class Violation:
    """One axe rule a page breaks, at ``nodes`` elements (the first few described)."""

    rule: str
    """axe's rule id, e.g. ``color-contrast``."""
    impact: str
    """One of :data:`IMPACTS`."""
    help: str
    """What the rule asks, in a sentence."""
    nodes: int
    """How many elements break it."""
    targets: tuple[str, ...]
    """CSS selectors of the first :data:`KEPT` of them."""
    reasons: tuple[str, ...] = ()
    """axe's reason for each of those (e.g. the contrast ratio and colours found)."""
    html: tuple[str, ...] = ()
    """The markup of each of those (its opening, as axe quotes it): the name and the text."""
    url: str = ""
    """Deque's page on the rule."""

    @property
    def blocking(self) -> bool:
        """True for a violation of an impact in :data:`BLOCKING`."""
        return self.impact in BLOCKING


def inject(page: Page) -> None:
    """Load axe into ``page`` unless it is there already (a navigation drops it)."""
    if page.evaluate("() => typeof window.axe !== 'undefined'"):
        return
    blocked = (
        "axe-core did not load into the page: its Content-Security-Policy blocks inline "
        "scripts; audit pages of a browser context made with bypass_csp=True"
    )
    try:
        page.add_script_tag(path=AXE)
    except Error as error:
        if "Content Security Policy" in error.message:
            raise RuntimeError(blocked) from error
        raise
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        raise RuntimeError(blocked)


SETTLE: Final = """() => Promise.race([
  Promise.all(document.getAnimations()
    .filter((a) => a.effect && Number.isFinite(a.effect.getComputedTiming().endTime))
    .map((a) => a.finished.catch(() => null))),
  new Promise((done) => setTimeout(done, 3000)),
])"""
"""Wait (at most 3 s) until every animation that ends has ended: a card fading in is half
transparent for a moment, which axe would measure as low contrast; the page is audited as it
stays."""


def audit(page: Page) -> list[Violation]:
    """The violations axe finds on ``page`` once its animations have ended, worst impact
    first."""
    inject(page)
    page.evaluate(SETTLE)
    found: list[dict[str, Any]] = page.evaluate(RUN, KEPT)
    violations = [
        Violation(
            rule=str(v["rule"]),
            impact=str(v["impact"]),
            help=str(v["help"]),
            nodes=int(v["nodes"]),
            targets=tuple(str(t) for t in v["targets"]),
            reasons=tuple(str(r) for r in v["reasons"]),
            html=tuple(str(h) for h in v["html"]),
            url=str(v["url"]),
        )
        for v in found
    ]
    return sorted(violations, key=lambda v: (_rank(v.impact), v.rule))


def _rank(impact: str) -> int:
    return IMPACTS.index(impact) if impact in IMPACTS else len(IMPACTS)


def blocking(violations: Iterable[Violation]) -> list[Violation]:
    """The ones of an impact in :data:`BLOCKING`."""
    return [v for v in violations if v.blocking]


def summary(page_name: str, violations: Sequence[Violation]) -> str:
    """One line: the number of violated rules at each impact, each rule with its node count,
    e.g. ``lobby: critical 0 · serious 1 (color-contrast ×4) · moderate 0 · minor 0``."""
    counts = Counter(v.impact for v in violations)
    parts = []
    for impact in IMPACTS:
        rules = ", ".join(f"{v.rule} ×{v.nodes}" for v in violations if v.impact == impact)
        parts.append(f"{impact} {counts[impact]}" + (f" ({rules})" if rules else ""))
    return f"{page_name}: " + " · ".join(parts)


def describe(page_name: str, violations: Iterable[Violation]) -> str:
    """A readable account of ``violations`` on one page: a paragraph per rule."""
    lines = []
    for v in violations:
        lines.append(f"{page_name}: {v.rule} ({v.impact}, {v.nodes} nodes): {v.help}")
        for i, target in enumerate(v.targets):
            lines.append(f"    {target}")
            if i < len(v.html):
                lines.append(f"        {_shorten(v.html[i])}")
            if i < len(v.reasons) and v.reasons[i]:
                lines.append(f"        {v.reasons[i]}")
        if v.nodes > len(v.targets):
            lines.append(f"    … and {v.nodes - len(v.targets)} more")
    return "\n".join(lines)


def _shorten(html: str) -> str:
    flat = " ".join(html.split())
    return flat if len(flat) <= SNIPPET else flat[: SNIPPET - 1] + "…"
