<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
    <context>
        <name>AuditTab</name>
        <message>
            <source>Since</source>
            <translation>Since</translation>
        </message>
        <message>
            <source>Only events from this UTC day on</source>
            <translation>Only events from this UTC day on</translation>
        </message>
        <message>
            <source>who: any part of the name</source>
            <translation>who: any part of the name</translation>
        </message>
        <message>
            <source>any</source>
            <translation>any</translation>
        </message>
        <message>
            <source>Audit events since</source>
            <translation>Audit events since</translation>
        </message>
        <message>
            <source>Audit actor filter</source>
            <translation>Audit actor filter</translation>
        </message>
        <message>
            <source>Audit action filter</source>
            <translation>Audit action filter</translation>
        </message>
        <message>
            <source>Audit dead letter filter</source>
            <translation>Audit dead letter filter</translation>
        </message>
        <message>
            <source>Who</source>
            <translation>Who</translation>
        </message>
        <message>
            <source>Action</source>
            <translation>Action</translation>
        </message>
        <message>
            <source>Dead letter #</source>
            <translation>Dead letter #</translation>
        </message>
        <message>
            <source>Audit trail</source>
            <translation>Audit trail</translation>
        </message>
        <message>
            <source>Double-click an event: its dead letter in the Quarantine tab</source>
            <translation>Double-click an event: its dead letter in the Quarantine tab</translation>
        </message>
        <message>
            <source>reading…</source>
            <translation>reading…</translation>
        </message>
        <message>
            <source>no events match</source>
            <translation>no events match</translation>
        </message>
        <message numerus="yes">
            <source>%Ln event(s) · %1 shown, scroll for more</source>
            <translation>
                <numerusform>%Ln event · %1 shown, scroll for more</numerusform>
                <numerusform>%Ln events · %1 shown, scroll for more</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln event(s)</source>
            <translation>
                <numerusform>%Ln event</numerusform>
                <numerusform>%Ln events</numerusform>
            </translation>
        </message>
        <message>
            <source>audit: %1</source>
            <translation>audit: %1</translation>
        </message>
        <message>
            <source>%1: an event about the store, not one dead letter</source>
            <translation>%1: an event about the store, not one dead letter</translation>
        </message>
        <message>
            <source>dead letter #%1 is no longer in the store (purged)</source>
            <translation>dead letter #%1 is no longer in the store (purged)</translation>
        </message>
    </context>
    <context>
        <name>AuditTableModel</name>
        <message>
            <source>when (UTC)</source>
            <translation>when (UTC)</translation>
        </message>
        <message>
            <source>who</source>
            <translation>who</translation>
        </message>
        <message>
            <source>action</source>
            <translation>action</translation>
        </message>
        <message>
            <source>dead letter</source>
            <translation>dead letter</translation>
        </message>
        <message>
            <source>version</source>
            <translation>version</translation>
        </message>
        <message>
            <source>detail</source>
            <translation>detail</translation>
        </message>
        <message>
            <source>quarantined</source>
            <translation>quarantined</translation>
        </message>
        <message>
            <source>edited</source>
            <translation>edited</translation>
        </message>
        <message>
            <source>resolved</source>
            <translation>resolved</translation>
        </message>
        <message>
            <source>redrive_failed</source>
            <translation>redrive_failed</translation>
        </message>
        <message>
            <source>parked</source>
            <translation>parked</translation>
        </message>
        <message>
            <source>discarded</source>
            <translation>discarded</translation>
        </message>
        <message>
            <source>reopened</source>
            <translation>reopened</translation>
        </message>
        <message>
            <source>reclassified</source>
            <translation>reclassified</translation>
        </message>
        <message>
            <source>note</source>
            <translation>note</translation>
        </message>
        <message>
            <source>purged</source>
            <translation>purged</translation>
        </message>
        <message>
            <source>group</source>
            <translation>group</translation>
        </message>
        <message>
            <source>reprocessed</source>
            <translation>reprocessed</translation>
        </message>
        <message>
            <source>undelivered</source>
            <translation>undelivered</translation>
        </message>
        <message>
            <source>imported</source>
            <translation>imported</translation>
        </message>
        <message>
            <source>revealed</source>
            <translation>revealed</translation>
        </message>
        <message>
            <source>role_granted</source>
            <translation>role_granted</translation>
        </message>
        <message>
            <source>role_revoked</source>
            <translation>role_revoked</translation>
        </message>
        <message>
            <source>the dead letter's version after the change</source>
            <translation>the dead letter's version after the change</translation>
        </message>
        <message>
            <source>about the store, not one dead letter</source>
            <translation>about the store, not one dead letter</translation>
        </message>
        <message>
            <source>double-click: show it in the Quarantine tab</source>
            <translation>double-click: show it in the Quarantine tab</translation>
        </message>
    </context>
    <context>
        <name>ChangedBanner</name>
        <message>
            <source>Reload</source>
            <translation>Reload</translation>
        </message>
        <message>
            <source>Show the stored payload (theirs); your edit is dropped</source>
            <translation>Show the stored payload (theirs); your edit is dropped</translation>
        </message>
        <message>
            <source>Compare…</source>
            <translation>Compare…</translation>
        </message>
        <message>
            <source>Theirs and yours side by side; keep one of them</source>
            <translation>Theirs and yours side by side; keep one of them</translation>
        </message>
        <message>
            <source>Hide this message; your edit stays</source>
            <translation>Hide this message; your edit stays</translation>
        </message>
        <message>
            <source>Hide this message</source>
            <translation>Hide this message</translation>
        </message>
    </context>
    <context>
        <name>ConflictDialog</name>
        <message>
            <source>Dead letter #%1 changed while you were editing it</source>
            <translation>Dead letter #%1 changed while you were editing it</translation>
        </message>
        <message>
            <source>&lt;b&gt;%1&lt;/b&gt; changed it at %2 (%3) after you opened it (version %4 → %5). Your edit is not saved yet.</source>
            <translation>&lt;b&gt;%1&lt;/b&gt; changed it at %2 (%3) after you opened it (version %4 → %5). Your edit is not saved yet.</translation>
        </message>
        <message>
            <source>It was changed after you opened it (version %1 → %2). Your edit is not saved yet.</source>
            <translation>It was changed after you opened it (version %1 → %2). Your edit is not saved yet.</translation>
        </message>
        <message>
            <source>Both hold the same JSON: they differ in layout only.</source>
            <translation>Both hold the same JSON: they differ in layout only.</translation>
        </message>
        <message numerus="yes">
            <source>%Ln line(s) differ (shown indented when both are JSON; each is saved as written).</source>
            <translation>
                <numerusform>%Ln line differs (shown indented when both are JSON; each is saved as written).</numerusform>
                <numerusform>%Ln lines differ (shown indented when both are JSON; each is saved as written).</numerusform>
            </translation>
        </message>
        <message>
            <source>Theirs, stored now</source>
            <translation>Theirs, stored now</translation>
        </message>
        <message>
            <source>Yours, not saved</source>
            <translation>Yours, not saved</translation>
        </message>
        <message>
            <source>Theirs: stored now (version %1, %2)</source>
            <translation>Theirs: stored now (version %1, %2)</translation>
        </message>
        <message>
            <source>Yours: not saved</source>
            <translation>Yours: not saved</translation>
        </message>
        <message>
            <source>Keep mine</source>
            <translation>Keep mine</translation>
        </message>
        <message>
            <source>Take theirs</source>
            <translation>Take theirs</translation>
        </message>
        <message>
            <source>Save your edit over theirs; the history keeps theirs (the edit event holds the payload it replaced)</source>
            <translation>Save your edit over theirs; the history keeps theirs (the edit event holds the payload it replaced)</translation>
        </message>
        <message>
            <source>Drop your edit and show theirs</source>
            <translation>Drop your edit and show theirs</translation>
        </message>
        <message>
            <source>It is %1 now: it takes no edit</source>
            <translation>It is %1 now: it takes no edit</translation>
        </message>
        <message>
            <source>Decide later; your edit stays in the editor</source>
            <translation>Decide later; your edit stays in the editor</translation>
        </message>
    </context>
    <context>
        <name>ConflictFlow</name>
        <message>
            <source>changed</source>
            <translation>changed</translation>
        </message>
        <message>
            <source>%1 by %2 at %3</source>
            <translation>%1 by %2 at %3</translation>
        </message>
        <message>
            <source>Changed by %1 at %2 (%3)</source>
            <translation>Changed by %1 at %2 (%3)</translation>
        </message>
        <message>
            <source>Changed (now version %1)</source>
            <translation>Changed (now version %1)</translation>
        </message>
        <message>
            <source>&lt;b&gt;Not saved:&lt;/b&gt; #%1 changed after you opened it. %2; your edit is kept.</source>
            <translation>&lt;b&gt;Not saved:&lt;/b&gt; #%1 changed after you opened it. %2; your edit is kept.</translation>
        </message>
        <message>
            <source>&lt;b&gt;%1&lt;/b&gt; while you were editing; your edit is kept.</source>
            <translation>&lt;b&gt;%1&lt;/b&gt; while you were editing; your edit is kept.</translation>
        </message>
        <message>
            <source>&lt;b&gt;Not saved:&lt;/b&gt; %1. Your edit is kept.</source>
            <translation>&lt;b&gt;Not saved:&lt;/b&gt; %1. Your edit is kept.</translation>
        </message>
        <message>
            <source>not saved: %1</source>
            <translation>not saved: %1</translation>
        </message>
        <message>
            <source>Reload</source>
            <translation>Reload</translation>
        </message>
        <message>
            <source>Drop your edit of dead letter #%1 and show it as stored now (%2)?</source>
            <translation>Drop your edit of dead letter #%1 and show it as stored now (%2)?</translation>
        </message>
        <message>
            <source>Drop my edit and reload</source>
            <translation>Drop my edit and reload</translation>
        </message>
        <message>
            <source>dead letter %1 reloaded (%2)</source>
            <translation>dead letter %1 reloaded (%2)</translation>
        </message>
        <message>
            <source>dead letter %1: took theirs (%2)</source>
            <translation>dead letter %1: took theirs (%2)</translation>
        </message>
        <message>
            <source>dead letter %1: yours and theirs are the same</source>
            <translation>dead letter %1: yours and theirs are the same</translation>
        </message>
        <message>
            <source>it takes no edit now</source>
            <translation>it takes no edit now</translation>
        </message>
    </context>
    <context>
        <name>DeadLetterTableModel</name>
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
            <source>error</source>
            <translation>error</translation>
        </message>
        <message>
            <source>attempts</source>
            <translation>attempts</translation>
        </message>
        <message>
            <source>status</source>
            <translation>status</translation>
        </message>
        <message>
            <source>last failed</source>
            <translation>last failed</translation>
        </message>
        <message>
            <source>transform</source>
            <translation>transform</translation>
        </message>
        <message>
            <source>source</source>
            <translation>source</translation>
        </message>
        <message>
            <source>the error's signature: the message with its values masked</source>
            <translation>the error's signature: the message with its values masked</translation>
        </message>
        <message>
            <source>where the row came from: a connector (a queue or table), or a file</source>
            <translation>where the row came from: a connector (a queue or table), or a file</translation>
        </message>
    </context>
    <context>
        <name>DetailPane</name>
        <message>
            <source>Select a dead letter to see its payload, error and history.</source>
            <translation>Select a dead letter to see its payload, error and history.</translation>
        </message>
        <message numerus="yes">
            <source>#%1 · batch %2 line %3 · %4 · %Ln attempt(s) · group owned by %5</source>
            <translation>
                <numerusform>#%1 · batch %2 line %3 · %4 · %Ln attempt · group owned by %5</numerusform>
                <numerusform>#%1 · batch %2 line %3 · %4 · %Ln attempts · group owned by %5</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>#%1 · batch %2 line %3 · %4 · %Ln attempt(s)</source>
            <translation>
                <numerusform>#%1 · batch %2 line %3 · %4 · %Ln attempt</numerusform>
                <numerusform>#%1 · batch %2 line %3 · %4 · %Ln attempts</numerusform>
            </translation>
        </message>
        <message>
            <source>Dead letter details</source>
            <translation>Dead letter details</translation>
        </message>
        <message>
            <source>Reveal</source>
            <translation>Reveal</translation>
        </message>
        <message>
            <source>Show this row's personal fields unmasked, until another row is chosen. Recorded in the audit (revealed); stewards and leads only.</source>
            <translation>Show this row's personal fields unmasked, until another row is chosen. Recorded in the audit (revealed); stewards and leads only.</translation>
        </message>
        <message>
            <source>Payload</source>
            <translation>Payload</translation>
        </message>
        <message>
            <source>Original payload</source>
            <translation>Original payload</translation>
        </message>
        <message>
            <source>Original</source>
            <translation>Original</translation>
        </message>
        <message>
            <source>Changes to the payload</source>
            <translation>Changes to the payload</translation>
        </message>
        <message>
            <source>Diff</source>
            <translation>Diff</translation>
        </message>
        <message>
            <source>Error</source>
            <translation>Error</translation>
        </message>
        <message>
            <source>History</source>
            <translation>History</translation>
        </message>
        <message>
            <source>when (UTC)</source>
            <translation>when (UTC)</translation>
        </message>
        <message>
            <source>who</source>
            <translation>who</translation>
        </message>
        <message>
            <source>action</source>
            <translation>action</translation>
        </message>
        <message>
            <source>detail</source>
            <translation>detail</translation>
        </message>
        <message>
            <source>%1 (changed by another steward: %2)</source>
            <translation>%1 (changed by another steward: %2)</translation>
        </message>
        <message>
            <source>%1 · not the row chosen in the table: save or revert this edit</source>
            <translation>%1 · not the row chosen in the table: save or revert this edit</translation>
        </message>
        <message>
            <source>dead letter %1: %2 shown unmasked (recorded in the audit)</source>
            <translation>dead letter %1: %2 shown unmasked (recorded in the audit)</translation>
        </message>
        <message>
            <source>Revealed: %1 shown unmasked (recorded in the audit) until another row is chosen.</source>
            <translation>Revealed: %1 shown unmasked (recorded in the audit) until another row is chosen.</translation>
        </message>
        <message>
            <source>Personal data masked: %1. Searchable by exact value only.</source>
            <translation>Personal data masked: %1. Searchable by exact value only.</translation>
        </message>
        <message>
            <source>Revealed</source>
            <translation>Revealed</translation>
        </message>
        <message>
            <source>dead letter %1 saved; the original is kept</source>
            <translation>dead letter %1 saved; the original is kept</translation>
        </message>
        <message>
            <source>not saved: %1</source>
            <translation>not saved: %1</translation>
        </message>
        <message>
            <source># CSV header: %1</source>
            <translation># CSV header: %1</translation>
        </message>
        <message numerus="yes">
            <source>%Ln byte(s) exactly as read; bytes that are not UTF-8 are shown escaped as \xNN</source>
            <translation>
                <numerusform>%Ln byte exactly as read; bytes that are not UTF-8 are shown escaped as \xNN</numerusform>
                <numerusform>%Ln bytes exactly as read; bytes that are not UTF-8 are shown escaped as \xNN</numerusform>
            </translation>
        </message>
        <message>
            <source>class</source>
            <translation>class</translation>
        </message>
        <message>
            <source>signature</source>
            <translation>signature</translation>
        </message>
        <message>
            <source>transform</source>
            <translation>transform</translation>
        </message>
        <message>
            <source>attempts</source>
            <translation>attempts</translation>
        </message>
        <message>
            <source>first failed</source>
            <translation>first failed</translation>
        </message>
        <message>
            <source>last failed</source>
            <translation>last failed</translation>
        </message>
        <message>
            <source>group owner</source>
            <translation>group owner</translation>
        </message>
        <message>
            <source>group tags</source>
            <translation>group tags</translation>
        </message>
        <message>
            <source>group note</source>
            <translation>group note</translation>
        </message>
        <message>
            <source>traceback (redacted):</source>
            <translation>traceback (redacted):</translation>
        </message>
        <message>
            <source>No traceback: kept for code errors only.</source>
            <translation>No traceback: kept for code errors only.</translation>
        </message>
        <message>
            <source>%1

