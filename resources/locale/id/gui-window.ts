<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="id" sourcelanguage="en">
    <context>
        <name>AuditTab</name>
        <message>
            <source>Since</source>
            <translation>Sejak</translation>
        </message>
        <message>
            <source>Only events from this UTC day on</source>
            <translation>Hanya peristiwa mulai hari ini (UTC)</translation>
        </message>
        <message>
            <source>who: any part of the name</source>
            <translation>siapa: bagian mana pun dari namanya</translation>
        </message>
        <message>
            <source>any</source>
            <translation>semua</translation>
        </message>
        <message>
            <source>Audit events since</source>
            <translation>Peristiwa audit sejak</translation>
        </message>
        <message>
            <source>Audit actor filter</source>
            <translation>Filter pelaku audit</translation>
        </message>
        <message>
            <source>Audit action filter</source>
            <translation>Filter tindakan audit</translation>
        </message>
        <message>
            <source>Audit dead letter filter</source>
            <translation>Filter dead letter audit</translation>
        </message>
        <message>
            <source>Who</source>
            <translation>Siapa</translation>
        </message>
        <message>
            <source>Action</source>
            <translation>Tindakan</translation>
        </message>
        <message>
            <source>Dead letter #</source>
            <translation>Dead letter #</translation>
        </message>
        <message>
            <source>Audit trail</source>
            <translation>Jejak audit</translation>
        </message>
        <message>
            <source>Double-click an event: its dead letter in the Quarantine tab</source>
            <translation>Klik ganda sebuah peristiwa: dead letter-nya di tab Karantina</translation>
        </message>
        <message>
            <source>reading…</source>
            <translation>membaca…</translation>
        </message>
        <message>
            <source>no events match</source>
            <translation>tidak ada peristiwa yang cocok</translation>
        </message>
        <message numerus="yes">
            <source>%Ln event(s) · %1 shown, scroll for more</source>
            <translation>
                <numerusform>%Ln peristiwa · %1 ditampilkan, gulir untuk melihat lainnya</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln event(s)</source>
            <translation>
                <numerusform>%Ln peristiwa</numerusform>
            </translation>
        </message>
        <message>
            <source>audit: %1</source>
            <translation>audit: %1</translation>
        </message>
        <message>
            <source>%1: an event about the store, not one dead letter</source>
            <translation>%1: peristiwa tentang penyimpanan, bukan tentang satu dead letter</translation>
        </message>
        <message>
            <source>dead letter #%1 is no longer in the store (purged)</source>
            <translation>dead letter #%1 sudah tidak ada di penyimpanan (dihapus permanen)</translation>
        </message>
    </context>
    <context>
        <name>AuditTableModel</name>
        <message>
            <source>when (UTC)</source>
            <translation>kapan (UTC)</translation>
        </message>
        <message>
            <source>who</source>
            <translation>siapa</translation>
        </message>
        <message>
            <source>action</source>
            <translation>tindakan</translation>
        </message>
        <message>
            <source>dead letter</source>
            <translation>dead letter</translation>
        </message>
        <message>
            <source>version</source>
            <translation>versi</translation>
        </message>
        <message>
            <source>detail</source>
            <translation>rincian</translation>
        </message>
        <message>
            <source>quarantined</source>
            <translation>dikarantina</translation>
        </message>
        <message>
            <source>edited</source>
            <translation>disunting</translation>
        </message>
        <message>
            <source>resolved</source>
            <translation>selesai</translation>
        </message>
        <message>
            <source>redrive_failed</source>
            <translation>kirim ulang gagal</translation>
        </message>
        <message>
            <source>parked</source>
            <translation>diparkir</translation>
        </message>
        <message>
            <source>discarded</source>
            <translation>dibuang</translation>
        </message>
        <message>
            <source>reopened</source>
            <translation>dibuka kembali</translation>
        </message>
        <message>
            <source>reclassified</source>
            <translation>diklasifikasi ulang</translation>
        </message>
        <message>
            <source>note</source>
            <translation>catatan</translation>
        </message>
        <message>
            <source>purged</source>
            <translation>dihapus permanen</translation>
        </message>
        <message>
            <source>group</source>
            <translation>kelompok</translation>
        </message>
        <message>
            <source>reprocessed</source>
            <translation>diproses ulang</translation>
        </message>
        <message>
            <source>undelivered</source>
            <translation>tidak terkirim</translation>
        </message>
        <message>
            <source>imported</source>
            <translation>diimpor</translation>
        </message>
        <message>
            <source>revealed</source>
            <translation>ditampilkan</translation>
        </message>
        <message>
            <source>role_granted</source>
            <translation>peran diberikan</translation>
        </message>
        <message>
            <source>role_revoked</source>
            <translation>peran dicabut</translation>
        </message>
        <message>
            <source>the dead letter's version after the change</source>
            <translation>versi dead letter setelah perubahan</translation>
        </message>
        <message>
            <source>about the store, not one dead letter</source>
            <translation>tentang penyimpanan, bukan tentang satu dead letter</translation>
        </message>
        <message>
            <source>double-click: show it in the Quarantine tab</source>
            <translation>klik ganda: tampilkan di tab Karantina</translation>
        </message>
    </context>
    <context>
        <name>ChangedBanner</name>
        <message>
            <source>Reload</source>
            <translation>Muat ulang</translation>
        </message>
        <message>
            <source>Show the stored payload (theirs); your edit is dropped</source>
            <translation>Tampilkan payload yang tersimpan (milik mereka); suntingan Anda dibuang</translation>
        </message>
        <message>
            <source>Compare…</source>
            <translation>Bandingkan…</translation>
        </message>
        <message>
            <source>Theirs and yours side by side; keep one of them</source>
            <translation>Milik mereka dan milik Anda berdampingan; pertahankan salah satunya</translation>
        </message>
        <message>
            <source>Hide this message; your edit stays</source>
            <translation>Sembunyikan pesan ini; suntingan Anda tetap ada</translation>
        </message>
        <message>
            <source>Hide this message</source>
            <translation>Sembunyikan pesan ini</translation>
        </message>
    </context>
    <context>
        <name>ConflictDialog</name>
        <message>
            <source>Dead letter #%1 changed while you were editing it</source>
            <translation>Dead letter #%1 berubah saat Anda menyuntingnya</translation>
        </message>
        <message>
            <source>&lt;b&gt;%1&lt;/b&gt; changed it at %2 (%3) after you opened it (version %4 → %5). Your edit is not saved yet.</source>
            <translation>&lt;b&gt;%1&lt;/b&gt; mengubahnya pada %2 (%3) setelah Anda membukanya (versi %4 → %5). Suntingan Anda belum disimpan.</translation>
        </message>
        <message>
            <source>It was changed after you opened it (version %1 → %2). Your edit is not saved yet.</source>
            <translation>Dead letter ini diubah setelah Anda membukanya (versi %1 → %2). Suntingan Anda belum disimpan.</translation>
        </message>
        <message>
            <source>Both hold the same JSON: they differ in layout only.</source>
            <translation>Keduanya berisi JSON yang sama: hanya tata letaknya yang berbeda.</translation>
        </message>
        <message numerus="yes">
            <source>%Ln line(s) differ (shown indented when both are JSON; each is saved as written).</source>
            <translation>
                <numerusform>%Ln baris berbeda (ditampilkan berindentasi bila keduanya JSON; masing-masing disimpan sebagaimana ditulis).</numerusform>
            </translation>
        </message>
        <message>
            <source>Theirs, stored now</source>
            <translation>Milik mereka, yang tersimpan sekarang</translation>
        </message>
        <message>
            <source>Yours, not saved</source>
            <translation>Milik Anda, belum disimpan</translation>
        </message>
        <message>
            <source>Theirs: stored now (version %1, %2)</source>
            <translation>Milik mereka: tersimpan sekarang (versi %1, %2)</translation>
        </message>
        <message>
            <source>Yours: not saved</source>
            <translation>Milik Anda: belum disimpan</translation>
        </message>
        <message>
            <source>Keep mine</source>
            <translation>Pertahankan milik saya</translation>
        </message>
        <message>
            <source>Take theirs</source>
            <translation>Ambil milik mereka</translation>
        </message>
        <message>
            <source>Save your edit over theirs; the history keeps theirs (the edit event holds the payload it replaced)</source>
            <translation>Simpan suntingan Anda menggantikan milik mereka; riwayat tetap menyimpan milik mereka (peristiwa suntingan menyimpan payload yang digantikannya)</translation>
        </message>
        <message>
            <source>Drop your edit and show theirs</source>
            <translation>Buang suntingan Anda dan tampilkan milik mereka</translation>
        </message>
        <message>
            <source>It is %1 now: it takes no edit</source>
            <translation>Statusnya kini %1: tidak dapat disunting</translation>
        </message>
        <message>
            <source>Decide later; your edit stays in the editor</source>
            <translation>Putuskan nanti; suntingan Anda tetap di penyunting</translation>
        </message>
    </context>
    <context>
        <name>ConflictFlow</name>
        <message>
            <source>changed</source>
            <translation>diubah</translation>
        </message>
        <message>
            <source>%1 by %2 at %3</source>
            <translation>%1 oleh %2 pada %3</translation>
        </message>
        <message>
            <source>Changed by %1 at %2 (%3)</source>
            <translation>Diubah oleh %1 pada %2 (%3)</translation>
        </message>
        <message>
            <source>Changed (now version %1)</source>
            <translation>Diubah (kini versi %1)</translation>
        </message>
        <message>
            <source>&lt;b&gt;Not saved:&lt;/b&gt; #%1 changed after you opened it. %2; your edit is kept.</source>
            <translation>&lt;b&gt;Tidak disimpan:&lt;/b&gt; #%1 berubah setelah Anda membukanya. %2; suntingan Anda dipertahankan.</translation>
        </message>
        <message>
            <source>&lt;b&gt;%1&lt;/b&gt; while you were editing; your edit is kept.</source>
            <translation>&lt;b&gt;%1&lt;/b&gt; saat Anda sedang menyunting; suntingan Anda dipertahankan.</translation>
        </message>
        <message>
            <source>&lt;b&gt;Not saved:&lt;/b&gt; %1. Your edit is kept.</source>
            <translation>&lt;b&gt;Tidak disimpan:&lt;/b&gt; %1. Suntingan Anda dipertahankan.</translation>
        </message>
        <message>
            <source>not saved: %1</source>
            <translation>tidak disimpan: %1</translation>
        </message>
        <message>
            <source>Reload</source>
            <translation>Muat ulang</translation>
        </message>
        <message>
            <source>Drop your edit of dead letter #%1 and show it as stored now (%2)?</source>
            <translation>Buang suntingan Anda pada dead letter #%1 dan tampilkan sebagaimana tersimpan sekarang (%2)?</translation>
        </message>
        <message>
            <source>Drop my edit and reload</source>
            <translation>Buang suntingan saya dan muat ulang</translation>
        </message>
        <message>
            <source>dead letter %1 reloaded (%2)</source>
            <translation>dead letter %1 dimuat ulang (%2)</translation>
        </message>
        <message>
            <source>dead letter %1: took theirs (%2)</source>
            <translation>dead letter %1: milik mereka diambil (%2)</translation>
        </message>
        <message>
            <source>dead letter %1: yours and theirs are the same</source>
            <translation>dead letter %1: milik Anda dan milik mereka sama</translation>
        </message>
        <message>
            <source>it takes no edit now</source>
            <translation>kini tidak dapat disunting</translation>
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
            <translation>baris</translation>
        </message>
        <message>
            <source>class</source>
            <translation>kelas</translation>
        </message>
        <message>
            <source>error</source>
            <translation>galat</translation>
        </message>
        <message>
            <source>attempts</source>
            <translation>percobaan</translation>
        </message>
        <message>
            <source>status</source>
            <translation>status</translation>
        </message>
        <message>
            <source>last failed</source>
            <translation>terakhir gagal</translation>
        </message>
        <message>
            <source>transform</source>
            <translation>transformasi</translation>
        </message>
        <message>
            <source>source</source>
            <translation>sumber</translation>
        </message>
        <message>
            <source>the error's signature: the message with its values masked</source>
            <translation>tanda galat: pesannya dengan nilai-nilai yang disamarkan</translation>
        </message>
        <message>
            <source>where the row came from: a connector (a queue or table), or a file</source>
            <translation>asal baris: sebuah konektor (antrean atau tabel), atau sebuah berkas</translation>
        </message>
    </context>
    <context>
        <name>DetailPane</name>
        <message>
            <source>Select a dead letter to see its payload, error and history.</source>
            <translation>Pilih sebuah dead letter untuk melihat payload, galat, dan riwayatnya.</translation>
        </message>
        <message numerus="yes">
            <source>#%1 · batch %2 line %3 · %4 · %Ln attempt(s) · group owned by %5</source>
            <translation>
                <numerusform>#%1 · batch %2 baris %3 · %4 · %Ln percobaan · kelompok milik %5</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>#%1 · batch %2 line %3 · %4 · %Ln attempt(s)</source>
            <translation>
                <numerusform>#%1 · batch %2 baris %3 · %4 · %Ln percobaan</numerusform>
            </translation>
        </message>
        <message>
            <source>Dead letter details</source>
            <translation>Rincian dead letter</translation>
        </message>
        <message>
            <source>Reveal</source>
            <translation>Tampilkan</translation>
        </message>
        <message>
            <source>Show this row's personal fields unmasked, until another row is chosen. Recorded in the audit (revealed); stewards and leads only.</source>
            <translation>Tampilkan kolom data pribadi baris ini tanpa disamarkan, sampai baris lain dipilih. Dicatat dalam audit (ditampilkan); hanya untuk steward dan lead.</translation>
        </message>
        <message>
            <source>Payload</source>
            <translation>Payload</translation>
        </message>
        <message>
            <source>Original payload</source>
            <translation>Payload asli</translation>
        </message>
        <message>
            <source>Original</source>
            <translation>Asli</translation>
        </message>
        <message>
            <source>Changes to the payload</source>
            <translation>Perubahan pada payload</translation>
        </message>
        <message>
            <source>Diff</source>
            <translation>Perbedaan</translation>
        </message>
        <message>
            <source>Error</source>
            <translation>Galat</translation>
        </message>
        <message>
            <source>History</source>
            <translation>Riwayat</translation>
        </message>
        <message>
            <source>when (UTC)</source>
            <translation>kapan (UTC)</translation>
        </message>
        <message>
            <source>who</source>
            <translation>siapa</translation>
        </message>
        <message>
            <source>action</source>
            <translation>tindakan</translation>
        </message>
        <message>
            <source>detail</source>
            <translation>rincian</translation>
        </message>
        <message>
            <source>%1 (changed by another steward: %2)</source>
            <translation>%1 (diubah oleh steward lain: %2)</translation>
        </message>
        <message>
            <source>%1 · not the row chosen in the table: save or revert this edit</source>
            <translation>%1 · bukan baris yang dipilih di tabel: simpan atau kembalikan suntingan ini</translation>
        </message>
        <message>
            <source>dead letter %1: %2 shown unmasked (recorded in the audit)</source>
            <translation>dead letter %1: %2 ditampilkan tanpa disamarkan (dicatat dalam audit)</translation>
        </message>
        <message>
            <source>Revealed: %1 shown unmasked (recorded in the audit) until another row is chosen.</source>
            <translation>Ditampilkan: %1 tanpa disamarkan (dicatat dalam audit) sampai baris lain dipilih.</translation>
        </message>
        <message>
            <source>Personal data masked: %1. Searchable by exact value only.</source>
            <translation>Data pribadi disamarkan: %1. Hanya dapat dicari dengan nilai yang persis sama.</translation>
        </message>
        <message>
            <source>Revealed</source>
            <translation>Ditampilkan</translation>
        </message>
        <message>
            <source>dead letter %1 saved; the original is kept</source>
            <translation>dead letter %1 disimpan; yang asli tetap disimpan</translation>
        </message>
        <message>
            <source>not saved: %1</source>
            <translation>tidak disimpan: %1</translation>
        </message>
        <message>
            <source># CSV header: %1</source>
            <translation># Header CSV: %1</translation>
        </message>
        <message numerus="yes">
            <source>%Ln byte(s) exactly as read; bytes that are not UTF-8 are shown escaped as \xNN</source>
            <translation>
                <numerusform>%Ln byte persis seperti yang dibaca; byte yang bukan UTF-8 ditampilkan dalam bentuk escape \xNN</numerusform>
            </translation>
        </message>
        <message>
            <source>class</source>
            <translation>kelas</translation>
        </message>
        <message>
            <source>signature</source>
            <translation>tanda</translation>
        </message>
        <message>
            <source>transform</source>
            <translation>transformasi</translation>
        </message>
        <message>
            <source>attempts</source>
            <translation>percobaan</translation>
        </message>
        <message>
            <source>first failed</source>
            <translation>pertama gagal</translation>
        </message>
        <message>
            <source>last failed</source>
            <translation>terakhir gagal</translation>
        </message>
        <message>
            <source>group owner</source>
            <translation>pemilik kelompok</translation>
        </message>
        <message>
            <source>group tags</source>
            <translation>tag kelompok</translation>
        </message>
        <message>
            <source>group note</source>
            <translation>catatan kelompok</translation>
        </message>
        <message>
            <source>traceback (redacted):</source>
            <translation>traceback (disensor):</translation>
        </message>
        <message>
            <source>No traceback: kept for code errors only.</source>
            <translation>Tidak ada traceback: hanya disimpan untuk bug kode.</translation>
        </message>
        <message>
            <source>%1

