"""Cutting a status-bar message at a word (gui/window/status_bar.py)."""

from __future__ import annotations

from PySide6.QtGui import QFont, QFontMetrics

from triage_app.gui.window.status_bar import elide_words


def test_whole_words_then_an_ellipsis_and_a_word_too_long_is_cut_within(qapp) -> None:  # type: ignore[no-untyped-def]
    m = QFontMetrics(QFont())
    text = "re-drove 3 dead letters through pesanan@2: 2 succeeded, 1 failed"
    assert elide_words(text, m, m.horizontalAdvance(text)) == text
    for width in range(40, m.horizontalAdvance(text), 7):
        cut = elide_words(text, m, width)
        assert m.horizontalAdvance(cut) <= width
        if cut.endswith("…") and cut != "…":
            head = cut[:-1]
            first_word_too_long = len(head) < len("re-drove")  # then cut within it
            assert text.startswith(head) and (text[len(head)] in " ,:" or first_word_too_long)
    path = "/mnt/share/" + "a" * 200
    cut = elide_words(path, m, 120)
    assert cut.endswith("…") and m.horizontalAdvance(cut) <= 120
