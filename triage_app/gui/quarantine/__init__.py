"""The steward's view: the filter bar, the paged table, the detail pane with its JSON
editor, and the guard that never lets an unsaved edit go silently."""
