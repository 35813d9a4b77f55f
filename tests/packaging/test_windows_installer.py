"""The Windows installer's logic (packaging/windows/triage-desk.nsi), proven under Wine.

The script is compiled by makensis against a placeholder payload shaped like PyInstaller's
one-folder build (``triage-desk.exe``, ``triage-app.exe``, ``_internal/``) and installed
silently into a fresh Wine prefix, as a deployment tool would run it: the folder, the Start
menu entry, the uninstaller and the Add/Remove Programs entry; an upgrade over an older
version, and one refused while the app runs; and the uninstaller, which must take all of
that away and leave the user's data alone.

Under Wine the installer is the 64-bit build of the script (Debian's NSIS has those stubs;
Wine without its 32-bit half runs only 64-bit programs). The release is the 32-bit build
(the official NSIS on the Windows runner has only 32-bit stubs): it is compiled here, and
run too where Wine has its 32-bit half. What only Windows shows (UAC, the real shell
showing the shortcut, Add/Remove Programs listing the entry, the frozen app starting) is
left to the hosted Windows runner.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PureWindowsPath
from typing import NoReturn

import platformdirs
import platformdirs.windows
import pytest

from tests.support import REPO
from triage_app.core import places
from triage_app.gui.settings import APPLICATION, ORGANIZATION

BUILD_INSTALLER = REPO / "packaging" / "windows" / "build_installer.py"
UNINSTALL_KEY = r"HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall\TriageDesk"
# The window's settings: QSettings' native format on Windows is the registry.
SETTINGS_KEY = rf"HKCU\Software\{ORGANIZATION}\{APPLICATION}"
START_MENU_LINK = "ProgramData/Microsoft/Windows/Start Menu/Programs/Triage Desk.lnk"
DESKTOP_LINK = "users/Public/Desktop/Triage Desk.lnk"
PROGRAM_FOLDER = "Program Files/Triage Desk"
WINE_TIMEOUT = 120

pytestmark = pytest.mark.slow


def _command(*names: str) -> str | None:
    return next((path for name in names if (path := shutil.which(name))), None)


@dataclass
class Wine:
    """One Wine prefix, and the commands run in it."""

    wine: str
    wineserver: str
    prefix: Path
    env: dict[str, str]

    @property
    def drive_c(self) -> Path:
        return self.prefix / "drive_c"

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        # Output to files, not pipes: the wineserver a command starts inherits them and
        # stays a while after it, and a pipe would keep the caller waiting for it.
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            done = subprocess.run(
                [self.wine, *args],
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                timeout=WINE_TIMEOUT,
            )
            out.seek(0)
            err.seek(0)
            text = [f.read().decode("utf-8", "replace") for f in (out, err)]
        return subprocess.CompletedProcess(done.args, done.returncode, *text)

    def wait(self) -> None:
        """Until every process in the prefix has ended (an uninstaller run without ``_?=``
        copies itself to %TEMP% and returns at once; the copy does the work)."""
        subprocess.run([self.wineserver, "-w"], env=self.env, timeout=WINE_TIMEOUT, check=True)

    def reg(self, key: str) -> dict[str, str] | None:
        """The values of a registry key (64-bit view), or None if there is no such key."""
        done = self.run("reg", "query", key)
        if done.returncode != 0:
            return None
        values = {}
        for line in done.stdout.splitlines():
            found = re.match(r"^ {4}(\S.*?) {4}(REG_\w+)(?: {4}(.*))?$", line.rstrip("\r"))
            if found:
                values[found[1]] = found[3] or ""
        return values

    def windows_version(self, version: str) -> None:
        done = self.run("winecfg", "-v", version)
        assert done.returncode == 0, done.stderr

    def unix_path(self, windows_path: str) -> Path:
        path = PureWindowsPath(windows_path)
        assert path.drive.upper() == "C:", windows_path
        return self.drive_c.joinpath(*path.parts[1:])

    def expand(self, variable: str) -> str:
        done = self.run("cmd", "/c", f"echo %{variable}%")
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout.strip()


def _missing(reason: str) -> NoReturn:
    """Skip where the tools are missing, as on a developer's laptop; CI installs them
    (.ci/run), so there a missing one fails."""
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the installer tests: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def makensis() -> str:
    path = _command("makensis")
    if path is None:
        _missing("makensis not installed: apt-get install nsis")
    return path


@pytest.fixture(scope="module")
def wine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Wine]:
    """A fresh 64-bit prefix for the module (making one takes most of the time), set to
    Windows 10, with its own HOME so that nothing lands in the real one."""
    wine_cmd = _command("wine", "wine64")
    wineserver = _command("wineserver", "wineserver64")
    if wine_cmd is None or wineserver is None:
        _missing("wine not installed: apt-get install wine wine64")
    root = tmp_path_factory.mktemp("wine")
    env = {
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": str(root / "home"),
        "XDG_CONFIG_HOME": str(root / "home" / ".config"),
        "XDG_DATA_HOME": str(root / "home" / ".local" / "share"),
        "XDG_CACHE_HOME": str(root / "home" / ".cache"),
        "WINEPREFIX": str(root / "prefix"),
        "WINEARCH": "win64",
        "WINEDEBUG": "-all",
        # No Mono or Gecko download prompts. (The .desktop files Wine makes from the Start
        # menu go to the HOME above: disabling that makes Wine print errors into output.)
        "WINEDLLOVERRIDES": "mscoree,mshtml=",
    }
    (root / "home").mkdir()
    box = Wine(wine_cmd, wineserver, root / "prefix", env)
    try:
        done = box.run("wineboot", "-i")
        assert done.returncode == 0, done.stderr
        box.wait()
        box.windows_version("win10")  # a new prefix says Windows 7
        yield box
    finally:
        subprocess.run([wineserver, "-k"], env=env, timeout=WINE_TIMEOUT, check=False)
        shutil.rmtree(root, ignore_errors=True)  # 700 MB, and pytest keeps three runs' worth


def _payload(folder: Path, files: dict[str, str | bytes]) -> Path:
    """A stand-in for build/dist/triage-desk: the programs and _internal's files, by name."""
    for name, content in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        data = content.encode() if isinstance(content, str) else content
        (folder / name).write_bytes(data)
    return folder