The payload this edit replaced:
%2</source>
            <translation>%1

Payload yang digantikan suntingan ini:
%2</translation>
        </message>
        <message>
            <source>No changes: the payload is the original.</source>
            <translation>Tidak ada perubahan: payload masih yang asli.</translation>
        </message>
        <message>
            <source>original → current (%1 %2)</source>
            <translation>asli → sekarang (%1 %2)</translation>
        </message>
        <message>
            <source>− removed</source>
            <translation>− dihapus</translation>
        </message>
        <message>
            <source>+ added</source>
            <translation>+ ditambahkan</translation>
        </message>
    </context>
    <context>
        <name>FilterBar</name>
        <message>
            <source>All</source>
            <translation>Semua</translation>
        </message>
        <message>
            <source>Data</source>
            <translation>Cacat data</translation>
        </message>
        <message>
            <source>Code</source>
            <translation>Bug kode</translation>
        </message>
        <message>
            <source>Transient</source>
            <translation>Sementara</translation>
        </message>
        <message>
            <source>Open</source>
            <translation>Terbuka</translation>
        </message>
        <message>
            <source>Parked</source>
            <translation>Diparkir</translation>
        </message>
        <message>
            <source>Resolved</source>
            <translation>Selesai</translation>
        </message>
        <message>
            <source>Discarded</source>
            <translation>Dibuang</translation>
        </message>
        <message>
            <source>All sources</source>
            <translation>Semua sumber</translation>
        </message>
        <message>
            <source>Files</source>
            <translation>Berkas</translation>
        </message>
        <message>
            <source>all</source>
            <translation>semua</translation>
        </message>
        <message>
            <source>Source filter</source>
            <translation>Filter sumber</translation>
        </message>
        <message>
            <source>Only the rows imported from this queue or table, or files</source>
            <translation>Hanya baris yang diimpor dari antrean atau tabel ini, atau dari berkas</translation>
        </message>
        <message>
            <source>Source</source>
            <translation>Sumber</translation>
        </message>
        <message>
            <source>Only the rows of the error groups this steward owns</source>
            <translation>Hanya baris dari kelompok galat milik steward ini</translation>
        </message>
        <message>
            <source>Only the rows of the error groups tagged so</source>
            <translation>Hanya baris dari kelompok galat dengan tag ini</translation>
        </message>
        <message>
            <source>Only dead letters that failed at least this often</source>
            <translation>Hanya dead letter yang gagal setidaknya sebanyak ini</translation>
        </message>
        <message>
            <source>search payload and error</source>
            <translation>cari di payload dan galat</translation>
        </message>
        <message>
            <source>Literal text: % _ and quotes are plain characters</source>
            <translation>Teks harfiah: % _ dan tanda kutip adalah karakter biasa</translation>
        </message>
        <message>
            <source>Class</source>
            <translation>Kelas</translation>
        </message>
        <message>
            <source>Class filter</source>
            <translation>Filter kelas</translation>
        </message>
        <message>
            <source>Status</source>
            <translation>Status</translation>
        </message>
        <message>
            <source>Status filter</source>
            <translation>Filter status</translation>
        </message>
        <message>
            <source>Batch</source>
            <translation>Batch</translation>
        </message>
        <message>
            <source>Batch filter</source>
            <translation>Filter batch</translation>
        </message>
        <message>
            <source>Transform</source>
            <translation>Transformasi</translation>
        </message>
        <message>
            <source>Transform filter</source>
            <translation>Filter transformasi</translation>
        </message>
        <message>
            <source>Owner</source>
            <translation>Pemilik</translation>
        </message>
        <message>
            <source>Owner filter</source>
            <translation>Filter pemilik</translation>
        </message>
        <message>
            <source>Tag</source>
            <translation>Tag</translation>
        </message>
        <message>
            <source>Tag filter</source>
            <translation>Filter tag</translation>
        </message>
        <message>
            <source>Attempts</source>
            <translation>Percobaan</translation>
        </message>
        <message>
            <source>Minimum attempts filter</source>
            <translation>Filter jumlah percobaan minimum</translation>
        </message>
        <message>
            <source>Search dead letters</source>
            <translation>Cari dead letter</translation>
        </message>
        <message>
            <source>Lift the narrowing chosen in Trends</source>
            <translation>Cabut penyaringan yang dipilih di Tren</translation>
        </message>
        <message>
            <source>Lift the narrowing</source>
            <translation>Cabut penyaringan</translation>
        </message>
        <message>
            <source>Trends: %1</source>
            <translation>Tren: %1</translation>
        </message>
        <message numerus="yes">
            <source>%1: %2 with %3, %Ln row(s), %4 quarantined, started %5 (UTC)</source>
            <translation>
                <numerusform>%1: %2 dengan %3, %Ln baris, %4 dikarantina, dimulai %5 (UTC)</numerusform>
            </translation>
        </message>
        <message>
            <source>Audit: dead letter #%1</source>
            <translation>Audit: dead letter #%1</translation>
        </message>
        <message>
            <source>chosen in the Audit tab</source>
            <translation>dipilih di tab Audit</translation>
        </message>
    </context>
    <context>
        <name>JobMenu</name>
        <message>
            <source>Load the whole batch: show a dead letter of a held (all-or-nothing) batch first</source>
            <translation>Muat seluruh batch: tampilkan dulu sebuah dead letter dari batch yang ditahan (semua-atau-tidak-sama-sekali)</translation>
        </message>
        <message numerus="yes">
            <source>%Ln held row(s)</source>
            <translation>
                <numerusform>%Ln baris yang ditahan</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln dead letter(s)</source>
            <translation>
                <numerusform>%Ln dead letter</numerusform>
            </translation>
        </message>
        <message>
            <source>Load the whole batch</source>
            <translation>Muat seluruh batch</translation>
        </message>
        <message>
            <source>Load batch %1 whole, in one transaction?

