"""The Kozo tower in 3D: previews of the chosen piece and balance cube, and a fall played back
from the MuJoCo motion of the checked tower."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .people import create_table, sign_in_as_guest

pytestmark = pytest.mark.e2e

THREE = Path(__file__).resolve().parents[2] / "meeple/web/node_modules/three/build/three.module.js"


def type_move(page, text: str) -> None:
    sent = int(page.locator("#board").get_attribute("data-sent") or 0)
    page.locator("#notation").fill(text)
    page.locator("#notation").press("Enter")
    page.wait_for_function(
        "n => +(document.querySelector('#board').dataset.sent || 0) > n", arg=sent
    )


def on_screen(page, x: float, y: float) -> tuple[float, float]:
    """Where the 3D view draws the point (x, y) of the tower's base, in page pixels."""
    left, top = page.evaluate(
        """([x, y]) => {
            const v = document.querySelector('#view3d').kozoView;
            const p = v.camera.position.clone().set(x, y, 0).project(v.camera);
            const r = v.renderer.domElement.getBoundingClientRect();
            return [r.left + (p.x + 1) / 2 * r.width, r.top + (1 - p.y) / 2 * r.height];
        }""", [x, y])
    return left, top


def test_kozo_tower_in_3d_previews_and_plays_a_fall(new_context, server, artifacts):
    assert THREE.exists(), "three.js is not installed: scripts/setup.sh runs npm ci in meeple/web"
    page = new_context().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_in_as_guest(page, "Kim")
    # Hot-seat on one device: both seats are Kim's, so the test chooses every move.
    table = create_table(page, "kozo", ["me", "me"], options={"rounds": 1})
    view = page.locator("#view3d")
    page.wait_for_function("() => +(document.querySelector('#view3d')?.dataset.drawn || 0) > 0")
    # The pieces to pick sit above the 3D view, which stands beside the plan.
    page.wait_for_function(
        "() => document.querySelector('#kozo-pick').nextElementSibling?.id === 'view3d'")
    # Clicking the base column (2,2) in 3D previews a piece there, as pointing at the plan does.
    pos = on_screen(page, 2.5, 2.5)
    page.mouse.click(*pos)
    expect(view).to_have_attribute("data-ghost", "1")
    # The move in words, its notation as the line's title.
    expect(page.locator(".board-preview")).to_contain_text("Place the")
    notation = re.compile(r"^P\d+\.\d+@\d,\d$")
    expect(page.locator(".board-preview")).to_have_attribute("title", notation)
    # The piece held: the V-pentacube, lying flat. Clicking the base's south-west column in 3D
    # previews it there as a ghost of its five cubes, as on the plan.
    page.locator("#move-cancel").click()
    page.locator('#kozo-pick .kozo-piece[data-piece="12"]').click()
    page.locator("#kozo-pick .kozo-orient").first.click()
    pos = on_screen(page, 0.5, 0.5)
    page.mouse.click(*pos)
    expect(page.locator(".board-preview")).to_contain_text("V-pentacube")
    ghost = """() => document.querySelector('#view3d').kozoView.ghost.children
        .map((g) => g.children.filter((m) => m.isMesh).length)"""
    page.wait_for_function(f"() => ({ghost})().join() === '5'")
    expect(page.locator("#board .kozo-ghost")).to_have_count(5)
    # Rules example Z4 B: the V lying flat, then an I-tricube resting on (2,0) alone falls.
    type_move(page, "P12.5@0,0")
    expect(view).to_have_attribute("data-bodies", "1")
    expect(view).to_have_attribute("data-last", "piece L")  # the last move, outlined
    # Wooden pieces drawn in code: every face of the V-pentacube carries a texture of its
    # stained wood (its letter and grain), and the chimney is a dark open shaft in the board.
    looks = page.evaluate(
        """() => {
            const v = document.querySelector('#view3d').kozoView;
            const faces = [];
            v.tower.traverse((o) => { if (o.isMesh) faces.push(...[].concat(o.material)); });
            const chimney = v.scene.getObjectByName('chimney');
            const columns = v.pickables.map((m) => m.name);
            return {
                textured: faces.length > 0 && faces.every((m) => m.map && m.map.image),
                kinds: new Set(faces.map((m) => m.map.uuid)).size,
                chimney: chimney ? [chimney.position.x, chimney.position.y] : null,
                columns,
                labelled: v.pickables.every((m) => m.material[4].map.image.width > 0),
            };
        }"""
    )
    assert looks["textured"] and looks["kinds"] >= 2, looks  # letter faces and plain bottoms
    assert looks["chimney"] == [1.5, 1.5]
    assert sorted(looks["columns"]) == sorted(
        f"column-{x}-{y}" for x in range(3) for y in range(3) if (x, y) != (1, 1))
    assert looks["labelled"]
    # Pointing at a column previews the balance cube there as a ghost in the tower.
    target = page.locator("#board .target").first
    target.evaluate("e => e.scrollIntoView({block: 'center'})")
    box = target.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(view).to_have_attribute("data-ghost", "1")
    page.screenshot(path=str(artifacts / "e2e-kozo-3d-preview.png"), full_page=True)
    type_move(page, "B@0,0")
    expect(view).to_have_attribute("data-bodies", "2")
    expect(view).to_have_attribute("data-last", "balance cube")
    type_move(page, "P2.1@2,0")
    expect(page.locator("#final")).to_be_visible()
    with urllib.request.urlopen(f"{server}/api/tables/{table}/frame") as r:
        check = json.load(r)["observation"]["last_check"]
    assert check["result"] == "fallen"
    # The end: the tower that fell stands in the 3D view and on the plan (not an empty base),
    # with who toppled it named.
    expect(view).to_have_attribute("data-bodies", "3")
    toppler = page.locator(f'#players li[data-seat="{check["player"]}"] .name').inner_text()
    toppler = toppler.replace("you", "").strip()
    caption = page.locator("#kozo3d-caption")
    expect(caption).to_be_visible()
    expect(caption).to_contain_text(f"{toppler} toppled the tower with a polycube")
    expect(caption).to_contain_text("fell")
    # The caption and the "Play the fall" button share the top of the view: neither covers
    # the other, on a desktop and at a phone's width.
    for size in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        page.set_viewport_size(size)
        view.evaluate("e => e.scrollIntoView()")
        words = caption.bounding_box()
        button = page.locator("#play-fall").bounding_box()
        assert words and button
        apart = (words["x"] + words["width"] <= button["x"]
                 or button["x"] + button["width"] <= words["x"]
                 or words["y"] + words["height"] <= button["y"]
                 or button["y"] + button["height"] <= words["y"])
        assert apart, (size, words, button)
    page.set_viewport_size({"width": 1200, "height": 900})
    plan = page.locator("#board")
    expect(plan).to_contain_text("toppled the tower")
    page.screenshot(path=str(artifacts / "e2e-kozo-3d-end.png"), full_page=True)
    # The fall, played back from the MuJoCo motion of the checked tower.
    drawn = int(view.get_attribute("data-drawn"))
    page.locator("#play-fall").click()
    expect(view).to_have_attribute("data-playing", "false", timeout=15_000)
    assert int(view.get_attribute("data-drawn")) > drawn
    moved = page.evaluate(
        """() => document.querySelector('#view3d').kozoView.bodies.map(
               b => b.position.distanceTo(b.userData.start))"""
    )
    assert max(moved) > 0.25, moved  # the fallen piece ends away from where it stood
    with urllib.request.urlopen(f"{server}/api/tables/{table}/motion") as r:
        motion = json.load(r)
    assert motion["fallen"] and len(motion["bodies"]) == len(moved)
    page.screenshot(path=str(artifacts / "e2e-kozo-3d-fall.png"), full_page=True)
    assert not errors, errors