def _compile(makensis: str, out: Path, payload: Path, version: str, target: str | None) -> Path:
    """packaging/windows/build_installer.py, as the Windows runner runs it."""
    command = [sys.executable, str(BUILD_INSTALLER), "--dist", str(payload), "--out", str(out)]
    command += ["--version", version, "--makensis", makensis]
    # --strict: an NSIS warning (an unused define, a missing file) fails the build.
    command += ["--strict", "--any-payload", *(["--target", target] if target else [])]
    done = subprocess.run(command, capture_output=True, text=True, timeout=WINE_TIMEOUT)
    assert done.returncode == 0, done.stdout + done.stderr
    return out / f"TriageDesk-{version}-setup.exe"


@dataclass
class Installers:
    v1: Path
    v2: Path


V1_FILES: dict[str, str | bytes] = {
    "triage-desk.exe": "placeholder exe 0.1.0\n",
    "triage-app.exe": "placeholder console exe 0.1.0\n",
    "_internal/python311.dll": "placeholder dll 0.1.0\n",
    "_internal/PySide6/Qt6Core.dll": "placeholder dll 0.1.0\n",
    "_internal/only-in-0.1.0.dll": "a library 0.2.0 no longer ships\n",
}
V2_FILES: dict[str, str | bytes] = {
    "triage-desk.exe": "placeholder exe 0.2.0\n",
    "triage-app.exe": "placeholder console exe 0.2.0\n",
    "_internal/python311.dll": "placeholder dll 0.2.0\n",
    "_internal/PySide6/Qt6Core.dll": "placeholder dll 0.2.0\n",
    "_internal/new-in-0.2.0.dll": "placeholder dll 0.2.0\n",
}


@pytest.fixture(scope="module")
def installers(makensis: str, tmp_path_factory: pytest.TempPathFactory) -> Installers:
    root = tmp_path_factory.mktemp("installers")
    return Installers(
        *(
            _compile(
                makensis,
                root / version,
                _payload(root / version / "triage-desk", files),
                version,
                "amd64-unicode",
            )
            for version, files in (("0.1.0", V1_FILES), ("0.2.0", V2_FILES))
        )
    )


