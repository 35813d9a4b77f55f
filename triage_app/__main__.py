import sys

from triage_app.cli import main

sys.exit(main(fast_exit=True))
