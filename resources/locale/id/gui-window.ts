<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="id" sourcelanguage="en">
    <context>
        <name>MenuBar</name>
        <message>
            <source>&amp;Open workspace…</source>
            <translation>&amp;Buka ruang kerja…</translation>
        </message>
    </context>
</TS>