%2 and %3 (each through its current payload) load together, or nothing loads and the batch stays held, with the reason of every line that still fails.</source>
            <translation>Muat batch %1 secara utuh, dalam satu transaksi?

%2 dan %3 (masing-masing melalui payload-nya saat ini) dimuat bersama, atau tidak ada yang dimuat dan batch tetap ditahan, beserta alasan setiap baris yang masih gagal.</translation>
        </message>
        <message>
            <source>change-set %1: %2</source>
            <translation>set perubahan %1: %2</translation>
        </message>
        <message>
            <source>Error group: nothing changed</source>
            <translation>Kelompok galat: tidak ada yang berubah</translation>
        </message>
        <message>
            <source>nobody</source>
            <translation>tidak ada</translation>
        </message>
        <message>
            <source>none</source>
            <translation>tidak ada</translation>
        </message>
        <message>
            <source>Error group %1: owner %2, tags %3</source>
            <translation>Kelompok galat %1: pemilik %2, tag %3</translation>
        </message>
        <message>
            <source>Export %1</source>
            <translation>Ekspor %1</translation>
        </message>
        <message>
            <source>CSV (*.csv);;JSON Lines (*.jsonl)</source>
            <translation>CSV (*.csv);;JSON Lines (*.jsonl)</translation>
        </message>
        <message>
            <source>export cancelled; no file written</source>
            <translation>ekspor dibatalkan; tidak ada berkas yang ditulis</translation>
        </message>
        <message numerus="yes">
            <source>exported %Ln dead letter(s) to %1</source>
            <translation>
                <numerusform>%Ln dead letter diekspor ke %1</numerusform>
            </translation>
        </message>
        <message>
            <source>%1 (%2 matched when you chose: the store changed meanwhile)</source>
            <translation>%1 (%2 cocok saat Anda memilih: penyimpanan berubah sementara itu)</translation>
        </message>
        <message>
            <source>Not done</source>
            <translation>Tidak dilakukan</translation>
        </message>
    </context>
    <context>
        <name>JobStatus</name>
        <message>
            <source>Cancel</source>
            <translation>Hentikan</translation>
        </message>
        <message>
            <source>Stop the running work at its next chunk</source>
            <translation>Hentikan pekerjaan yang berjalan pada potongan berikutnya</translation>
        </message>
        <message>
            <source>%1: starting…</source>
            <translation>%1: memulai…</translation>
        </message>
        <message>
            <source>%1  (+%2 more)</source>
            <translation>%1  (+%2 lainnya)</translation>
        </message>
        <message>
            <source>%1: cancelling at the next chunk…</source>
            <translation>%1: membatalkan pada potongan berikutnya…</translation>
        </message>
        <message>
            <source>cancelling at the next chunk boundary…</source>
            <translation>membatalkan pada batas potongan berikutnya…</translation>
        </message>
        <message>
            <source>Work is running</source>
            <translation>Pekerjaan sedang berjalan</translation>
        </message>
        <message>
            <source>Still running: %1.