The payload this edit replaced:
%2</source>
            <translation>%1

The payload this edit replaced:
%2</translation>
        </message>
        <message>
            <source>No changes: the payload is the original.</source>
            <translation>No changes: the payload is the original.</translation>
        </message>
        <message>
            <source>original → current (%1 %2)</source>
            <translation>original → current (%1 %2)</translation>
        </message>
        <message>
            <source>− removed</source>
            <translation>− removed</translation>
        </message>
        <message>
            <source>+ added</source>
            <translation>+ added</translation>
        </message>
    </context>
    <context>
        <name>FilterBar</name>
        <message>
            <source>All</source>
            <translation>All</translation>
        </message>
        <message>
            <source>Data</source>
            <translation>Data</translation>
        </message>
        <message>
            <source>Code</source>
            <translation>Code</translation>
        </message>
        <message>
            <source>Transient</source>
            <translation>Transient</translation>
        </message>
        <message>
            <source>Open</source>
            <translation>Open</translation>
        </message>
        <message>
            <source>Parked</source>
            <translation>Parked</translation>
        </message>
        <message>
            <source>Resolved</source>
            <translation>Resolved</translation>
        </message>
        <message>
            <source>Discarded</source>
            <translation>Discarded</translation>
        </message>
        <message>
            <source>All sources</source>
            <translation>All sources</translation>
        </message>
        <message>
            <source>Files</source>
            <translation>Files</translation>
        </message>
        <message>
            <source>all</source>
            <translation>all</translation>
        </message>
        <message>
            <source>Source filter</source>
            <translation>Source filter</translation>
        </message>
        <message>
            <source>Only the rows imported from this queue or table, or files</source>
            <translation>Only the rows imported from this queue or table, or files</translation>
        </message>
        <message>
            <source>Source</source>
            <translation>Source</translation>
        </message>
        <message>
            <source>Only the rows of the error groups this steward owns</source>
            <translation>Only the rows of the error groups this steward owns</translation>
        </message>
        <message>
            <source>Only the rows of the error groups tagged so</source>
            <translation>Only the rows of the error groups tagged so</translation>
        </message>
        <message>
            <source>Only dead letters that failed at least this often</source>
            <translation>Only dead letters that failed at least this often</translation>
        </message>
        <message>
            <source>search payload and error</source>
            <translation>search payload and error</translation>
        </message>
        <message>
            <source>Literal text: % _ and quotes are plain characters</source>
            <translation>Literal text: % _ and quotes are plain characters</translation>
        </message>
        <message>
            <source>Class</source>
            <translation>Class</translation>
        </message>
        <message>
            <source>Class filter</source>
            <translation>Class filter</translation>
        </message>
        <message>
            <source>Status</source>
            <translation>Status</translation>
        </message>
        <message>
            <source>Status filter</source>
            <translation>Status filter</translation>
        </message>
        <message>
            <source>Batch</source>
            <translation>Batch</translation>
        </message>
        <message>
            <source>Batch filter</source>
            <translation>Batch filter</translation>
        </message>
        <message>
            <source>Transform</source>
            <translation>Transform</translation>
        </message>
        <message>
            <source>Transform filter</source>
            <translation>Transform filter</translation>
        </message>
        <message>
            <source>Owner</source>
            <translation>Owner</translation>
        </message>
        <message>
            <source>Owner filter</source>
            <translation>Owner filter</translation>
        </message>
        <message>
            <source>Tag</source>
            <translation>Tag</translation>
        </message>
        <message>
            <source>Tag filter</source>
            <translation>Tag filter</translation>
        </message>
        <message>
            <source>Attempts</source>
            <translation>Attempts</translation>
        </message>
        <message>
            <source>Minimum attempts filter</source>
            <translation>Minimum attempts filter</translation>
        </message>
        <message>
            <source>Search dead letters</source>
            <translation>Search dead letters</translation>
        </message>
        <message>
            <source>Lift the narrowing chosen in Trends</source>
            <translation>Lift the narrowing chosen in Trends</translation>
        </message>
        <message>
            <source>Lift the narrowing</source>
            <translation>Lift the narrowing</translation>
        </message>
        <message>
            <source>Trends: %1</source>
            <translation>Trends: %1</translation>
        </message>
        <message numerus="yes">
            <source>%1: %2 with %3, %Ln row(s), %4 quarantined, started %5 (UTC)</source>
            <translation>
                <numerusform>%1: %2 with %3, %Ln row, %4 quarantined, started %5 (UTC)</numerusform>
                <numerusform>%1: %2 with %3, %Ln rows, %4 quarantined, started %5 (UTC)</numerusform>
            </translation>
        </message>
        <message>
            <source>Audit: dead letter #%1</source>
            <translation>Audit: dead letter #%1</translation>
        </message>
        <message>
            <source>chosen in the Audit tab</source>
            <translation>chosen in the Audit tab</translation>
        </message>
    </context>
    <context>
        <name>JobMenu</name>
        <message>
            <source>Load the whole batch: show a dead letter of a held (all-or-nothing) batch first</source>
            <translation>Load the whole batch: show a dead letter of a held (all-or-nothing) batch first</translation>
        </message>
        <message numerus="yes">
            <source>%Ln held row(s)</source>
            <translation>
                <numerusform>%Ln held row</numerusform>
                <numerusform>%Ln held rows</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln dead letter(s)</source>
            <translation>
                <numerusform>%Ln dead letter</numerusform>
                <numerusform>%Ln dead letters</numerusform>
            </translation>
        </message>
        <message>
            <source>Load the whole batch</source>
            <translation>Load the whole batch</translation>
        </message>
        <message>
            <source>Load batch %1 whole, in one transaction?

