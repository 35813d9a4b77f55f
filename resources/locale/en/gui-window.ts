<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
    <context>
        <name>MenuBar</name>
        <message>
            <source>&amp;Open workspace…</source>
            <translation>&amp;Open workspace…</translation>
        </message>
    </context>
</TS>
