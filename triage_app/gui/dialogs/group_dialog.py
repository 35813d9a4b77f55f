"""Trends > an error group's menu: its owner, tags and note in one dialog (the team backlog,
issue 13).

The owner is picked from the stewards already owning groups or typed; the tags are ticked
from those in use (and the suggested ones) or added; the note is free text. OK asks for the
change as the dialog's steward saw the group (its version), so a change another steward
made meanwhile is refused with who and when, never overwritten.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from triage_app.core.deadletters import ErrorGroup
from triage_app.core.jobs import GroupJob
from triage_app.core.locale_format import format_datetime
from triage_app.gui import labels
from triage_app.gui.i18n import fill, translate

NOTE_CHARS = 2_000
TAG_CHARS = 80  # what set_group accepts


class GroupDialog(QDialog):
    def __init__(
        self,
        group: ErrorGroup,
        owners: Sequence[str] = (),
        tags: Sequence[str] = (),
        focus: str = "owner",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.group = group
        self.setObjectName("groupDialog")
        self.setWindowTitle(translate("GroupDialog", "Error group"))
        self.setMinimumWidth(520)

        about = QLabel(objectName="groupAbout")
        about.setWordWrap(True)
        about.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        n = group.count
        error_class = labels.shown(labels.CLASSES, group.error_class)
        if group.oldest_open is not None:
            text = translate(
                "GroupDialog",
                "<b>%1</b><br>%2: %Ln dead letter(s), %3 open, the oldest open since %4 UTC",
                "",
                n,
            )
            oldest = format_datetime(group.oldest_open)
            about.setText(fill(text, _escape(group.signature), error_class, group.open, oldest))
        else:
            text = translate("GroupDialog", "<b>%1</b><br>%2: %Ln dead letter(s), %3 open", "", n)
            about.setText(fill(text, _escape(group.signature), error_class, group.open))

        self.owner = QComboBox(objectName="groupOwner", editable=True)
        self.owner.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.owner.addItem("")  # nobody
        for name in sorted({*owners, *([group.owner] if group.owner else [])}, key=str.casefold):
            self.owner.addItem(name)
        self.owner.setCurrentText(group.owner or "")
        line = self.owner.lineEdit()
        if line is not None:
            line.setPlaceholderText(translate("GroupDialog", "nobody"))
            line.setMaxLength(TAG_CHARS)
        self.owner.setAccessibleName(translate("GroupDialog", "Owner"))

        self.tags = QListWidget(objectName="groupTags")
        self.tags.setAccessibleName(translate("GroupDialog", "Tags"))
        self.tags.setMaximumHeight(120)
        for tag in sorted({*tags, *group.tags}, key=str.casefold):
            self._add_tag(tag, checked=tag in group.tags)
        self.new_tag = QLineEdit(objectName="groupNewTag")
        self.new_tag.setPlaceholderText(translate("GroupDialog", "another tag, then Enter"))
        self.new_tag.setMaxLength(TAG_CHARS)
        self.new_tag.setAccessibleName(translate("GroupDialog", "New tag"))
        self.new_tag.returnPressed.connect(self._on_new_tag)
        add = QPushButton(translate("GroupDialog", "Add"), objectName="groupAddTag")
        add.setAutoDefault(False)  # Enter in the tag field adds the tag, not OK
        add.clicked.connect(self._on_new_tag)
        adding = QHBoxLayout()
        adding.addWidget(self.new_tag, 1)
        adding.addWidget(add)

        self.note = QPlainTextEdit(group.note, objectName="groupNote")
        self.note.setAccessibleName(translate("GroupDialog", "Note"))
        self.note.setTabChangesFocus(True)
        self.note.setPlaceholderText(
            translate("GroupDialog", "what is known, who was asked, what it waits on")
        )
        self.note.setMaximumHeight(100)

        form = QFormLayout()
        form.addRow(translate("GroupDialog", "&Owner"), self.owner)
        form.addRow(translate("GroupDialog", "&Tags"), self.tags)
        form.addRow("", adding)
        form.addRow(translate("GroupDialog", "&Note"), self.note)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.said = QLabel(objectName="groupSaid")
        self.said.setWordWrap(True)

        v = QVBoxLayout(self)
        v.addWidget(about)
        v.addLayout(form)
        v.addWidget(self.said)
        v.addWidget(buttons)
        {"tags": self.tags, "note": self.note}.get(focus, self.owner).setFocus()

    def _add_tag(self, tag: str, checked: bool) -> QListWidgetItem:
        item = QListWidgetItem(tag, self.tags)
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
        item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
        return item

    @Slot()
    def _on_new_tag(self) -> None:
        """A typed tag joins the list, ticked (or ticks the one already there)."""
        tag = self.new_tag.text().strip()
        if not tag:
            return
        found = self.tags.findItems(tag, Qt.MatchFlag.MatchExactly)
        item = found[0] if found else self._add_tag(tag, checked=True)
        item.setCheckState(Qt.CheckState.Checked)
        self.tags.scrollToItem(item)
        self.new_tag.clear()

    def chosen_tags(self) -> set[str]:
        items = (self.tags.item(i) for i in range(self.tags.count()))
        return {i.text() for i in items if i.checkState() == Qt.CheckState.Checked}

    def accept(self) -> None:
        self._on_new_tag()  # a tag typed but not added yet is meant too
        if len(self.note.toPlainText()) > NOTE_CHARS:
            self.said.setText(
                fill(translate("GroupDialog", "A note is at most %1 characters."), NOTE_CHARS)
            )
            return
        super().accept()

    def job(self) -> GroupJob | None:
        """The change asked for, against the version this dialog showed; None: nothing."""
        g = self.group
        owner = self.owner.currentText().strip() or None
        wanted = self.chosen_tags()
        note = self.note.toPlainText().strip()
        job = GroupJob(
            g.signature,
            owner=owner,
            set_owner=owner != g.owner,
            add_tags=tuple(sorted(wanted - set(g.tags))),
            remove_tags=tuple(sorted(set(g.tags) - wanted)),
            note=note if note != g.note else None,
            if_version=g.version,
        )
        changed = job.set_owner or job.add_tags or job.remove_tags or job.note is not None
        return job if changed else None


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
