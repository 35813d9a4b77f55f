<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="id" sourcelanguage="en">
    <context>
        <name>BatchDialog</name>
        <message>
            <source>Run batch</source>
            <translation>Jalankan batch</translation>
        </message>
        <message>
            <source>a JSONL or CSV file</source>
            <translation>berkas JSONL atau CSV</translation>
        </message>
        <message>
            <source>Batch file</source>
            <translation>Berkas batch</translation>
        </message>
        <message>
            <source>Browse…</source>
            <translation>Telusuri…</translation>
        </message>
        <message>
            <source>Batch file format</source>
            <translation>Format berkas batch</translation>
        </message>
        <message>
            <source>detect from the name</source>
            <translation>kenali dari namanya</translation>
        </message>
        <message>
            <source>Transform for the batch</source>
            <translation>Transformasi untuk batch</translation>
        </message>
        <message>
            <source>File</source>
            <translation>Berkas</translation>
        </message>
        <message>
            <source>Format</source>
            <translation>Format</translation>
        </message>
        <message>
            <source>Transform</source>
            <translation>Transformasi</translation>
        </message>
        <message>
            <source>Run</source>
            <translation>Jalankan</translation>
        </message>
        <message>
            <source>Cancel batch</source>
            <translation>Hentikan batch</translation>
        </message>
        <message>
            <source>Show its dead letters</source>
            <translation>Tampilkan dead letter batch ini</translation>
        </message>
        <message>
            <source>Verify idempotent</source>
            <translation>Verifikasi idempoten</translation>
        </message>
        <message>
            <source>Run this file twice into scratch databases and compare the warehouse's SHA-256: the proof that running it again is safe. Your workspace is not touched.</source>
            <translation>Jalankan berkas ini dua kali ke basis data sementara lalu bandingkan SHA-256 warehouse: bukti bahwa menjalankannya lagi aman. Ruang kerja Anda tidak disentuh.</translation>
        </message>
        <message>
            <source>Batch files in the folder</source>
            <translation>Berkas batch di folder ini</translation>
        </message>
        <message>
            <source>no new %1 file in %2: Browse… (Enter) to choose one</source>
            <translation>tidak ada berkas %1 baru di %2: Telusuri… (Enter) untuk memilih satu</translation>
        </message>
        <message>
            <source>no new file in %1: Browse… (Enter) to choose one</source>
            <translation>tidak ada berkas baru di %1: Telusuri… (Enter) untuk memilih satu</translation>
        </message>
        <message>
            <source>Choose a batch file</source>
            <translation>Pilih berkas batch</translation>
        </message>
        <message>
            <source>Batches (*.jsonl *.ndjson *.json *.csv *.tsv);;All files (*)</source>
            <translation>Batch (*.jsonl *.ndjson *.json *.csv *.tsv);;Semua berkas (*)</translation>
        </message>
        <message>
            <source>read as %1</source>
            <translation>dibaca sebagai %1</translation>
        </message>
        <message>
            <source>the newest file in %1 not loaded yet; read as %2</source>
            <translation>berkas terbaru di %1 yang belum dimuat; dibaca sebagai %2</translation>
        </message>
        <message>
            <source>starting…</source>
            <translation>memulai…</translation>
        </message>
        <message>
            <source>running the file twice into scratch databases…</source>
            <translation>menjalankan berkas dua kali ke basis data sementara…</translation>
        </message>
        <message>
            <source>Resume</source>
            <translation>Lanjutkan</translation>
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
            <translation>waktu</translation>
        </message>
        <message>
            <source>who</source>
            <translation>siapa</translation>
        </message>
        <message>
            <source>rows</source>
            <translation>baris</translation>
        </message>
        <message>
            <source>fix</source>
            <translation>perbaikan</translation>
        </message>
        <message>
            <source>reverted</source>
            <translation>dibatalkan</translation>
        </message>
        <message>
            <source>%1 UTC</source>
            <translation>%1 UTC</translation>
        </message>
        <message>
            <source>Change-sets</source>
            <translation>Set perubahan</translation>
        </message>
        <message>
            <source>Change-sets, newest first</source>
            <translation>Set perubahan, terbaru lebih dulu</translation>
        </message>
        <message>
            <source>Revert…</source>
            <translation>Batalkan…</translation>
        </message>
        <message>
            <source>%1 by %2</source>
            <translation>%1 oleh %2</translation>
        </message>
        <message>
            <source>No change-sets yet: Re-drive &gt; Fix rows… makes one.</source>
            <translation>Belum ada set perubahan: Kirim ulang &gt; Perbaiki baris… membuatnya.</translation>
        </message>
        <message>
            <source>Put the rows this change-set changed back</source>
            <translation>Kembalikan baris yang diubah set perubahan ini</translation>
        </message>
        <message numerus="yes">
            <source>Put the %Ln row(s) change-set %1 changed (%2) back to their payloads from before? Rows changed since are left as they are.</source>
            <translation>
                <numerusform>Kembalikan %Ln baris yang diubah set perubahan %1 (%2) ke payload sebelumnya? Baris yang berubah sejak itu dibiarkan apa adanya.</numerusform>
            </translation>
        </message>
        <message>
            <source>Revert the change-set</source>
            <translation>Batalkan set perubahan</translation>
        </message>
        <message>
            <source>reverting change-set %1…</source>
            <translation>membatalkan set perubahan %1…</translation>
        </message>
    </context>
    <context>
        <name>ChosenRows</name>
        <message>
            <source>the selected dead letters (none is selected in the table)</source>
            <translation>dead letter yang dipilih (tidak ada yang dipilih di tabel)</translation>
        </message>
        <message numerus="yes">
            <source>the %Ln selected dead letter(s): %1</source>
            <translation>
                <numerusform>%Ln dead letter yang dipilih: %1</numerusform>
            </translation>
        </message>
        <message>
            <source>every dead letter matching %1</source>
            <translation>setiap dead letter yang cocok dengan %1</translation>
        </message>
        <message>
            <source>no dead letters matching %1</source>
            <translation>tidak ada dead letter yang cocok dengan %1</translation>
        </message>
        <message numerus="yes">
            <source>all %Ln dead letter(s) matching %1</source>
            <translation>
                <numerusform>%Ln dead letter yang cocok dengan %1</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>ConnectDialog</name>
        <message>
            <source>Passwords are kept in the system keyring, never in the app's settings.</source>
            <translation>Kata sandi disimpan di keyring sistem, tidak pernah di pengaturan aplikasi.</translation>
        </message>
        <message>
            <source>password, if the database asks for one</source>
            <translation>kata sandi, jika basis data memintanya</translation>
        </message>
        <message>
            <source>Connect to databases</source>
            <translation>Hubungkan ke basis data</translation>
        </message>
        <message>
            <source>Warehouse URL</source>
            <translation>URL warehouse</translation>
        </message>
        <message>
            <source>Warehouse password</source>
            <translation>Kata sandi warehouse</translation>
        </message>
        <message>
            <source>Dead-letter store URL</source>
            <translation>URL penyimpanan dead letter</translation>
        </message>
        <message>
            <source>Dead-letter store password</source>
            <translation>Kata sandi penyimpanan dead letter</translation>
        </message>
        <message>
            <source>Any SQLAlchemy URL (sqlite or postgresql). %1</source>
            <translation>URL SQLAlchemy apa pun (sqlite atau postgresql). %1</translation>
        </message>
        <message>
            <source>password</source>
            <translation>kata sandi</translation>
        </message>
        <message>
            <source>Warehouse</source>
            <translation>Warehouse</translation>
        </message>
        <message>
            <source>Dead-letter store</source>
            <translation>Penyimpanan dead letter</translation>
        </message>
        <message>
            <source>Test</source>
            <translation>Uji</translation>
        </message>
        <message>
            <source>from the system keyring</source>
            <translation>dari keyring sistem</translation>
        </message>
        <message>
            <source>testing…</source>
            <translation>menguji…</translation>
        </message>
    </context>
    <context>
        <name>ConnectorDialog</name>
        <message>
            <source>Import dead letters</source>
            <translation>Impor dead letter</translation>
        </message>
        <message>
            <source>Connectors kept in the store</source>
            <translation>Konektor yang tersimpan di penyimpanan</translation>
        </message>
        <message>
            <source>Double-click to import from it again</source>
            <translation>Klik dua kali untuk mengimpor darinya lagi</translation>
        </message>
        <message>
            <source>None yet: connect one below.</source>
            <translation>Belum ada: hubungkan satu di bawah.</translation>
        </message>
        <message>
            <source>Import again</source>
            <translation>Impor lagi</translation>
        </message>
        <message>
            <source>Import what is waiting in the chosen connector's source</source>
            <translation>Impor yang menunggu di sumber konektor yang dipilih</translation>
        </message>
        <message>
            <source>Kind of connector</source>
            <translation>Jenis konektor</translation>
        </message>
        <message>
            <source>RabbitMQ dead-letter queue</source>
            <translation>Antrean dead letter RabbitMQ</translation>
        </message>
        <message>
            <source>Dead-letter table</source>
            <translation>Tabel dead letter</translation>
        </message>
        <message>
            <source>Connector name</source>
            <translation>Nama konektor</translation>
        </message>
        <message>
            <source>optional: the queue's or table's name</source>
            <translation>opsional: nama antrean atau tabel</translation>
        </message>
        <message>
            <source>The name the team knows it by: the Source column and filter</source>
            <translation>Nama yang dikenal tim: untuk kolom dan filter Sumber</translation>
        </message>
        <message>
            <source>all waiting</source>
            <translation>semua yang menunggu</translation>
        </message>
        <message numerus="yes">
            <source> letter(s)</source>
            <translation>
                <numerusform> dead letter</numerusform>
            </translation>
        </message>
        <message>
            <source>Import at most this many letters (0: all waiting)</source>
            <translation>Impor paling banyak sejumlah dead letter ini (0: semua yang menunggu)</translation>
        </message>
        <message>
            <source>%1: type it each time you import. The store keeps the address without it.</source>
            <translation>%1: ketik kata sandi setiap kali Anda mengimpor. Penyimpanan menyimpan alamatnya tanpa kata sandi.</translation>
        </message>
        <message>
            <source>Import takes the letters waiting now, a chunk at a time.</source>
            <translation>Impor mengambil dead letter yang menunggu saat ini, sepotong demi sepotong.</translation>
        </message>
        <message>
            <source>Import</source>
            <translation>Impor</translation>
        </message>
        <message>
            <source>Cancel import</source>
            <translation>Hentikan impor</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>Nama</translation>
        </message>
        <message>
            <source>Limit</source>
            <translation>Batas</translation>
        </message>
        <message>
            <source>Kept in the store:</source>
            <translation>Tersimpan di penyimpanan:</translation>
        </message>
        <message>
            <source>Broker URL</source>
            <translation>URL broker</translation>
        </message>
        <message>
            <source>Dead-letter queue</source>
            <translation>Antrean dead letter</translation>
        </message>
        <message>
            <source>Broker password</source>
            <translation>Kata sandi broker</translation>
        </message>
        <message>
            <source>password</source>
            <translation>kata sandi</translation>
        </message>
        <message>
            <source>Each letter is acknowledged only once it is stored: a letter is never lost, and one read again is never doubled.</source>
            <translation>Setiap dead letter baru dikonfirmasi ke broker setelah tersimpan: tidak ada yang hilang, dan yang terbaca ulang tidak pernah tergandakan.</translation>
        </message>
        <message>
            <source>Database URL</source>
            <translation>URL basis data</translation>
        </message>
        <message>
            <source>Database password</source>
            <translation>Kata sandi basis data</translation>
        </message>
        <message>
            <source>Column of the %1</source>
            <translation>Kolom %1</translation>
        </message>
        <message>
            <source>none</source>
            <translation>tidak ada</translation>
        </message>
        <message>
            <source>Table re-driven rows go to</source>
            <translation>Tabel tujuan baris yang dikirim ulang</translation>
        </message>
        <message>
            <source>Where Re-drive to the source writes the fixed rows</source>
            <translation>Tempat Kirim ulang ke sumber menulis baris yang sudah diperbaiki</translation>
        </message>
        <message>
            <source>keep it</source>
            <translation>biarkan</translation>
        </message>
        <message>
            <source>delete it</source>
            <translation>hapus</translation>
        </message>
        <message>
            <source>mark it in column</source>
            <translation>tandai di kolom</translation>
        </message>
        <message>
            <source>Once its row is loaded, the dead-letter table's row</source>
            <translation>Setelah barisnya dimuat, baris di tabel dead letter</translation>
        </message>
        <message>
            <source>Column marked after loading</source>
            <translation>Kolom yang ditandai setelah dimuat</translation>
        </message>
        <message>
            <source>Columns</source>
            <translation>Kolom</translation>
        </message>
        <message>
            <source>Re-drive loads into</source>
            <translation>Pengiriman ulang memuat ke</translation>
        </message>
        <message>
            <source>then the source row:</source>
            <translation>lalu baris sumbernya:</translation>
        </message>
        <message>
            <source>Give the broker's URL: amqp://user@host:5672/vhost</source>
            <translation>Isi URL broker: amqp://user@host:5672/vhost</translation>
        </message>
        <message>
            <source>Name the dead-letter queue to import from.</source>
            <translation>Sebutkan antrean dead letter yang akan diimpor.</translation>
        </message>
        <message>
            <source>Give the database's URL: postgresql://user@host/pipeline (or sqlite:///…)</source>
            <translation>Isi URL basis data: postgresql://user@host/pipeline (atau sqlite:///…)</translation>
        </message>
        <message>
            <source>Name the dead-letter table to import from.</source>
            <translation>Sebutkan tabel dead letter yang akan diimpor.</translation>
        </message>
        <message>
            <source>Name the column to mark once a row is re-driven.</source>
            <translation>Sebutkan kolom yang ditandai setelah baris dikirim ulang.</translation>
        </message>
        <message>
            <source>Choose a kept connector first.</source>
            <translation>Pilih dulu konektor yang tersimpan.</translation>
        </message>
    </context>
    <context>
        <name>DiscardDialog</name>
        <message>
            <source>Discard dead letters</source>
            <translation>Buang dead letter</translation>
        </message>
        <message>
            <source>Discard</source>
            <translation>Buang</translation>
        </message>
        <message>
            <source>why these rows are junk (kept in each row's history)</source>
            <translation>mengapa baris ini sampah (disimpan di riwayat setiap baris)</translation>
        </message>
        <message>
            <source>Reason for discarding</source>
            <translation>Alasan membuang</translation>
        </message>
        <message>
            <source>Reason</source>
            <translation>Alasan</translation>
        </message>
        <message>
            <source>Rows to discard (a sample)</source>
            <translation>Baris yang akan dibuang (contoh)</translation>
        </message>
        <message>
            <source>The first of them:</source>
            <translation>Beberapa yang pertama:</translation>
        </message>
        <message>
            <source>Discard %1</source>
            <translation>Buang %1</translation>
        </message>
        <message>
            <source>Give a reason first: it is kept in each row's history</source>
            <translation>Isi alasan dulu: alasan disimpan di riwayat setiap baris</translation>
        </message>
        <message>
            <source>discarding…</source>
            <translation>membuang…</translation>
        </message>
        <message>
            <source>looking…</source>
            <translation>memeriksa…</translation>
        </message>
        <message numerus="yes">
            <source>The rows changed while this was open: it now names %Ln dead letter(s), not the %1 named before. Discard acts on the rows named below.</source>
            <translation>
                <numerusform>Baris berubah selama dialog ini terbuka: kini menyebut %Ln dead letter, bukan %1 yang disebut sebelumnya. Buang berlaku pada baris yang disebut di bawah.</numerusform>
            </translation>
        </message>
        <message>
            <source>Not done: %1</source>
            <translation>Tidak dilakukan: %1</translation>
        </message>
    </context>
    <context>
        <name>FixDialog</name>
        <message>
            <source>Fix dead letters</source>
            <translation>Perbaiki dead letter</translation>
        </message>
        <message>
            <source>Apply</source>
            <translation>Terapkan</translation>
        </message>
        <message>
            <source>Kind of step</source>
            <translation>Jenis langkah</translation>
        </message>
        <message>
            <source>field, e.g. diskon</source>
            <translation>kolom, mis. diskon</translation>
        </message>
        <message>
            <source>Field the step changes</source>
            <translation>Kolom yang diubah langkah ini</translation>
        </message>
        <message>
            <source>Value for the step</source>
            <translation>Nilai untuk langkah ini</translation>
        </message>
        <message>
            <source>Add step</source>
            <translation>Tambah langkah</translation>
        </message>
        <message>
            <source>Remove step</source>
            <translation>Hapus langkah</translation>
        </message>
        <message>
            <source>Steps of the fix, in order</source>
            <translation>Langkah perbaikan, berurutan</translation>
        </message>
        <message>
            <source>JSON Patch</source>
            <translation>JSON Patch</translation>
        </message>
        <message>
            <source>How the fix is written: steps or a JSON Patch</source>
            <translation>Cara perbaikan ditulis: langkah atau JSON Patch</translation>
        </message>
        <message>
            <source>Steps</source>
            <translation>Langkah</translation>
        </message>
        <message>
            <source>Transform to try the fixed payloads with</source>
            <translation>Transformasi untuk mencoba payload yang diperbaiki</translation>
        </message>
        <message>
            <source>(none: only the patched payloads)</source>
            <translation>(tidak ada: hanya payload yang ditambal)</translation>
        </message>
        <message>
            <source>Fix</source>
            <translation>Perbaiki</translation>
        </message>
        <message>
            <source>Try with</source>
            <translation>Coba dengan</translation>
        </message>
        <message>
            <source>Fix preview</source>
            <translation>Pratinjau perbaikan</translation>
        </message>
        <message>
            <source>Preview first: it shows each row before and after, and writes nothing.</source>
            <translation>Pratinjau dulu: pratinjau menampilkan setiap baris sebelum dan sesudah, dan tidak menulis apa pun.</translation>
        </message>
        <message>
            <source>Preview</source>
            <translation>Pratinjau</translation>
        </message>
        <message>
            <source>Apply as a change-set</source>
            <translation>Terapkan sebagai set perubahan</translation>
        </message>
        <message>
            <source>add a step first (a kind, a field and, for most, a value)</source>
            <translation>tambahkan langkah dulu (jenis, kolom, dan untuk sebagian besar, nilai)</translation>
        </message>
        <message>
            <source>Preview again: the fix or the rows to fix changed.</source>
            <translation>Pratinjau lagi: perbaikan atau baris yang akan diperbaiki berubah.</translation>
        </message>
        <message>
            <source>Apply changes exactly these: %1.</source>
            <translation>Terapkan mengubah tepat baris ini: %1.</translation>
        </message>
        <message>
            <source>Apply to %1 as a change-set</source>
            <translation>Terapkan ke %1 sebagai set perubahan</translation>
        </message>
    </context>
    <context>
        <name>GroupDialog</name>
        <message>
            <source>Error group</source>
            <translation>Kelompok galat</translation>
        </message>
        <message numerus="yes">
            <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2: %Ln dead letter(s), %3 open, the oldest open since %4 UTC</source>
            <translation>
                <numerusform>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2: %Ln dead letter, %3 terbuka, yang terbuka paling lama sejak %4 UTC</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2: %Ln dead letter(s), %3 open</source>
            <translation>
                <numerusform>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2: %Ln dead letter, %3 terbuka</numerusform>
            </translation>
        </message>
        <message>
            <source>nobody</source>
            <translation>tanpa pemilik</translation>
        </message>
        <message>
            <source>Owner</source>
            <translation>Pemilik</translation>
        </message>
        <message>
            <source>Tags</source>
            <translation>Tag</translation>
        </message>
        <message>
            <source>another tag, then Enter</source>
            <translation>tag lain, lalu Enter</translation>
        </message>
        <message>
            <source>New tag</source>
            <translation>Tag baru</translation>
        </message>
        <message>
            <source>Add</source>
            <translation>Tambah</translation>
        </message>
        <message>
            <source>Note</source>
            <translation>Catatan</translation>
        </message>
        <message>
            <source>what is known, who was asked, what it waits on</source>
            <translation>apa yang diketahui, siapa yang ditanya, apa yang ditunggu</translation>
        </message>
        <message>
            <source>&amp;Owner</source>
            <translation>&amp;Pemilik</translation>
        </message>
        <message>
            <source>&amp;Tags</source>
            <translation>&amp;Tag</translation>
        </message>
        <message>
            <source>&amp;Note</source>
            <translation>&amp;Catatan</translation>
        </message>
        <message>
            <source>A note is at most %1 characters.</source>
            <translation>Catatan paling banyak %1 karakter.</translation>
        </message>
    </context>
    <context>
        <name>JobDialog</name>
        <message>
            <source>cancelling at the next chunk…</source>
            <translation>menghentikan pada potongan berikutnya…</translation>
        </message>
    </context>
    <context>
        <name>RedriveDialog</name>
        <message>
            <source>Re-drive to the source</source>
            <translation>Kirim ulang ke sumber</translation>
        </message>
        <message>
            <source>Re-drive dead letters</source>
            <translation>Kirim ulang dead letter</translation>
        </message>
        <message>
            <source>Re-drive</source>
            <translation>Kirim ulang</translation>
        </message>
        <message>
            <source>Transform for the re-drive</source>
            <translation>Transformasi untuk pengiriman ulang</translation>
        </message>
        <message>
            <source>Where the re-driven rows go</source>
            <translation>Tujuan baris yang dikirim ulang</translation>
        </message>
        <message>
            <source>Broker exchange and routing key</source>
            <translation>Exchange dan routing key broker</translation>
        </message>
        <message>
            <source>To</source>
            <translation>Ke</translation>
        </message>
        <message>
            <source>Transform</source>
            <translation>Transformasi</translation>
        </message>
        <message>
            <source>Canary first:</source>
            <translation>Canary dulu:</translation>
        </message>
        <message>
            <source>10 or 1%</source>
            <translation>10 atau 1%</translation>
        </message>
        <message numerus="yes">
            <source> row(s)</source>
            <translation>
                <numerusform> baris</numerusform>
            </translation>
        </message>
        <message>
            <source>Rows re-driven first, as a canary</source>
            <translation>Baris yang dikirim ulang lebih dulu, sebagai canary</translation>
        </message>
        <message>
            <source> % failed</source>
            <translation> % gagal</translation>
        </message>
        <message>
            <source>stop above </source>
            <translation>berhenti di atas </translation>
        </message>
        <message>
            <source>Stop when more than this share of rows failed</source>
            <translation>Berhenti bila lebih dari porsi baris ini gagal</translation>
        </message>
        <message>
            <source>Stop by itself</source>
            <translation>Berhenti sendiri</translation>
        </message>
        <message>
            <source>full speed</source>
            <translation>kecepatan penuh</translation>
        </message>
        <message>
            <source> rows/s</source>
            <translation> baris/dtk</translation>
        </message>
        <message>
            <source>Pace, rows a second (0: full speed)</source>
            <translation>Laju, baris per detik (0: kecepatan penuh)</translation>
        </message>
        <message>
            <source>Pace:</source>
            <translation>Laju:</translation>
        </message>
        <message>
            <source>Guard</source>
            <translation>Pengaman</translation>
        </message>
        <message>
            <source>Re-drive results</source>
            <translation>Hasil pengiriman ulang</translation>
        </message>
        <message>
            <source>Preview first: a dry run shows what would happen and writes nothing.</source>
            <translation>Pratinjau dulu: uji coba menampilkan apa yang akan terjadi dan tidak menulis apa pun.</translation>
        </message>
        <message>
            <source>Preview (dry run)</source>
            <translation>Pratinjau (uji coba)</translation>
        </message>
        <message>
            <source>Cancel re-drive</source>
            <translation>Hentikan pengiriman ulang</translation>
        </message>
        <message>
            <source>Each imported row goes back to its own queue's exchange and routing key, or its pipeline's table; rows not confirmed stay open, with why.</source>
            <translation>Setiap baris hasil impor kembali ke exchange dan routing key antreannya sendiri, atau ke tabel pipeline-nya; baris yang tidak dikonfirmasi tetap terbuka, beserta alasannya.</translation>
        </message>
        <message>
            <source>A dead-letter table takes rows: its rows need a transform version.</source>
            <translation>Tabel dead letter menerima baris: barisnya memerlukan versi transformasi.</translation>
        </message>
        <message>
            <source>Every row goes to this exchange and routing key; rows not confirmed stay open.</source>
            <translation>Setiap baris dikirim ke exchange dan routing key ini; baris yang tidak dikonfirmasi tetap terbuka.</translation>
        </message>
        <message>
            <source>Preview again: the rows to re-drive changed.</source>
            <translation>Pratinjau lagi: baris yang akan dikirim ulang berubah.</translation>
        </message>
        <message>
            <source>Give the exchange: amqp://host/vhost/exchange/routing-key</source>
            <translation>Isi exchange-nya: amqp://host/vhost/exchange/routing-key</translation>
        </message>
        <message>
            <source>previewing…</source>
            <translation>membuat pratinjau…</translation>
        </message>
        <message>
            <source>re-driving…</source>
            <translation>mengirim ulang…</translation>
        </message>
        <message>
            <source>Re-drive %1</source>
            <translation>Kirim ulang %1</translation>
        </message>
        <message>
            <source>Re-drive %1 acts on exactly these: %2.</source>
            <translation>Kirim ulang %1 berlaku tepat pada baris ini: %2.</translation>
        </message>
    </context>
    <context>
        <name>ReprocessDialog</name>
        <message>
            <source>Suspect a version</source>
            <translation>Curigai versi</translation>
        </message>
        <message>
            <source>The suspect version: its rows are judged again</source>
            <translation>Versi yang dicurigai: barisnya dinilai ulang</translation>
        </message>
        <message>
            <source>The fixed version the rows are run through</source>
            <translation>Versi perbaikan yang dipakai untuk menjalankan baris</translation>
        </message>
        <message>
            <source>every batch (or a batch id: its start is enough)</source>
            <translation>semua batch (atau id batch: awalnya sudah cukup)</translation>
        </message>
        <message>
            <source>Only the rows this batch wrote (optional)</source>
            <translation>Hanya baris yang ditulis batch ini (opsional)</translation>
        </message>
        <message>
            <source>Suspect version</source>
            <translation>Versi dicurigai</translation>
        </message>
        <message>
            <source>Fixed version</source>
            <translation>Versi perbaikan</translation>
        </message>
        <message>
            <source>Batch</source>
            <translation>Batch</translation>
        </message>
        <message>
            <source>The rows that change, now fail or have no input</source>
            <translation>Baris yang berubah, kini gagal, atau tanpa input</translation>
        </message>
        <message>
            <source>Check first: a dry run judges every row the suspect version last wrote and writes nothing.</source>
            <translation>Periksa dulu: uji coba menilai setiap baris yang terakhir ditulis versi yang dicurigai dan tidak menulis apa pun.</translation>
        </message>
        <message>
            <source>Check (dry run)</source>
            <translation>Periksa (uji coba)</translation>
        </message>
        <message>
            <source>Apply…</source>
            <translation>Terapkan…</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>Hentikan</translation>
        </message>
        <message>
            <source>%1  (counting…)</source>
            <translation>%1  (menghitung…)</translation>
        </message>
        <message numerus="yes">
            <source>%1  (last wrote %Ln row(s))</source>
            <translation>
                <numerusform>%1  (terakhir menulis %Ln baris)</numerusform>
            </translation>
        </message>
        <message>
            <source>The rows each version wrote could not be counted: %1</source>
            <translation>Baris yang ditulis setiap versi tidak dapat dihitung: %1</translation>
        </message>
        <message>
            <source>Check again: the versions or the batch changed.</source>
            <translation>Periksa lagi: versi atau batch berubah.</translation>
        </message>
        <message>
            <source>Reprocess the rows %1 last wrote (batch %2) with %3?</source>
            <translation>Proses ulang baris yang terakhir ditulis %1 (batch %2) dengan %3?</translation>
        </message>
        <message>
            <source>Reprocess the rows %1 last wrote with %2?</source>
            <translation>Proses ulang baris yang terakhir ditulis %1 dengan %2?</translation>
        </message>
        <message>
            <source>The check at %1 found %2 to change and %3 now failing, to quarantine as dead letters of the run; %4 unchanged are not touched.</source>
            <translation>Pemeriksaan pada %1 menemukan %2 yang akan berubah dan %3 yang kini gagal, untuk dikarantina sebagai dead letter dari proses ini; %4 yang tidak berubah tidak disentuh.</translation>
        </message>
        <message>
            <source>These counts are the check's: the apply judges every row again, and leaves alone a row written since by a later batch or re-drive.</source>
            <translation>Angka ini hasil pemeriksaan: penerapan menilai ulang setiap baris, dan membiarkan baris yang sejak itu ditulis oleh batch atau pengiriman ulang yang lebih baru.</translation>
        </message>
        <message>
            <source>Apply the reprocess</source>
            <translation>Terapkan proses ulang</translation>
        </message>
        <message>
            <source>checking…</source>
            <translation>memeriksa…</translation>
        </message>
        <message>
            <source>reprocessing…</source>
            <translation>memproses ulang…</translation>
        </message>
        <message>
            <source>Check cancelled: nothing was written. Check again to see it.</source>
            <translation>Pemeriksaan dihentikan: tidak ada yang ditulis. Periksa lagi untuk melihat hasilnya.</translation>
        </message>
        <message>
            <source>Counts from the check at %1. The warehouse may change before you apply: the apply judges every row again and says what it did.</source>
            <translation>Angka dari pemeriksaan pada %1. Warehouse dapat berubah sebelum Anda menerapkan: penerapan menilai ulang setiap baris dan menyebutkan apa yang dilakukannya.</translation>
        </message>
        <message>
            <source>Apply… updates %1 and quarantines %2.</source>
            <translation>Terapkan… memperbarui %1 dan mengarantina %2.</translation>
        </message>
        <message>
            <source>Counts from the apply, judged when it started (run %1).</source>
            <translation>Angka dari penerapan, dinilai saat dimulai (proses %1).</translation>
        </message>
        <message>
            <source>Counts from the apply, judged when it started.</source>
            <translation>Angka dari penerapan, dinilai saat dimulai.</translation>
        </message>
        <message>
            <source>As the check said.</source>
            <translation>Sesuai hasil pemeriksaan.</translation>
        </message>
        <message>
            <source>The check had found %1 to change and %2 now failing; the apply updated %3 and quarantined %4.</source>
            <translation>Pemeriksaan menemukan %1 yang akan berubah dan %2 yang kini gagal; penerapan memperbarui %3 dan mengarantina %4.</translation>
        </message>
        <message numerus="yes">
            <source>%Ln row(s) the check would have changed were left alone: written since the check.</source>
            <translation>
                <numerusform>%Ln baris yang akan diubah menurut pemeriksaan dibiarkan: ditulis sejak pemeriksaan.</numerusform>
            </translation>
        </message>
        <message>
            <source>No check yet.</source>
            <translation>Belum ada pemeriksaan.</translation>
        </message>
    </context>
    <context>
        <name>RetentionDialog</name>
        <message>
            <source>Retention</source>
            <translation>Retensi</translation>
        </message>
        <message>
            <source>Resolved and discarded dead letters closed longer ago than this are deleted, with their history. Open and parked ones are never purged. Trends keep counting what was purged. Each batch's input is kept for reprocessing as long as the last line says, unless a batch still needs it. The policy is kept in the store: the whole team shares it.</source>
            <translation>Dead letter selesai dan dibuang yang ditutup lebih lama dari ini dihapus, beserta riwayatnya. Yang terbuka dan diparkir tidak pernah dihapus permanen. Tren tetap menghitung yang sudah dihapus permanen. Input setiap batch disimpan untuk proses ulang selama yang disebut baris terakhir, kecuali masih diperlukan suatu batch. Kebijakan ini disimpan di penyimpanan: seluruh tim memakainya bersama.</translation>
        </message>
        <message>
            <source>reading the store's policy…</source>
            <translation>membaca kebijakan penyimpanan…</translation>
        </message>
        <message numerus="yes">
            <source> day(s) ago</source>
            <translation>
                <numerusform> hari yang lalu</numerusform>
            </translation>
        </message>
        <message>
            <source>closed (resolved, or discarded) more than this many days ago</source>
            <translation>ditutup (selesai, atau dibuang) lebih dari sekian hari yang lalu</translation>
        </message>
        <message>
            <source>Purge what closed more than this many days ago</source>
            <translation>Hapus permanen yang ditutup lebih dari sekian hari yang lalu</translation>
        </message>
        <message>
            <source>resolved</source>
            <translation>selesai</translation>
        </message>
        <message>
            <source>discarded</source>
            <translation>dibuang</translation>
        </message>
        <message numerus="yes">
            <source> day(s)</source>
            <translation>
                <numerusform> hari</numerusform>
            </translation>
        </message>
        <message>
            <source>a batch's kept source is forgotten this long after it was kept</source>
            <translation>sumber batch yang disimpan dilupakan sekian lama setelah disimpan</translation>
        </message>
        <message>
            <source>Keep each batch's source this many days</source>
            <translation>Simpan sumber setiap batch selama sekian hari</translation>
        </message>
        <message>
            <source>forever</source>
            <translation>selamanya</translation>
        </message>
        <message>
            <source>Purge</source>
            <translation>Hapus permanen</translation>
        </message>
        <message>
            <source>closed more than</source>
            <translation>ditutup lebih dari</translation>
        </message>
        <message>
            <source>Keep batch sources</source>
            <translation>Simpan sumber batch</translation>
        </message>
        <message>
            <source>Save policy</source>
            <translation>Simpan kebijakan</translation>
        </message>
        <message>
            <source>Keep this policy in the store, for the whole team</source>
            <translation>Simpan kebijakan ini di penyimpanan, untuk seluruh tim</translation>
        </message>
        <message>
            <source>Purge now…</source>
            <translation>Hapus permanen sekarang…</translation>
        </message>
        <message>
            <source>No retention policy is set for this store; %1 (the default).</source>
            <translation>Belum ada kebijakan retensi untuk penyimpanan ini; %1 (bawaan).</translation>
        </message>
        <message>
            <source>The store's policy: purge %1; %2.</source>
            <translation>Kebijakan penyimpanan: hapus permanen %1; %2.</translation>
        </message>
        <message>
            <source>Tick resolved, discarded or both.</source>
            <translation>Centang selesai, dibuang, atau keduanya.</translation>
        </message>
        <message>
            <source>counting what it would purge now…</source>
            <translation>menghitung yang akan dihapus permanen sekarang…</translation>
        </message>
        <message>
            <source>Purge %1 now…</source>
            <translation>Hapus permanen %1 sekarang…</translation>
        </message>
        <message>
            <source>Saved: the whole team's purges now follow this policy.</source>
            <translation>Tersimpan: penghapusan permanen seluruh tim kini mengikuti kebijakan ini.</translation>
        </message>
        <message>
            <source>%1

They are deleted with their history; this cannot be undone. Trends keep counting them.</source>
            <translation>%1

Semuanya dihapus beserta riwayatnya; tindakan ini tidak dapat dibatalkan. Tren tetap menghitungnya.</translation>
        </message>
        <message>
            <source>Purge dead letters</source>
            <translation>Hapus permanen dead letter</translation>
        </message>
        <message>
            <source>purging…</source>
            <translation>menghapus permanen…</translation>
        </message>
    </context>
    <context>
        <name>RowsScope</name>
        <message>
            <source>Rows to act on</source>
            <translation>Baris yang diproses</translation>
        </message>
        <message>
            <source>Too many rows selected to name them: choose the filter's rows instead.</source>
            <translation>Terlalu banyak baris dipilih untuk disebutkan: pilih baris dari filter saja.</translation>
        </message>
        <message>
            <source>Nothing to preview: %1.</source>
            <translation>Tidak ada yang bisa dipratinjau: %1.</translation>
        </message>
        <message>
            <source>The rows changed since the preview: this now names %1. Nothing will be done until you preview again.</source>
            <translation>Baris berubah sejak pratinjau: kini menyebut %1. Tidak ada yang dilakukan sampai Anda membuat pratinjau lagi.</translation>
        </message>
        <message numerus="yes">
            <source>The rows changed since the preview (the preview was of %Ln row(s)): this now names %1. Nothing will be done until you preview again.</source>
            <translation>
                <numerusform>Baris berubah sejak pratinjau (pratinjau mencakup %Ln baris): kini menyebut %1. Tidak ada yang dilakukan sampai Anda membuat pratinjau lagi.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>The store changed since the preview. The filter now matches %1; the preview covered %2. %3 acts on the %Ln previewed row(s) only, and leaves out, naming them, any changed since. Preview again to include the others.</source>
            <translation>
                <numerusform>Penyimpanan berubah sejak pratinjau. Filter kini cocok dengan %1; pratinjau mencakup %2. Tombol %3 hanya berlaku pada %Ln baris yang dipratinjau, dan melewatkan baris yang berubah sejak itu dengan menyebutnya. Buat pratinjau lagi untuk menyertakan yang lain.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>The store changed since the preview. %1 acts on the %Ln previewed row(s) only, and leaves out, naming them, any changed since. Preview again to include the others.</source>
            <translation>
                <numerusform>Penyimpanan berubah sejak pratinjau. Tombol %1 hanya berlaku pada %Ln baris yang dipratinjau, dan melewatkan baris yang berubah sejak itu dengan menyebutnya. Buat pratinjau lagi untuk menyertakan yang lain.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>the %Ln selected dead letter(s) (too many to name: narrow the filter)</source>
            <translation>
                <numerusform>%Ln dead letter yang dipilih (terlalu banyak untuk disebutkan: persempit filter)</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>batch_dialog</name>
        <message numerus="yes">
            <source>&lt;b&gt;Idempotent.&lt;/b&gt; Two runs of %Ln row(s) through %1 left the same warehouse (SHA-256 %2…) and the same dead letters (%3): running it again is safe.</source>
            <translation>
                <numerusform>&lt;b&gt;Idempoten.&lt;/b&gt; Dua kali menjalankan %Ln baris melalui %1 menghasilkan warehouse yang sama (SHA-256 %2…) dan dead letter yang sama (%3): menjalankannya lagi aman.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>&lt;b&gt;Not idempotent.&lt;/b&gt; Two runs of %Ln row(s) through %1 differ: SHA-256 %2… then %3…. Do not retry this transform before fixing it.</source>
            <translation>
                <numerusform>&lt;b&gt;Tidak idempoten.&lt;/b&gt; Dua kali menjalankan %Ln baris melalui %1 hasilnya berbeda: SHA-256 %2… lalu %3…. Jangan coba lagi transformasi ini sebelum memperbaikinya.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>&lt;b&gt;Not idempotent.&lt;/b&gt; Two runs of %Ln row(s) through %1 differ: SHA-256 %2… then %3…, and the dead letters differ. Do not retry this transform before fixing it.</source>
            <translation>
                <numerusform>&lt;b&gt;Tidak idempoten.&lt;/b&gt; Dua kali menjalankan %Ln baris melalui %1 hasilnya berbeda: SHA-256 %2… lalu %3…, dan dead letter-nya pun berbeda. Jangan coba lagi transformasi ini sebelum memperbaikinya.</numerusform>
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
            <translation>galat</translation>
        </message>
        <message>
            <source>class</source>
            <translation>kelas</translation>
        </message>
        <message>
            <source>attempts</source>
            <translation>percobaan</translation>
        </message>
        <message>
            <source>id</source>
            <translation>id</translation>
        </message>
        <message>
            <source>time</source>
            <translation>waktu</translation>
        </message>
        <message>
            <source>line</source>
            <translation>baris</translation>
        </message>
        <message>
            <source>the payload, as the pipeline received it</source>
            <translation>payload, seperti yang diterima pipeline</translation>
        </message>
        <message>
            <source>the error the pipeline reported</source>
            <translation>galat yang dilaporkan pipeline</translation>
        </message>
        <message>
            <source>data, code or transient (else judged from the error)</source>
            <translation>data, code, atau transient (jika tidak ada, dinilai dari galatnya)</translation>
        </message>
        <message>
            <source>how often it was tried</source>
            <translation>berapa kali dicoba</translation>
        </message>
        <message>
            <source>the row's key: its identity, so no row is imported twice</source>
            <translation>kunci baris: identitasnya, agar tidak ada baris yang diimpor dua kali</translation>
        </message>
        <message>
            <source>when it failed (empty: when imported)</source>
            <translation>kapan gagal (kosong: saat diimpor)</translation>
        </message>
        <message>
            <source>its line in the pipeline's input</source>
            <translation>barisnya di input pipeline</translation>
        </message>
        <message>
            <source>Name the column that holds the payload.</source>
            <translation>Sebutkan kolom yang berisi payload.</translation>
        </message>
        <message>
            <source>Name the column that holds the error.</source>
            <translation>Sebutkan kolom yang berisi galat.</translation>
        </message>
        <message>
            <source>Name the column that holds the row's key.</source>
            <translation>Sebutkan kolom yang berisi kunci baris.</translation>
        </message>
        <message>
            <source>The password goes to the system keyring, never to the store or the app's settings: the store keeps the address without it, and each desk keeps its own.</source>
            <translation>Kata sandi disimpan di keyring sistem, tidak pernah di penyimpanan atau pengaturan aplikasi: penyimpanan menyimpan alamatnya tanpa kata sandi, dan setiap Triage Desk menyimpan kata sandinya sendiri.</translation>
        </message>
        <message>
            <source>password, if it asks for one</source>
            <translation>kata sandi, jika diminta</translation>
        </message>
    </context>
    <context>
        <name>discard_dialog</name>
        <message>
            <source>Reopen brings them back until retention purges them.</source>
            <translation>Buka kembali mengembalikannya sampai retensi menghapusnya permanen.</translation>
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
            <translation>baris</translation>
        </message>
        <message>
            <source>class</source>
            <translation>kelas</translation>
        </message>
        <message>
            <source>status</source>
            <translation>status</translation>
        </message>
        <message>
            <source>error</source>
            <translation>galat</translation>
        </message>
        <message>
            <source>Nothing to discard.</source>
            <translation>Tidak ada yang dibuang.</translation>
        </message>
        <message numerus="yes">
            <source>Discard %Ln dead letter(s): %1.</source>
            <translation>
                <numerusform>Buang %Ln dead letter: %1.</numerusform>
            </translation>
        </message>
        <message>
            <source>Already discarded: %1.</source>
            <translation>Sudah dibuang: %1.</translation>
        </message>
        <message>
            <source>Not discarded, %1: %2 (%3).</source>
            <translation>Tidak dibuang, %1: %2 (%3).</translation>
        </message>
    </context>
    <context>
        <name>fix_dialog</name>
        <message>
            <source>value (JSON, or text)</source>
            <translation>nilai (JSON, atau teks)</translation>
        </message>
        <message>
            <source>Set</source>
            <translation>Setel</translation>
        </message>
        <message>
            <source>Default where missing or null</source>
            <translation>Nilai bawaan jika hilang atau null</translation>
        </message>
        <message>
            <source>Rename to</source>
            <translation>Ganti nama menjadi</translation>
        </message>
        <message>
            <source>new field name</source>
            <translation>nama kolom baru</translation>
        </message>
        <message>
            <source>Trim spaces</source>
            <translation>Pangkas spasi</translation>
        </message>
        <message>
            <source>Text to number</source>
            <translation>Teks ke angka</translation>
        </message>
        <message>
            <source>Map values</source>
            <translation>Petakan nilai</translation>
        </message>
        <message>
            <source>JSON object, e.g. {"lunas": "paid"}</source>
            <translation>objek JSON, mis. {"lunas": "paid"}</translation>
        </message>
        <message>
            <source>id</source>
            <translation>id</translation>
        </message>
        <message>
            <source>outcome</source>
            <translation>hasil</translation>
        </message>
        <message>
            <source>what changes, or why not</source>
            <translation>apa yang berubah, atau mengapa tidak</translation>
        </message>
        <message>
            <source>what the transform makes of it</source>
            <translation>hasilnya menurut transformasi</translation>
        </message>
        <message>
            <source>%1 of %2 would change (through %3: %4 would load, %5 would still fail). Not applicable to %6: %7. Nothing was written.</source>
            <translation>%1 dari %2 akan berubah (melalui %3: %4 akan dimuat, %5 masih akan gagal). Tidak berlaku untuk %6: %7. Tidak ada yang ditulis.</translation>
        </message>
        <message>
            <source>%1 of %2 would change (through %3: %4 would load, %5 would still fail). Nothing was written.</source>
            <translation>%1 dari %2 akan berubah (melalui %3: %4 akan dimuat, %5 masih akan gagal). Tidak ada yang ditulis.</translation>
        </message>
        <message>
            <source>%1 of %2 would change. Not applicable to %3: %4. Nothing was written.</source>
            <translation>%1 dari %2 akan berubah. Tidak berlaku untuk %3: %4. Tidak ada yang ditulis.</translation>
        </message>
        <message>
            <source>%1 of %2 would change. Nothing was written.</source>
            <translation>%1 dari %2 akan berubah. Tidak ada yang ditulis.</translation>
        </message>
        <message>
            <source>before: %1
after: %2</source>
            <translation>sebelum: %1
sesudah: %2</translation>
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
            <translation>baris</translation>
        </message>
        <message>
            <source>outcome</source>
            <translation>hasil</translation>
        </message>
        <message>
            <source>error, or the row it loads</source>
            <translation>galat, atau baris yang dimuatnya</translation>
        </message>
        <message>
            <source>The warehouse, through the transform</source>
            <translation>Warehouse, melalui transformasi</translation>
        </message>
        <message>
            <source>Where each came from: its queue's exchange, or its table</source>
            <translation>Asal masing-masing: exchange antreannya, atau tabelnya</translation>
        </message>
        <message>
            <source>One broker exchange:</source>
            <translation>Satu exchange broker:</translation>
        </message>
        <message>
            <source>as they are (validate nothing)</source>
            <translation>apa adanya (tanpa validasi)</translation>
        </message>
    </context>
    <context>
        <name>reprocess_dialog</name>
        <message>
            <source>key</source>
            <translation>kunci</translation>
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
            <source>verdict</source>
            <translation>putusan</translation>
        </message>
        <message>
            <source>diff, or why it fails</source>
            <translation>diff, atau alasan gagal</translation>
        </message>
        <message>
            <source>unchanged</source>
            <translation>tidak berubah</translation>
        </message>
        <message>
            <source>Rows unchanged</source>
            <translation>Baris tidak berubah</translation>
        </message>
        <message>
            <source>changed</source>
            <translation>berubah</translation>
        </message>
        <message>
            <source>Rows changed</source>
            <translation>Baris berubah</translation>
        </message>
        <message>
            <source>now failing</source>
            <translation>kini gagal</translation>
        </message>
        <message>
            <source>Rows now failing</source>
            <translation>Baris yang kini gagal</translation>
        </message>
        <message>
            <source>no input</source>
            <translation>tanpa input</translation>
        </message>
        <message>
            <source>Rows with no input</source>
            <translation>Baris tanpa input</translation>
        </message>
        <message numerus="yes">
            <source>%Ln row(s)</source>
            <translation>
                <numerusform>%Ln baris</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>retention_dialog</name>
        <message>
            <source>Kept sources: kept forever, none forgotten.</source>
            <translation>Sumber tersimpan: disimpan selamanya, tidak ada yang dilupakan.</translation>
        </message>
    </context>
</TS>