Stop it at the next chunk and close? A batch resumes where it stopped when you run the same file again.</source>
            <translation>Masih berjalan: %1.

Hentikan pada potongan berikutnya lalu tutup? Sebuah batch dilanjutkan dari titik berhentinya saat Anda menjalankan berkas yang sama lagi.</translation>
        </message>
    </context>
    <context>
        <name>JsonEditor</name>
        <message>
            <source>JSON. Tab indents; Ctrl+Tab moves to the next control.</source>
            <translation>JSON. Tab membuat indentasi; Ctrl+Tab pindah ke kontrol berikutnya.</translation>
        </message>
    </context>
    <context>
        <name>LiveRefresh</name>
        <message>
            <source>live refresh paused (%1); F5 reads the store</source>
            <translation>penyegaran langsung dijeda (%1); F5 membaca penyimpanan</translation>
        </message>
        <message>
            <source>live refresh resumed</source>
            <translation>penyegaran langsung dilanjutkan</translation>
        </message>
    </context>
    <context>
        <name>MainWindow</name>
        <message>
            <source>Run batch…</source>
            <translation>Jalankan batch…</translation>
        </message>
        <message>
            <source>Re-drive…</source>
            <translation>Kirim ulang…</translation>
        </message>
        <message>
            <source>Refresh</source>
            <translation>Segarkan</translation>
        </message>
        <message>
            <source>Run a file through a transform</source>
            <translation>Jalankan sebuah berkas melalui transformasi</translation>
        </message>
        <message>
            <source>Re-drive the selected or matching rows</source>
            <translation>Kirim ulang baris yang dipilih atau yang cocok</translation>
        </message>
        <message>
            <source>Read the store again</source>
            <translation>Baca penyimpanan lagi</translation>
        </message>
        <message>
            <source>Views</source>
            <translation>Tampilan</translation>
        </message>
        <message>
            <source>Quarantine</source>
            <translation>Karantina</translation>
        </message>
        <message>
            <source>Trends</source>
            <translation>Tren</translation>
        </message>
        <message>
            <source>Audit</source>
            <translation>Audit</translation>
        </message>
        <message>
            <source>Trends: %1</source>
            <translation>Tren: %1</translation>
        </message>
        <message>
            <source>Audit: dead letter #%1</source>
            <translation>Audit: dead letter #%1</translation>
        </message>
        <message>
            <source>choose a dead letter in the table first</source>
            <translation>pilih dulu sebuah dead letter di tabel</translation>
        </message>
        <message>
            <source>Not saved</source>
            <translation>Tidak disimpan</translation>
        </message>
        <message>
            <source>%1

The edit is still in the editor.</source>
            <translation>%1

