"""Demo data: the demo workspace, synthetic order batches in the seed's shape, and synthetic
dead-letter stores (a bulk filler, and a months-long history for Trends). The tests,
benchmarks and screenshot scripts build their data here too."""

from triage_app.core.demo.history import fill_history
from triage_app.core.demo.orders import write_orders
from triage_app.core.demo.seed import batches_not_the_demos, make_demo
from triage_app.core.demo.store import StoreFiller, order_payload

__all__ = [
    "StoreFiller",
    "batches_not_the_demos",
    "fill_history",
    "make_demo",
    "order_payload",
    "write_orders",
]