%2 and %3 (each through its current payload) load together, or nothing loads and the batch stays held, with the reason of every line that still fails.</source>
            <translation>Load batch %1 whole, in one transaction?

%2 and %3 (each through its current payload) load together, or nothing loads and the batch stays held, with the reason of every line that still fails.</translation>
        </message>
        <message>
            <source>change-set %1: %2</source>
            <translation>change-set %1: %2</translation>
        </message>
        <message>
            <source>Error group: nothing changed</source>
            <translation>Error group: nothing changed</translation>
        </message>
        <message>
            <source>nobody</source>
            <translation>nobody</translation>
        </message>
        <message>
            <source>none</source>
            <translation>none</translation>
        </message>
        <message>
            <source>Error group %1: owner %2, tags %3</source>
            <translation>Error group %1: owner %2, tags %3</translation>
        </message>
        <message>
            <source>Export %1</source>
            <translation>Export %1</translation>
        </message>
        <message>
            <source>CSV (*.csv);;JSON Lines (*.jsonl)</source>
            <translation>CSV (*.csv);;JSON Lines (*.jsonl)</translation>
        </message>
        <message>
            <source>export cancelled; no file written</source>
            <translation>export cancelled; no file written</translation>
        </message>
        <message numerus="yes">
            <source>exported %Ln dead letter(s) to %1</source>
            <translation>
                <numerusform>exported %Ln dead letter to %1</numerusform>
                <numerusform>exported %Ln dead letters to %1</numerusform>
            </translation>
        </message>
        <message>
            <source>%1 (%2 matched when you chose: the store changed meanwhile)</source>
            <translation>%1 (%2 matched when you chose: the store changed meanwhile)</translation>
        </message>
        <message>
            <source>Not done</source>
            <translation>Not done</translation>
        </message>
    </context>
    <context>
        <name>JobStatus</name>
        <message>
            <source>Cancel</source>
            <translation>Cancel</translation>
        </message>
        <message>
            <source>Stop the running work at its next chunk</source>
            <translation>Stop the running work at its next chunk</translation>
        </message>
        <message>
            <source>%1: starting…</source>
            <translation>%1: starting…</translation>
        </message>
        <message>
            <source>%1  (+%2 more)</source>
            <translation>%1  (+%2 more)</translation>
        </message>
        <message>
            <source>%1: cancelling at the next chunk…</source>
            <translation>%1: cancelling at the next chunk…</translation>
        </message>
        <message>
            <source>cancelling at the next chunk boundary…</source>
            <translation>cancelling at the next chunk boundary…</translation>
        </message>
        <message>
            <source>Work is running</source>
            <translation>Work is running</translation>
        </message>
        <message>
            <source>Still running: %1.

