"""The window on a team store as each role (issue 27): what the login may not do is greyed
out, saying why (the CLI's sentence), and the role shows in the status bar and the title.
The database refuses the same anyway (tests/core/db/test_roles.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support import REPO
from tests.support.team import Team, team_store
from triage_app.core.db import Act, Role, why_not

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

SCREENSHOT = REPO / "docs" / "screenshots"


@pytest.fixture
def team(pg_urls: tuple[str, str]) -> Iterator[Team]:
    yield from team_store(pg_urls)


def _open(qtbot: Any, team: Team, who: str) -> Any:
    from triage_app.gui import open_window

    wh, dl = team.urls(who)
    w = open_window(warehouse_url=wh, dead_letter_url=dl)
    qtbot.waitUntil(lambda: w.model.total() is not None and w.queries is not None)
    qtbot.waitUntil(lambda: not w.queries.busy())
    return w


@pytest.mark.parametrize("who", ["viewer", "steward", "lead"])
def test_each_role_greys_out_what_it_may_not_do(qtbot: Any, team: Team, who: str) -> None:
    from tests.gui.conftest import close_for_good
    from tests.support.team import admin

    with admin(team) as conn:  # what the masking fills in: the customer's name masked
        conn.execute(
            f'UPDATE "{team.store_schema}".dead_letters SET masked_original = convert_to('
            "regexp_replace(convert_from(original_payload, 'UTF8'),"
            ' \'"pelanggan": "(.)[^"]*"\', \'"pelanggan": "\\1•••"\'), \'UTF8\')'
        )
    w = _open(qtbot, team, who)
    try:
        role = Role(who)
        assert w.role is role
        assert w.windowTitle().endswith(f"[{who}]")
        assert w.counts.role_label.isVisible()
        assert w.counts.role_label.text().strip() == f"role: {who}"
        w.table.selectRow(0)
        qtbot.waitUntil(lambda: w.selected_count() == 1)
        w._update_actions()
        m, r = w.menu, w.row_actions
        expect = {
            m.batch_action: Act.RUN,
            m.redrive_action: Act.REDRIVE,
            m.fix_action: Act.FIX,
            m.retention_action: Act.READ,
            r.park_action: Act.PARK,
            r.discard_action: Act.DISCARD,
            r.note_action: Act.NOTE,
            r.as_code_action: Act.RECLASSIFY,
            w.redrive_button: Act.REDRIVE,
            w.run_batch_button: Act.RUN,
        }
        for widget, act in expect.items():
            why = why_not(role, act)
            assert widget.isEnabled() == (why is None), (who, act)
            if why is not None:
                assert widget.toolTip() == why and widget.statusTip() == why
        assert w.detail.payload.not_allowed == why_not(role, Act.EDIT)
        qtbot.waitUntil(lambda: w.detail.payload.editor.toPlainText() != "")
        shown = w.detail.payload.editor.toPlainText()
        assert w.detail.payload.editor.isReadOnly() == (who == "viewer")
        # Masked for every role (a viewer by the database's views); Reveal is a steward's.
        assert "Dewi" not in shown and "D•••" in shown, shown
        reveal = w.detail.reveal_button
        assert reveal.isEnabled() == (why_not(role, Act.REVEAL) is None), who
        if who == "viewer":
            assert reveal.toolTip() == why_not(role, Act.REVEAL)
        else:
            reveal.click()
            qtbot.waitUntil(lambda: "Dewi" in w.detail.payload.editor.toPlainText())
        # Store > Retention… shows the policy to all; its Save and Purge are a lead's.
        m.retention_action.trigger()
        retention = w.dialogs()[-1]
        assert retention.objectName() == "retentionDialog"
        qtbot.wait(300)
        for button, act in (
            (retention.save_button, Act.POLICY),
            (retention.purge_button, Act.PURGE),
        ):
            if why_not(role, act) is not None:
                assert not button.isEnabled() and button.toolTip() == why_not(role, act)
        retention._enable(retention.save_button, True)  # what a change in the form does
        assert retention.save_button.isEnabled() == (why_not(role, Act.POLICY) is None)
        retention.close()
        # A team store's two URLs are long: the window still fits a laptop, the label cut
        # in the middle with the whole of it in its tooltip.
        w.resize(1280, 720)
        qtbot.wait(100)
        assert w.width() <= 1280
        label = w.workspace_label
        assert label.text().startswith("workspace: ") and label.toolTip() == label.text()
        if who == "viewer":
            assert "may not" in w.counts.role_label.toolTip()
            if os.environ.get("TRIAGE_SCREENSHOTS") and SCREENSHOT.is_dir():
                w.resize(1280, 720)
                qtbot.wait(200)
                w.grab().save(str(SCREENSHOT / "roles-viewer.png"))
    finally:
        problem = close_for_good(w, lambda _w: None)
        assert problem is None, problem


def test_a_steward_may_revert_only_their_own_change_set(qtbot: Any, team: Team) -> None:
    from tests.gui.conftest import close_for_good
    from tests.support import cli

    done = cli(*team.args("steward"), "fix", "2", "3", "--default", "qty=1")
    assert done.returncode == 0, done.stderr
    for who, allowed in (("steward", True), ("steward2", False), ("lead", True)):
        w = _open(qtbot, team, who)
        try:
            w.menu.change_sets_action.trigger()
            dialog = w.dialogs()[-1]
            assert dialog.objectName() == "changeSetsDialog"
            dialog.table.selectRow(0)
            assert dialog.revert_button.isEnabled() is allowed, who
            if not allowed:
                assert "may not revert another person's change-set" in (
                    dialog.revert_button.toolTip()
                )
        finally:
            problem = close_for_good(w, lambda _w: None)
            assert problem is None, problem


def test_what_the_database_refuses_is_one_line_in_the_window(
    qtbot: Any, team: Team, dialogs: Any
) -> None:
    """A steward demoted to viewer while the window is open: the window still thinks it
    may park (it asks once per workspace), the database refuses, one line says so."""
    from PySide6.QtWidgets import QMessageBox

    from tests.gui.conftest import close_for_good
    from tests.support import cli

    w = _open(qtbot, team, "steward2")
    try:
        w.table.selectRow(0)
        qtbot.waitUntil(lambda: w.selected_count() == 1)
        done = cli(*team.args("lead"), "roles", "grant", team.logins["steward2"], "viewer")
        assert done.returncode == 0, done.stderr
        dialogs.answer(QMessageBox.StandardButton.Ok)
        w.row_actions.park()
        qtbot.waitUntil(lambda: dialogs.pending == 0, timeout=10_000)
        said = str(dialogs.seen[-1]["text"]).strip()
        assert said == "the database refused: permission denied for table dead_letters"
    finally:
        problem = close_for_good(w, lambda _w: None)
        assert problem is None, problem
