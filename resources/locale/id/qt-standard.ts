<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<!--
  Qt's own texts the window shows, in Indonesian: PySide6 ships no qtbase_id.qm.
  Kept by hand (scripts/catalogues.py never rewrites it; its `status` checks it).
  Each source is Qt's exactly, under the context Qt looks it up with (Qt 6's
  qplatformtheme.cpp, qgnometheme.cpp, qmessagebox.cpp, qlineedit.cpp,
  qwidgettextcontrol.cpp, qabstractspinbox.cpp, qfiledialog.cpp/.ui, qfilesystemmodel.cpp,
  qabstractfileiconprovider.cpp), "&" and "..." included; a text that differs by one
  character is never looked up. Mnemonics (&) are chosen apart within each menu.
-->
<TS version="2.1" language="id" sourcelanguage="en">
    <context>
        <name>QPlatformTheme</name>
        <message>
            <source>OK</source>
            <translation>OK</translation>
        </message>
        <message>
            <source>Save</source>
            <translation>Simpan</translation>
        </message>
        <message>
            <source>Save All</source>
            <translation>Simpan Semua</translation>
        </message>
        <message>
            <source>Open</source>
            <translation>Buka</translation>
        </message>
        <message>
            <source>&amp;Yes</source>
            <translation>&amp;Ya</translation>
        </message>
        <message>
            <source>Yes to &amp;All</source>
            <translation>Ya untuk &amp;Semua</translation>
        </message>
        <message>
            <source>&amp;No</source>
            <translation>&amp;Tidak</translation>
        </message>
        <message>
            <source>N&amp;o to All</source>
            <translation>T&amp;idak untuk Semua</translation>
        </message>
        <message>
            <source>Abort</source>
            <translation>Gugurkan</translation>
        </message>
        <message>
            <source>Retry</source>
            <translation>Coba Lagi</translation>
        </message>
        <message>
            <source>Ignore</source>
            <translation>Abaikan</translation>
        </message>
        <message>
            <source>Close</source>
            <translation>Tutup</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>Batal</translation>
        </message>
        <message>
            <source>Discard</source>
            <translation>Buang</translation>
        </message>
        <message>
            <source>Help</source>
            <translation>Bantuan</translation>
        </message>
        <message>
            <source>Apply</source>
            <translation>Terapkan</translation>
        </message>
        <message>
            <source>Reset</source>
            <translation>Atur Ulang</translation>
        </message>
        <message>
            <source>Restore Defaults</source>
            <translation>Kembalikan Bawaan</translation>
        </message>
    </context>
    <context>
        <name>QGnomeTheme</name>
        <message>
            <source>&amp;OK</source>
            <translation>&amp;OK</translation>
        </message>
        <message>
            <source>&amp;Save</source>
            <translation>&amp;Simpan</translation>
        </message>
        <message>
            <source>&amp;Cancel</source>
            <translation>&amp;Batal</translation>
        </message>
        <message>
            <source>&amp;Close</source>
            <translation>&amp;Tutup</translation>
        </message>
        <message>
            <source>Close without Saving</source>
            <translation>Tutup tanpa Menyimpan</translation>
        </message>
    </context>
    <context>
        <name>QDialogButtonBox</name>
        <message>
            <source>OK</source>
            <translation>OK</translation>
        </message>
    </context>
    <context>
        <name>QMessageBox</name>
        <message>
            <source>Show Details...</source>
            <translation>Tampilkan Rincian...</translation>
        </message>
        <message>
            <source>Hide Details...</source>
            <translation>Sembunyikan Rincian...</translation>
        </message>
    </context>
    <context>
        <name>QLineEdit</name>
        <message>
            <source>&amp;Undo</source>
            <translation>&amp;Urungkan</translation>
        </message>
        <message>
            <source>&amp;Redo</source>
            <translation>Ul&amp;angi</translation>
        </message>
        <message>
            <source>Cu&amp;t</source>
            <translation>P&amp;otong</translation>
        </message>
        <message>
            <source>&amp;Copy</source>
            <translation>&amp;Salin</translation>
        </message>
        <message>
            <source>&amp;Paste</source>
            <translation>&amp;Tempel</translation>
        </message>
        <message>
            <source>Delete</source>
            <translation>Hapus</translation>
        </message>
        <message>
            <source>Select All</source>
            <translation>Pilih Semua</translation>
        </message>
    </context>
    <context>
        <name>QWidgetTextControl</name>
        <message>
            <source>&amp;Undo</source>
            <translation>&amp;Urungkan</translation>
        </message>
        <message>
            <source>&amp;Redo</source>
            <translation>Ul&amp;angi</translation>
        </message>
        <message>
            <source>Cu&amp;t</source>
            <translation>P&amp;otong</translation>
        </message>
        <message>
            <source>&amp;Copy</source>
            <translation>&amp;Salin</translation>
        </message>
        <message>
            <source>&amp;Paste</source>
            <translation>&amp;Tempel</translation>
        </message>
        <message>
            <source>Delete</source>
            <translation>Hapus</translation>
        </message>
        <message>
            <source>Select All</source>
            <translation>Pilih Semua</translation>
        </message>
        <message>
            <source>Copy &amp;Link Location</source>
            <translation>Salin &amp;Lokasi Tautan</translation>
        </message>
    </context>
    <context>
        <name>QAbstractSpinBox</name>
        <message>
            <source>&amp;Select All</source>
            <translation>&amp;Pilih Semua</translation>
        </message>
        <message>
            <source>&amp;Step up</source>
            <translation>&amp;Naikkan</translation>
        </message>
        <message>
            <source>Step &amp;down</source>
            <translation>Tu&amp;runkan</translation>
        </message>
    </context>
    <context>
        <name>QFileDialog</name>
        <message>
            <source>Open</source>
            <translation>Buka</translation>
        </message>
        <message>
            <source>Save As</source>
            <translation>Simpan Sebagai</translation>
        </message>
        <message>
            <source>Find Directory</source>
            <translation>Cari Direktori</translation>
        </message>
        <message>
            <source>&amp;Open</source>
            <translation>&amp;Buka</translation>
        </message>
        <message>
            <source>&amp;Save</source>
            <translation>&amp;Simpan</translation>
        </message>
        <message>
            <source>&amp;Choose</source>
            <translation>&amp;Pilih</translation>
        </message>
        <message>
            <source>&amp;Look in:</source>
            <translation>&amp;Cari di:</translation>
        </message>
        <message>
            <source>File &amp;name:</source>
            <translation>&amp;Nama berkas:</translation>
        </message>
        <message>
            <source>Files of &amp;type:</source>
            <translation>&amp;Jenis berkas:</translation>
        </message>
        <message>
            <source>Directory:</source>
            <translation>Direktori:</translation>
        </message>
        <message>
            <source>Back</source>
            <translation>Kembali</translation>
        </message>
        <message>
            <source>Forward</source>
            <translation>Maju</translation>
        </message>
        <message>
            <source>Parent Directory</source>
            <translation>Direktori Induk</translation>
        </message>
        <message>
            <source>Create New Folder</source>
            <translation>Buat Folder Baru</translation>
        </message>
        <message>
            <source>List View</source>
            <translation>Tampilan Daftar</translation>
        </message>
        <message>
            <source>Detail View</source>
            <translation>Tampilan Rincian</translation>
        </message>
        <message>
            <source>Go back</source>
            <translation>Kembali</translation>
        </message>
        <message>
            <source>Go forward</source>
            <translation>Maju</translation>
        </message>
        <message>
            <source>Go to the parent directory</source>
            <translation>Ke direktori induk</translation>
        </message>
        <message>
            <source>Create a New Folder</source>
            <translation>Buat folder baru</translation>
        </message>
        <message>
            <source>Change to list view mode</source>
            <translation>Ganti ke tampilan daftar</translation>
        </message>
        <message>
            <source>Change to detail view mode</source>
            <translation>Ganti ke tampilan rincian</translation>
        </message>
        <message>
            <source>Sidebar</source>
            <translation>Bilah Sisi</translation>
        </message>
        <message>
            <source>List of places and bookmarks</source>
            <translation>Daftar tempat dan markah</translation>
        </message>
        <message>
            <source>Recent Places</source>
            <translation>Tempat Terkini</translation>
        </message>
        <message>
            <source>Files</source>
            <translation>Berkas</translation>
        </message>
        <message>
            <source>Directories</source>
            <translation>Direktori</translation>
        </message>
        <message>
            <source>All Files (*)</source>
            <translation>Semua Berkas (*)</translation>
        </message>
        <message>
            <source>All files (*)</source>
            <translation>Semua berkas (*)</translation>
        </message>
        <message>
            <source>New Folder</source>
            <translation>Folder Baru</translation>
        </message>
        <message>
            <source>&amp;New Folder</source>
            <translation>Folder &amp;Baru</translation>
        </message>
        <message>
            <source>&amp;Rename</source>
            <translation>&amp;Ganti Nama</translation>
        </message>
        <message>
            <source>&amp;Delete</source>
            <translation>&amp;Hapus</translation>
        </message>
        <message>
            <source>Show &amp;hidden files</source>
            <translation>Tampilkan berkas &amp;tersembunyi</translation>
        </message>
        <message>
            <source>Delete</source>
            <translation>Hapus</translation>
        </message>
        <message>
            <source>Remove</source>
            <translation>Hapus</translation>
        </message>
        <message>
            <source>%1 already exists.