Stop it at the next chunk and close? A batch resumes where it stopped when you run the same file again.</source>
            <translation>Still running: %1.

Stop it at the next chunk and close? A batch resumes where it stopped when you run the same file again.</translation>
        </message>
    </context>
    <context>
        <name>JsonEditor</name>
        <message>
            <source>JSON. Tab indents; Ctrl+Tab moves to the next control.</source>
            <translation>JSON. Tab indents; Ctrl+Tab moves to the next control.</translation>
        </message>
    </context>
    <context>
        <name>LiveRefresh</name>
        <message>
            <source>live refresh paused (%1); F5 reads the store</source>
            <translation>live refresh paused (%1); F5 reads the store</translation>
        </message>
        <message>
            <source>live refresh resumed</source>
            <translation>live refresh resumed</translation>
        </message>
    </context>
    <context>
        <name>MainWindow</name>
        <message>
            <source>Run batch…</source>
            <translation>Run batch…</translation>
        </message>
        <message>
            <source>Re-drive…</source>
            <translation>Re-drive…</translation>
        </message>
        <message>
            <source>Refresh</source>
            <translation>Refresh</translation>
        </message>
        <message>
            <source>Run a file through a transform</source>
            <translation>Run a file through a transform</translation>
        </message>
        <message>
            <source>Re-drive the selected or matching rows</source>
            <translation>Re-drive the selected or matching rows</translation>
        </message>
        <message>
            <source>Read the store again</source>
            <translation>Read the store again</translation>
        </message>
        <message>
            <source>Views</source>
            <translation>Views</translation>
        </message>
        <message>
            <source>Quarantine</source>
            <translation>Quarantine</translation>
        </message>
        <message>
            <source>Trends</source>
            <translation>Trends</translation>
        </message>
        <message>
            <source>Audit</source>
            <translation>Audit</translation>
        </message>
        <message>
            <source>Trends: %1</source>
            <translation>Trends: %1</translation>
        </message>
        <message>
            <source>Audit: dead letter #%1</source>
            <translation>Audit: dead letter #%1</translation>
        </message>
        <message>
            <source>choose a dead letter in the table first</source>
            <translation>choose a dead letter in the table first</translation>
        </message>
        <message>
            <source>Not saved</source>
            <translation>Not saved</translation>
        </message>
        <message>
            <source>%1

The edit is still in the editor.</source>
            <translation>%1

