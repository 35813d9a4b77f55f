"""The dialogs the window opens: run a batch, re-drive, connect to databases."""