Suntingan masih ada di penyunting.</translation>
        </message>
        <message>
            <source>no workspace</source>
            <translation>tanpa ruang kerja</translation>
        </message>
        <message>
            <source>%1 [%2]</source>
            <translation>%1 [%2]</translation>
        </message>
        <message>
            <source>workspace: %1</source>
            <translation>ruang kerja: %1</translation>
        </message>
        <message>
            <source>no workspace open</source>
            <translation>tidak ada ruang kerja yang terbuka</translation>
        </message>
    </context>
    <context>
        <name>MenuBar</name>
        <message>
            <source>&amp;Open workspace…</source>
            <translation>&amp;Buka ruang kerja…</translation>
        </message>
        <message>
            <source>&amp;Connect to databases…</source>
            <translation>&amp;Sambungkan ke basis data…</translation>
        </message>
        <message>
            <source>Connect a q&amp;ueue…</source>
            <translation>Sambungkan a&amp;ntrean…</translation>
        </message>
        <message>
            <source>Import the dead letters of a RabbitMQ dead-letter queue</source>
            <translation>Impor dead letter dari antrean dead letter RabbitMQ</translation>
        </message>
        <message>
            <source>Attach a dead-letter &amp;table…</source>
            <translation>Lampirkan &amp;tabel dead letter…</translation>
        </message>
        <message>
            <source>Import the dead letters a pipeline keeps in a table of its own</source>
            <translation>Impor dead letter yang disimpan sebuah pipeline di tabelnya sendiri</translation>
        </message>
        <message>
            <source>Export &amp;selection…</source>
            <translation>Ekspor &amp;pilihan…</translation>
        </message>
        <message>
            <source>Export the selected rows</source>
            <translation>Ekspor baris yang dipilih</translation>
        </message>
        <message>
            <source>Export &amp;filter…</source>
            <translation>Ekspor hasil &amp;filter…</translation>
        </message>
        <message>
            <source>Export every matching row</source>
            <translation>Ekspor setiap baris yang cocok</translation>
        </message>
        <message>
            <source>Pr&amp;eferences…</source>
            <translation>Pr&amp;eferensi…</translation>
        </message>
        <message>
            <source>The window's language</source>
            <translation>Bahasa jendela</translation>
        </message>
        <message>
            <source>&amp;Quit</source>
            <translation>&amp;Keluar</translation>
        </message>
        <message>
            <source>&amp;Run batch…</source>
            <translation>&amp;Jalankan batch…</translation>
        </message>
        <message>
            <source>Run a file through a transform</source>
            <translation>Jalankan sebuah berkas melalui transformasi</translation>
        </message>
        <message>
            <source>&amp;Suspect a version…</source>
            <translation>&amp;Curigai sebuah versi…</translation>
        </message>
        <message>
            <source>Run the rows a transform version wrote through a fixed one: check, then apply</source>
            <translation>Jalankan baris yang ditulis sebuah versi transformasi melalui versi yang sudah diperbaiki: periksa, lalu terapkan</translation>
        </message>
        <message>
            <source>Retry &amp;due rows now</source>
            <translation>Coba lagi baris jatuh &amp;tempo sekarang</translation>
        </message>
        <message>
            <source>One pass of the retry ladder: the transient dead letters due now, re-driven through the version that failed them (the window runs one every minute)</source>
            <translation>Satu putaran tangga coba ulang: dead letter sementara yang jatuh tempo sekarang dikirim ulang melalui versi yang menggagalkannya (jendela menjalankannya setiap menit)</translation>
        </message>
        <message>
            <source>&amp;Re-drive…</source>
            <translation>&amp;Kirim ulang…</translation>
        </message>
        <message>
            <source>Re-drive dead letters</source>
            <translation>Kirim ulang dead letter</translation>
        </message>
        <message>
            <source>Re-drive to the &amp;source…</source>
            <translation>Kirim ulang ke &amp;sumber…</translation>
        </message>
        <message>
            <source>Send imported dead letters back where they came from: their queue or table</source>
            <translation>Kirim dead letter yang diimpor kembali ke asalnya: antrean atau tabelnya</translation>
        </message>
        <message>
            <source>Fi&amp;x rows…</source>
            <translation>&amp;Perbaiki baris…</translation>
        </message>
        <message>
            <source>Fix many dead letters at once, as one change-set</source>
            <translation>Perbaiki banyak dead letter sekaligus, sebagai satu set perubahan</translation>
        </message>
        <message>
            <source>&amp;Load the whole batch…</source>
            <translation>&amp;Muat seluruh batch…</translation>
        </message>
        <message>
            <source>An all-or-nothing batch held: load every row of it in one transaction, once every dead letter of it is fixed</source>
            <translation>Batch semua-atau-tidak-sama-sekali yang ditahan: muat setiap barisnya dalam satu transaksi, setelah setiap dead letter-nya diperbaiki</translation>
        </message>
        <message>
            <source>&amp;Refresh</source>
            <translation>&amp;Segarkan</translation>
        </message>
        <message>
            <source>Read the store again</source>
            <translation>Baca penyimpanan lagi</translation>
        </message>
        <message>
            <source>&amp;Find</source>
            <translation>&amp;Cari</translation>
        </message>
        <message>
            <source>Search the payloads and errors</source>
            <translation>Cari di payload dan galat</translation>
        </message>
        <message>
            <source>Go to the &amp;table</source>
            <translation>Ke &amp;tabel</translation>
        </message>
        <message>
            <source>Move to the dead-letter table</source>
            <translation>Pindah ke tabel dead letter</translation>
        </message>
        <message>
            <source>Go to the &amp;error</source>
            <translation>Ke &amp;galat</translation>
        </message>
        <message>
            <source>Show the selected row's error</source>
            <translation>Tampilkan galat baris yang dipilih</translation>
        </message>
        <message>
            <source>Go to the &amp;payload editor</source>
            <translation>Ke penyunting &amp;payload</translation>
        </message>
        <message>
            <source>Move to the selected row's payload</source>
            <translation>Pindah ke payload baris yang dipilih</translation>
        </message>
        <message>
            <source>&amp;Change-sets…</source>
            <translation>Set &amp;perubahan…</translation>
        </message>
        <message>
            <source>The fixes applied to many rows at once; revert one</source>
            <translation>Perbaikan yang diterapkan ke banyak baris sekaligus; batalkan salah satunya</translation>
        </message>
        <message>
            <source>R&amp;etention…</source>
            <translation>&amp;Retensi…</translation>
        </message>
        <message>
            <source>How long resolved and discarded dead letters are kept; purge</source>
            <translation>Berapa lama dead letter yang selesai dan dibuang disimpan; hapus permanen</translation>
        </message>
        <message>
            <source>&amp;Getting started</source>
            <translation>&amp;Memulai</translation>
        </message>
        <message>
            <source>The steward's loop, in a page</source>
            <translation>Alur kerja steward, dalam satu halaman</translation>
        </message>
        <message>
            <source>&amp;User guide</source>
            <translation>Panduan &amp;pengguna</translation>
        </message>
        <message>
            <source>The full guide to the window and the CLI</source>
            <translation>Panduan lengkap jendela dan CLI</translation>
        </message>
        <message>
            <source>&amp;Keyboard shortcuts</source>
            <translation>Pintasan papan &amp;ketik</translation>
        </message>
        <message>
            <source>Every key the window answers to</source>
            <translation>Setiap tombol yang ditanggapi jendela</translation>
        </message>
        <message>
            <source>&amp;Report a problem…</source>
            <translation>&amp;Laporkan masalah…</translation>
        </message>
        <message>
            <source>Copy the versions of the app, Qt, Python and the store's schema</source>
            <translation>Salin versi aplikasi, Qt, Python, dan skema penyimpanan</translation>
        </message>
        <message>
            <source>About &amp;Qt</source>
            <translation>Tentang &amp;Qt</translation>
        </message>
        <message>
            <source>&amp;About Triage Desk</source>
            <translation>&amp;Tentang Triage Desk</translation>
        </message>
        <message>
            <source>&amp;File</source>
            <translation>&amp;Berkas</translation>
        </message>
        <message>
            <source>Recent &amp;workspaces</source>
            <translation>Ruang kerja te&amp;rakhir</translation>
        </message>
        <message>
            <source>&amp;Batch</source>
            <translation>B&amp;atch</translation>
        </message>
        <message>
            <source>&amp;Re-drive</source>
            <translation>&amp;Kirim ulang</translation>
        </message>
        <message>
            <source>&amp;View</source>
            <translation>&amp;Tampilan</translation>
        </message>
        <message>
            <source>&amp;Store</source>
            <translation>&amp;Penyimpanan</translation>
        </message>
        <message>
            <source>&amp;Help</source>
            <translation>Ba&amp;ntuan</translation>
        </message>
        <message>
            <source>%1  (not found)</source>
            <translation>%1  (tidak ditemukan)</translation>
        </message>
        <message>
            <source>(none yet)</source>
            <translation>(belum ada)</translation>
        </message>
    </context>
    <context>
        <name>PayloadEditor</name>
        <message>
            <source>Payload editor</source>
            <translation>Penyunting payload</translation>
        </message>
        <message>
            <source>Format</source>
            <translation>Rapikan</translation>
        </message>
        <message>
            <source>Indent the JSON by two spaces</source>
            <translation>Beri indentasi dua spasi pada JSON</translation>
        </message>
        <message>
            <source>Compact</source>
            <translation>Padatkan</translation>
        </message>
        <message>
            <source>Put the JSON on one line</source>
            <translation>Jadikan JSON satu baris</translation>
        </message>
        <message>
            <source>Revert</source>
            <translation>Kembalikan</translation>
        </message>
        <message>
            <source>Back to the stored payload</source>
            <translation>Kembali ke payload yang tersimpan</translation>
        </message>
        <message>
            <source>Try with</source>
            <translation>Coba dengan</translation>
        </message>
        <message>
            <source>Transform version to try</source>
            <translation>Versi transformasi yang dicoba</translation>
        </message>
        <message>
            <source>Try</source>
            <translation>Coba</translation>
        </message>
        <message>
            <source>Run the payload in the editor through this transform; writes nothing</source>
            <translation>Jalankan payload di penyunting melalui transformasi ini; tidak ada yang ditulis</translation>
        </message>
        <message>
            <source>Save</source>
            <translation>Simpan</translation>
        </message>
        <message>
            <source>Save the edited payload; the original is kept</source>
            <translation>Simpan payload yang disunting; yang asli tetap disimpan</translation>
        </message>
        <message>
            <source>Try result</source>
            <translation>Hasil percobaan</translation>
        </message>
        <message>
            <source>Try with a transform version to see the warehouse row it would produce, or the error; nothing is written.</source>
            <translation>Coba dengan sebuah versi transformasi untuk melihat baris warehouse yang akan dihasilkannya, atau galatnya; tidak ada yang ditulis.</translation>
        </message>
        <message>
            <source>✓ valid JSON</source>
            <translation>✓ JSON valid</translation>
        </message>
        <message>
            <source>%1 · edited, not saved</source>
            <translation>%1 · disunting, belum disimpan</translation>
        </message>
        <message>
            <source>line %1 col %2: %3</source>
            <translation>baris %1 kolom %2: %3</translation>
        </message>
        <message>
            <source>Save the edited payload</source>
            <translation>Simpan payload yang disunting</translation>
        </message>
        <message>
            <source>trying with %1…</source>
            <translation>mencoba dengan %1…</translation>
        </message>
        <message>
            <source>✓ %1 would load this warehouse row: %2</source>
            <translation>✓ %1 akan memuat baris warehouse ini: %2</translation>
        </message>
        <message>
            <source>✗ %1 still fails [%2]: %3</source>
            <translation>✗ %1 masih gagal [%2]: %3</translation>
        </message>
    </context>
    <context>
        <name>PreferencesDialog</name>
        <message>
            <source>Preferences</source>
            <translation>Preferensi</translation>
        </message>
        <message>
            <source>Follow the system (%1)</source>
            <translation>Ikuti sistem (%1)</translation>
        </message>
        <message>
            <source>The window speaks the new language when Triage Desk starts again. The command line follows --lang, TRIAGE_LANG or the system.</source>
            <translation>Jendela memakai bahasa baru saat Triage Desk dimulai lagi. Baris perintah mengikuti --lang, TRIAGE_LANG, atau sistem.</translation>
        </message>
        <message>
            <source>&amp;Language:</source>
            <translation>&amp;Bahasa:</translation>
        </message>
        <message>
            <source>Language</source>
            <translation>Bahasa</translation>
        </message>
        <message>
            <source>Triage Desk will speak %1 after a restart.</source>
            <translation>Triage Desk akan memakai %1 setelah dimulai ulang.</translation>
        </message>
        <message>
            <source>&amp;Restart now</source>
            <translation>&amp;Mulai ulang sekarang</translation>
        </message>
        <message>
            <source>&amp;Later</source>
            <translation>&amp;Nanti</translation>
        </message>
    </context>
    <context>
        <name>QuarantinePane</name>
        <message numerus="yes">
            <source>%Ln dead letter(s) are selected: choose one to see its payload and history.</source>
            <translation>
                <numerusform>%Ln dead letter dipilih: pilih satu untuk melihat payload dan riwayatnya.</numerusform>
            </translation>
        </message>
        <message>
            <source>#%1 is not chosen in the table any more (a filter, a re-drive or another steward's change moved it). Select a dead letter to see it.</source>
            <translation>#%1 tidak lagi dipilih di tabel (sebuah filter, pengiriman ulang, atau perubahan oleh steward lain memindahkannya). Pilih sebuah dead letter untuk melihatnya.</translation>
        </message>
    </context>
    <context>
        <name>QuarantineTable</name>
        <message>
            <source>No workspace open.