The edit is still in the editor.</translation>
        </message>
        <message>
            <source>no workspace</source>
            <translation>no workspace</translation>
        </message>
        <message>
            <source>%1 [%2]</source>
            <translation>%1 [%2]</translation>
        </message>
        <message>
            <source>workspace: %1</source>
            <translation>workspace: %1</translation>
        </message>
        <message>
            <source>no workspace open</source>
            <translation>no workspace open</translation>
        </message>
    </context>
    <context>
        <name>MenuBar</name>
        <message>
            <source>&amp;Open workspace…</source>
            <translation>&amp;Open workspace…</translation>
        </message>
        <message>
            <source>&amp;Connect to databases…</source>
            <translation>&amp;Connect to databases…</translation>
        </message>
        <message>
            <source>Connect a q&amp;ueue…</source>
            <translation>Connect a q&amp;ueue…</translation>
        </message>
        <message>
            <source>Import the dead letters of a RabbitMQ dead-letter queue</source>
            <translation>Import the dead letters of a RabbitMQ dead-letter queue</translation>
        </message>
        <message>
            <source>Attach a dead-letter &amp;table…</source>
            <translation>Attach a dead-letter &amp;table…</translation>
        </message>
        <message>
            <source>Import the dead letters a pipeline keeps in a table of its own</source>
            <translation>Import the dead letters a pipeline keeps in a table of its own</translation>
        </message>
        <message>
            <source>Export &amp;selection…</source>
            <translation>Export &amp;selection…</translation>
        </message>
        <message>
            <source>Export the selected rows</source>
            <translation>Export the selected rows</translation>
        </message>
        <message>
            <source>Export &amp;filter…</source>
            <translation>Export &amp;filter…</translation>
        </message>
        <message>
            <source>Export every matching row</source>
            <translation>Export every matching row</translation>
        </message>
        <message>
            <source>Pr&amp;eferences…</source>
            <translation>Pr&amp;eferences…</translation>
        </message>
        <message>
            <source>The window's language</source>
            <translation>The window's language</translation>
        </message>
        <message>
            <source>&amp;Quit</source>
            <translation>&amp;Quit</translation>
        </message>
        <message>
            <source>&amp;Run batch…</source>
            <translation>&amp;Run batch…</translation>
        </message>
        <message>
            <source>Run a file through a transform</source>
            <translation>Run a file through a transform</translation>
        </message>
        <message>
            <source>&amp;Suspect a version…</source>
            <translation>&amp;Suspect a version…</translation>
        </message>
        <message>
            <source>Run the rows a transform version wrote through a fixed one: check, then apply</source>
            <translation>Run the rows a transform version wrote through a fixed one: check, then apply</translation>
        </message>
        <message>
            <source>Retry &amp;due rows now</source>
            <translation>Retry &amp;due rows now</translation>
        </message>
        <message>
            <source>One pass of the retry ladder: the transient dead letters due now, re-driven through the version that failed them (the window runs one every minute)</source>
            <translation>One pass of the retry ladder: the transient dead letters due now, re-driven through the version that failed them (the window runs one every minute)</translation>
        </message>
        <message>
            <source>&amp;Re-drive…</source>
            <translation>&amp;Re-drive…</translation>
        </message>
        <message>
            <source>Re-drive dead letters</source>
            <translation>Re-drive dead letters</translation>
        </message>
        <message>
            <source>Re-drive to the &amp;source…</source>
            <translation>Re-drive to the &amp;source…</translation>
        </message>
        <message>
            <source>Send imported dead letters back where they came from: their queue or table</source>
            <translation>Send imported dead letters back where they came from: their queue or table</translation>
        </message>
        <message>
            <source>Fi&amp;x rows…</source>
            <translation>Fi&amp;x rows…</translation>
        </message>
        <message>
            <source>Fix many dead letters at once, as one change-set</source>
            <translation>Fix many dead letters at once, as one change-set</translation>
        </message>
        <message>
            <source>&amp;Load the whole batch…</source>
            <translation>&amp;Load the whole batch…</translation>
        </message>
        <message>
            <source>An all-or-nothing batch held: load every row of it in one transaction, once every dead letter of it is fixed</source>
            <translation>An all-or-nothing batch held: load every row of it in one transaction, once every dead letter of it is fixed</translation>
        </message>
        <message>
            <source>&amp;Refresh</source>
            <translation>&amp;Refresh</translation>
        </message>
        <message>
            <source>Read the store again</source>
            <translation>Read the store again</translation>
        </message>
        <message>
            <source>&amp;Find</source>
            <translation>&amp;Find</translation>
        </message>
        <message>
            <source>Search the payloads and errors</source>
            <translation>Search the payloads and errors</translation>
        </message>
        <message>
            <source>Go to the &amp;table</source>
            <translation>Go to the &amp;table</translation>
        </message>
        <message>
            <source>Move to the dead-letter table</source>
            <translation>Move to the dead-letter table</translation>
        </message>
        <message>
            <source>Go to the &amp;error</source>
            <translation>Go to the &amp;error</translation>
        </message>
        <message>
            <source>Show the selected row's error</source>
            <translation>Show the selected row's error</translation>
        </message>
        <message>
            <source>Go to the &amp;payload editor</source>
            <translation>Go to the &amp;payload editor</translation>
        </message>
        <message>
            <source>Move to the selected row's payload</source>
            <translation>Move to the selected row's payload</translation>
        </message>
        <message>
            <source>&amp;Change-sets…</source>
            <translation>&amp;Change-sets…</translation>
        </message>
        <message>
            <source>The fixes applied to many rows at once; revert one</source>
            <translation>The fixes applied to many rows at once; revert one</translation>
        </message>
        <message>
            <source>R&amp;etention…</source>
            <translation>R&amp;etention…</translation>
        </message>
        <message>
            <source>How long resolved and discarded dead letters are kept; purge</source>
            <translation>How long resolved and discarded dead letters are kept; purge</translation>
        </message>
        <message>
            <source>&amp;Getting started</source>
            <translation>&amp;Getting started</translation>
        </message>
        <message>
            <source>The steward's loop, in a page</source>
            <translation>The steward's loop, in a page</translation>
        </message>
        <message>
            <source>&amp;User guide</source>
            <translation>&amp;User guide</translation>
        </message>
        <message>
            <source>The full guide to the window and the CLI</source>
            <translation>The full guide to the window and the CLI</translation>
        </message>
        <message>
            <source>&amp;Keyboard shortcuts</source>
            <translation>&amp;Keyboard shortcuts</translation>
        </message>
        <message>
            <source>Every key the window answers to</source>
            <translation>Every key the window answers to</translation>
        </message>
        <message>
            <source>&amp;Report a problem…</source>
            <translation>&amp;Report a problem…</translation>
        </message>
        <message>
            <source>Copy the versions of the app, Qt, Python and the store's schema</source>
            <translation>Copy the versions of the app, Qt, Python and the store's schema</translation>
        </message>
        <message>
            <source>About &amp;Qt</source>
            <translation>About &amp;Qt</translation>
        </message>
        <message>
            <source>&amp;About Triage Desk</source>
            <translation>&amp;About Triage Desk</translation>
        </message>
        <message>
            <source>&amp;File</source>
            <translation>&amp;File</translation>
        </message>
        <message>
            <source>Recent &amp;workspaces</source>
            <translation>Recent &amp;workspaces</translation>
        </message>
        <message>
            <source>&amp;Batch</source>
            <translation>&amp;Batch</translation>
        </message>
        <message>
            <source>&amp;Re-drive</source>
            <translation>&amp;Re-drive</translation>
        </message>
        <message>
            <source>&amp;View</source>
            <translation>&amp;View</translation>
        </message>
        <message>
            <source>&amp;Store</source>
            <translation>&amp;Store</translation>
        </message>
        <message>
            <source>&amp;Help</source>
            <translation>&amp;Help</translation>
        </message>
        <message>
            <source>%1  (not found)</source>
            <translation>%1  (not found)</translation>
        </message>
        <message>
            <source>(none yet)</source>
            <translation>(none yet)</translation>
        </message>
    </context>
    <context>
        <name>PayloadEditor</name>
        <message>
            <source>Payload editor</source>
            <translation>Payload editor</translation>
        </message>
        <message>
            <source>Format</source>
            <translation>Format</translation>
        </message>
        <message>
            <source>Indent the JSON by two spaces</source>
            <translation>Indent the JSON by two spaces</translation>
        </message>
        <message>
            <source>Compact</source>
            <translation>Compact</translation>
        </message>
        <message>
            <source>Put the JSON on one line</source>
            <translation>Put the JSON on one line</translation>
        </message>
        <message>
            <source>Revert</source>
            <translation>Revert</translation>
        </message>
        <message>
            <source>Back to the stored payload</source>
            <translation>Back to the stored payload</translation>
        </message>
        <message>
            <source>Try with</source>
            <translation>Try with</translation>
        </message>
        <message>
            <source>Transform version to try</source>
            <translation>Transform version to try</translation>
        </message>
        <message>
            <source>Try</source>
            <translation>Try</translation>
        </message>
        <message>
            <source>Run the payload in the editor through this transform; writes nothing</source>
            <translation>Run the payload in the editor through this transform; writes nothing</translation>
        </message>
        <message>
            <source>Save</source>
            <translation>Save</translation>
        </message>
        <message>
            <source>Save the edited payload; the original is kept</source>
            <translation>Save the edited payload; the original is kept</translation>
        </message>
        <message>
            <source>Try result</source>
            <translation>Try result</translation>
        </message>
        <message>
            <source>Try with a transform version to see the warehouse row it would produce, or the error; nothing is written.</source>
            <translation>Try with a transform version to see the warehouse row it would produce, or the error; nothing is written.</translation>
        </message>
        <message>
            <source>✓ valid JSON</source>
            <translation>✓ valid JSON</translation>
        </message>
        <message>
            <source>%1 · edited, not saved</source>
            <translation>%1 · edited, not saved</translation>
        </message>
        <message>
            <source>line %1 col %2: %3</source>
            <translation>line %1 col %2: %3</translation>
        </message>
        <message>
            <source>Save the edited payload</source>
            <translation>Save the edited payload</translation>
        </message>
        <message>
            <source>trying with %1…</source>
            <translation>trying with %1…</translation>
        </message>
        <message>
            <source>✓ %1 would load this warehouse row: %2</source>
            <translation>✓ %1 would load this warehouse row: %2</translation>
        </message>
        <message>
            <source>✗ %1 still fails [%2]: %3</source>
            <translation>✗ %1 still fails [%2]: %3</translation>
        </message>
    </context>
    <context>
        <name>PreferencesDialog</name>
        <message>
            <source>Preferences</source>
            <translation>Preferences</translation>
        </message>
        <message>
            <source>Follow the system (%1)</source>
            <translation>Follow the system (%1)</translation>
        </message>
        <message>
            <source>The window speaks the new language when Triage Desk starts again. The command line follows --lang, TRIAGE_LANG or the system.</source>
            <translation>The window speaks the new language when Triage Desk starts again. The command line follows --lang, TRIAGE_LANG or the system.</translation>
        </message>
        <message>
            <source>&amp;Language:</source>
            <translation>&amp;Language:</translation>
        </message>
        <message>
            <source>Language</source>
            <translation>Language</translation>
        </message>
        <message>
            <source>Triage Desk will speak %1 after a restart.</source>
            <translation>Triage Desk will speak %1 after a restart.</translation>
        </message>
        <message>
            <source>&amp;Restart now</source>
            <translation>&amp;Restart now</translation>
        </message>
        <message>
            <source>&amp;Later</source>
            <translation>&amp;Later</translation>
        </message>
    </context>
    <context>
        <name>QuarantinePane</name>
        <message numerus="yes">
            <source>%Ln dead letter(s) are selected: choose one to see its payload and history.</source>
            <translation>
                <numerusform>%Ln dead letter is selected: choose one to see its payload and history.</numerusform>
                <numerusform>%Ln dead letters are selected: choose one to see its payload and history.</numerusform>
            </translation>
        </message>
        <message>
            <source>#%1 is not chosen in the table any more (a filter, a re-drive or another steward's change moved it). Select a dead letter to see it.</source>
            <translation>#%1 is not chosen in the table any more (a filter, a re-drive or another steward's change moved it). Select a dead letter to see it.</translation>
        </message>
    </context>
    <context>
        <name>QuarantineTable</name>
        <message>
            <source>No workspace open.
File → Open workspace… (Ctrl+O) or Connect to databases…</source>
            <translation>No workspace open.
