"""Proofs a user can ask for: that every line of a stored batch was counted exactly once
(``reconcile``), and that running a file twice changes nothing (``verify_idempotent``)."""

from triage_app.core.verify.idempotence import IdempotenceProof, verify_idempotent
from triage_app.core.verify.reconciliation import Reconciliation, reconcile

__all__ = ["IdempotenceProof", "Reconciliation", "reconcile", "verify_idempotent"]
