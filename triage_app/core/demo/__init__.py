"""Demo data: the demo workspace, synthetic order batches and journal postings in the seed's
shape, and synthetic
dead-letter stores (a bulk filler, and a months-long history for Trends). The tests,
benchmarks and screenshot scripts build their data here too."""

from triage_app.core.demo.history import fill_history
from triage_app.core.demo.journals import demo_journal, journal_lines, write_journals
from triage_app.core.demo.orders import write_orders
from triage_app.core.demo.seed import batches_not_the_demos, make_demo
from triage_app.core.demo.store import StoreFiller, order_payload

__all__ = [
    "StoreFiller",
    "batches_not_the_demos",
    "demo_journal",
    "fill_history",
    "journal_lines",
    "make_demo",
    "order_payload",
    "write_journals",
    "write_orders",
]