File → Open workspace… (Ctrl+O) or Connect to databases…</translation>
        </message>
        <message>
            <source>No dead letters match these filters.</source>
            <translation>No dead letters match these filters.</translation>
        </message>
        <message>
            <source>No dead letters: every row of the last batch loaded.</source>
            <translation>No dead letters: every row of the last batch loaded.</translation>
        </message>
        <message>
            <source>No open dead letters: everything quarantined has been dealt with.</source>
            <translation>No open dead letters: everything quarantined has been dealt with.</translation>
        </message>
        <message>
            <source>No dead letters yet.
Run a batch (Ctrl+B) to load a file.</source>
            <translation>No dead letters yet.
Run a batch (Ctrl+B) to load a file.</translation>
        </message>
        <message>
            <source>Dead letters</source>
            <translation>Dead letters</translation>
        </message>
    </context>
    <context>
        <name>RetryLadder</name>
        <message>
            <source>Retry ladder: %1 waiting, %2 due now</source>
            <translation>Retry ladder: %1 waiting, %2 due now</translation>
        </message>
        <message>
            <source>Retry ladder: %1 waiting, next due %2</source>
            <translation>Retry ladder: %1 waiting, next due %2</translation>
        </message>
        <message>
            <source>Retry ladder: %1 waiting</source>
            <translation>Retry ladder: %1 waiting</translation>
        </message>
        <message>
            <source>No retry pass: %1</source>
            <translation>No retry pass: %1</translation>
        </message>
        <message>
            <source>Retry pass: nothing due</source>
            <translation>Retry pass: nothing due</translation>
        </message>
        <message>
            <source>Retry pass: %1</source>
            <translation>Retry pass: %1</translation>
        </message>
        <message>
            <source>Retry pass: nothing due; the next is due at %1</source>
            <translation>Retry pass: nothing due; the next is due at %1</translation>
        </message>
        <message>
            <source>Retry pass: %1; the next is due at %2</source>
            <translation>Retry pass: %1; the next is due at %2</translation>
        </message>
        <message>
            <source>Retry pass failed: %1</source>
            <translation>Retry pass failed: %1</translation>
        </message>
        <message>
            <source>The last retry pass failed: %1</source>
            <translation>The last retry pass failed: %1</translation>
        </message>
        <message>
            <source>Ladder: %1</source>
            <translation>Ladder: %1</translation>
        </message>
        <message>
            <source>Before retry %1: %2 waiting</source>
            <translation>Before retry %1: %2 waiting</translation>
        </message>
        <message>
            <source>Parked at the ladder's end: %1</source>
            <translation>Parked at the ladder's end: %1</translation>
        </message>
        <message>
            <source>This window runs no retry pass: %1</source>
            <translation>This window runs no retry pass: %1</translation>
        </message>
        <message>
            <source>The window runs a retry pass every minute</source>
            <translation>The window runs a retry pass every minute</translation>
        </message>
        <message>
            <source>Last pass: %1</source>
            <translation>Last pass: %1</translation>
        </message>
        <message>
            <source>%1 (not retried here)</source>
            <translation>%1 (not retried here)</translation>
        </message>
    </context>
    <context>
        <name>RowActions</name>
        <message>
            <source>Reclassify as &amp;data</source>
            <translation>Reclassify as &amp;data</translation>
        </message>
        <message>
            <source>Reclassify as &amp;code</source>
            <translation>Reclassify as &amp;code</translation>
        </message>
        <message>
            <source>&amp;Park</source>
            <translation>&amp;Park</translation>
        </message>
        <message>
            <source>Set aside: needs a person</source>
            <translation>Set aside: needs a person</translation>
        </message>
        <message>
            <source>&amp;Discard…</source>
            <translation>&amp;Discard…</translation>
        </message>
        <message>
            <source>Junk: kept for the audit; Reopen brings it back</source>
            <translation>Junk: kept for the audit; Reopen brings it back</translation>
        </message>
        <message>
            <source>Re&amp;open</source>
            <translation>Re&amp;open</translation>
        </message>
        <message>
            <source>Back to open</source>
            <translation>Back to open</translation>
        </message>
        <message>
            <source>Add &amp;note…</source>
            <translation>Add &amp;note…</translation>
        </message>
        <message>
            <source>more than %1 rows selected: narrow the filter, or use Re-drive / Export on the whole filter</source>
            <translation>more than %1 rows selected: narrow the filter, or use Re-drive / Export on the whole filter</translation>
        </message>
        <message>
            <source>select one or more dead letters first</source>
            <translation>select one or more dead letters first</translation>
        </message>
        <message>
            <source>Add a note</source>
            <translation>Add a note</translation>
        </message>
        <message>
            <source>Note for the history:</source>
            <translation>Note for the history:</translation>
        </message>
        <message>
            <source>Not done</source>
            <translation>Not done</translation>
        </message>
        <message>
            <source>%1

Nothing was changed. The table now shows the rows as they are; look again, then try again.</source>
            <translation>%1

Nothing was changed. The table now shows the rows as they are; look again, then try again.</translation>
        </message>
    </context>
    <context>
        <name>RowCounts</name>
        <message>
            <source>viewer</source>
            <translation>viewer</translation>
        </message>
        <message>
            <source>steward</source>
            <translation>steward</translation>
        </message>
        <message>
            <source>lead</source>
            <translation>lead</translation>
        </message>
        <message>
            <source> role: %1 </source>
            <translation> role: %1 </translation>
        </message>
        <message>
            <source>You may do everything on this store.</source>
            <translation>You may do everything on this store.</translation>
        </message>
        <message>
            <source>On this store:
%1</source>
            <translation>On this store:
%1</translation>
        </message>
        <message>
            <source>no workspace open</source>
            <translation>no workspace open</translation>
        </message>
        <message>
            <source>searching the payloads and errors…</source>
            <translation>searching the payloads and errors…</translation>
        </message>
        <message>
            <source>counting…</source>
            <translation>counting…</translation>
        </message>
        <message>
            <source>%1 · %2 selected</source>
            <translation>%1 · %2 selected</translation>
        </message>
        <message>
            <source>· last batch %1: %2 loaded / %3 quarantined / %4 held</source>
            <translation>· last batch %1: %2 loaded / %3 quarantined / %4 held</translation>
        </message>
        <message>
            <source>· last batch %1: %2 loaded / %3 quarantined</source>
            <translation>· last batch %1: %2 loaded / %3 quarantined</translation>
        </message>
        <message numerus="yes">
            <source>%Ln open dead letter(s) match</source>
            <translation>
                <numerusform>%Ln open dead letter matches</numerusform>
                <numerusform>%Ln open dead letters match</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln parked dead letter(s) match</source>
            <translation>
                <numerusform>%Ln parked dead letter matches</numerusform>
                <numerusform>%Ln parked dead letters match</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln resolved dead letter(s) match</source>
            <translation>
                <numerusform>%Ln resolved dead letter matches</numerusform>
                <numerusform>%Ln resolved dead letters match</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln discarded dead letter(s) match</source>
            <translation>
                <numerusform>%Ln discarded dead letter matches</numerusform>
                <numerusform>%Ln discarded dead letters match</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln dead letter(s) match</source>
            <translation>
                <numerusform>%Ln dead letter matches</numerusform>
                <numerusform>%Ln dead letters match</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>ShortcutsDialog</name>
        <message>
            <source>Keyboard shortcuts</source>
            <translation>Keyboard shortcuts</translation>
        </message>
        <message>
            <source>Where</source>
            <translation>Where</translation>
        </message>
        <message>
            <source>What</source>
            <translation>What</translation>
        </message>
        <message>
            <source>Keys</source>
            <translation>Keys</translation>
        </message>
    </context>
    <context>
        <name>UnsavedEditGuard</name>
        <message>
            <source>Save the edit before refreshing? (The original is kept.)</source>
            <translation>Save the edit before refreshing? (The original is kept.)</translation>
        </message>
        <message>
            <source>Discard it before refreshing, or Cancel and fix it?</source>
            <translation>Discard it before refreshing, or Cancel and fix it?</translation>
        </message>
        <message>
            <source>Save the edit before closing? (The original is kept.)</source>
            <translation>Save the edit before closing? (The original is kept.)</translation>
        </message>
        <message>
            <source>Discard it before closing, or Cancel and fix it?</source>
            <translation>Discard it before closing, or Cancel and fix it?</translation>
        </message>
        <message>
            <source>Save the edit before showing #%1? (The original is kept.)</source>
            <translation>Save the edit before showing #%1? (The original is kept.)</translation>
        </message>
        <message>
            <source>Discard it before showing #%1, or Cancel and fix it?</source>
            <translation>Discard it before showing #%1, or Cancel and fix it?</translation>
        </message>
        <message>
            <source>Save the edit before opening another workspace? (The original is kept.)</source>
            <translation>Save the edit before opening another workspace? (The original is kept.)</translation>
        </message>
        <message>
            <source>Discard it before opening another workspace, or Cancel and fix it?</source>
            <translation>Discard it before opening another workspace, or Cancel and fix it?</translation>
        </message>
        <message>
            <source>Save the edit before re-driving (a re-drive uses stored payloads)? (The original is kept.)</source>
            <translation>Save the edit before re-driving (a re-drive uses stored payloads)? (The original is kept.)</translation>
        </message>
        <message>
            <source>Discard it before re-driving (a re-drive uses stored payloads), or Cancel and fix it?</source>
            <translation>Discard it before re-driving (a re-drive uses stored payloads), or Cancel and fix it?</translation>
        </message>
        <message>
            <source>Save the edit before loading a whole batch (it uses stored payloads)? (The original is kept.)</source>
            <translation>Save the edit before loading a whole batch (it uses stored payloads)? (The original is kept.)</translation>
        </message>
        <message>
            <source>Discard it before loading a whole batch (it uses stored payloads), or Cancel and fix it?</source>
            <translation>Discard it before loading a whole batch (it uses stored payloads), or Cancel and fix it?</translation>
        </message>
        <message>
            <source>Save the edit before fixing rows (a fix patches stored payloads)? (The original is kept.)</source>
            <translation>Save the edit before fixing rows (a fix patches stored payloads)? (The original is kept.)</translation>
        </message>
        <message>
            <source>Discard it before fixing rows (a fix patches stored payloads), or Cancel and fix it?</source>
            <translation>Discard it before fixing rows (a fix patches stored payloads), or Cancel and fix it?</translation>
        </message>
        <message>
            <source>Unsaved edit</source>
            <translation>Unsaved edit</translation>
        </message>
        <message>
            <source>The payload of dead letter #%1 was edited and not saved.</source>
            <translation>The payload of dead letter #%1 was edited and not saved.</translation>
        </message>
        <message>
            <source>not valid</source>
            <translation>not valid</translation>
        </message>
        <message>
            <source>It cannot be saved: %1.</source>
            <translation>It cannot be saved: %1.</translation>
        </message>
    </context>
    <context>
        <name>WelcomePage</name>
        <message>
            <source>Welcome to Triage Desk</source>
            <translation>Welcome to Triage Desk</translation>
        </message>
        <message>
            <source>Rows a nightly batch could not load wait here with the evidence of why: fix them, re-drive them through a transform version, and watch the trends.</source>
            <translation>Rows a nightly batch could not load wait here with the evidence of why: fix them, re-drive them through a transform version, and watch the trends.</translation>
        </message>
        <message>
            <source>Open the demo</source>
            <translation>Open the demo</translation>
        </message>
        <message>
            <source>A workspace from a small sample batch, with rows to fix and re-drive.</source>
            <translation>A workspace from a small sample batch, with rows to fix and re-drive.</translation>
        </message>
        <message>
            <source>Open a workspace folder…</source>
            <translation>Open a workspace folder…</translation>
        </message>
        <message>
            <source>A folder on this computer with warehouse.db and dead_letter.db; a folder without them becomes a new workspace if you say so. (Ctrl+O)</source>
            <translation>A folder on this computer with warehouse.db and dead_letter.db; a folder without them becomes a new workspace if you say so. (Ctrl+O)</translation>
        </message>
        <message>
            <source>Connect to a team store…</source>
            <translation>Connect to a team store…</translation>
        </message>
        <message>
            <source>The PostgreSQL warehouse and dead-letter store your team shares.</source>
            <translation>The PostgreSQL warehouse and dead-letter store your team shares.</translation>
        </message>
        <message>
            <source>Start an empty workspace</source>
            <translation>Start an empty workspace</translation>
        </message>
        <message>
            <source>In your data folder (%1); then Batch → Run batch… (Ctrl+B).</source>
            <translation>In your data folder (%1); then Batch → Run batch… (Ctrl+B).</translation>
        </message>
        <message>
            <source>Recent workspaces</source>
            <translation>Recent workspaces</translation>
        </message>
        <message>
            <source>Open recent workspace %1</source>
            <translation>Open recent workspace %1</translation>
        </message>
    </context>
    <context>
        <name>WorkspaceMenu</name>
        <message>
            <source>Cannot make the demo</source>
            <translation>Cannot make the demo</translation>
        </message>
        <message>
            <source>wait for the running job to finish first</source>
            <translation>wait for the running job to finish first</translation>
        </message>
        <message>
            <source>Cannot open</source>
            <translation>Cannot open</translation>
        </message>
        <message>
            <source>Open a workspace folder</source>
            <translation>Open a workspace folder</translation>
        </message>
        <message>
            <source>removed %1 from the recent workspaces</source>
            <translation>removed %1 from the recent workspaces</translation>
        </message>
    </context>
    <context>
        <name>app</name>
        <message>
            <source>Cannot open the workspace</source>
            <translation>Cannot open the workspace</translation>
        </message>
    </context>
    <context>
        <name>help_pages</name>
        <message>
            <source># Getting started

Rows a nightly batch could not load wait in the **Quarantine** tab, each with its original bytes and why it failed. The loop:

1. **Find** the rows of one cause: the filters above the table, or the search (%1). The **Trends** tab shows which cause is largest; a click there filters the table to it.
2. **Read** the error (%2): *data* means the payload is wrong, *code* the transform mishandles valid data, *transient* the infrastructure failed.
3. **Fix** the payload in the editor (%3), **Try** it with a transform version (%4: nothing is written), then **Save** (%5). The original is kept. Many rows with one cause: **Re-drive → Fix rows…** applies one fix to all of them.
4. **Re-drive** (%6) the fixed rows through a transform version: the rows that load go to the warehouse, the others count an attempt and stay.

New files arrive with **Batch → Run batch…** (%7); a workspace's `incoming` folder is where it looks first. Every change is in the **Audit** tab. Help → Keyboard shortcuts (%8) lists every key; Help → User guide has the rest, including the command line (`triage-app`).
</source>
            <translation># Getting started

Rows a nightly batch could not load wait in the **Quarantine** tab, each with its original bytes and why it failed. The loop:

1. **Find** the rows of one cause: the filters above the table, or the search (%1). The **Trends** tab shows which cause is largest; a click there filters the table to it.
2. **Read** the error (%2): *data* means the payload is wrong, *code* the transform mishandles valid data, *transient* the infrastructure failed.
3. **Fix** the payload in the editor (%3), **Try** it with a transform version (%4: nothing is written), then **Save** (%5). The original is kept. Many rows with one cause: **Re-drive → Fix rows…** applies one fix to all of them.
4. **Re-drive** (%6) the fixed rows through a transform version: the rows that load go to the warehouse, the others count an attempt and stay.

New files arrive with **Batch → Run batch…** (%7); a workspace's `incoming` folder is where it looks first. Every change is in the **Audit** tab. Help → Keyboard shortcuts (%8) lists every key; Help → User guide has the rest, including the command line (`triage-app`).
</translation>
        </message>
        <message>
            <source>Window</source>
            <translation>Window</translation>
        </message>
        <message>
            <source># User guide