File → Open workspace… (Ctrl+O) or Connect to databases…</source>
            <translation>Tidak ada ruang kerja yang terbuka.
Berkas → Buka ruang kerja… (Ctrl+O) atau Sambungkan ke basis data…</translation>
        </message>
        <message>
            <source>No dead letters match these filters.</source>
            <translation>Tidak ada dead letter yang cocok dengan filter ini.</translation>
        </message>
        <message>
            <source>No dead letters: every row of the last batch loaded.</source>
            <translation>Tidak ada dead letter: setiap baris batch terakhir berhasil dimuat.</translation>
        </message>
        <message>
            <source>No open dead letters: everything quarantined has been dealt with.</source>
            <translation>Tidak ada dead letter yang terbuka: semua yang dikarantina sudah ditangani.</translation>
        </message>
        <message>
            <source>No dead letters yet.
Run a batch (Ctrl+B) to load a file.</source>
            <translation>Belum ada dead letter.
Jalankan sebuah batch (Ctrl+B) untuk memuat berkas.</translation>
        </message>
        <message>
            <source>Dead letters</source>
            <translation>Dead letter</translation>
        </message>
    </context>
    <context>
        <name>RetryLadder</name>
        <message>
            <source>Retry ladder: %1 waiting, %2 due now</source>
            <translation>Tangga coba ulang: %1 menunggu, %2 jatuh tempo sekarang</translation>
        </message>
        <message>
            <source>Retry ladder: %1 waiting, next due %2</source>
            <translation>Tangga coba ulang: %1 menunggu, jatuh tempo berikutnya %2</translation>
        </message>
        <message>
            <source>Retry ladder: %1 waiting</source>
            <translation>Tangga coba ulang: %1 menunggu</translation>
        </message>
        <message>
            <source>No retry pass: %1</source>
            <translation>Tidak ada putaran coba lagi: %1</translation>
        </message>
        <message>
            <source>Retry pass: nothing due</source>
            <translation>Putaran coba lagi: tidak ada yang jatuh tempo</translation>
        </message>
        <message>
            <source>Retry pass: %1</source>
            <translation>Putaran coba lagi: %1</translation>
        </message>
        <message>
            <source>Retry pass: nothing due; the next is due at %1</source>
            <translation>Putaran coba lagi: tidak ada yang jatuh tempo; berikutnya jatuh tempo pada %1</translation>
        </message>
        <message>
            <source>Retry pass: %1; the next is due at %2</source>
            <translation>Putaran coba lagi: %1; berikutnya jatuh tempo pada %2</translation>
        </message>
        <message>
            <source>Retry pass failed: %1</source>
            <translation>Putaran coba lagi gagal: %1</translation>
        </message>
        <message>
            <source>The last retry pass failed: %1</source>
            <translation>Putaran coba lagi terakhir gagal: %1</translation>
        </message>
        <message>
            <source>Ladder: %1</source>
            <translation>Tangga: %1</translation>
        </message>
        <message>
            <source>Before retry %1: %2 waiting</source>
            <translation>Sebelum coba lagi ke-%1: %2 menunggu</translation>
        </message>
        <message>
            <source>Parked at the ladder's end: %1</source>
            <translation>Diparkir di ujung tangga: %1</translation>
        </message>
        <message>
            <source>This window runs no retry pass: %1</source>
            <translation>Jendela ini tidak menjalankan putaran coba lagi: %1</translation>
        </message>
        <message>
            <source>The window runs a retry pass every minute</source>
            <translation>Jendela menjalankan putaran coba lagi setiap menit</translation>
        </message>
        <message>
            <source>Last pass: %1</source>
            <translation>Putaran terakhir: %1</translation>
        </message>
        <message>
            <source>%1 (not retried here)</source>
            <translation>%1 (tidak dicoba lagi di sini)</translation>
        </message>
    </context>
    <context>
        <name>RowActions</name>
        <message>
            <source>Reclassify as &amp;data</source>
            <translation>Klasifikasikan ulang sebagai cacat &amp;data</translation>
        </message>
        <message>
            <source>Reclassify as &amp;code</source>
            <translation>Klasifikasikan ulang sebagai &amp;bug kode</translation>
        </message>
        <message>
            <source>&amp;Park</source>
            <translation>P&amp;arkir</translation>
        </message>
        <message>
            <source>Set aside: needs a person</source>
            <translation>Sisihkan: perlu ditangani seseorang</translation>
        </message>
        <message>
            <source>&amp;Discard…</source>
            <translation>B&amp;uang…</translation>
        </message>
        <message>
            <source>Junk: kept for the audit; Reopen brings it back</source>
            <translation>Sampah: disimpan untuk audit; Buka kembali mengembalikannya</translation>
        </message>
        <message>
            <source>Re&amp;open</source>
            <translation>Buka k&amp;embali</translation>
        </message>
        <message>
            <source>Back to open</source>
            <translation>Kembali ke terbuka</translation>
        </message>
        <message>
            <source>Add &amp;note…</source>
            <translation>Tambah &amp;catatan…</translation>
        </message>
        <message>
            <source>more than %1 rows selected: narrow the filter, or use Re-drive / Export on the whole filter</source>
            <translation>lebih dari %1 baris dipilih: persempit filter, atau gunakan Kirim ulang / Ekspor untuk seluruh hasil filter</translation>
        </message>
        <message>
            <source>select one or more dead letters first</source>
            <translation>pilih dulu satu atau beberapa dead letter</translation>
        </message>
        <message>
            <source>Add a note</source>
            <translation>Tambah catatan</translation>
        </message>
        <message>
            <source>Note for the history:</source>
            <translation>Catatan untuk riwayat:</translation>
        </message>
        <message>
            <source>Not done</source>
            <translation>Tidak dilakukan</translation>
        </message>
        <message>
            <source>%1

Nothing was changed. The table now shows the rows as they are; look again, then try again.</source>
            <translation>%1

Tidak ada yang diubah. Tabel kini menampilkan baris-baris sebagaimana adanya; periksa lagi, lalu coba lagi.</translation>
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
            <translation> peran: %1 </translation>
        </message>
        <message>
            <source>You may do everything on this store.</source>
            <translation>Anda boleh melakukan semuanya di penyimpanan ini.</translation>
        </message>
        <message>
            <source>On this store:
%1</source>
            <translation>Di penyimpanan ini:
%1</translation>
        </message>
        <message>
            <source>no workspace open</source>
            <translation>tidak ada ruang kerja yang terbuka</translation>
        </message>
        <message>
            <source>searching the payloads and errors…</source>
            <translation>mencari di payload dan galat…</translation>
        </message>
        <message>
            <source>counting…</source>
            <translation>menghitung…</translation>
        </message>
        <message>
            <source>%1 · %2 selected</source>
            <translation>%1 · %2 dipilih</translation>
        </message>
        <message>
            <source>· last batch %1: %2 loaded / %3 quarantined / %4 held</source>
            <translation>· batch terakhir %1: %2 dimuat / %3 dikarantina / %4 ditahan</translation>
        </message>
        <message>
            <source>· last batch %1: %2 loaded / %3 quarantined</source>
            <translation>· batch terakhir %1: %2 dimuat / %3 dikarantina</translation>
        </message>
        <message numerus="yes">
            <source>%Ln open dead letter(s) match</source>
            <translation>
                <numerusform>%Ln dead letter terbuka cocok</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln parked dead letter(s) match</source>
            <translation>
                <numerusform>%Ln dead letter diparkir cocok</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln resolved dead letter(s) match</source>
            <translation>
                <numerusform>%Ln dead letter selesai cocok</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln discarded dead letter(s) match</source>
            <translation>
                <numerusform>%Ln dead letter dibuang cocok</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln dead letter(s) match</source>
            <translation>
                <numerusform>%Ln dead letter cocok</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>ShortcutsDialog</name>
        <message>
            <source>Keyboard shortcuts</source>
            <translation>Pintasan papan ketik</translation>
        </message>
        <message>
            <source>Where</source>
            <translation>Di mana</translation>
        </message>
        <message>
            <source>What</source>
            <translation>Apa</translation>
        </message>
        <message>
            <source>Keys</source>
            <translation>Tombol</translation>
        </message>
    </context>
    <context>
        <name>UnsavedEditGuard</name>
        <message>
            <source>Save the edit before refreshing? (The original is kept.)</source>
            <translation>Simpan suntingan sebelum menyegarkan? (Yang asli tetap disimpan.)</translation>
        </message>
        <message>
            <source>Discard it before refreshing, or Cancel and fix it?</source>
            <translation>Buang suntingan sebelum menyegarkan, atau Batal lalu perbaiki?</translation>
        </message>
        <message>
            <source>Save the edit before closing? (The original is kept.)</source>
            <translation>Simpan suntingan sebelum menutup? (Yang asli tetap disimpan.)</translation>
        </message>
        <message>
            <source>Discard it before closing, or Cancel and fix it?</source>
            <translation>Buang suntingan sebelum menutup, atau Batal lalu perbaiki?</translation>
        </message>
        <message>
            <source>Save the edit before showing #%1? (The original is kept.)</source>
            <translation>Simpan suntingan sebelum menampilkan #%1? (Yang asli tetap disimpan.)</translation>
        </message>
        <message>
            <source>Discard it before showing #%1, or Cancel and fix it?</source>
            <translation>Buang suntingan sebelum menampilkan #%1, atau Batal lalu perbaiki?</translation>
        </message>
        <message>
            <source>Save the edit before opening another workspace? (The original is kept.)</source>
            <translation>Simpan suntingan sebelum membuka ruang kerja lain? (Yang asli tetap disimpan.)</translation>
        </message>
        <message>
            <source>Discard it before opening another workspace, or Cancel and fix it?</source>
            <translation>Buang suntingan sebelum membuka ruang kerja lain, atau Batal lalu perbaiki?</translation>
        </message>
        <message>
            <source>Save the edit before re-driving (a re-drive uses stored payloads)? (The original is kept.)</source>
            <translation>Simpan suntingan sebelum mengirim ulang (pengiriman ulang memakai payload yang tersimpan)? (Yang asli tetap disimpan.)</translation>
        </message>
        <message>
            <source>Discard it before re-driving (a re-drive uses stored payloads), or Cancel and fix it?</source>
            <translation>Buang suntingan sebelum mengirim ulang (pengiriman ulang memakai payload yang tersimpan), atau Batal lalu perbaiki?</translation>
        </message>
        <message>
            <source>Save the edit before loading a whole batch (it uses stored payloads)? (The original is kept.)</source>
            <translation>Simpan suntingan sebelum memuat seluruh batch (memakai payload yang tersimpan)? (Yang asli tetap disimpan.)</translation>
        </message>
        <message>
            <source>Discard it before loading a whole batch (it uses stored payloads), or Cancel and fix it?</source>
            <translation>Buang suntingan sebelum memuat seluruh batch (memakai payload yang tersimpan), atau Batal lalu perbaiki?</translation>
        </message>
        <message>
            <source>Save the edit before fixing rows (a fix patches stored payloads)? (The original is kept.)</source>
            <translation>Simpan suntingan sebelum memperbaiki baris (perbaikan mengubah payload yang tersimpan)? (Yang asli tetap disimpan.)</translation>
        </message>
        <message>
            <source>Discard it before fixing rows (a fix patches stored payloads), or Cancel and fix it?</source>
            <translation>Buang suntingan sebelum memperbaiki baris (perbaikan mengubah payload yang tersimpan), atau Batal lalu perbaiki?</translation>
        </message>
        <message>
            <source>Unsaved edit</source>
            <translation>Suntingan belum disimpan</translation>
        </message>
        <message>
            <source>The payload of dead letter #%1 was edited and not saved.</source>
            <translation>Payload dead letter #%1 telah disunting dan belum disimpan.</translation>
        </message>
        <message>
            <source>not valid</source>
            <translation>tidak valid</translation>
        </message>
        <message>
            <source>It cannot be saved: %1.</source>
            <translation>Suntingan tidak dapat disimpan: %1.</translation>
        </message>
    </context>
    <context>
        <name>WelcomePage</name>
        <message>
            <source>Welcome to Triage Desk</source>
            <translation>Selamat datang di Triage Desk</translation>
        </message>
        <message>
            <source>Rows a nightly batch could not load wait here with the evidence of why: fix them, re-drive them through a transform version, and watch the trends.</source>
            <translation>Baris yang tidak dapat dimuat oleh batch malam menunggu di sini beserta bukti penyebabnya: perbaiki, kirim ulang melalui sebuah versi transformasi, dan pantau trennya.</translation>
        </message>
        <message>
            <source>Open the demo</source>
            <translation>Buka demo</translation>
        </message>
        <message>
            <source>A workspace from a small sample batch, with rows to fix and re-drive.</source>
            <translation>Ruang kerja dari sebuah batch contoh kecil, dengan baris untuk diperbaiki dan dikirim ulang.</translation>
        </message>
        <message>
            <source>Open a workspace folder…</source>
            <translation>Buka folder ruang kerja…</translation>
        </message>
        <message>
            <source>A folder on this computer with warehouse.db and dead_letter.db; a folder without them becomes a new workspace if you say so. (Ctrl+O)</source>
            <translation>Folder di komputer ini yang berisi warehouse.db dan dead_letter.db; folder tanpa keduanya menjadi ruang kerja baru jika Anda menghendakinya. (Ctrl+O)</translation>
        </message>
        <message>
            <source>Connect to a team store…</source>
            <translation>Sambungkan ke penyimpanan tim…</translation>
        </message>
        <message>
            <source>The PostgreSQL warehouse and dead-letter store your team shares.</source>
            <translation>Warehouse PostgreSQL dan penyimpanan dead letter yang dipakai bersama tim Anda.</translation>
        </message>
        <message>
            <source>Start an empty workspace</source>
            <translation>Mulai ruang kerja kosong</translation>
        </message>
        <message>
            <source>In your data folder (%1); then Batch → Run batch… (Ctrl+B).</source>
            <translation>Di folder data Anda (%1); lalu Batch → Jalankan batch… (Ctrl+B).</translation>
        </message>
        <message>
            <source>Recent workspaces</source>
            <translation>Ruang kerja terakhir</translation>
        </message>
        <message>
            <source>Open recent workspace %1</source>
            <translation>Buka ruang kerja terakhir %1</translation>
        </message>
    </context>
    <context>
        <name>WorkspaceMenu</name>
        <message>
            <source>Cannot make the demo</source>
            <translation>Tidak dapat membuat demo</translation>
        </message>
        <message>
            <source>wait for the running job to finish first</source>
            <translation>tunggu hingga pekerjaan yang berjalan selesai dulu</translation>
        </message>
        <message>
            <source>Cannot open</source>
            <translation>Tidak dapat membuka</translation>
        </message>
        <message>
            <source>Open a workspace folder</source>
            <translation>Buka folder ruang kerja</translation>
        </message>
        <message>
            <source>removed %1 from the recent workspaces</source>
            <translation>%1 dihapus dari daftar ruang kerja terakhir</translation>
        </message>
    </context>
    <context>
        <name>app</name>
        <message>
            <source>Cannot open the workspace</source>
            <translation>Tidak dapat membuka ruang kerja</translation>
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
            <translation># Memulai

Baris yang tidak dapat dimuat oleh batch malam menunggu di tab **Karantina**, masing-masing dengan byte aslinya dan alasan kegagalannya. Alur kerjanya:

1. **Temukan** baris dengan satu penyebab: filter di atas tabel, atau pencarian (%1). Tab **Tren** menunjukkan penyebab mana yang terbesar; satu klik di sana memfilter tabel ke penyebab itu.
2. **Baca** galatnya (%2): *cacat data* berarti payload-nya salah, *bug kode* berarti transformasi salah menangani data yang valid, *sementara* berarti infrastrukturnya gagal.
3. **Perbaiki** payload di penyunting (%3), **Coba** dengan sebuah versi transformasi (%4: tidak ada yang ditulis), lalu **Simpan** (%5). Yang asli tetap disimpan. Banyak baris dengan satu penyebab: **Kirim ulang → Perbaiki baris…** menerapkan satu perbaikan ke semuanya.
4. **Kirim ulang** (%6) baris yang sudah diperbaiki melalui sebuah versi transformasi: baris yang berhasil dimuat masuk ke warehouse, yang lain dihitung sebagai satu percobaan dan tetap menunggu.