@pytest.fixture
def box(wine: Wine) -> Iterator[Wine]:
    """The module's prefix; whatever a test installed is taken away after it, so that a
    failed test does not fail the next."""
    yield wine
    for folder in (PROGRAM_FOLDER, "Tools"):
        shutil.rmtree(wine.drive_c / folder, ignore_errors=True)
    for link in (START_MENU_LINK, DESKTOP_LINK):
        (wine.drive_c / link).unlink(missing_ok=True)
    if wine.reg(UNINSTALL_KEY) is not None:
        wine.run("reg", "delete", UNINSTALL_KEY, "/f")


def _install(box: Wine, installer: Path, command_line: str = "") -> None:
    """The installer run silently with this command line. Windows hands a program one line;
    Wine makes it from the arguments and quotes those with a space, which ``/D=`` does not
    take (it must be last and unquoted): hence the line split at its spaces."""
    done = box.run(str(installer), "/S", *command_line.split())
    assert done.returncode == 0, f"installer exit code {done.returncode}: {done.stderr}"


def _uninstall_as_windows_does(box: Wine) -> None:
    """The entry's QuietUninstallString, as Settings > Apps or a deployment tool runs it."""
    entry = box.reg(UNINSTALL_KEY)
    assert entry is not None
    command = entry["QuietUninstallString"]
    exe, _, args = command.partition('" ')
    done = box.run(exe.strip('"'), *args.split())
    assert done.returncode == 0, f"uninstaller exit code {done.returncode}: {done.stderr}"
    box.wait()


