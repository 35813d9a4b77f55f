"""The dialogs in Bahasa Indonesia (issue 28): their own texts, Qt's standard buttons and
menus (``resources/locale/id/qt-standard.ts``: PySide6 ships no Indonesian Qt catalogue),
counted texts for one and for many in both languages, and numbers and times written the
Indonesian way. Each test puts English back when it ends."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QLineEdit, QMessageBox, QSpinBox

from triage_app.core.deadletters import ChangePreview, DeadLetterFilter, ErrorGroup, FixPreview
from triage_app.core.vocabulary import Status
from triage_app.gui import labels
from triage_app.gui.dialogs.discard_dialog import describe_discard_preview
from triage_app.gui.dialogs.fix_dialog import describe_preview
from triage_app.gui.dialogs.group_dialog import GroupDialog
from triage_app.gui.dialogs.job_dialog import suffix_follows_count
from triage_app.gui.dialogs.redrive_dialog import RedriveDialog
from triage_app.gui.dialogs.scope import ChosenRows, ScopeSource, TableScope
from triage_app.gui.i18n import install_language, translate
from triage_app.gui.lifetime import dispose

Buttons = QDialogButtonBox.StandardButton


@pytest.fixture
def speak(qapp: QApplication) -> Iterator[Callable[[str], None]]:
    """``speak("id")``: the app (window and engine) in that language until the test ends,
    then English again."""

    def use(lang: str) -> None:
        assert install_language(qapp, lang) == lang

    yield use
    install_language(qapp, "en")


def test_qt_standard_buttons_and_menus_are_indonesian(qtbot, speak):
    def shown() -> tuple[str, str, str, list[str]]:
        box = QDialogButtonBox(Buttons.Ok | Buttons.Cancel)
        qtbot.addWidget(box)
        question = QMessageBox(
            QMessageBox.Icon.Question,
            "?",
            "?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        )
        qtbot.addWidget(question)
        field = QLineEdit("x")
        qtbot.addWidget(field)
        menu = field.createStandardContextMenu()
        items = [a.text().split("\t")[0] for a in menu.actions() if not a.isSeparator()]
        dispose(menu)
        yes = question.button(QMessageBox.StandardButton.Yes).text()
        no = question.button(QMessageBox.StandardButton.No).text()
        return box.button(Buttons.Cancel).text(), yes, no, items

    speak("id")
    cancel, yes, no, menu = shown()
    assert cancel == "Batal"
    assert (yes, no) == ("&Ya", "&Tidak")
    assert menu == ["&Urungkan", "Ul&angi", "P&otong", "&Salin", "&Tempel", "Hapus", "Pilih Semua"]

    speak("en")  # and back: Qt's own English
    cancel, yes, no, menu = shown()
    assert (cancel, yes, no) == ("Cancel", "&Yes", "&No")
    assert "&Copy" in menu


def test_the_scope_counts_one_and_many_in_both_languages(speak):
    where = DeadLetterFilter()

    def said() -> tuple[str, str, str]:
        return (
            ChosenRows("store", (7,), None, 1).describe(),
            ChosenRows("store", None, where, 1).describe(),
            ChosenRows("store", None, where, 1_234_567).describe(),
        )

    one, one_matching, many_matching = said()
    assert one == "the 1 selected dead letter: #7"
    assert one_matching.startswith("the 1 dead letter matching ")
    assert many_matching.startswith("all 1,234,567 dead letters matching ")

    speak("id")
    one, one_matching, many_matching = said()
    assert one == "1 dead letter yang dipilih: #7"
    assert one_matching.startswith("1 dead letter yang cocok dengan ")
    assert many_matching.startswith("1.234.567 dead letter yang cocok dengan ")


def test_previews_write_numbers_the_languages_way(speak):
    fix = FixPreview(
        fix=None,  # type: ignore[arg-type]  # only its counts are said
        transform="pesanan@2",
        rows=2000,
        applies=1500,
        would_load=1200,
        still_fails=300,
        not_applicable=500,
        shown=(),
        versions={},
        why_not={"diskon sudah terisi": 500},
    )
    one = ChangePreview("discarded", "discarded", {5: 1}, (), (), ())
    many = ChangePreview("discarded", "discarded", {i: 1 for i in range(1, 1236)}, (), (), ())

    assert describe_preview(fix) == (
        "1,500 of 2,000 would change (through pesanan@2: 1,200 would load, 300 would still "
        "fail). Not applicable to 500: diskon sudah terisi (500). Nothing was written."
    )
    assert describe_discard_preview(one) == (
        "Discard 1 dead letter: #5. Reopen brings them back until retention purges them."
    )
    assert describe_discard_preview(many).startswith("Discard 1,235 dead letters: #1, #2")

    speak("id")
    assert describe_preview(fix) == (
        "1.500 dari 2.000 akan berubah (melalui pesanan@2: 1.200 akan dimuat, 300 masih akan "
        "gagal). Tidak berlaku untuk 500: diskon sudah terisi (500). Tidak ada yang ditulis."
    )
    assert describe_discard_preview(one) == (
        "Buang 1 dead letter: #5. Buka kembali mengembalikannya sampai retensi menghapusnya "
        "permanen."
    )
    assert describe_discard_preview(many).startswith("Buang 1.235 dead letter: #1, #2")


def test_a_spin_box_counts_its_unit(qtbot, speak):
    days = QSpinBox(maximum=1000)
    qtbot.addWidget(days)
    suffix_follows_count(days, lambda n: translate("RetentionDialog", " day(s) ago", "", n))
    days.setValue(1)
    assert days.suffix() == " day ago"  # not "1 days ago"
    days.setValue(90)
    assert days.suffix() == " days ago"

    speak("id")
    days.setValue(1)
    assert days.suffix() == " hari yang lalu"
    days.setValue(90)
    assert days.suffix() == " hari yang lalu"


def test_the_group_dialog_in_indonesian(qtbot, speak):
    group = ErrorGroup(
        signature="kolom wajib hilang: <diskon>",
        error_class="data",
        count=1234,
        by_status={Status.OPEN: 1},
        first_seen=None,
        last_seen=None,
        oldest_open=dt.datetime(2026, 11, 30, 14, 5),
    )
    speak("id")
    dialog = GroupDialog(group)
    qtbot.addWidget(dialog)
    assert dialog.windowTitle() == "Kelompok galat"
    about = dialog.findChild(type(dialog.said), "groupAbout").text()
    assert about == (
        "<b>kolom wajib hilang: &lt;diskon&gt;</b><br>cacat data: 1.234 dead letter, 1 terbuka, "
        "yang terbuka paling lama sejak 30 Nov 2026 14.05 UTC"
    )
    ok = dialog.findChild(QDialogButtonBox).button(Buttons.Ok)
    cancel = dialog.findChild(QDialogButtonBox).button(Buttons.Cancel)
    assert (ok.text(), cancel.text()) == ("OK", "Batal")


def test_the_redrive_dialog_in_indonesian(qtbot, speak):
    speak("id")
    table = ScopeSource(lambda: TableScope("store", DeadLetterFilter(), 1234, (), 0))
    dialog = RedriveDialog(lambda job: pytest.fail("nothing is run"), table)
    qtbot.addWidget(dialog)
    assert dialog.windowTitle() == "Kirim ulang dead letter"
    assert dialog.scope_filter.text().startswith("1.234 dead letter yang cocok dengan ")
    assert dialog.preview_button.text() == "Pratinjau (uji coba)"
    assert dialog.run_button.text() == "Kirim ulang"
    assert dialog.close_button.text() == "Tutup"  # Qt's own, from qt-standard.ts
    assert dialog.canary_rows.specialValueText() == "10 atau 1%"
    dialog.canary_rows.setValue(1)
    assert dialog.canary_rows.suffix() == " baris"
    model = dialog.results.model()
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(4)]
    assert headers == ["id", "baris", "hasil", "galat, atau baris yang dimuatnya"]
    # A table shows the store's words translated; the values stay core's.
    assert labels.shown(labels.REDRIVE_OUTCOMES, "would_succeed") == "akan berhasil"
    assert labels.shown(labels.CLASSES, "data") == "cacat data"
    assert labels.shown(labels.STATUSES, "a-state-core-adds-later") == "a-state-core-adds-later"


@pytest.mark.parametrize(
    ("n", "english", "indonesian"),
    [
        (
            1,
            "1 row the check would have changed was left alone: written since the check.",
            "1 baris yang akan diubah menurut pemeriksaan dibiarkan: ditulis sejak pemeriksaan.",
        ),
        (
            2,
            "2 rows the check would have changed were left alone: written since the check.",
            "2 baris yang akan diubah menurut pemeriksaan dibiarkan: ditulis sejak pemeriksaan.",
        ),
    ],
)
def test_english_forms_written_by_hand(speak, n, english, indonesian):
    def said() -> str:
        return translate(
            "ReprocessDialog",
            "%Ln row(s) the check would have changed were left alone: written since the check.",
            "",
            n,
        )

    assert said() == english
    speak("id")
    assert said() == indonesian