Berkas baru masuk lewat **Batch → Jalankan batch…** (%7); folder `incoming` sebuah ruang kerja adalah tempat yang pertama kali dilihat. Setiap perubahan tercatat di tab **Audit**. Bantuan → Pintasan papan ketik (%8) mendaftar setiap tombol; Bantuan → Panduan pengguna berisi sisanya, termasuk baris perintah (`triage-app`).
</translation>
        </message>
        <message>
            <source>Window</source>
            <translation>Jendela</translation>
        </message>
        <message>
            <source># User guide

This installation carries no copy of the guide (its package metadata is missing: run `triage-app --self-test`). It is the project's docs/guide.md.</source>
            <translation># Panduan pengguna

Instalasi ini tidak membawa salinan panduan (metadata paketnya hilang: jalankan `triage-app --self-test`). Panduan itu adalah docs/guide.md milik proyek.</translation>
        </message>
        <message>
            <source>Getting started</source>
            <translation>Memulai</translation>
        </message>
        <message>
            <source>Triage Desk user guide</source>
            <translation>Panduan pengguna Triage Desk</translation>
        </message>
        <message>
            <source>Report a problem</source>
            <translation>Laporkan masalah</translation>
        </message>
        <message>
            <source>Copied to the clipboard: paste it into your report.</source>
            <translation>Disalin ke papan klip: tempelkan ke laporan Anda.</translation>
        </message>
        <message>
            <source>%1

Add what you did, what you expected and what you saw instead (a screenshot helps). No password is in it.</source>
            <translation>%1

Tambahkan apa yang Anda lakukan, apa yang Anda harapkan, dan apa yang Anda lihat sebagai gantinya (tangkapan layar membantu). Tidak ada kata sandi di dalamnya.</translation>
        </message>
        <message>
            <source>About Triage Desk</source>
            <translation>Tentang Triage Desk</translation>
        </message>
        <message>
            <source>Triage Desk %1

Quarantine, fix and re-drive the rows a nightly batch could not load.</source>
            <translation>Triage Desk %1

Karantina, perbaiki, dan kirim ulang baris yang tidak dapat dimuat oleh batch malam.</translation>
        </message>
    </context>
    <context>
        <name>labels</name>
        <message>
            <source>open</source>
            <translation>terbuka</translation>
        </message>
        <message>
            <source>resolved</source>
            <translation>selesai</translation>
        </message>
        <message>
            <source>parked</source>
            <translation>diparkir</translation>
        </message>
        <message>
            <source>discarded</source>
            <translation>dibuang</translation>
        </message>
        <message>
            <source>data</source>
            <translation>cacat data</translation>
        </message>
        <message>
            <source>code</source>
            <translation>bug kode</translation>
        </message>
        <message>
            <source>transient</source>
            <translation>sementara</translation>
        </message>
        <message>
            <source>failed</source>
            <translation>gagal</translation>
        </message>
        <message>
            <source>skipped</source>
            <translation>dilewati</translation>
        </message>
        <message>
            <source>taken</source>
            <translation>diambil</translation>
        </message>
        <message>
            <source>lapsed</source>
            <translation>sewa habis</translation>
        </message>
        <message>
            <source>undelivered</source>
            <translation>tidak terkirim</translation>
        </message>
        <message>
            <source>would succeed</source>
            <translation>akan berhasil</translation>
        </message>
        <message>
            <source>would fail</source>
            <translation>akan gagal</translation>
        </message>
        <message>
            <source>would load</source>
            <translation>akan dimuat</translation>
        </message>
        <message>
            <source>applies</source>
            <translation>berlaku</translation>
        </message>
        <message>
            <source>still fails</source>
            <translation>masih gagal</translation>
        </message>
        <message>
            <source>not applicable</source>
            <translation>tidak berlaku</translation>
        </message>
        <message>
            <source>unchanged</source>
            <translation>tidak berubah</translation>
        </message>
        <message>
            <source>changed</source>
            <translation>diubah</translation>
        </message>
        <message>
            <source>failing</source>
            <translation>gagal</translation>
        </message>
        <message>
            <source>no input</source>
            <translation>tanpa input</translation>
        </message>
    </context>
    <context>
        <name>opening</name>
        <message>
            <source>not found: moved, deleted, or on a drive or share that is not connected</source>
            <translation>tidak ditemukan: dipindahkan, dihapus, atau berada di drive atau folder berbagi yang tidak tersambung</translation>
        </message>
        <message>
            <source>%1: %2</source>
            <translation>%1: %2</translation>
        </message>
        <message>
            <source>Recent workspace not found</source>
            <translation>Ruang kerja terakhir tidak ditemukan</translation>
        </message>
        <message>
            <source>The recent workspace is gone: %1.</source>
            <translation>Ruang kerja terakhir itu sudah tidak ada: %1.</translation>
        </message>
        <message>
            <source>It may have been moved or deleted, or it is on a drive or share that is not connected now. Nothing was opened, and nothing was created in %1.

Remove it from the list of recent workspaces?</source>
            <translation>Ruang kerja itu mungkin telah dipindahkan atau dihapus, atau berada di drive atau folder berbagi yang kini tidak tersambung. Tidak ada yang dibuka, dan tidak ada yang dibuat di %1.

Hapus dari daftar ruang kerja terakhir?</translation>
        </message>
        <message>
            <source>Remove from the list</source>
            <translation>Hapus dari daftar</translation>
        </message>
        <message>
            <source>Keep it</source>
            <translation>Pertahankan</translation>
        </message>
        <message>
            <source>No workspace here</source>
            <translation>Tidak ada ruang kerja di sini</translation>
        </message>
        <message>
            <source>%1.</source>
            <translation>%1.</translation>
        </message>
        <message>
            <source>Make a new, empty workspace in %1? It adds %2 and %3 there (and the folder, if it is not there); then load a file with Batch → Run batch…

If you expected dead letters here, choose Cancel and check the folder: a workspace on a share shows only while the share is connected.</source>
            <translation>Buat ruang kerja baru yang kosong di %1? Ini menambahkan %2 dan %3 di sana (beserta foldernya, jika belum ada); lalu muat sebuah berkas dengan Batch → Jalankan batch…

Jika Anda mengharapkan ada dead letter di sini, pilih Batal dan periksa foldernya: ruang kerja di folder berbagi hanya tampil selama folder itu tersambung.</translation>
        </message>
        <message>
            <source>Make a new workspace</source>
            <translation>Buat ruang kerja baru</translation>
        </message>
    </context>
    <context>
        <name>pickers</name>
        <message>
            <source>anyone</source>
            <translation>semua</translation>
        </message>
        <message>
            <source>nobody</source>
            <translation>tak ada</translation>
        </message>
        <message>
            <source>any</source>
            <translation>semua</translation>
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
                <numerusform>Mengirim ulang %1 dari %Ln baris</numerusform>
            </translation>
        </message>
        <message>
            <source>%1 rows/s</source>
            <translation>%1 baris/dtk</translation>
        </message>
        <message numerus="yes">
            <source>Previewing %1 of %Ln row(s)</source>
            <translation>
                <numerusform>Pratinjau %1 dari %Ln baris</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Loading %1: %Ln row(s), %2</source>
            <translation>
                <numerusform>Memuat %1: %Ln baris, %2</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Exporting %1 of %Ln row(s)</source>
            <translation>
                <numerusform>Mengekspor %1 dari %Ln baris</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Checking %1 of %Ln row(s)</source>
            <translation>
                <numerusform>Memeriksa %1 dari %Ln baris</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Reprocessing %1 of %Ln row(s)</source>
            <translation>
                <numerusform>Memproses ulang %1 dari %Ln baris</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Purging %1 of %Ln row(s)</source>
            <translation>
                <numerusform>Menghapus permanen %1 dari %Ln baris</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Importing from %1: %2 of %Ln row(s)</source>
            <translation>
                <numerusform>Mengimpor dari %1: %2 dari %Ln baris</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Importing from %1: %Ln dead letter(s) so far</source>
            <translation>
                <numerusform>Mengimpor dari %1: %Ln dead letter sejauh ini</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1: %Ln row(s), %2</source>
            <translation>
                <numerusform>%1: %Ln baris, %2</numerusform>
            </translation>
        </message>
    </context>
</TS>
