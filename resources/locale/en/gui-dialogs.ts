<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
    <context>
        <name>BatchDialog</name>
        <message>
            <source>Run batch</source>
            <translation>Run batch</translation>
        </message>
        <message>
            <source>a JSONL or CSV file</source>
            <translation>a JSONL or CSV file</translation>
        </message>
        <message>
            <source>Batch file</source>
            <translation>Batch file</translation>
        </message>
        <message>
            <source>Browse…</source>
            <translation>Browse…</translation>
        </message>
        <message>
            <source>Batch file format</source>
            <translation>Batch file format</translation>
        </message>
        <message>
            <source>detect from the name</source>
            <translation>detect from the name</translation>
        </message>
        <message>
            <source>Transform for the batch</source>
            <translation>Transform for the batch</translation>
        </message>
        <message>
            <source>File</source>
            <translation>File</translation>
        </message>
        <message>
            <source>Format</source>
            <translation>Format</translation>
        </message>
        <message>
            <source>Transform</source>
            <translation>Transform</translation>
        </message>
        <message>
            <source>Run</source>
            <translation>Run</translation>
        </message>
        <message>
            <source>Cancel batch</source>
            <translation>Cancel batch</translation>
        </message>
        <message>
            <source>Show its dead letters</source>
            <translation>Show its dead letters</translation>
        </message>
        <message>
            <source>Verify idempotent</source>
            <translation>Verify idempotent</translation>
        </message>
        <message>
            <source>Run this file twice into scratch databases and compare the warehouse's SHA-256: the proof that running it again is safe. Your workspace is not touched.</source>
            <translation>Run this file twice into scratch databases and compare the warehouse's SHA-256: the proof that running it again is safe. Your workspace is not touched.</translation>
        </message>
        <message>
            <source>Batch files in the folder</source>
            <translation>Batch files in the folder</translation>
        </message>
        <message>
            <source>no new %1 file in %2: Browse… (Enter) to choose one</source>
            <translation>no new %1 file in %2: Browse… (Enter) to choose one</translation>
        </message>
        <message>
            <source>no new file in %1: Browse… (Enter) to choose one</source>
            <translation>no new file in %1: Browse… (Enter) to choose one</translation>
        </message>
        <message>
            <source>Choose a batch file</source>
            <translation>Choose a batch file</translation>
        </message>
        <message>
            <source>Batches (*.jsonl *.ndjson *.json *.csv *.tsv);;All files (*)</source>
            <translation>Batches (*.jsonl *.ndjson *.json *.csv *.tsv);;All files (*)</translation>
        </message>
        <message>
            <source>read as %1</source>
            <translation>read as %1</translation>
        </message>
        <message>
            <source>the newest file in %1 not loaded yet; read as %2</source>
            <translation>the newest file in %1 not loaded yet; read as %2</translation>
        </message>
        <message>
            <source>starting…</source>
            <translation>starting…</translation>
        </message>
        <message>
            <source>running the file twice into scratch databases…</source>
            <translation>running the file twice into scratch databases…</translation>
        </message>
        <message>
            <source>Resume</source>
            <translation>Resume</translation>
        </message>
    </context>
    <context>
        <name>ChangeSetsDialog</name>
        <message>
            <source>id</source>
            <translation>id</translation>
        </message>
        <message>
            <source>when</source>
            <translation>when</translation>
        </message>
        <message>
            <source>who</source>
            <translation>who</translation>
        </message>
        <message>
            <source>rows</source>
            <translation>rows</translation>
        </message>
        <message>
            <source>fix</source>
            <translation>fix</translation>
        </message>
        <message>
            <source>reverted</source>
            <translation>reverted</translation>
        </message>
        <message>
            <source>%1 UTC</source>
            <translation>%1 UTC</translation>
        </message>
        <message>
            <source>Change-sets</source>
            <translation>Change-sets</translation>
        </message>
        <message>
            <source>Change-sets, newest first</source>
            <translation>Change-sets, newest first</translation>
        </message>
        <message>
            <source>Revert…</source>
            <translation>Revert…</translation>
        </message>
        <message>
            <source>%1 by %2</source>
            <translation>%1 by %2</translation>
        </message>
        <message>
            <source>No change-sets yet: Re-drive &gt; Fix rows… makes one.</source>
            <translation>No change-sets yet: Re-drive &gt; Fix rows… makes one.</translation>
        </message>
        <message>
            <source>Put the rows this change-set changed back</source>
            <translation>Put the rows this change-set changed back</translation>
        </message>
        <message numerus="yes">
            <source>Put the %Ln row(s) change-set %1 changed (%2) back to their payloads from before? Rows changed since are left as they are.</source>
            <translation>
                <numerusform>Put the %Ln row change-set %1 changed (%2) back to its payload from before? Rows changed since are left as they are.</numerusform>
                <numerusform>Put the %Ln rows change-set %1 changed (%2) back to their payloads from before? Rows changed since are left as they are.</numerusform>
            </translation>
        </message>
        <message>
            <source>Revert the change-set</source>
            <translation>Revert the change-set</translation>
        </message>
        <message>
            <source>reverting change-set %1…</source>
            <translation>reverting change-set %1…</translation>
        </message>
    </context>
    <context>
        <name>ChosenRows</name>
        <message>
            <source>the selected dead letters (none is selected in the table)</source>
            <translation>the selected dead letters (none is selected in the table)</translation>
        </message>
        <message numerus="yes">
            <source>the %Ln selected dead letter(s): %1</source>
            <translation>
                <numerusform>the %Ln selected dead letter: %1</numerusform>
                <numerusform>the %Ln selected dead letters: %1</numerusform>
            </translation>
        </message>
        <message>
            <source>every dead letter matching %1</source>
            <translation>every dead letter matching %1</translation>
        </message>
        <message>
            <source>no dead letters matching %1</source>
            <translation>no dead letters matching %1</translation>
        </message>
        <message numerus="yes">
            <source>all %Ln dead letter(s) matching %1</source>
            <translation>
                <numerusform>the %Ln dead letter matching %1</numerusform>
                <numerusform>all %Ln dead letters matching %1</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>ConnectDialog</name>
        <message>
            <source>Passwords are kept in the system keyring, never in the app's settings.</source>
            <translation>Passwords are kept in the system keyring, never in the app's settings.</translation>
        </message>
        <message>
            <source>password, if the database asks for one</source>
            <translation>password, if the database asks for one</translation>
        </message>
        <message>
            <source>Connect to databases</source>
            <translation>Connect to databases</translation>
        </message>
        <message>
            <source>Warehouse URL</source>
            <translation>Warehouse URL</translation>
        </message>
        <message>
            <source>Warehouse password</source>
            <translation>Warehouse password</translation>
        </message>
        <message>
            <source>Dead-letter store URL</source>
            <translation>Dead-letter store URL</translation>
        </message>
        <message>
            <source>Dead-letter store password</source>
            <translation>Dead-letter store password</translation>
        </message>
        <message>
            <source>Any SQLAlchemy URL (sqlite or postgresql). %1</source>
            <translation>Any SQLAlchemy URL (sqlite or postgresql). %1</translation>
        </message>
        <message>
            <source>password</source>
            <translation>password</translation>
        </message>
        <message>
            <source>Warehouse</source>
            <translation>Warehouse</translation>
        </message>
        <message>
            <source>Dead-letter store</source>
            <translation>Dead-letter store</translation>
        </message>
        <message>
            <source>Test</source>
            <translation>Test</translation>
        </message>
        <message>
            <source>from the system keyring</source>
            <translation>from the system keyring</translation>
        </message>
        <message>
            <source>testing…</source>
            <translation>testing…</translation>
        </message>
    </context>
    <context>
        <name>ConnectorDialog</name>
        <message>
            <source>Import dead letters</source>
            <translation>Import dead letters</translation>
        </message>
        <message>
            <source>Connectors kept in the store</source>
            <translation>Connectors kept in the store</translation>
        </message>
        <message>
            <source>Double-click to import from it again</source>
            <translation>Double-click to import from it again</translation>
        </message>
        <message>
            <source>None yet: connect one below.</source>
            <translation>None yet: connect one below.</translation>
        </message>
        <message>
            <source>Import again</source>
            <translation>Import again</translation>
        </message>
        <message>
            <source>Import what is waiting in the chosen connector's source</source>
            <translation>Import what is waiting in the chosen connector's source</translation>
        </message>
        <message>
            <source>Kind of connector</source>
            <translation>Kind of connector</translation>
        </message>
        <message>
            <source>RabbitMQ dead-letter queue</source>
            <translation>RabbitMQ dead-letter queue</translation>
        </message>
        <message>
            <source>Dead-letter table</source>
            <translation>Dead-letter table</translation>
        </message>
        <message>
            <source>Connector name</source>
            <translation>Connector name</translation>
        </message>
        <message>
            <source>optional: the queue's or table's name</source>
            <translation>optional: the queue's or table's name</translation>
        </message>
        <message>
            <source>The name the team knows it by: the Source column and filter</source>
            <translation>The name the team knows it by: the Source column and filter</translation>
        </message>
        <message>
            <source>all waiting</source>
            <translation>all waiting</translation>
        </message>
        <message numerus="yes">
            <source> letter(s)</source>
            <translation>
                <numerusform> letter</numerusform>
                <numerusform> letters</numerusform>
            </translation>
        </message>
        <message>
            <source>Import at most this many letters (0: all waiting)</source>
            <translation>Import at most this many letters (0: all waiting)</translation>
        </message>
        <message>
            <source>%1: type it each time you import. The store keeps the address without it.</source>
            <translation>%1: type it each time you import. The store keeps the address without it.</translation>
        </message>
        <message>
            <source>Import takes the letters waiting now, a chunk at a time.</source>
            <translation>Import takes the letters waiting now, a chunk at a time.</translation>
        </message>
        <message>
            <source>Import</source>
            <translation>Import</translation>
        </message>
        <message>
            <source>Cancel import</source>
            <translation>Cancel import</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>Name</translation>
        </message>
        <message>
            <source>Limit</source>
            <translation>Limit</translation>
        </message>
        <message>
            <source>Kept in the store:</source>
            <translation>Kept in the store:</translation>
        </message>
        <message>
            <source>Broker URL</source>
            <translation>Broker URL</translation>
        </message>
        <message>
            <source>Dead-letter queue</source>
            <translation>Dead-letter queue</translation>
        </message>
        <message>
            <source>Broker password</source>
            <translation>Broker password</translation>
        </message>
        <message>
            <source>password</source>
            <translation>password</translation>
        </message>
        <message>
            <source>Each letter is acknowledged only once it is stored: a letter is never lost, and one read again is never doubled.</source>
            <translation>Each letter is acknowledged only once it is stored: a letter is never lost, and one read again is never doubled.</translation>
        </message>
        <message>
            <source>Database URL</source>
            <translation>Database URL</translation>
        </message>
        <message>
            <source>Database password</source>
            <translation>Database password</translation>
        </message>
        <message>
            <source>Column of the %1</source>
            <translation>Column of the %1</translation>
        </message>
        <message>
            <source>none</source>
            <translation>none</translation>
        </message>
        <message>
            <source>Table re-driven rows go to</source>
            <translation>Table re-driven rows go to</translation>
        </message>
        <message>
            <source>Where Re-drive to the source writes the fixed rows</source>
            <translation>Where Re-drive to the source writes the fixed rows</translation>
        </message>
        <message>
            <source>keep it</source>
            <translation>keep it</translation>
        </message>
        <message>
            <source>delete it</source>
            <translation>delete it</translation>
        </message>
        <message>
            <source>mark it in column</source>
            <translation>mark it in column</translation>
        </message>
        <message>
            <source>Once its row is loaded, the dead-letter table's row</source>
            <translation>Once its row is loaded, the dead-letter table's row</translation>
        </message>
        <message>
            <source>Column marked after loading</source>
            <translation>Column marked after loading</translation>
        </message>
        <message>
            <source>Columns</source>
            <translation>Columns</translation>
        </message>
        <message>
            <source>Re-drive loads into</source>
            <translation>Re-drive loads into</translation>
        </message>
        <message>
            <source>then the source row:</source>
            <translation>then the source row:</translation>
        </message>
        <message>
            <source>Give the broker's URL: amqp://user@host:5672/vhost</source>
            <translation>Give the broker's URL: amqp://user@host:5672/vhost</translation>
        </message>
        <message>
            <source>Name the dead-letter queue to import from.</source>
            <translation>Name the dead-letter queue to import from.</translation>
        </message>
        <message>
            <source>Give the database's URL: postgresql://user@host/pipeline (or sqlite:///…)</source>
            <translation>Give the database's URL: postgresql://user@host/pipeline (or sqlite:///…)</translation>
        </message>
        <message>
            <source>Name the dead-letter table to import from.</source>
            <translation>Name the dead-letter table to import from.</translation>
        </message>
        <message>
            <source>Name the column to mark once a row is re-driven.</source>
            <translation>Name the column to mark once a row is re-driven.</translation>
        </message>
        <message>
            <source>Choose a kept connector first.</source>
            <translation>Choose a kept connector first.</translation>
        </message>
    </context>
    <context>
        <name>DiscardDialog</name>
        <message>
            <source>Discard dead letters</source>
            <translation>Discard dead letters</translation>
        </message>
        <message>
            <source>Discard</source>
            <translation>Discard</translation>
        </message>
        <message>
            <source>why these rows are junk (kept in each row's history)</source>
            <translation>why these rows are junk (kept in each row's history)</translation>
        </message>
        <message>
            <source>Reason for discarding</source>
            <translation>Reason for discarding</translation>
        </message>
        <message>
            <source>Reason</source>
            <translation>Reason</translation>
        </message>
        <message>
            <source>Rows to discard (a sample)</source>
            <translation>Rows to discard (a sample)</translation>
        </message>
        <message>
            <source>The first of them:</source>
            <translation>The first of them:</translation>
        </message>
        <message>
            <source>Discard %1</source>
            <translation>Discard %1</translation>
        </message>
        <message>
            <source>Give a reason first: it is kept in each row's history</source>
            <translation>Give a reason first: it is kept in each row's history</translation>
        </message>
        <message>
            <source>discarding…</source>
            <translation>discarding…</translation>
        </message>
        <message>
            <source>looking…</source>
            <translation>looking…</translation>
        </message>
        <message numerus="yes">
            <source>The rows changed while this was open: it now names %Ln dead letter(s), not the %1 named before. Discard acts on the rows named below.</source>
            <translation>
                <numerusform>The rows changed while this was open: it now names %Ln dead letter, not the %1 named before. Discard acts on the rows named below.</numerusform>
                <numerusform>The rows changed while this was open: it now names %Ln dead letters, not the %1 named before. Discard acts on the rows named below.</numerusform>
            </translation>
        </message>
        <message>
            <source>Not done: %1</source>
            <translation>Not done: %1</translation>
        </message>
    </context>
    <context>
        <name>FixDialog</name>
        <message>
            <source>Fix dead letters</source>
            <translation>Fix dead letters</translation>
        </message>
        <message>
            <source>Apply</source>
            <translation>Apply</translation>
        </message>
        <message>
            <source>Kind of step</source>
            <translation>Kind of step</translation>
        </message>
        <message>
            <source>field, e.g. diskon</source>
            <translation>field, e.g. diskon</translation>
        </message>
        <message>
            <source>Field the step changes</source>
            <translation>Field the step changes</translation>
        </message>
        <message>
            <source>Value for the step</source>
            <translation>Value for the step</translation>
        </message>
        <message>
            <source>Add step</source>
            <translation>Add step</translation>
        </message>
        <message>
            <source>Remove step</source>
            <translation>Remove step</translation>
        </message>
        <message>
            <source>Steps of the fix, in order</source>
            <translation>Steps of the fix, in order</translation>
        </message>
        <message>
            <source>JSON Patch</source>
            <translation>JSON Patch</translation>
        </message>
        <message>
            <source>How the fix is written: steps or a JSON Patch</source>
            <translation>How the fix is written: steps or a JSON Patch</translation>
        </message>
        <message>
            <source>Steps</source>
            <translation>Steps</translation>
        </message>
        <message>
            <source>Transform to try the fixed payloads with</source>
            <translation>Transform to try the fixed payloads with</translation>
        </message>
        <message>
            <source>(none: only the patched payloads)</source>
            <translation>(none: only the patched payloads)</translation>
        </message>
        <message>
            <source>Fix</source>
            <translation>Fix</translation>
        </message>
        <message>
            <source>Try with</source>
            <translation>Try with</translation>
        </message>
        <message>
            <source>Fix preview</source>
            <translation>Fix preview</translation>
        </message>
        <message>
            <source>Preview first: it shows each row before and after, and writes nothing.</source>
            <translation>Preview first: it shows each row before and after, and writes nothing.</translation>
        </message>
        <message>
            <source>Preview</source>
            <translation>Preview</translation>
        </message>
        <message>
            <source>Apply as a change-set</source>
            <translation>Apply as a change-set</translation>
        </message>
        <message>
            <source>add a step first (a kind, a field and, for most, a value)</source>
            <translation>add a step first (a kind, a field and, for most, a value)</translation>
        </message>
        <message>
            <source>Preview again: the fix or the rows to fix changed.</source>
            <translation>Preview again: the fix or the rows to fix changed.</translation>
        </message>
        <message>
            <source>Apply changes exactly these: %1.</source>
            <translation>Apply changes exactly these: %1.</translation>
        </message>
        <message>
            <source>Apply to %1 as a change-set</source>
            <translation>Apply to %1 as a change-set</translation>
        </message>
    </context>
    <context>
        <name>GroupDialog</name>
        <message>
            <source>Error group</source>
            <translation>Error group</translation>
        </message>
        <message numerus="yes">
            <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2: %Ln dead letter(s), %3 open, the oldest open since %4 UTC</source>
            <translation>
                <numerusform>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2: %Ln dead letter, %3 open, the oldest open since %4 UTC</numerusform>
                <numerusform>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2: %Ln dead letters, %3 open, the oldest open since %4 UTC</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2: %Ln dead letter(s), %3 open</source>
            <translation>
                <numerusform>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2: %Ln dead letter, %3 open</numerusform>
                <numerusform>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2: %Ln dead letters, %3 open</numerusform>
            </translation>
        </message>
        <message>
            <source>nobody</source>
            <translation>nobody</translation>
        </message>
        <message>
            <source>Owner</source>
            <translation>Owner</translation>
        </message>
        <message>
            <source>Tags</source>
            <translation>Tags</translation>
        </message>
        <message>
            <source>another tag, then Enter</source>
            <translation>another tag, then Enter</translation>
        </message>
        <message>
            <source>New tag</source>
            <translation>New tag</translation>
        </message>
        <message>
            <source>Add</source>
            <translation>Add</translation>
        </message>
        <message>
            <source>Note</source>
            <translation>Note</translation>
        </message>
        <message>
            <source>what is known, who was asked, what it waits on</source>
            <translation>what is known, who was asked, what it waits on</translation>
        </message>
        <message>
            <source>&amp;Owner</source>
            <translation>&amp;Owner</translation>
        </message>
        <message>
            <source>&amp;Tags</source>
            <translation>&amp;Tags</translation>
        </message>
        <message>
            <source>&amp;Note</source>
            <translation>&amp;Note</translation>
        </message>
        <message>
            <source>A note is at most %1 characters.</source>
            <translation>A note is at most %1 characters.</translation>
        </message>
    </context>
    <context>
        <name>JobDialog</name>
        <message>
            <source>cancelling at the next chunk…</source>
            <translation>cancelling at the next chunk…</translation>
        </message>
    </context>
    <context>
        <name>RedriveDialog</name>
        <message>
            <source>Re-drive to the source</source>
            <translation>Re-drive to the source</translation>
        </message>
        <message>
            <source>Re-drive dead letters</source>
            <translation>Re-drive dead letters</translation>
        </message>
        <message>
            <source>Re-drive</source>
            <translation>Re-drive</translation>
        </message>
        <message>
            <source>Transform for the re-drive</source>
            <translation>Transform for the re-drive</translation>
        </message>
        <message>
            <source>Where the re-driven rows go</source>
            <translation>Where the re-driven rows go</translation>
        </message>
        <message>
            <source>Broker exchange and routing key</source>
            <translation>Broker exchange and routing key</translation>
        </message>
        <message>
            <source>To</source>
            <translation>To</translation>
        </message>
        <message>
            <source>Transform</source>
            <translation>Transform</translation>
        </message>
        <message>
            <source>Canary first:</source>
            <translation>Canary first:</translation>
        </message>
        <message>
            <source>10 or 1%</source>
            <translation>10 or 1%</translation>
        </message>
        <message numerus="yes">
            <source> row(s)</source>
            <translation>
                <numerusform> row</numerusform>
                <numerusform> rows</numerusform>
            </translation>
        </message>
        <message>
            <source>Rows re-driven first, as a canary</source>
            <translation>Rows re-driven first, as a canary</translation>
        </message>
        <message>
            <source> % failed</source>
            <translation> % failed</translation>
        </message>
        <message>
            <source>stop above </source>
            <translation>stop above </translation>
        </message>
        <message>
            <source>Stop when more than this share of rows failed</source>
            <translation>Stop when more than this share of rows failed</translation>
        </message>
        <message>
            <source>Stop by itself</source>
            <translation>Stop by itself</translation>
        </message>
        <message>
            <source>full speed</source>
            <translation>full speed</translation>
        </message>
        <message>
            <source> rows/s</source>
            <translation> rows/s</translation>
        </message>
        <message>
            <source>Pace, rows a second (0: full speed)</source>
            <translation>Pace, rows a second (0: full speed)</translation>
        </message>
        <message>
            <source>Pace:</source>
            <translation>Pace:</translation>
        </message>
        <message>
            <source>Guard</source>
            <translation>Guard</translation>
        </message>
        <message>
            <source>Re-drive results</source>
            <translation>Re-drive results</translation>
        </message>
        <message>
            <source>Preview first: a dry run shows what would happen and writes nothing.</source>
            <translation>Preview first: a dry run shows what would happen and writes nothing.</translation>
        </message>
        <message>
            <source>Preview (dry run)</source>
            <translation>Preview (dry run)</translation>
        </message>
        <message>
            <source>Cancel re-drive</source>
            <translation>Cancel re-drive</translation>
        </message>
        <message>
            <source>Each imported row goes back to its own queue's exchange and routing key, or its pipeline's table; rows not confirmed stay open, with why.</source>
            <translation>Each imported row goes back to its own queue's exchange and routing key, or its pipeline's table; rows not confirmed stay open, with why.</translation>
        </message>
        <message>
            <source>A dead-letter table takes rows: its rows need a transform version.</source>
            <translation>A dead-letter table takes rows: its rows need a transform version.</translation>
        </message>
        <message>
            <source>Every row goes to this exchange and routing key; rows not confirmed stay open.</source>
            <translation>Every row goes to this exchange and routing key; rows not confirmed stay open.</translation>
        </message>
        <message>
            <source>Preview again: the rows to re-drive changed.</source>
            <translation>Preview again: the rows to re-drive changed.</translation>
        </message>
        <message>
            <source>Give the exchange: amqp://host/vhost/exchange/routing-key</source>
            <translation>Give the exchange: amqp://host/vhost/exchange/routing-key</translation>
        </message>
        <message>
            <source>previewing…</source>
            <translation>previewing…</translation>
        </message>
        <message>
            <source>re-driving…</source>
            <translation>re-driving…</translation>
        </message>
        <message>
            <source>Re-drive %1</source>
            <translation>Re-drive %1</translation>
        </message>
        <message>
            <source>Re-drive %1 acts on exactly these: %2.</source>
            <translation>Re-drive %1 acts on exactly these: %2.</translation>
        </message>
    </context>
    <context>
        <name>ReprocessDialog</name>
        <message>
            <source>Suspect a version</source>
            <translation>Suspect a version</translation>
        </message>
        <message>
            <source>The suspect version: its rows are judged again</source>
            <translation>The suspect version: its rows are judged again</translation>
        </message>
        <message>
            <source>The fixed version the rows are run through</source>
            <translation>The fixed version the rows are run through</translation>
        </message>
        <message>
            <source>every batch (or a batch id: its start is enough)</source>
            <translation>every batch (or a batch id: its start is enough)</translation>
        </message>
        <message>
            <source>Only the rows this batch wrote (optional)</source>
            <translation>Only the rows this batch wrote (optional)</translation>
        </message>
        <message>
            <source>Suspect version</source>
            <translation>Suspect version</translation>
        </message>
        <message>
            <source>Fixed version</source>
            <translation>Fixed version</translation>
        </message>
        <message>
            <source>Batch</source>
            <translation>Batch</translation>
        </message>
        <message>
            <source>The rows that change, now fail or have no input</source>
            <translation>The rows that change, now fail or have no input</translation>
        </message>
        <message>
            <source>Check first: a dry run judges every row the suspect version last wrote and writes nothing.</source>
            <translation>Check first: a dry run judges every row the suspect version last wrote and writes nothing.</translation>
        </message>
        <message>
            <source>Check (dry run)</source>
            <translation>Check (dry run)</translation>
        </message>
        <message>
            <source>Apply…</source>
            <translation>Apply…</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>Cancel</translation>
        </message>
        <message>
            <source>%1  (counting…)</source>
            <translation>%1  (counting…)</translation>
        </message>
        <message numerus="yes">
            <source>%1  (last wrote %Ln row(s))</source>
            <translation>
                <numerusform>%1  (last wrote %Ln row)</numerusform>
                <numerusform>%1  (last wrote %Ln rows)</numerusform>
            </translation>
        </message>
        <message>
            <source>The rows each version wrote could not be counted: %1</source>
            <translation>The rows each version wrote could not be counted: %1</translation>
        </message>
        <message>
            <source>Check again: the versions or the batch changed.</source>
            <translation>Check again: the versions or the batch changed.</translation>
        </message>
        <message>
            <source>Reprocess the rows %1 last wrote (batch %2) with %3?</source>
            <translation>Reprocess the rows %1 last wrote (batch %2) with %3?</translation>
        </message>
        <message>
            <source>Reprocess the rows %1 last wrote with %2?</source>
            <translation>Reprocess the rows %1 last wrote with %2?</translation>
        </message>
        <message>
            <source>The check at %1 found %2 to change and %3 now failing, to quarantine as dead letters of the run; %4 unchanged are not touched.</source>
            <translation>The check at %1 found %2 to change and %3 now failing, to quarantine as dead letters of the run; %4 unchanged are not touched.</translation>
        </message>
        <message>
            <source>These counts are the check's: the apply judges every row again, and leaves alone a row written since by a later batch or re-drive.</source>
            <translation>These counts are the check's: the apply judges every row again, and leaves alone a row written since by a later batch or re-drive.</translation>
        </message>
        <message>
            <source>Apply the reprocess</source>
            <translation>Apply the reprocess</translation>
        </message>
        <message>
            <source>checking…</source>
            <translation>checking…</translation>
        </message>
        <message>
            <source>reprocessing…</source>
            <translation>reprocessing…</translation>
        </message>
        <message>
            <source>Check cancelled: nothing was written. Check again to see it.</source>
            <translation>Check cancelled: nothing was written. Check again to see it.</translation>
        </message>
        <message>
            <source>Counts from the check at %1. The warehouse may change before you apply: the apply judges every row again and says what it did.</source>
            <translation>Counts from the check at %1. The warehouse may change before you apply: the apply judges every row again and says what it did.</translation>
        </message>
        <message>
            <source>Apply… updates %1 and quarantines %2.</source>
            <translation>Apply… updates %1 and quarantines %2.</translation>
        </message>
        <message>
            <source>Counts from the apply, judged when it started (run %1).</source>
            <translation>Counts from the apply, judged when it started (run %1).</translation>
        </message>
        <message>
            <source>Counts from the apply, judged when it started.</source>
            <translation>Counts from the apply, judged when it started.</translation>
        </message>
        <message>
            <source>As the check said.</source>
            <translation>As the check said.</translation>
        </message>
        <message>
            <source>The check had found %1 to change and %2 now failing; the apply updated %3 and quarantined %4.</source>
            <translation>The check had found %1 to change and %2 now failing; the apply updated %3 and quarantined %4.</translation>
        </message>
        <message numerus="yes">
            <source>%Ln row(s) the check would have changed were left alone: written since the check.</source>
            <translation>
                <numerusform>%Ln row the check would have changed was left alone: written since the check.</numerusform>
                <numerusform>%Ln rows the check would have changed were left alone: written since the check.</numerusform>
            </translation>
        </message>
        <message>
            <source>No check yet.</source>
            <translation>No check yet.</translation>
        </message>
    </context>
    <context>
        <name>RetentionDialog</name>
        <message>
            <source>Retention</source>
            <translation>Retention</translation>
        </message>
        <message>
            <source>Resolved and discarded dead letters closed longer ago than this are deleted, with their history. Open and parked ones are never purged. Trends keep counting what was purged. Each batch's input is kept for reprocessing as long as the last line says, unless a batch still needs it. The policy is kept in the store: the whole team shares it.</source>
            <translation>Resolved and discarded dead letters closed longer ago than this are deleted, with their history. Open and parked ones are never purged. Trends keep counting what was purged. Each batch's input is kept for reprocessing as long as the last line says, unless a batch still needs it. The policy is kept in the store: the whole team shares it.</translation>
        </message>
        <message>
            <source>reading the store's policy…</source>
            <translation>reading the store's policy…</translation>
        </message>
        <message numerus="yes">
            <source> day(s) ago</source>
            <translation>
                <numerusform> day ago</numerusform>
                <numerusform> days ago</numerusform>
            </translation>
        </message>
        <message>
            <source>closed (resolved, or discarded) more than this many days ago</source>
            <translation>closed (resolved, or discarded) more than this many days ago</translation>
        </message>
        <message>
            <source>Purge what closed more than this many days ago</source>
            <translation>Purge what closed more than this many days ago</translation>
        </message>
        <message>
            <source>resolved</source>
            <translation>resolved</translation>
        </message>
        <message>
            <source>discarded</source>
            <translation>discarded</translation>
        </message>
        <message numerus="yes">
            <source> day(s)</source>
            <translation>
                <numerusform> day</numerusform>
                <numerusform> days</numerusform>
            </translation>
        </message>
        <message>
            <source>a batch's kept source is forgotten this long after it was kept</source>
            <translation>a batch's kept source is forgotten this long after it was kept</translation>
        </message>
        <message>
            <source>Keep each batch's source this many days</source>
            <translation>Keep each batch's source this many days</translation>
        </message>
        <message>
            <source>forever</source>
            <translation>forever</translation>
        </message>
        <message>
            <source>Purge</source>
            <translation>Purge</translation>
        </message>
        <message>
            <source>closed more than</source>
            <translation>closed more than</translation>
        </message>
        <message>
            <source>Keep batch sources</source>
            <translation>Keep batch sources</translation>
        </message>
        <message>
            <source>Save policy</source>
            <translation>Save policy</translation>
        </message>
        <message>
            <source>Keep this policy in the store, for the whole team</source>
            <translation>Keep this policy in the store, for the whole team</translation>
        </message>
        <message>
            <source>Purge now…</source>
            <translation>Purge now…</translation>
        </message>
        <message>
            <source>No retention policy is set for this store; %1 (the default).</source>
            <translation>No retention policy is set for this store; %1 (the default).</translation>
        </message>
        <message>
            <source>The store's policy: purge %1; %2.</source>
            <translation>The store's policy: purge %1; %2.</translation>
        </message>
        <message>
            <source>Tick resolved, discarded or both.</source>
            <translation>Tick resolved, discarded or both.</translation>
        </message>
        <message>
            <source>counting what it would purge now…</source>
            <translation>counting what it would purge now…</translation>
        </message>
        <message>
            <source>Purge %1 now…</source>
            <translation>Purge %1 now…</translation>
        </message>
        <message>
            <source>Saved: the whole team's purges now follow this policy.</source>
            <translation>Saved: the whole team's purges now follow this policy.</translation>
        </message>
        <message>
            <source>%1

They are deleted with their history; this cannot be undone. Trends keep counting them.</source>
            <translation>%1

They are deleted with their history; this cannot be undone. Trends keep counting them.</translation>
        </message>
        <message>
            <source>Purge dead letters</source>
            <translation>Purge dead letters</translation>
        </message>
        <message>
            <source>purging…</source>
            <translation>purging…</translation>
        </message>
    </context>
    <context>
        <name>RowsScope</name>
        <message>
            <source>Rows to act on</source>
            <translation>Rows to act on</translation>
        </message>
        <message>
            <source>Too many rows selected to name them: choose the filter's rows instead.</source>
            <translation>Too many rows selected to name them: choose the filter's rows instead.</translation>
        </message>
        <message>
            <source>Nothing to preview: %1.</source>
            <translation>Nothing to preview: %1.</translation>
        </message>
        <message>
            <source>The rows changed since the preview: this now names %1. Nothing will be done until you preview again.</source>
            <translation>The rows changed since the preview: this now names %1. Nothing will be done until you preview again.</translation>
        </message>
        <message numerus="yes">
            <source>The rows changed since the preview (the preview was of %Ln row(s)): this now names %1. Nothing will be done until you preview again.</source>
            <translation>
                <numerusform>The rows changed since the preview (the preview was of %Ln row): this now names %1. Nothing will be done until you preview again.</numerusform>
                <numerusform>The rows changed since the preview (the preview was of %Ln rows): this now names %1. Nothing will be done until you preview again.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>The store changed since the preview. The filter now matches %1; the preview covered %2. %3 acts on the %Ln previewed row(s) only, and leaves out, naming them, any changed since. Preview again to include the others.</source>
            <translation>
                <numerusform>The store changed since the preview. The filter now matches %1; the preview covered %2. %3 acts on the %Ln previewed row only, and leaves out, naming them, any changed since. Preview again to include the others.</numerusform>
                <numerusform>The store changed since the preview. The filter now matches %1; the preview covered %2. %3 acts on the %Ln previewed rows only, and leaves out, naming them, any changed since. Preview again to include the others.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>The store changed since the preview. %1 acts on the %Ln previewed row(s) only, and leaves out, naming them, any changed since. Preview again to include the others.</source>
            <translation>
                <numerusform>The store changed since the preview. %1 acts on the %Ln previewed row only, and leaves out, naming them, any changed since. Preview again to include the others.</numerusform>
                <numerusform>The store changed since the preview. %1 acts on the %Ln previewed rows only, and leaves out, naming them, any changed since. Preview again to include the others.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>the %Ln selected dead letter(s) (too many to name: narrow the filter)</source>
            <translation>
                <numerusform>the %Ln selected dead letter (too many to name: narrow the filter)</numerusform>
                <numerusform>the %Ln selected dead letters (too many to name: narrow the filter)</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>batch_dialog</name>
        <message numerus="yes">
            <source>&lt;b&gt;Idempotent.&lt;/b&gt; Two runs of %Ln row(s) through %1 left the same warehouse (SHA-256 %2…) and the same dead letters (%3): running it again is safe.</source>
            <translation>
                <numerusform>&lt;b&gt;Idempotent.&lt;/b&gt; Two runs of %Ln row through %1 left the same warehouse (SHA-256 %2…) and the same dead letters (%3): running it again is safe.</numerusform>
                <numerusform>&lt;b&gt;Idempotent.&lt;/b&gt; Two runs of %Ln rows through %1 left the same warehouse (SHA-256 %2…) and the same dead letters (%3): running it again is safe.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>&lt;b&gt;Not idempotent.&lt;/b&gt; Two runs of %Ln row(s) through %1 differ: SHA-256 %2… then %3…. Do not retry this transform before fixing it.</source>
            <translation>
                <numerusform>&lt;b&gt;Not idempotent.&lt;/b&gt; Two runs of %Ln row through %1 differ: SHA-256 %2… then %3…. Do not retry this transform before fixing it.</numerusform>
                <numerusform>&lt;b&gt;Not idempotent.&lt;/b&gt; Two runs of %Ln rows through %1 differ: SHA-256 %2… then %3…. Do not retry this transform before fixing it.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>&lt;b&gt;Not idempotent.&lt;/b&gt; Two runs of %Ln row(s) through %1 differ: SHA-256 %2… then %3…, and the dead letters differ. Do not retry this transform before fixing it.</source>
            <translation>
                <numerusform>&lt;b&gt;Not idempotent.&lt;/b&gt; Two runs of %Ln row through %1 differ: SHA-256 %2… then %3…, and the dead letters differ. Do not retry this transform before fixing it.</numerusform>
                <numerusform>&lt;b&gt;Not idempotent.&lt;/b&gt; Two runs of %Ln rows through %1 differ: SHA-256 %2… then %3…, and the dead letters differ. Do not retry this transform before fixing it.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>connector_dialog</name>
        <message>
            <source>payload</source>
            <translation>payload</translation>
        </message>
        <message>
            <source>error</source>
            <translation>error</translation>
        </message>
        <message>
            <source>class</source>
            <translation>class</translation>
        </message>
        <message>
            <source>attempts</source>
            <translation>attempts</translation>
        </message>
        <message>
            <source>id</source>
            <translation>id</translation>
        </message>
        <message>
            <source>time</source>
            <translation>time</translation>
        </message>
        <message>
            <source>line</source>
            <translation>line</translation>
        </message>
        <message>
            <source>the payload, as the pipeline received it</source>
            <translation>the payload, as the pipeline received it</translation>
        </message>
        <message>
            <source>the error the pipeline reported</source>
            <translation>the error the pipeline reported</translation>
        </message>
        <message>
            <source>data, code or transient (else judged from the error)</source>
            <translation>data, code or transient (else judged from the error)</translation>
        </message>
        <message>
            <source>how often it was tried</source>
            <translation>how often it was tried</translation>
        </message>
        <message>
            <source>the row's key: its identity, so no row is imported twice</source>
            <translation>the row's key: its identity, so no row is imported twice</translation>
        </message>
        <message>
            <source>when it failed (empty: when imported)</source>
            <translation>when it failed (empty: when imported)</translation>
        </message>
        <message>
            <source>its line in the pipeline's input</source>
            <translation>its line in the pipeline's input</translation>
        </message>
        <message>
            <source>Name the column that holds the payload.</source>
            <translation>Name the column that holds the payload.</translation>
        </message>
        <message>
            <source>Name the column that holds the error.</source>
            <translation>Name the column that holds the error.</translation>
        </message>
        <message>
            <source>Name the column that holds the row's key.</source>
            <translation>Name the column that holds the row's key.</translation>
        </message>
        <message>
            <source>The password goes to the system keyring, never to the store or the app's settings: the store keeps the address without it, and each desk keeps its own.</source>
            <translation>The password goes to the system keyring, never to the store or the app's settings: the store keeps the address without it, and each desk keeps its own.</translation>
        </message>
        <message>
            <source>password, if it asks for one</source>
            <translation>password, if it asks for one</translation>
        </message>
    </context>
    <context>
        <name>discard_dialog</name>
        <message>
            <source>Reopen brings them back until retention purges them.</source>
            <translation>Reopen brings them back until retention purges them.</translation>
        </message>
        <message>
            <source>id</source>
            <translation>id</translation>
        </message>
        <message>
            <source>batch</source>
            <translation>batch</translation>
        </message>
        <message>
            <source>line</source>
            <translation>line</translation>
        </message>
        <message>
            <source>class</source>
            <translation>class</translation>
        </message>
        <message>
            <source>status</source>
            <translation>status</translation>
        </message>
        <message>
            <source>error</source>
            <translation>error</translation>
        </message>
        <message>
            <source>Nothing to discard.</source>
            <translation>Nothing to discard.</translation>
        </message>
        <message numerus="yes">
            <source>Discard %Ln dead letter(s): %1.</source>
            <translation>
                <numerusform>Discard %Ln dead letter: %1.</numerusform>
                <numerusform>Discard %Ln dead letters: %1.</numerusform>
            </translation>
        </message>
        <message>
            <source>Already discarded: %1.</source>
            <translation>Already discarded: %1.</translation>
        </message>
        <message>
            <source>Not discarded, %1: %2 (%3).</source>
            <translation>Not discarded, %1: %2 (%3).</translation>
        </message>
    </context>
    <context>
        <name>fix_dialog</name>
        <message>
            <source>value (JSON, or text)</source>
            <translation>value (JSON, or text)</translation>
        </message>
        <message>
            <source>Set</source>
            <translation>Set</translation>
        </message>
        <message>
            <source>Default where missing or null</source>
            <translation>Default where missing or null</translation>
        </message>
        <message>
            <source>Rename to</source>
            <translation>Rename to</translation>
        </message>
        <message>
            <source>new field name</source>
            <translation>new field name</translation>
        </message>
        <message>
            <source>Trim spaces</source>
            <translation>Trim spaces</translation>
        </message>
        <message>
            <source>Text to number</source>
            <translation>Text to number</translation>
        </message>
        <message>
            <source>Map values</source>
            <translation>Map values</translation>
        </message>
        <message>
            <source>JSON object, e.g. {"lunas": "paid"}</source>
            <translation>JSON object, e.g. {"lunas": "paid"}</translation>
        </message>
        <message>
            <source>id</source>
            <translation>id</translation>
        </message>
        <message>
            <source>outcome</source>
            <translation>outcome</translation>
        </message>
        <message>
            <source>what changes, or why not</source>
            <translation>what changes, or why not</translation>
        </message>
        <message>
            <source>what the transform makes of it</source>
            <translation>what the transform makes of it</translation>
        </message>
        <message>
            <source>%1 of %2 would change (through %3: %4 would load, %5 would still fail). Not applicable to %6: %7. Nothing was written.</source>
            <translation>%1 of %2 would change (through %3: %4 would load, %5 would still fail). Not applicable to %6: %7. Nothing was written.</translation>
        </message>
        <message>
            <source>%1 of %2 would change (through %3: %4 would load, %5 would still fail). Nothing was written.</source>
            <translation>%1 of %2 would change (through %3: %4 would load, %5 would still fail). Nothing was written.</translation>
        </message>
        <message>
            <source>%1 of %2 would change. Not applicable to %3: %4. Nothing was written.</source>
            <translation>%1 of %2 would change. Not applicable to %3: %4. Nothing was written.</translation>
        </message>
        <message>
            <source>%1 of %2 would change. Nothing was written.</source>
            <translation>%1 of %2 would change. Nothing was written.</translation>
        </message>
        <message>
            <source>before: %1
after: %2</source>
            <translation>before: %1
after: %2</translation>
        </message>
    </context>
    <context>
        <name>redrive_dialog</name>
        <message>
            <source>id</source>
            <translation>id</translation>
        </message>
        <message>
            <source>line</source>
            <translation>line</translation>
        </message>
        <message>
            <source>outcome</source>
            <translation>outcome</translation>
        </message>
        <message>
            <source>error, or the row it loads</source>
            <translation>error, or the row it loads</translation>
        </message>
        <message>
            <source>The warehouse, through the transform</source>
            <translation>The warehouse, through the transform</translation>
        </message>
        <message>
            <source>Where each came from: its queue's exchange, or its table</source>
            <translation>Where each came from: its queue's exchange, or its table</translation>
        </message>
        <message>
            <source>One broker exchange:</source>
            <translation>One broker exchange:</translation>
        </message>
        <message>
            <source>as they are (validate nothing)</source>
            <translation>as they are (validate nothing)</translation>
        </message>
    </context>
    <context>
        <name>reprocess_dialog</name>
        <message>
            <source>key</source>
            <translation>key</translation>
        </message>
        <message>
            <source>batch</source>
            <translation>batch</translation>
        </message>
        <message>
            <source>line</source>
            <translation>line</translation>
        </message>
        <message>
            <source>verdict</source>
            <translation>verdict</translation>
        </message>
        <message>
            <source>diff, or why it fails</source>
            <translation>diff, or why it fails</translation>
        </message>
        <message>
            <source>unchanged</source>
            <translation>unchanged</translation>
        </message>
        <message>
            <source>Rows unchanged</source>
            <translation>Rows unchanged</translation>
        </message>
        <message>
            <source>changed</source>
            <translation>changed</translation>
        </message>
        <message>
            <source>Rows changed</source>
            <translation>Rows changed</translation>
        </message>
        <message>
            <source>now failing</source>
            <translation>now failing</translation>
        </message>
        <message>
            <source>Rows now failing</source>
            <translation>Rows now failing</translation>
        </message>
        <message>
            <source>no input</source>
            <translation>no input</translation>
        </message>
        <message>
            <source>Rows with no input</source>
            <translation>Rows with no input</translation>
        </message>
        <message numerus="yes">
            <source>%Ln row(s)</source>
            <translation>
                <numerusform>%Ln row</numerusform>
                <numerusform>%Ln rows</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>retention_dialog</name>
        <message>
            <source>Kept sources: kept forever, none forgotten.</source>
            <translation>Kept sources: kept forever, none forgotten.</translation>
        </message>
    </context>
</TS>
