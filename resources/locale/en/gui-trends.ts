<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
    <context>
        <name>AttemptsChart</name>
        <message>
            <source>dead letters</source>
            <translation>dead letters</translation>
        </message>
        <message>
            <source>attempts</source>
            <translation>attempts</translation>
        </message>
        <message>
            <source>not parked</source>
            <translation>not parked</translation>
        </message>
        <message>
            <source>parked</source>
            <translation>parked</translation>
        </message>
        <message numerus="yes">
            <source>%Ln attempt(s)</source>
            <translation>
                <numerusform>%Ln attempt</numerusform>
                <numerusform>%Ln attempts</numerusform>
            </translation>
        </message>
        <message>
            <source>%1: %2, %3 parked</source>
            <translation>%1: %2, %3 parked</translation>
        </message>
        <message numerus="yes">
            <source>%Ln attempt(s) · parked</source>
            <translation>
                <numerusform>%Ln attempt · parked</numerusform>
                <numerusform>%Ln attempts · parked</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>BacklogChart</name>
        <message>
            <source>waiting</source>
            <translation>waiting</translation>
        </message>
        <message>
            <source>open + parked (left)</source>
            <translation>open + parked (left)</translation>
        </message>
        <message>
            <source>resolved, all time</source>
            <translation>resolved, all time</translation>
        </message>
        <message>
            <source>resolved (right)</source>
            <translation>resolved (right)</translation>
        </message>
        <message>
            <source>end of %1: %2 waiting, %3 resolved
that day: +%4 quarantined, -%5 resolved, -%6 discarded</source>
            <translation>end of %1: %2 waiting, %3 resolved
