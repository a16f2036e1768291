"""The rules page in a real browser: a link to one rule opens at that rule, highlighted, readable
on a phone with no sideways scroll, and clean under axe-core (no serious or critical issue)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from tests.browser.axe import serious_violations


def _layout(page: Page) -> dict[str, Any]:
    return dict(
        page.evaluate("""() => {
        const rule = document.getElementById("R-MIN-4");
        const box = rule.getBoundingClientRect();
        const sizes = [...document.querySelectorAll("main p, main li")]
            .map((e) => parseFloat(getComputedStyle(e).fontSize));
        return {
            scrollWidth: document.documentElement.scrollWidth,
            width: window.innerWidth,
            height: window.innerHeight,
            top: box.top, bottom: box.bottom,
            target: document.querySelector(":target") === rule,
            background: getComputedStyle(rule).backgroundColor,
            other: getComputedStyle(document.getElementById("R-MIN-5")).backgroundColor,
            smallest: Math.min(...sizes),
        };
    }""")
    )


@pytest.mark.parametrize("size", ["phone", "tv"])
def test_a_rule_link_opens_at_that_rule_readable_and_accessible(
    new_page: Any, h: Any, size: str
) -> None:
    page = new_page(size)
    page.goto("/rules/arcanum#R-MIN-4")
    page.wait_for_load_state("load")
    seen = _layout(page)
    assert seen["target"], "the page did not open at R-MIN-4"
    assert 0 <= seen["top"] < seen["height"], f"R-MIN-4 is not in view: {seen}"
    assert seen["background"] != seen["other"], "the rule linked to is not highlighted"
    assert seen["scrollWidth"] <= seen["width"], f"the page scrolls sideways at {size}: {seen}"
    assert seen["smallest"] >= 18, f"body text at {seen['smallest']} px is too small"
    assert page.title() == "Arcanum: the rules at the table"
    assert page.get_by_role("link", name="Back to the table").is_visible()
    problems = serious_violations(page)
    assert not problems, "\n".join(problems)
    h.SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(h.SCREENSHOTS / f"rules-arcanum-{size}.png"))


def test_the_other_game_and_the_index_pass_axe_on_a_phone(new_page: Any) -> None:
    page = new_page("phone")
    for path in ("/rules", "/rules/angels-and-demons#R-TURN-3", "/rules/no-such-game"):
        page.goto(path)
        problems = serious_violations(page)
        assert not problems, f"{path}:\n" + "\n".join(problems)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 390, f"{path} scrolls sideways on a phone ({width} px)"