def _files(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


def _user_data_folder(box: Wine, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where the app keeps workspaces on Windows, from places.user_data_dir() itself, with
    platformdirs answering as it does on Windows and the prefix's %LOCALAPPDATA%."""
    local = box.expand("LOCALAPPDATA")
    roaming = box.expand("APPDATA")
    assert local.startswith("C:\\") and roaming.startswith("C:\\"), (local, roaming)
    folders = {"CSIDL_LOCAL_APPDATA": local, "CSIDL_APPDATA": roaming}
    monkeypatch.setattr(platformdirs.windows, "get_win_folder", folders.__getitem__)
    monkeypatch.setattr(platformdirs, "PlatformDirs", platformdirs.windows.Windows)
    data = str(places.user_data_dir())
    assert data.startswith(local), f"the app's data is not in %LOCALAPPDATA%: {data}"
    return box.unix_path(data.replace("/", "\\"))


def test_install_then_uninstall_leaves_the_users_data(
    box: Wine, installers: Installers, monkeypatch: pytest.MonkeyPatch
) -> None:
    _install(box, installers.v1, "/DesktopShortcut")

    program = box.drive_c / PROGRAM_FOLDER
    assert _files(program) == set(V1_FILES) | {"Uninstall.exe"}
    assert (program / "triage-desk.exe").read_text() == V1_FILES["triage-desk.exe"]
    assert (box.drive_c / START_MENU_LINK).is_file()
    assert (box.drive_c / DESKTOP_LINK).is_file()
    entry = box.reg(UNINSTALL_KEY)
    assert entry is not None, "no Add/Remove Programs entry"
    folder = r"C:\Program Files\Triage Desk"
    assert entry["DisplayName"] == "Triage Desk"
    assert entry["DisplayVersion"] == "0.1.0"
    assert entry["Publisher"]
    assert entry["InstallLocation"] == folder
    assert entry["UninstallString"] == f'"{folder}\\Uninstall.exe"'
    assert entry["QuietUninstallString"] == f'"{folder}\\Uninstall.exe" /S'
    assert entry["DisplayIcon"] == f"{folder}\\triage-desk.exe,0"
    assert int(entry["EstimatedSize"], 16) > 0  # KB

    # The user's own: a workspace and a plugin where the app keeps them, and the window's
    # settings.
    data = _user_data_folder(box, monkeypatch)
    store = data / "workspace" / places.STORE_FILE
    store.parent.mkdir(parents=True)
    store.write_bytes(b"SQLite format 3\x00 a steward's quarantine")
    plugin = data / "plugins" / "their_transform.py"
    plugin.parent.mkdir()
    plugin.write_text("# a steward's own transform\n")
    added = box.run(
        "reg", "add", SETTINGS_KEY, "/v", "recent", "/d", "C:\\Users\\steward\\ws", "/f"
    )
    assert added.returncode == 0, added.stderr

    _uninstall_as_windows_does(box)

    assert not program.exists(), f"left behind: {sorted(_files(program))}"
    assert not (box.drive_c / START_MENU_LINK).exists()
    assert not (box.drive_c / DESKTOP_LINK).exists()
    assert box.reg(UNINSTALL_KEY) is None
    assert store.read_bytes() == b"SQLite format 3\x00 a steward's quarantine"
    assert plugin.read_text() == "# a steward's own transform\n"
    assert box.reg(SETTINGS_KEY) == {"recent": "C:\\Users\\steward\\ws"}


def test_silent_install_makes_no_desktop_shortcut_unless_asked(
    box: Wine, installers: Installers
) -> None:
    _install(box, installers.v1)
    assert (box.drive_c / START_MENU_LINK).is_file()
    assert not (box.drive_c / DESKTOP_LINK).exists()


def test_upgrade_replaces_the_previous_version(box: Wine, installers: Installers) -> None:
    _install(box, installers.v1)
    _install(box, installers.v2)

    program = box.drive_c / PROGRAM_FOLDER
    # What 0.2.0 no longer ships is gone: the old version was taken away first.
    assert _files(program) == set(V2_FILES) | {"Uninstall.exe"}
    assert (program / "triage-desk.exe").read_text() == V2_FILES["triage-desk.exe"]
    assert (box.drive_c / START_MENU_LINK).is_file()
    entry = box.reg(UNINSTALL_KEY)
    assert entry is not None
    assert entry["DisplayVersion"] == "0.2.0"

    # Installing again, elsewhere: the old folder goes, the entry follows the new one.
    _install(box, installers.v2, r"/D=C:\Tools\Triage Desk")
    assert not program.exists()
    moved = box.drive_c / "Tools" / "Triage Desk"
    assert _files(moved) == set(V2_FILES) | {"Uninstall.exe"}
    entry = box.reg(UNINSTALL_KEY)
    assert entry is not None
    assert entry["InstallLocation"] == r"C:\Tools\Triage Desk"

    # And the next upgrade finds it there, with no /D.
    _install(box, installers.v2)
    assert _files(moved) == set(V2_FILES) | {"Uninstall.exe"}
    assert not program.exists()

    _uninstall_as_windows_does(box)
    assert not moved.exists()
    assert (box.drive_c / "Tools").is_dir()
    assert box.reg(UNINSTALL_KEY) is None


def test_uninstall_takes_only_its_own_files(box: Wine, installers: Installers) -> None:
    """Installed into a folder that holds other files, the uninstaller removes its own by
    name and leaves the folder and the rest."""
    tools = box.drive_c / "Tools"
    tools.mkdir()
    (tools / "notes.txt").write_text("mine\n")
    _install(box, installers.v1, r"/D=C:\Tools")
    assert _files(tools) == set(V1_FILES) | {"Uninstall.exe", "notes.txt"}

    _uninstall_as_windows_does(box)
    assert _files(tools) == {"notes.txt"}


def _running_app(makensis: str, folder: Path) -> bytes:
    """A 64-bit program that says it started (C:\\triage-desk-running), then waits a minute:
    the stand-in for the window left open."""
    script = folder / "running.nsi"
    script.write_text(
        "Target amd64-unicode\nOutFile running.exe\nSilentInstall silent\n"
        "RequestExecutionLevel user\nSection\nFileOpen $0 C:\\triage-desk-running w\n"
        "FileClose $0\nSleep 60000\nSectionEnd\n"
    )
    subprocess.run([makensis, "-V1", str(script)], cwd=folder, check=True, timeout=60)
    return (folder / "running.exe").read_bytes()


def test_a_running_app_stops_the_upgrade_and_the_uninstall(
    box: Wine, makensis: str, installers: Installers, tmp_path: Path
) -> None:
    """Replacing or removing files under a running app would fail half-way: both stop first
    (exit code 2) and change nothing; once it is closed, the upgrade goes through."""
    files = {**V1_FILES, "triage-desk.exe": _running_app(makensis, tmp_path)}
    payload = _payload(tmp_path / "triage-desk", files)
    _install(box, _compile(makensis, tmp_path / "out", payload, "0.1.0", "amd64-unicode"))
    program = box.drive_c / PROGRAM_FOLDER
    started = box.drive_c / "triage-desk-running"
    app = subprocess.Popen(
        [box.wine, r"C:\Program Files\Triage Desk\triage-desk.exe"],
        env=box.env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while not started.exists():
            assert app.poll() is None and time.monotonic() < deadline, "the app did not start"
            time.sleep(0.1)
        before = _files(program)

        assert box.run(str(installers.v2), "/S").returncode == 2
        assert _files(program) == before
        assert (box.reg(UNINSTALL_KEY) or {}).get("DisplayVersion") == "0.1.0"

        # Synchronous (_?=), to see its exit code; the line split as _install says why.
        line = r"/S _?=C:\Program Files\Triage Desk"
        assert box.run(str(program / "Uninstall.exe"), *line.split()).returncode == 2
        assert _files(program) == before
        assert box.reg(UNINSTALL_KEY) is not None
    finally:
        box.run("taskkill", "/f", "/im", "triage-desk.exe")
        try:
            app.wait(timeout=30)
        except subprocess.TimeoutExpired:
            app.kill()
            app.wait()
        started.unlink(missing_ok=True)

    _install(box, installers.v2)
    assert (box.reg(UNINSTALL_KEY) or {}).get("DisplayVersion") == "0.2.0"
    assert _files(program) == set(V2_FILES) | {"Uninstall.exe"}


def test_refuses_windows_older_than_10(box: Wine, installers: Installers) -> None:
    """Qt 6 needs Windows 10: the installer stops (exit code 2) and installs nothing."""
    box.windows_version("win7")
    try:
        done = box.run(str(installers.v1), "/S")
    finally:
        box.windows_version("win10")
    assert done.returncode == 2
    assert not (box.drive_c / PROGRAM_FOLDER).exists()
    assert box.reg(UNINSTALL_KEY) is None


# -- the release's build: 32-bit --------------------------------------------------------


@pytest.fixture(scope="module")
def release_installer(makensis: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("release")
    payload = _payload(root / "triage-desk", V1_FILES)
    return _compile(makensis, root, payload, "0.1.0", None)


def _pe_machine(exe: Path) -> int:
    data = exe.read_bytes()
    pe = int.from_bytes(data[0x3C:0x40], "little")
    assert data[pe : pe + 4] == b"PE\0\0", f"{exe.name} is not a Windows program"
    return int.from_bytes(data[pe + 4 : pe + 6], "little")


def test_a_payload_the_uninstaller_does_not_know_is_refused(makensis: str, tmp_path: Path) -> None:
    """The uninstaller removes the build's top-level files by name: a new one must be taught
    to it, or every uninstall would leave it (and the folder) behind."""
    payload = _payload(tmp_path / "triage-desk", {**V1_FILES, "plugins/README.txt": "new\n"})
    command = [sys.executable, str(BUILD_INSTALLER), "--dist", str(payload), "--any-payload"]
    command += ["--out", str(tmp_path), "--version", "0.1.0", "--makensis", makensis]
    done = subprocess.run(command, capture_output=True, text=True, timeout=WINE_TIMEOUT)
    assert done.returncode != 0
    assert "plugins" in done.stderr and "uninstaller would leave" in done.stderr
    assert not list(tmp_path.glob("*.exe"))


def test_the_release_build_is_a_32_bit_installer(release_installer: Path) -> None:
    """The default target is the one the official NSIS on the Windows runner has."""
    assert _pe_machine(release_installer) == 0x14C  # i386
    # The version resource (VERSION_NUMERIC given): what Explorer's Details tab shows.
    assert "Triage Desk 0.1.0 setup".encode("utf-16-le") in release_installer.read_bytes()
