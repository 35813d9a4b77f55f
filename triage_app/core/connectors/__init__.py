"""Connectors: dead letters the desk did not make. A dead-letter queue on a broker
(RabbitMQ, ``amqp.py``) or a pipeline's own dead-letter table (``tables.py``) is a source
the desk imports from (``importing.py``: at least once, never twice) and a sink a re-drive
delivers to (``deadletters.Sink``); the connectors themselves are kept in the store
(``stored.py``). ``letters.py`` says what a source gives, and how a Kafka DLQ topic fits."""

from triage_app.core.connectors.importing import ImportSummary, import_letters
from triage_app.core.connectors.letters import (
    DeadLetterSource,
    OutsideLetter,
    bounded_identity,
    identity_of,
)
from triage_app.core.connectors.opening import KindSink, RoutedSink, open_source
from triage_app.core.connectors.origins import OriginInfo, origins_of
from triage_app.core.connectors.shown_sources import batch_sources
from triage_app.core.connectors.stored import (
    AMQP,
    KINDS,
    MAPPING_FIELDS,
    SEED_000,
    TABLE,
    Connector,
    connector_named,
    keep_connector,
    list_connectors,
)

__all__ = [
    "AMQP",
    "KINDS",
    "MAPPING_FIELDS",
    "SEED_000",
    "TABLE",
    "Connector",
    "DeadLetterSource",
    "ImportSummary",
    "KindSink",
    "OriginInfo",
    "OutsideLetter",
    "RoutedSink",
    "batch_sources",
    "bounded_identity",
    "connector_named",
    "identity_of",
    "import_letters",
    "keep_connector",
    "list_connectors",
    "open_source",
    "origins_of",
]
