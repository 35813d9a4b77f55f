"""The Audit tab: the store's audit trail (who did what to which dead letter, and when),
filtered as ``triage-app audit`` filters it, read by ``core.deadletters.audit_page`` on
the tab's own query thread."""

from triage_app.gui.audit.model import AuditTableModel
from triage_app.gui.audit.tab import AuditTab

__all__ = ["AuditTab", "AuditTableModel"]