This installation carries no copy of the guide (its package metadata is missing: run `triage-app --self-test`). It is the project's docs/guide.md.</source>
            <translation># User guide

This installation carries no copy of the guide (its package metadata is missing: run `triage-app --self-test`). It is the project's docs/guide.md.</translation>
        </message>
        <message>
            <source>Getting started</source>
            <translation>Getting started</translation>
        </message>
        <message>
            <source>Triage Desk user guide</source>
            <translation>Triage Desk user guide</translation>
        </message>
        <message>
            <source>Report a problem</source>
            <translation>Report a problem</translation>
        </message>
        <message>
            <source>Copied to the clipboard: paste it into your report.</source>
            <translation>Copied to the clipboard: paste it into your report.</translation>
        </message>
        <message>
            <source>%1

Add what you did, what you expected and what you saw instead (a screenshot helps). No password is in it.</source>
            <translation>%1

Add what you did, what you expected and what you saw instead (a screenshot helps). No password is in it.</translation>
        </message>
        <message>
            <source>About Triage Desk</source>
            <translation>About Triage Desk</translation>
        </message>
        <message>
            <source>Triage Desk %1

Quarantine, fix and re-drive the rows a nightly batch could not load.</source>
            <translation>Triage Desk %1

Quarantine, fix and re-drive the rows a nightly batch could not load.</translation>
        </message>
    </context>
    <context>
        <name>labels</name>
        <message>
            <source>open</source>
            <translation>open</translation>
        </message>
        <message>
            <source>resolved</source>
            <translation>resolved</translation>
        </message>
        <message>
            <source>parked</source>
            <translation>parked</translation>
        </message>
        <message>
            <source>discarded</source>
            <translation>discarded</translation>
        </message>
        <message>
            <source>data</source>
            <translation>data</translation>
        </message>
        <message>
            <source>code</source>
            <translation>code</translation>
        </message>
        <message>
            <source>transient</source>
            <translation>transient</translation>
        </message>
        <message>
            <source>failed</source>
            <translation>failed</translation>
        </message>
        <message>
            <source>skipped</source>
            <translation>skipped</translation>
        </message>
        <message>
            <source>taken</source>
            <translation>taken</translation>
        </message>
        <message>
            <source>lapsed</source>
            <translation>lapsed</translation>
        </message>
        <message>
            <source>undelivered</source>
            <translation>undelivered</translation>
        </message>
        <message>
            <source>would succeed</source>
            <translation>would succeed</translation>
        </message>
        <message>
            <source>would fail</source>
            <translation>would fail</translation>
        </message>
        <message>
            <source>would load</source>
            <translation>would load</translation>
        </message>
        <message>
            <source>applies</source>
            <translation>applies</translation>
        </message>
        <message>
            <source>still fails</source>
            <translation>still fails</translation>
        </message>
        <message>
            <source>not applicable</source>
            <translation>not applicable</translation>
        </message>
        <message>
            <source>unchanged</source>
            <translation>unchanged</translation>
        </message>
        <message>
            <source>changed</source>
            <translation>changed</translation>
        </message>
        <message>
            <source>failing</source>
            <translation>failing</translation>
        </message>
        <message>
            <source>no input</source>
            <translation>no input</translation>
        </message>
    </context>
    <context>
        <name>opening</name>
        <message>
            <source>not found: moved, deleted, or on a drive or share that is not connected</source>
            <translation>not found: moved, deleted, or on a drive or share that is not connected</translation>
        </message>
        <message>
            <source>%1: %2</source>
            <translation>%1: %2</translation>
        </message>
        <message>
            <source>Recent workspace not found</source>
            <translation>Recent workspace not found</translation>
        </message>
        <message>
            <source>The recent workspace is gone: %1.</source>
            <translation>The recent workspace is gone: %1.</translation>
        </message>
        <message>
            <source>It may have been moved or deleted, or it is on a drive or share that is not connected now. Nothing was opened, and nothing was created in %1.

Remove it from the list of recent workspaces?</source>
            <translation>It may have been moved or deleted, or it is on a drive or share that is not connected now. Nothing was opened, and nothing was created in %1.

Remove it from the list of recent workspaces?</translation>
        </message>
        <message>
            <source>Remove from the list</source>
            <translation>Remove from the list</translation>
        </message>
        <message>
            <source>Keep it</source>
            <translation>Keep it</translation>
        </message>
        <message>
            <source>No workspace here</source>
            <translation>No workspace here</translation>
        </message>
        <message>
            <source>%1.</source>
            <translation>%1.</translation>
        </message>
        <message>
            <source>Make a new, empty workspace in %1? It adds %2 and %3 there (and the folder, if it is not there); then load a file with Batch → Run batch…

If you expected dead letters here, choose Cancel and check the folder: a workspace on a share shows only while the share is connected.</source>
            <translation>Make a new, empty workspace in %1? It adds %2 and %3 there (and the folder, if it is not there); then load a file with Batch → Run batch…

If you expected dead letters here, choose Cancel and check the folder: a workspace on a share shows only while the share is connected.</translation>
        </message>
        <message>
            <source>Make a new workspace</source>
            <translation>Make a new workspace</translation>
        </message>
    </context>
    <context>
        <name>pickers</name>
        <message>
            <source>anyone</source>
            <translation>anyone</translation>
        </message>
        <message>
            <source>nobody</source>
            <translation>nobody</translation>
        </message>
        <message>
            <source>any</source>
            <translation>any</translation>
        </message>
    </context>
    <context>
        <name>shortcuts</name>
        <message>
            <source>%1 (%2)</source>
            <translation>%1 (%2)</translation>
        </message>
    </context>
    <context>
        <name>workers</name>
        <message numerus="yes">
            <source>Re-driving %1 of %Ln row(s)</source>
            <translation>
                <numerusform>Re-driving %1 of %Ln row</numerusform>
                <numerusform>Re-driving %1 of %Ln rows</numerusform>
            </translation>
        </message>
        <message>
            <source>%1 rows/s</source>
            <translation>%1 rows/s</translation>
        </message>
        <message numerus="yes">
            <source>Previewing %1 of %Ln row(s)</source>
            <translation>
                <numerusform>Previewing %1 of %Ln row</numerusform>
                <numerusform>Previewing %1 of %Ln rows</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Loading %1: %Ln row(s), %2</source>
            <translation>
                <numerusform>Loading %1: %Ln row, %2</numerusform>
                <numerusform>Loading %1: %Ln rows, %2</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Exporting %1 of %Ln row(s)</source>
            <translation>
                <numerusform>Exporting %1 of %Ln row</numerusform>
                <numerusform>Exporting %1 of %Ln rows</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Checking %1 of %Ln row(s)</source>
            <translation>
                <numerusform>Checking %1 of %Ln row</numerusform>
                <numerusform>Checking %1 of %Ln rows</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Reprocessing %1 of %Ln row(s)</source>
            <translation>
                <numerusform>Reprocessing %1 of %Ln row</numerusform>
                <numerusform>Reprocessing %1 of %Ln rows</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Purging %1 of %Ln row(s)</source>
            <translation>
                <numerusform>Purging %1 of %Ln row</numerusform>
                <numerusform>Purging %1 of %Ln rows</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Importing from %1: %2 of %Ln row(s)</source>
            <translation>
                <numerusform>Importing from %1: %2 of %Ln row</numerusform>
                <numerusform>Importing from %1: %2 of %Ln rows</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Importing from %1: %Ln dead letter(s) so far</source>
            <translation>
                <numerusform>Importing from %1: %Ln dead letter so far</numerusform>
                <numerusform>Importing from %1: %Ln dead letters so far</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1: %Ln row(s), %2</source>
            <translation>
                <numerusform>%1: %Ln row, %2</numerusform>
                <numerusform>%1: %Ln rows, %2</numerusform>
            </translation>
        </message>
    </context>
</TS>
