<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="id" sourcelanguage="en">
    <context>
        <name>AttemptsChart</name>
        <message>
            <source>dead letters</source>
            <translation>dead letter</translation>
        </message>
        <message>
            <source>attempts</source>
            <translation>percobaan</translation>
        </message>
        <message>
            <source>not parked</source>
            <translation>tidak diparkir</translation>
        </message>
        <message>
            <source>parked</source>
            <translation>diparkir</translation>
        </message>
        <message numerus="yes">
            <source>%Ln attempt(s)</source>
            <translation>
                <numerusform>%Ln percobaan</numerusform>
            </translation>
        </message>
        <message>
            <source>%1: %2, %3 parked</source>
            <translation>%1: %2, %3 diparkir</translation>
        </message>
        <message numerus="yes">
            <source>%Ln attempt(s) · parked</source>
            <translation>
                <numerusform>%Ln percobaan · diparkir</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>BacklogChart</name>
        <message>
            <source>waiting</source>
            <translation>menunggu</translation>
        </message>
        <message>
            <source>open + parked (left)</source>
            <translation>menunggu (kiri)</translation>
        </message>
        <message>
            <source>resolved, all time</source>
            <translation>selesai, total</translation>
        </message>
        <message>
            <source>resolved (right)</source>
            <translation>selesai (kanan)</translation>
        </message>
        <message>
            <source>end of %1: %2 waiting, %3 resolved
that day: +%4 quarantined, -%5 resolved, -%6 discarded</source>
            <translation>akhir %1: %2 menunggu, %3 selesai