that day: +%4 quarantined, -%5 resolved, -%6 discarded</translation>
        </message>
    </context>
    <context>
        <name>ChartPanel</name>
        <message>
            <source>whole store</source>
            <translation>whole store</translation>
        </message>
        <message>
            <source>follows the filter</source>
            <translation>follows the filter</translation>
        </message>
        <message>
            <source>Checked: this chart counts only the rows the quarantine table's filter chooses. Unchecked: the whole store.</source>
            <translation>Checked: this chart counts only the rows the quarantine table's filter chooses. Unchecked: the whole store.</translation>
        </message>
        <message>
            <source>%1 follows the table's filter</source>
            <translation>%1 follows the table's filter</translation>
        </message>
        <message>
            <source>PNG…</source>
            <translation>PNG…</translation>
        </message>
        <message>
            <source>Save the chart as a PNG image</source>
            <translation>Save the chart as a PNG image</translation>
        </message>
        <message>
            <source>CSV…</source>
            <translation>CSV…</translation>
        </message>
        <message>
            <source>Save the chart's numbers as CSV</source>
            <translation>Save the chart's numbers as CSV</translation>
        </message>
        <message>
            <source>Export %1 as PNG</source>
            <translation>Export %1 as PNG</translation>
        </message>
        <message>
            <source>Export %1 as CSV</source>
            <translation>Export %1 as CSV</translation>
        </message>
        <message>
            <source>no numbers yet</source>
            <translation>no numbers yet</translation>
        </message>
        <message>
            <source>PNG image (*.png)</source>
            <translation>PNG image (*.png)</translation>
        </message>
        <message>
            <source>CSV file (*.csv)</source>
            <translation>CSV file (*.csv)</translation>
        </message>
        <message>
            <source>Export %1</source>
            <translation>Export %1</translation>
        </message>
        <message>
            <source>not exported: %1</source>
            <translation>not exported: %1</translation>
        </message>
        <message>
            <source>exported %1</source>
            <translation>exported %1</translation>
        </message>
    </context>
    <context>
        <name>FailuresChart</name>
        <message>
            <source>quarantined</source>
            <translation>quarantined</translation>
        </message>
        <message>
            <source>batch (source file)</source>
            <translation>batch (source file)</translation>
        </message>
        <message>
            <source>batch (batch id)</source>
            <translation>batch (batch id)</translation>
        </message>
        <message numerus="yes">
            <source>%Ln earlier purge(s)</source>
            <translation>
                <numerusform>%Ln earlier purge</numerusform>
                <numerusform>%Ln earlier purges</numerusform>
            </translation>
        </message>
        <message>
            <source>%1 · still counted in the bars</source>
            <translation>%1 · still counted in the bars</translation>
        </message>
        <message>
            <source>%1: %2 quarantined (%3)</source>
            <translation>%1: %2 quarantined (%3)</translation>
        </message>
        <message>
            <source>%1 of them purged since (not in the table)</source>
            <translation>%1 of them purged since (not in the table)</translation>
        </message>
        <message>
            <source>batch %1 · %2 · %3 · %4</source>
            <translation>batch %1 · %2 · %3 · %4</translation>
        </message>
        <message>
            <source>%1 quarantined (%2)</source>
            <translation>%1 quarantined (%2)</translation>
        </message>
        <message numerus="yes">
            <source>held: %Ln row(s) wait, all or nothing, until every dead letter is fixed</source>
            <translation>
                <numerusform>held: %Ln row waits, all or nothing, until every dead letter is fixed</numerusform>
                <numerusform>held: %Ln rows wait, all or nothing, until every dead letter is fixed</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>GroupsChart</name>
        <message>
            <source>dead letters</source>
            <translation>dead letters</translation>
        </message>
        <message>
            <source>%1: %2, %3 open</source>
            <translation>%1: %2, %3 open</translation>
        </message>
    </context>
    <context>
        <name>GroupsModel</name>
        <message>
            <source>signature</source>
            <translation>signature</translation>
        </message>
        <message>
            <source>class</source>
            <translation>class</translation>
        </message>
        <message>
            <source>open</source>
            <translation>open</translation>
        </message>
        <message>
            <source>oldest open</source>
            <translation>oldest open</translation>
        </message>
        <message>
            <source>owner</source>
            <translation>owner</translation>
        </message>
        <message>
            <source>tags</source>
            <translation>tags</translation>
        </message>
        <message>
            <source>note</source>
            <translation>note</translation>
        </message>
        <message>
            <source>24 h</source>
            <translation>24 h</translation>
        </message>
        <message>
            <source>first seen (release)</source>
            <translation>first seen (release)</translation>
        </message>
        <message>
            <source>count</source>
            <translation>count</translation>
        </message>
        <message>
            <source>resolved</source>
            <translation>resolved</translation>
        </message>
        <message>
            <source>last seen</source>
            <translation>last seen</translation>
        </message>
        <message>
            <source>unowned</source>
            <translation>unowned</translation>
        </message>
    </context>
    <context>
        <name>GroupsView</name>
        <message>
            <source>Assign owner…</source>
            <translation>Assign owner…</translation>
        </message>
        <message>
            <source>Tags…</source>
            <translation>Tags…</translation>
        </message>
        <message>
            <source>Note…</source>
            <translation>Note…</translation>
        </message>
        <message>
            <source>Error groups of owner</source>
            <translation>Error groups of owner</translation>
        </message>
        <message>
            <source>Error groups tagged</source>
            <translation>Error groups tagged</translation>
        </message>
        <message>
            <source>signature, owner, tag or note</source>
            <translation>signature, owner, tag or note</translation>
        </message>
        <message>
            <source>Search error groups</source>
            <translation>Search error groups</translation>
        </message>
        <message>
            <source>Error groups</source>
            <translation>Error groups</translation>
        </message>
        <message>
            <source>Owner</source>
            <translation>Owner</translation>
        </message>
        <message>
            <source>Tag</source>
            <translation>Tag</translation>
        </message>
        <message>
            <source>Click a group: the quarantine table shows it, its rows selected; its owner or tags: every group so owned or tagged. Right-click: assign an owner, tags, a note</source>
            <translation>Click a group: the quarantine table shows it, its rows selected; its owner or tags: every group so owned or tagged. Right-click: assign an owner, tags, a note</translation>
        </message>
        <message numerus="yes">
            <source>%Ln group(s)</source>
            <translation>
                <numerusform>%Ln group</numerusform>
                <numerusform>%Ln groups</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1 of %Ln group(s)</source>
            <translation>
                <numerusform>%1 of %Ln group</numerusform>
                <numerusform>%1 of %Ln groups</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>HeadlineBar</name>
        <message>
            <source>code errors after a new release of %1</source>
            <translation>code errors after a new release of %1</translation>
        </message>
        <message>
            <source>code errors through %1, not new: new input?</source>
            <translation>code errors through %1, not new: new input?</translation>
        </message>
        <message>
            <source>data errors: the source sent bad rows</source>
            <translation>data errors: the source sent bad rows</translation>
        </message>
        <message>
            <source>transient errors: something was down</source>
            <translation>transient errors: something was down</translation>
        </message>
        <message>
            <source>a mix of classes</source>
            <translation>a mix of classes</translation>
        </message>
        <message>
            <source>counting</source>
            <translation>counting</translation>
        </message>
        <message numerus="yes">
            <source>row(s) wait for a person</source>
            <translation>
                <numerusform>row waits for a person</numerusform>
                <numerusform>rows wait for a person</numerusform>
            </translation>
        </message>
        <message>
            <source>oldest open row's wait</source>
            <translation>oldest open row's wait</translation>
        </message>
        <message>
            <source>first failed %1 UTC</source>
            <translation>first failed %1 UTC</translation>
        </message>
        <message numerus="yes">
            <source>&lt;a href="unowned"&gt;group(s) nobody owns&lt;/a&gt; (%1 with open rows)</source>
            <translation>
                <numerusform>&lt;a href="unowned"&gt;group nobody owns&lt;/a&gt; (%1 with open rows)</numerusform>
                <numerusform>&lt;a href="unowned"&gt;groups nobody owns&lt;/a&gt; (%1 with open rows)</numerusform>
            </translation>
        </message>
        <message>
            <source>Click: the error groups below narrow to the unowned</source>
            <translation>Click: the error groups below narrow to the unowned</translation>
        </message>
        <message>
            <source>groups nobody owns: every group has an owner</source>
            <translation>groups nobody owns: every group has an owner</translation>
        </message>
        <message>
            <source>%1 at %2</source>
            <translation>%1 at %2</translation>
        </message>
        <message>
            <source>step %1</source>
            <translation>step %1</translation>
        </message>
        <message>
            <source>on the retry ladder: %1</source>
            <translation>on the retry ladder: %1</translation>
        </message>
        <message>
            <source>on the retry ladder</source>
            <translation>on the retry ladder</translation>
        </message>
        <message>
            <source>%1 due now</source>
            <translation>%1 due now</translation>
        </message>
        <message>
            <source>%1 parked at its end</source>
            <translation>%1 parked at its end</translation>
        </message>
        <message>
            <source>The retry ladder: %1</source>
            <translation>The retry ladder: %1</translation>
        </message>
        <message>
            <source>Before retry %1: %2 waiting, next due %3 UTC</source>
            <translation>Before retry %1: %2 waiting, next due %3 UTC</translation>
        </message>
        <message>
            <source>Before retry %1: %2 waiting</source>
            <translation>Before retry %1: %2 waiting</translation>
        </message>
        <message>
            <source>Parked at the ladder's end, waiting for a person: %1</source>
            <translation>Parked at the ladder's end, waiting for a person: %1</translation>
        </message>
        <message>
            <source>No spike</source>
            <translation>No spike</translation>
        </message>
        <message>
            <source>in the newest batches</source>
            <translation>in the newest batches</translation>
        </message>
        <message>
            <source>cause unknown</source>
            <translation>cause unknown</translation>
        </message>
        <message>
            <source>Spike: %1 in batch %2</source>
            <translation>Spike: %1 in batch %2</translation>
        </message>
        <message>
            <source>%1 · &lt;a href="%2"&gt;its rows&lt;/a&gt;</source>
            <translation>%1 · &lt;a href="%2"&gt;its rows&lt;/a&gt;</translation>
        </message>
    </context>
    <context>
        <name>RateChart</name>
        <message>
            <source>% of rows quarantined</source>
            <translation>% of rows quarantined</translation>
        </message>
        <message>
            <source>rate</source>
            <translation>rate</translation>
        </message>
        <message>
            <source>spike</source>
            <translation>spike</translation>
        </message>
        <message>
            <source>spike threshold</source>
            <translation>spike threshold</translation>
        </message>
        <message>
            <source>import %1 · %2 · %3</source>
            <translation>import %1 · %2 · %3</translation>
        </message>
        <message numerus="yes">
            <source>%Ln dead letter(s) imported (judged by volume)</source>
            <translation>
                <numerusform>%Ln dead letter imported (judged by volume)</numerusform>
                <numerusform>%Ln dead letters imported (judged by volume)</numerusform>
            </translation>
        </message>
        <message>
            <source>too few batches before it to judge</source>
            <translation>too few batches before it to judge</translation>
        </message>
        <message>
            <source>threshold %1: SPIKE</source>
            <translation>threshold %1: SPIKE</translation>
        </message>
        <message>
            <source>threshold %1</source>
            <translation>threshold %1</translation>
        </message>
        <message>
            <source>batch %1 · %2 · %3 · %4</source>
            <translation>batch %1 · %2 · %3 · %4</translation>
        </message>
        <message numerus="yes">
            <source>%1 of %Ln row(s) (%2)</source>
            <translation>
                <numerusform>%1 of %Ln row (%2)</numerusform>
                <numerusform>%1 of %Ln rows (%2)</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>SpikeBanner</name>
        <message>
            <source>Show its dead letters</source>
            <translation>Show its dead letters</translation>
        </message>
        <message>
            <source>Dismiss: this batch will not raise the banner again</source>
            <translation>Dismiss: this batch will not raise the banner again</translation>
        </message>
        <message>
            <source>Dismiss the spike</source>
            <translation>Dismiss the spike</translation>
        </message>
    </context>
    <context>
        <name>TrendChart</name>
        <message>
            <source>cannot encode the chart for %1</source>
            <translation>cannot encode the chart for %1</translation>
        </message>
    </context>
    <context>
        <name>TrendsTab</name>
        <message>
            <source>All time</source>
            <translation>All time</translation>
        </message>
        <message>
            <source>Last 7 days</source>
            <translation>Last 7 days</translation>
        </message>
        <message>
            <source>Last 30 days</source>
            <translation>Last 30 days</translation>
        </message>
        <message>
            <source>Last 90 days</source>
            <translation>Last 90 days</translation>
        </message>
        <message>
            <source>quarantined, stacked by class (UTC days)</source>
            <translation>quarantined, stacked by class (UTC days)</translation>
        </message>
        <message>
            <source>quarantined per batch, from its counters</source>
            <translation>quarantined per batch, from its counters</translation>
        </message>
        <message>
            <source>The spike rule: a batch whose quarantine rate exceeds this many times the median of this many previous batches</source>
            <translation>The spike rule: a batch whose quarantine rate exceeds this many times the median of this many previous batches</translation>
        </message>
        <message>
            <source>Trends period</source>
            <translation>Trends period</translation>
        </message>
        <message>
            <source>Spike factor</source>
            <translation>Spike factor</translation>
        </message>
        <message>
            <source>Spike window in batches</source>
            <translation>Spike window in batches</translation>
        </message>
        <message>
            <source>Show</source>
            <translation>Show</translation>
        </message>
        <message>
            <source>Spike: rate above</source>
            <translation>Spike: rate above</translation>
        </message>
        <message>
            <source>the median of the previous</source>
            <translation>the median of the previous</translation>
        </message>
        <message numerus="yes">
            <source>batch(es)</source>
            <translation>
                <numerusform>batch</numerusform>
                <numerusform>batches</numerusform>
            </translation>
        </message>
        <message>
            <source>per day</source>
            <translation>per day</translation>
        </message>
        <message>
            <source>per batch</source>
            <translation>per batch</translation>
        </message>
        <message>
            <source>click a bar: the table shows those rows</source>
            <translation>click a bar: the table shows those rows</translation>
        </message>
        <message>
            <source>Failures over time</source>
            <translation>Failures over time</translation>
        </message>
        <message>
            <source>Backlog</source>
            <translation>Backlog</translation>
        </message>
        <message>
            <source>waiting vs resolved</source>
            <translation>waiting vs resolved</translation>
        </message>
        <message>
            <source>Quarantine rate per batch</source>
            <translation>Quarantine rate per batch</translation>
        </message>
        <message>
            <source>spikes in red</source>
            <translation>spikes in red</translation>
        </message>
        <message>
            <source>Attempts</source>
            <translation>Attempts</translation>
        </message>
        <message>
            <source>parked in red</source>
            <translation>parked in red</translation>
        </message>
        <message>
            <source>Largest error groups</source>
            <translation>Largest error groups</translation>
        </message>
        <message>
            <source>click a bar: its rows, selected</source>
            <translation>click a bar: its rows, selected</translation>
        </message>
        <message>
            <source>the table's filter: %1</source>
            <translation>the table's filter: %1</translation>
        </message>
        <message numerus="yes">
            <source>%Ln batch(es) · updated %1</source>
            <translation>
                <numerusform>%Ln batch · updated %1</numerusform>
                <numerusform>%Ln batches · updated %1</numerusform>
            </translation>
        </message>
        <message>
            <source>no dead letters yet</source>
            <translation>no dead letters yet</translation>
        </message>
        <message>
            <source>trends: %1</source>
            <translation>trends: %1</translation>
        </message>
    </context>
    <context>
        <name>base</name>
        <message numerus="yes">
            <source>%Ln dead letter(s)</source>
            <translation>
                <numerusform>%Ln dead letter</numerusform>
                <numerusform>%Ln dead letters</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>count_axis</name>
        <message>
            <source>%1M</source>
            <translation>%1M</translation>
        </message>
    </context>
    <context>
        <name>groups_view</name>
        <message>
            <source>group %1</source>
            <translation>group %1</translation>
        </message>
        <message>
            <source>owner %1</source>
            <translation>owner %1</translation>
        </message>
        <message>
            <source>tag %1</source>
            <translation>tag %1</translation>
        </message>
        <message>
            <source>no open row</source>
            <translation>no open row</translation>
        </message>
        <message>
            <source>its oldest open row first failed %1 (UTC)</source>
            <translation>its oldest open row first failed %1 (UTC)</translation>
        </message>
        <message>
            <source>Click: the rows of every group %1 owns</source>
            <translation>Click: the rows of every group %1 owns</translation>
        </message>
        <message>
            <source>Nobody owns this group. Right-click: assign an owner</source>
            <translation>Nobody owns this group. Right-click: assign an owner</translation>
        </message>
        <message>
            <source>first failed %1 (UTC)</source>
            <translation>first failed %1 (UTC)</translation>
        </message>
        <message>
            <source>Click: the rows of every group tagged %1</source>
            <translation>Click: the rows of every group tagged %1</translation>
        </message>
    </context>
    <context>
        <name>report</name>
        <message>
            <source>unowned</source>
            <translation>unowned</translation>
        </message>
        <message>
            <source>Quarantined per day, by class</source>
            <translation>Quarantined per day, by class</translation>
        </message>
        <message>
            <source>Quarantined per batch, by class</source>
            <translation>Quarantined per batch, by class</translation>
        </message>
        <message>
            <source>Backlog: open vs resolved</source>
            <translation>Backlog: open vs resolved</translation>
        </message>
        <message>
            <source>Quarantine rate per batch</source>
            <translation>Quarantine rate per batch</translation>
        </message>
        <message>
            <source>Attempts</source>
            <translation>Attempts</translation>
        </message>
        <message>
            <source>Error groups</source>
            <translation>Error groups</translation>
        </message>
        <message>
            <source>signature</source>
            <translation>signature</translation>
        </message>
        <message>
            <source>class</source>
            <translation>class</translation>
        </message>
        <message>
            <source>count</source>
            <translation>count</translation>
        </message>
        <message>
            <source>open</source>
            <translation>open</translation>
        </message>
        <message>
            <source>oldest open</source>
            <translation>oldest open</translation>
        </message>
        <message>
            <source>owner</source>
            <translation>owner</translation>
        </message>
        <message>
            <source>tags</source>
            <translation>tags</translation>
        </message>
        <message>
            <source>note</source>
            <translation>note</translation>
        </message>
        <message>
            <source>first seen (UTC)</source>
            <translation>first seen (UTC)</translation>
        </message>
        <message>
            <source>first batch</source>
            <translation>first batch</translation>
        </message>
        <message>
            <source>source</source>
            <translation>source</translation>
        </message>
        <message>
            <source>version</source>
            <translation>version</translation>
        </message>
        <message>
            <source>last 24 h</source>
            <translation>last 24 h</translation>
        </message>
        <message>
            <source>status</source>
            <translation>status</translation>
        </message>
        <message>
            <source>batch</source>
            <translation>batch</translation>
        </message>
        <message>
            <source>quarantined</source>
            <translation>quarantined</translation>
        </message>
        <message>
            <source>spike</source>
            <translation>spike</translation>
        </message>
        <message>
            <source>since then</source>
            <translation>since then</translation>
        </message>
        <message>
            <source>since %1 (UTC days)</source>
            <translation>since %1 (UTC days)</translation>
        </message>
        <message>
            <source>%1 to %2 (UTC days)</source>
            <translation>%1 to %2 (UTC days)</translation>
        </message>
        <message>
            <source>no dead letters yet</source>
            <translation>no dead letters yet</translation>
        </message>
        <message>
            <source>Quarantined in the last 7 days: %1.</source>
            <translation>Quarantined in the last 7 days: %1.</translation>
        </message>
        <message>
            <source>Quarantined in the last 7 days: %1 (%2 more than the 7 days before: %3).</source>
            <translation>Quarantined in the last 7 days: %1 (%2 more than the 7 days before: %3).</translation>
        </message>
        <message>
            <source>Quarantined in the last 7 days: %1 (%2 fewer than the 7 days before: %3).</source>
            <translation>Quarantined in the last 7 days: %1 (%2 fewer than the 7 days before: %3).</translation>
        </message>
        <message>
            <source>Quarantined in the last 7 days: %1 (as many as the 7 days before: %2).</source>
            <translation>Quarantined in the last 7 days: %1 (as many as the 7 days before: %2).</translation>
        </message>
        <message>
            <source>The largest cause is %1 (%2): %3, %4 of all, %5 still open, owned by %6.</source>
            <translation>The largest cause is %1 (%2): %3, %4 of all, %5 still open, owned by %6.</translation>
        </message>
        <message>
            <source>The largest cause is %1 (%2): %3, %4 of all, %5 still open, nobody owns it.</source>
            <translation>The largest cause is %1 (%2): %3, %4 of all, %5 still open, nobody owns it.</translation>
        </message>
        <message>
            <source>The oldest open dead letter has waited %1 (it first failed %2 UTC).</source>
            <translation>The oldest open dead letter has waited %1 (it first failed %2 UTC).</translation>
        </message>
        <message>
            <source>The spike in batch %1: see above.</source>
            <translation>The spike in batch %1: see above.</translation>
        </message>
        <message>
            <source>Earlier spikes in the period: %1.</source>
            <translation>Earlier spikes in the period: %1.</translation>
        </message>
        <message>
            <source>No spikes: no batch crossed the rule (%1).</source>
            <translation>No spikes: no batch crossed the rule (%1).</translation>
        </message>
        <message>
            <source>quiet (none in 48 h)</source>
            <translation>quiet (none in 48 h)</translation>
        </message>
        <message>
            <source>%1 stopped (%2 the 24 h before)</source>
            <translation>%1 stopped (%2 the 24 h before)</translation>
        </message>
        <message>
            <source>%1 +%2 (%3 the 24 h before)</source>
            <translation>%1 +%2 (%3 the 24 h before)</translation>
        </message>
        <message>
            <source>%1 of %2</source>
            <translation>%1 of %2</translation>
        </message>
        <message numerus="yes">
            <source>%Ln dead letter(s) quarantined: %1.</source>
            <translation>
                <numerusform>%Ln dead letter quarantined: %1.</numerusform>
                <numerusform>%Ln dead letters quarantined: %1.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln dead letter(s) quarantined.</source>
            <translation>
                <numerusform>%Ln dead letter quarantined.</numerusform>
                <numerusform>%Ln dead letters quarantined.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln batch(es) ran; %1 (%2).</source>
            <translation>
                <numerusform>%Ln batch ran; %1 (%2).</numerusform>
                <numerusform>%Ln batches ran; %1 (%2).</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln spike(s)</source>
            <translation>
                <numerusform>%Ln spike</numerusform>
                <numerusform>%Ln spikes</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln batch(es) ran, no spike.</source>
            <translation>
                <numerusform>%Ln batch ran, no spike.</numerusform>
                <numerusform>%Ln batches ran, no spike.</numerusform>
            </translation>
        </message>
        <message>
            <source>%1 (first seen since then); %2 grew.</source>
            <translation>%1 (first seen since then); %2 grew.</translation>
        </message>
        <message numerus="yes">
            <source>%Ln new error group(s)</source>
            <translation>
                <numerusform>%Ln new error group</numerusform>
                <numerusform>%Ln new error groups</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln older group(s)</source>
            <translation>
                <numerusform>%Ln older group</numerusform>
                <numerusform>%Ln older groups</numerusform>
            </translation>
        </message>
        <message>
            <source>Since %1 UTC</source>
            <translation>Since %1 UTC</translation>
        </message>
        <message>
            <source>Dead-letter trends</source>
            <translation>Dead-letter trends</translation>
        </message>
        <message>
            <source>%1 · %2 · written %3 UTC</source>
            <translation>%1 · %2 · written %3 UTC</translation>
        </message>
        <message>
            <source>The period: %1</source>
            <translation>The period: %1</translation>
        </message>
        <message>
            <source>Error groups: who works on what</source>
            <translation>Error groups: who works on what</translation>
        </message>
        <message>
            <source>Error groups: since when, which release, still growing</source>
            <translation>Error groups: since when, which release, still growing</translation>
        </message>
        <message>
            <source>dead letters</source>
            <translation>dead letters</translation>
        </message>
        <message>
            <source>dead letters first failed since %1</source>
            <translation>dead letters first failed since %1</translation>
        </message>
        <message>
            <source>New error groups:</source>
            <translation>New error groups:</translation>
        </message>
        <message>
            <source>Older groups that grew:</source>
            <translation>Older groups that grew:</translation>
        </message>
        <message>
            <source>New error groups</source>
            <translation>New error groups</translation>
        </message>
        <message>
            <source>Older groups that grew</source>
            <translation>Older groups that grew</translation>
        </message>
    </context>
    <context>
        <name>words</name>
        <message>
            <source>first failed %1</source>
            <translation>first failed %1</translation>
        </message>
        <message>
            <source>first failed %1 · %2</source>
            <translation>first failed %1 · %2</translation>
        </message>
        <message>
            <source>batch %1</source>
            <translation>batch %1</translation>
        </message>
        <message>
            <source>batch %1 · %2</source>
            <translation>batch %1 · %2</translation>
        </message>
    </context>
</TS>