Do you want to replace it?</source>
            <translation>%1 sudah ada.
Apakah Anda ingin menggantinya?</translation>
        </message>
        <message>
            <source>%1
File not found.
Please verify the correct file name was given.</source>
            <translation>%1
Berkas tidak ditemukan.
Pastikan nama berkas yang diberikan benar.</translation>
        </message>
        <message>
            <source>%1
Directory not found.
Please verify the correct directory name was given.</source>
            <translation>%1
Direktori tidak ditemukan.
Pastikan nama direktori yang diberikan benar.</translation>
        </message>
        <message>
            <source>Are you sure you want to delete '%1'?</source>
            <translation>Apakah Anda yakin ingin menghapus '%1'?</translation>
        </message>
        <message>
            <source>'%1' is write protected.
Do you want to delete it anyway?</source>
            <translation>'%1' dilindungi dari penulisan.
Apakah Anda tetap ingin menghapusnya?</translation>
        </message>
        <message>
            <source>Could not delete directory.</source>
            <translation>Direktori tidak dapat dihapus.</translation>
        </message>
    </context>
    <context>
        <name>QFileSystemModel</name>
        <message>
            <source>Name</source>
            <translation>Nama</translation>
        </message>
        <message>
            <source>Size</source>
            <translation>Ukuran</translation>
        </message>
        <message>
            <source>Type</source>
            <translation>Jenis</translation>
        </message>
        <message>
            <source>Date Modified</source>
            <translation>Tanggal Diubah</translation>
        </message>
        <message>
            <source>Computer</source>
            <translation>Komputer</translation>
        </message>
    </context>
    <context>
        <name>QAbstractFileIconProvider</name>
        <message>
            <source>Folder</source>
            <translation>Folder</translation>
        </message>
        <message>
            <source>File</source>
            <translation>Berkas</translation>
        </message>
        <message>
            <source>Drive</source>
            <translation>Drive</translation>
        </message>
        <message>
            <source>Shortcut</source>
            <translation>Pintasan</translation>
        </message>
        <message>
            <source>Unknown</source>
            <translation>Tidak Dikenal</translation>
        </message>
    </context>
</TS>