hari itu: +%4 dikarantina, -%5 selesai, -%6 dibuang</translation>
        </message>
    </context>
    <context>
        <name>ChartPanel</name>
        <message>
            <source>whole store</source>
            <translation>seluruh penyimpanan</translation>
        </message>
        <message>
            <source>follows the filter</source>
            <translation>ikuti filter</translation>
        </message>
        <message>
            <source>Checked: this chart counts only the rows the quarantine table's filter chooses. Unchecked: the whole store.</source>
            <translation>Dicentang: grafik ini hanya menghitung baris yang dipilih filter tabel karantina. Tidak dicentang: seluruh penyimpanan.</translation>
        </message>
        <message>
            <source>%1 follows the table's filter</source>
            <translation>%1 mengikuti filter tabel</translation>
        </message>
        <message>
            <source>PNG…</source>
            <translation>PNG…</translation>
        </message>
        <message>
            <source>Save the chart as a PNG image</source>
            <translation>Simpan grafik sebagai gambar PNG</translation>
        </message>
        <message>
            <source>CSV…</source>
            <translation>CSV…</translation>
        </message>
        <message>
            <source>Save the chart's numbers as CSV</source>
            <translation>Simpan angka grafik sebagai CSV</translation>
        </message>
        <message>
            <source>Export %1 as PNG</source>
            <translation>Ekspor %1 sebagai PNG</translation>
        </message>
        <message>
            <source>Export %1 as CSV</source>
            <translation>Ekspor %1 sebagai CSV</translation>
        </message>
        <message>
            <source>no numbers yet</source>
            <translation>belum ada angka</translation>
        </message>
        <message>
            <source>PNG image (*.png)</source>
            <translation>Gambar PNG (*.png)</translation>
        </message>
        <message>
            <source>CSV file (*.csv)</source>
            <translation>Berkas CSV (*.csv)</translation>
        </message>
        <message>
            <source>Export %1</source>
            <translation>Ekspor %1</translation>
        </message>
        <message>
            <source>not exported: %1</source>
            <translation>tidak diekspor: %1</translation>
        </message>
        <message>
            <source>exported %1</source>
            <translation>%1 diekspor</translation>
        </message>
    </context>
    <context>
        <name>FailuresChart</name>
        <message>
            <source>quarantined</source>
            <translation>dikarantina</translation>
        </message>
        <message>
            <source>batch (source file)</source>
            <translation>batch (berkas sumber)</translation>
        </message>
        <message>
            <source>batch (batch id)</source>
            <translation>batch (id batch)</translation>
        </message>
        <message numerus="yes">
            <source>%Ln earlier purge(s)</source>
            <translation>
                <numerusform>%Ln penghapusan permanen sebelumnya</numerusform>
            </translation>
        </message>
        <message>
            <source>%1 · still counted in the bars</source>
            <translation>%1 · masih dihitung dalam batang</translation>
        </message>
        <message>
            <source>%1: %2 quarantined (%3)</source>
            <translation>%1: %2 dikarantina (%3)</translation>
        </message>
        <message>
            <source>%1 of them purged since (not in the table)</source>
            <translation>%1 di antaranya sudah dihapus permanen (tidak ada di tabel)</translation>
        </message>
        <message>
            <source>batch %1 · %2 · %3 · %4</source>
            <translation>batch %1 · %2 · %3 · %4</translation>
        </message>
        <message>
            <source>%1 quarantined (%2)</source>
            <translation>%1 dikarantina (%2)</translation>
        </message>
        <message numerus="yes">
            <source>held: %Ln row(s) wait, all or nothing, until every dead letter is fixed</source>
            <translation>
                <numerusform>ditahan: %Ln baris menunggu, semua atau tidak sama sekali, sampai setiap dead letter diperbaiki</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>GroupsChart</name>
        <message>
            <source>dead letters</source>
            <translation>dead letter</translation>
        </message>
        <message>
            <source>%1: %2, %3 open</source>
            <translation>%1: %2, %3 terbuka</translation>
        </message>
    </context>
    <context>
        <name>GroupsModel</name>
        <message>
            <source>signature</source>
            <translation>tanda</translation>
        </message>
        <message>
            <source>class</source>
            <translation>kelas</translation>
        </message>
        <message>
            <source>open</source>
            <translation>terbuka</translation>
        </message>
        <message>
            <source>oldest open</source>
            <translation>terbuka tertua</translation>
        </message>
        <message>
            <source>owner</source>
            <translation>pemilik</translation>
        </message>
        <message>
            <source>tags</source>
            <translation>tag</translation>
        </message>
        <message>
            <source>note</source>
            <translation>catatan</translation>
        </message>
        <message>
            <source>24 h</source>
            <translation>24 jam</translation>
        </message>
        <message>
            <source>first seen (release)</source>
            <translation>pertama terlihat (rilis)</translation>
        </message>
        <message>
            <source>count</source>
            <translation>jumlah</translation>
        </message>
        <message>
            <source>resolved</source>
            <translation>selesai</translation>
        </message>
        <message>
            <source>last seen</source>
            <translation>terakhir terlihat</translation>
        </message>
        <message>
            <source>unowned</source>
            <translation>tanpa pemilik</translation>
        </message>
    </context>
    <context>
        <name>GroupsView</name>
        <message>
            <source>Assign owner…</source>
            <translation>Tetapkan pemilik…</translation>
        </message>
        <message>
            <source>Tags…</source>
            <translation>Tag…</translation>
        </message>
        <message>
            <source>Note…</source>
            <translation>Catatan…</translation>
        </message>
        <message>
            <source>Error groups of owner</source>
            <translation>Kelompok galat milik</translation>
        </message>
        <message>
            <source>Error groups tagged</source>
            <translation>Kelompok galat bertag</translation>
        </message>
        <message>
            <source>signature, owner, tag or note</source>
            <translation>tanda, pemilik, tag, atau catatan</translation>
        </message>
        <message>
            <source>Search error groups</source>
            <translation>Cari kelompok galat</translation>
        </message>
        <message>
            <source>Error groups</source>
            <translation>Kelompok galat</translation>
        </message>
        <message>
            <source>Owner</source>
            <translation>Pemilik</translation>
        </message>
        <message>
            <source>Tag</source>
            <translation>Tag</translation>
        </message>
        <message>
            <source>Click a group: the quarantine table shows it, its rows selected; its owner or tags: every group so owned or tagged. Right-click: assign an owner, tags, a note</source>
            <translation>Klik sebuah kelompok: tabel karantina menampilkannya, dengan barisnya terpilih; pemilik atau tag-nya: setiap kelompok dengan pemilik atau tag itu. Klik kanan: tetapkan pemilik, tag, catatan</translation>
        </message>
        <message numerus="yes">
            <source>%Ln group(s)</source>
            <translation>
                <numerusform>%Ln kelompok</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1 of %Ln group(s)</source>
            <translation>
                <numerusform>%1 dari %Ln kelompok</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>HeadlineBar</name>
        <message>
            <source>code errors after a new release of %1</source>
            <translation>bug kode setelah rilis baru %1</translation>
        </message>
        <message>
            <source>code errors through %1, not new: new input?</source>
            <translation>bug kode melalui %1, versi lama: input baru?</translation>
        </message>
        <message>
            <source>data errors: the source sent bad rows</source>
            <translation>cacat data: sumber mengirim baris yang rusak</translation>
        </message>
        <message>
            <source>transient errors: something was down</source>
            <translation>galat sementara: ada layanan yang sedang mati</translation>
        </message>
        <message>
            <source>a mix of classes</source>
            <translation>campuran beberapa kelas</translation>
        </message>
        <message>
            <source>counting</source>
            <translation>menghitung</translation>
        </message>
        <message numerus="yes">
            <source>row(s) wait for a person</source>
            <translation>
                <numerusform>baris menunggu ditangani</numerusform>
            </translation>
        </message>
        <message>
            <source>oldest open row's wait</source>
            <translation>lama tunggu baris terbuka tertua</translation>
        </message>
        <message>
            <source>first failed %1 UTC</source>
            <translation>pertama kali gagal %1 UTC</translation>
        </message>
        <message numerus="yes">
            <source>&lt;a href="unowned"&gt;group(s) nobody owns&lt;/a&gt; (%1 with open rows)</source>
            <translation>
                <numerusform>&lt;a href="unowned"&gt;kelompok tanpa pemilik&lt;/a&gt; (%1 dengan baris terbuka)</numerusform>
            </translation>
        </message>
        <message>
            <source>Click: the error groups below narrow to the unowned</source>
            <translation>Klik: kelompok galat di bawah disaring ke yang tanpa pemilik</translation>
        </message>
        <message>
            <source>groups nobody owns: every group has an owner</source>
            <translation>kelompok tanpa pemilik: setiap kelompok sudah punya pemilik</translation>
        </message>
        <message>
            <source>%1 at %2</source>
            <translation>%1 di %2</translation>
        </message>
        <message>
            <source>step %1</source>
            <translation>langkah %1</translation>
        </message>
        <message>
            <source>on the retry ladder: %1</source>
            <translation>di tangga coba ulang: %1</translation>
        </message>
        <message>
            <source>on the retry ladder</source>
            <translation>di tangga coba ulang</translation>
        </message>
        <message>
            <source>%1 due now</source>
            <translation>%1 jatuh tempo sekarang</translation>
        </message>
        <message>
            <source>%1 parked at its end</source>
            <translation>%1 diparkir di ujungnya</translation>
        </message>
        <message>
            <source>The retry ladder: %1</source>
            <translation>Tangga coba ulang: %1</translation>
        </message>
        <message>
            <source>Before retry %1: %2 waiting, next due %3 UTC</source>
            <translation>Sebelum coba lagi ke-%1: %2 menunggu, jatuh tempo berikutnya %3 UTC</translation>
        </message>
        <message>
            <source>Before retry %1: %2 waiting</source>
            <translation>Sebelum coba lagi ke-%1: %2 menunggu</translation>
        </message>
        <message>
            <source>Parked at the ladder's end, waiting for a person: %1</source>
            <translation>Diparkir di ujung tangga, menunggu ditangani: %1</translation>
        </message>
        <message>
            <source>No spike</source>
            <translation>Tidak ada lonjakan</translation>
        </message>
        <message>
            <source>in the newest batches</source>
            <translation>di batch terbaru</translation>
        </message>
        <message>
            <source>cause unknown</source>
            <translation>penyebab tidak diketahui</translation>
        </message>
        <message>
            <source>Spike: %1 in batch %2</source>
            <translation>Lonjakan: %1 di batch %2</translation>
        </message>
        <message>
            <source>%1 · &lt;a href="%2"&gt;its rows&lt;/a&gt;</source>
            <translation>%1 · &lt;a href="%2"&gt;barisnya&lt;/a&gt;</translation>
        </message>
    </context>
    <context>
        <name>RateChart</name>
        <message>
            <source>% of rows quarantined</source>
            <translation>% baris dikarantina</translation>
        </message>
        <message>
            <source>rate</source>
            <translation>rasio</translation>
        </message>
        <message>
            <source>spike</source>
            <translation>lonjakan</translation>
        </message>
        <message>
            <source>spike threshold</source>
            <translation>ambang lonjakan</translation>
        </message>
        <message>
            <source>import %1 · %2 · %3</source>
            <translation>impor %1 · %2 · %3</translation>
        </message>
        <message numerus="yes">
            <source>%Ln dead letter(s) imported (judged by volume)</source>
            <translation>
                <numerusform>%Ln dead letter diimpor (dinilai dari volumenya)</numerusform>
            </translation>
        </message>
        <message>
            <source>too few batches before it to judge</source>
            <translation>terlalu sedikit batch sebelumnya untuk dinilai</translation>
        </message>
        <message>
            <source>threshold %1: SPIKE</source>
            <translation>ambang %1: LONJAKAN</translation>
        </message>
        <message>
            <source>threshold %1</source>
            <translation>ambang %1</translation>
        </message>
        <message>
            <source>batch %1 · %2 · %3 · %4</source>
            <translation>batch %1 · %2 · %3 · %4</translation>
        </message>
        <message numerus="yes">
            <source>%1 of %Ln row(s) (%2)</source>
            <translation>
                <numerusform>%1 dari %Ln baris (%2)</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>SpikeBanner</name>
        <message>
            <source>Show its dead letters</source>
            <translation>Tampilkan dead letter-nya</translation>
        </message>
        <message>
            <source>Dismiss: this batch will not raise the banner again</source>
            <translation>Tutup: batch ini tidak akan memunculkan pemberitahuan ini lagi</translation>
        </message>
        <message>
            <source>Dismiss the spike</source>
            <translation>Tutup pemberitahuan lonjakan</translation>
        </message>
    </context>
    <context>
        <name>TrendChart</name>
        <message>
            <source>cannot encode the chart for %1</source>
            <translation>tidak dapat mengodekan grafik untuk %1</translation>
        </message>
    </context>
    <context>
        <name>TrendsTab</name>
        <message>
            <source>All time</source>
            <translation>Sepanjang waktu</translation>
        </message>
        <message>
            <source>Last 7 days</source>
            <translation>7 hari terakhir</translation>
        </message>
        <message>
            <source>Last 30 days</source>
            <translation>30 hari terakhir</translation>
        </message>
        <message>
            <source>Last 90 days</source>
            <translation>90 hari terakhir</translation>
        </message>
        <message>
            <source>quarantined, stacked by class (UTC days)</source>
            <translation>dikarantina, ditumpuk menurut kelas (hari UTC)</translation>
        </message>
        <message>
            <source>quarantined per batch, from its counters</source>
            <translation>dikarantina per batch, dari penghitungnya</translation>
        </message>
        <message>
            <source>The spike rule: a batch whose quarantine rate exceeds this many times the median of this many previous batches</source>
            <translation>Aturan lonjakan: batch yang rasio karantinanya melebihi sekian kali median dari sekian batch sebelumnya</translation>
        </message>
        <message>
            <source>Trends period</source>
            <translation>Periode tren</translation>
        </message>
        <message>
            <source>Spike factor</source>
            <translation>Faktor lonjakan</translation>
        </message>
        <message>
            <source>Spike window in batches</source>
            <translation>Jendela lonjakan dalam batch</translation>
        </message>
        <message>
            <source>Show</source>
            <translation>Tampilkan</translation>
        </message>
        <message>
            <source>Spike: rate above</source>
            <translation>Lonjakan: rasio di atas</translation>
        </message>
        <message>
            <source>the median of the previous</source>
            <translation>median dari</translation>
        </message>
        <message numerus="yes">
            <source>batch(es)</source>
            <translation>
                <numerusform>batch sebelumnya</numerusform>
            </translation>
        </message>
        <message>
            <source>per day</source>
            <translation>per hari</translation>
        </message>
        <message>
            <source>per batch</source>
            <translation>per batch</translation>
        </message>
        <message>
            <source>click a bar: the table shows those rows</source>
            <translation>klik batang: tabel menampilkan baris-baris itu</translation>
        </message>
        <message>
            <source>Failures over time</source>
            <translation>Riwayat kegagalan</translation>
        </message>
        <message>
            <source>Backlog</source>
            <translation>Antrean</translation>
        </message>
        <message>
            <source>waiting vs resolved</source>
            <translation>menunggu vs selesai</translation>
        </message>
        <message>
            <source>Quarantine rate per batch</source>
            <translation>Rasio karantina per batch</translation>
        </message>
        <message>
            <source>spikes in red</source>
            <translation>lonjakan berwarna merah</translation>
        </message>
        <message>
            <source>Attempts</source>
            <translation>Percobaan</translation>
        </message>
        <message>
            <source>parked in red</source>
            <translation>yang diparkir berwarna merah</translation>
        </message>
        <message>
            <source>Largest error groups</source>
            <translation>Kelompok galat terbesar</translation>
        </message>
        <message>
            <source>click a bar: its rows, selected</source>
            <translation>klik batang: barisnya, terpilih</translation>
        </message>
        <message>
            <source>the table's filter: %1</source>
            <translation>filter tabel: %1</translation>
        </message>
        <message numerus="yes">
            <source>%Ln batch(es) · updated %1</source>
            <translation>
                <numerusform>%Ln batch · diperbarui %1</numerusform>
            </translation>
        </message>
        <message>
            <source>no dead letters yet</source>
            <translation>belum ada dead letter</translation>
        </message>
        <message>
            <source>trends: %1</source>
            <translation>tren: %1</translation>
        </message>
    </context>
    <context>
        <name>base</name>
        <message numerus="yes">
            <source>%Ln dead letter(s)</source>
            <translation>
                <numerusform>%Ln dead letter</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>count_axis</name>
        <message>
            <source>%1M</source>
            <translation>%1 jt</translation>
        </message>
    </context>
    <context>
        <name>groups_view</name>
        <message>
            <source>group %1</source>
            <translation>kelompok %1</translation>
        </message>
        <message>
            <source>owner %1</source>
            <translation>pemilik %1</translation>
        </message>
        <message>
            <source>tag %1</source>
            <translation>tag %1</translation>
        </message>
        <message>
            <source>no open row</source>
            <translation>tidak ada baris terbuka</translation>
        </message>
        <message>
            <source>its oldest open row first failed %1 (UTC)</source>
            <translation>baris terbukanya yang tertua pertama kali gagal %1 (UTC)</translation>
        </message>
        <message>
            <source>Click: the rows of every group %1 owns</source>
            <translation>Klik: baris dari setiap kelompok milik %1</translation>
        </message>
        <message>
            <source>Nobody owns this group. Right-click: assign an owner</source>
            <translation>Kelompok ini belum punya pemilik. Klik kanan: tetapkan pemilik</translation>
        </message>
        <message>
            <source>first failed %1 (UTC)</source>
            <translation>pertama kali gagal %1 (UTC)</translation>
        </message>
        <message>
            <source>Click: the rows of every group tagged %1</source>
            <translation>Klik: baris dari setiap kelompok bertag %1</translation>
        </message>
    </context>
    <context>
        <name>report</name>
        <message>
            <source>unowned</source>
            <translation>tanpa pemilik</translation>
        </message>
        <message>
            <source>Quarantined per day, by class</source>
            <translation>Dikarantina per hari, menurut kelas</translation>
        </message>
        <message>
            <source>Quarantined per batch, by class</source>
            <translation>Dikarantina per batch, menurut kelas</translation>
        </message>
        <message>
            <source>Backlog: open vs resolved</source>
            <translation>Antrean: terbuka vs selesai</translation>
        </message>
        <message>
            <source>Quarantine rate per batch</source>
            <translation>Rasio karantina per batch</translation>
        </message>
        <message>
            <source>Attempts</source>
            <translation>Percobaan</translation>
        </message>
        <message>
            <source>Error groups</source>
            <translation>Kelompok galat</translation>
        </message>
        <message>
            <source>signature</source>
            <translation>tanda</translation>
        </message>
        <message>
            <source>class</source>
            <translation>kelas</translation>
        </message>
        <message>
            <source>count</source>
            <translation>jumlah</translation>
        </message>
        <message>
            <source>open</source>
            <translation>terbuka</translation>
        </message>
        <message>
            <source>oldest open</source>
            <translation>terbuka tertua</translation>
        </message>
        <message>
            <source>owner</source>
            <translation>pemilik</translation>
        </message>
        <message>
            <source>tags</source>
            <translation>tag</translation>
        </message>
        <message>
            <source>note</source>
            <translation>catatan</translation>
        </message>
        <message>
            <source>first seen (UTC)</source>
            <translation>pertama terlihat (UTC)</translation>
        </message>
        <message>
            <source>first batch</source>
            <translation>batch pertama</translation>
        </message>
        <message>
            <source>source</source>
            <translation>sumber</translation>
        </message>
        <message>
            <source>version</source>
            <translation>versi</translation>
        </message>
        <message>
            <source>last 24 h</source>
            <translation>24 jam terakhir</translation>
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
            <translation>dikarantina</translation>
        </message>
        <message>
            <source>spike</source>
            <translation>lonjakan</translation>
        </message>
        <message>
            <source>since then</source>
            <translation>sejak saat itu</translation>
        </message>
        <message>
            <source>since %1 (UTC days)</source>
            <translation>sejak %1 (hari UTC)</translation>
        </message>
        <message>
            <source>%1 to %2 (UTC days)</source>
            <translation>%1 sampai %2 (hari UTC)</translation>
        </message>
        <message>
            <source>no dead letters yet</source>
            <translation>belum ada dead letter</translation>
        </message>
        <message>
            <source>Quarantined in the last 7 days: %1.</source>
            <translation>Dikarantina dalam 7 hari terakhir: %1.</translation>
        </message>
        <message>
            <source>Quarantined in the last 7 days: %1 (%2 more than the 7 days before: %3).</source>
            <translation>Dikarantina dalam 7 hari terakhir: %1 (%2 lebih banyak daripada 7 hari sebelumnya: %3).</translation>
        </message>
        <message>
            <source>Quarantined in the last 7 days: %1 (%2 fewer than the 7 days before: %3).</source>
            <translation>Dikarantina dalam 7 hari terakhir: %1 (%2 lebih sedikit daripada 7 hari sebelumnya: %3).</translation>
        </message>
        <message>
            <source>Quarantined in the last 7 days: %1 (as many as the 7 days before: %2).</source>
            <translation>Dikarantina dalam 7 hari terakhir: %1 (sama banyak dengan 7 hari sebelumnya: %2).</translation>
        </message>
        <message>
            <source>The largest cause is %1 (%2): %3, %4 of all, %5 still open, owned by %6.</source>
            <translation>Penyebab terbesar adalah %1 (%2): %3, %4 dari semuanya, %5 masih terbuka, dimiliki oleh %6.</translation>
        </message>
        <message>
            <source>The largest cause is %1 (%2): %3, %4 of all, %5 still open, nobody owns it.</source>
            <translation>Penyebab terbesar adalah %1 (%2): %3, %4 dari semuanya, %5 masih terbuka, belum ada pemiliknya.</translation>
        </message>
        <message>
            <source>The oldest open dead letter has waited %1 (it first failed %2 UTC).</source>
            <translation>Dead letter terbuka yang tertua sudah menunggu %1 (pertama kali gagal %2 UTC).</translation>
        </message>
        <message>
            <source>The spike in batch %1: see above.</source>
            <translation>Lonjakan di batch %1: lihat di atas.</translation>
        </message>
        <message>
            <source>Earlier spikes in the period: %1.</source>
            <translation>Lonjakan sebelumnya dalam periode ini: %1.</translation>
        </message>
        <message>
            <source>No spikes: no batch crossed the rule (%1).</source>
            <translation>Tidak ada lonjakan: tidak ada batch yang melewati aturan (%1).</translation>
        </message>
        <message>
            <source>quiet (none in 48 h)</source>
            <translation>tenang (tidak ada dalam 48 jam)</translation>
        </message>
        <message>
            <source>%1 stopped (%2 the 24 h before)</source>
            <translation>%1 berhenti (%2 pada 24 jam sebelumnya)</translation>
        </message>
        <message>
            <source>%1 +%2 (%3 the 24 h before)</source>
            <translation>%1 +%2 (%3 pada 24 jam sebelumnya)</translation>
        </message>
        <message>
            <source>%1 of %2</source>
            <translation>%1 dari %2</translation>
        </message>
        <message numerus="yes">
            <source>%Ln dead letter(s) quarantined: %1.</source>
            <translation>
                <numerusform>%Ln dead letter dikarantina: %1.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln dead letter(s) quarantined.</source>
            <translation>
                <numerusform>%Ln dead letter dikarantina.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln batch(es) ran; %1 (%2).</source>
            <translation>
                <numerusform>%Ln batch berjalan; %1 (%2).</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln spike(s)</source>
            <translation>
                <numerusform>%Ln lonjakan</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln batch(es) ran, no spike.</source>
            <translation>
                <numerusform>%Ln batch berjalan, tanpa lonjakan.</numerusform>
            </translation>
        </message>
        <message>
            <source>%1 (first seen since then); %2 grew.</source>
            <translation>%1 (pertama terlihat sejak saat itu); %2 bertambah.</translation>
        </message>
        <message numerus="yes">
            <source>%Ln new error group(s)</source>
            <translation>
                <numerusform>%Ln kelompok galat baru</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln older group(s)</source>
            <translation>
                <numerusform>%Ln kelompok lama</numerusform>
            </translation>
        </message>
        <message>
            <source>Since %1 UTC</source>
            <translation>Sejak %1 UTC</translation>
        </message>
        <message>
            <source>Dead-letter trends</source>
            <translation>Tren dead letter</translation>
        </message>
        <message>
            <source>%1 · %2 · written %3 UTC</source>
            <translation>%1 · %2 · ditulis %3 UTC</translation>
        </message>
        <message>
            <source>The period: %1</source>
            <translation>Periode: %1</translation>
        </message>
        <message>
            <source>Error groups: who works on what</source>
            <translation>Kelompok galat: siapa menangani apa</translation>
        </message>
        <message>
            <source>Error groups: since when, which release, still growing</source>
            <translation>Kelompok galat: sejak kapan, rilis mana, masih bertambah</translation>
        </message>
        <message>
            <source>dead letters</source>
            <translation>dead letter</translation>
        </message>
        <message>
            <source>dead letters first failed since %1</source>
            <translation>dead letter yang pertama kali gagal sejak %1</translation>
        </message>
        <message>
            <source>New error groups:</source>
            <translation>Kelompok galat baru:</translation>
        </message>
        <message>
            <source>Older groups that grew:</source>
            <translation>Kelompok lama yang bertambah:</translation>
        </message>
        <message>
            <source>New error groups</source>
            <translation>Kelompok galat baru</translation>
        </message>
        <message>
            <source>Older groups that grew</source>
            <translation>Kelompok lama yang bertambah</translation>
        </message>
    </context>
    <context>
        <name>words</name>
        <message>
            <source>first failed %1</source>
            <translation>pertama kali gagal %1</translation>
        </message>
        <message>
            <source>first failed %1 · %2</source>
            <translation>pertama kali gagal %1 · %2</translation>
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
