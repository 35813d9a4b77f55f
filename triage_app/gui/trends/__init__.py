"""The Trends tab: charts for team leads over ``core.trends`` aggregates. Each chart is a
small module; the numbers all come from core, the widgets only draw them. Importing this
package imports no chart (pyqtgraph): the tab builds its charts when first shown."""

from triage_app.gui.trends.link import Link
from triage_app.gui.trends.spike_banner import SpikeBanner
from triage_app.gui.trends.tab import TrendsTab

__all__ = ["Link", "SpikeBanner", "TrendsTab"]
