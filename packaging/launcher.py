"""The frozen app's entry point: the same as the ``triage-app`` console script."""

import multiprocessing

from triage_app.cli import entry

if __name__ == "__main__":
    # A frozen app runs a batch in one lane (core/batch/lanes.py), but anything that starts
    # a process through multiprocessing must not re-run the app in it.
    multiprocessing.freeze_support()
    entry()
