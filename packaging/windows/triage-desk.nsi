; Triage Desk for Windows: an NSIS (Modern UI 2) installer for PyInstaller's one-folder
; build (triage-desk\ holds triage-desk.exe, the window; triage-app.exe, the command line;
; and _internal\, what both run on).
;
;   makensis -DPAYLOAD=build\dist\triage-desk -DVERSION=0.1.0 ^
;            -DOUTFILE=build\TriageDesk-0.1.0-setup.exe packaging\windows\triage-desk.nsi
;
; packaging/windows/build_installer.py runs this with the right defines. Optional defines:
;   VERSION_NUMERIC  the version as four numbers (0.1.0.0) for the exe's version resource
;   TARGET           x86-unicode (default: the stubs every NSIS has, a 32-bit installer
;                    that installs the 64-bit app) or amd64-unicode (Debian's NSIS has those
;                    stubs, the official Windows build does not; the test under Wine uses it,
;                    as Wine without its 32-bit half runs only 64-bit programs)
;   ICON             the .ico (default: triage-desk.ico beside this script)
;
; The installer, run again over an install, is an upgrade. Command line:
;   /S                silent
;   /D=C:\path        install folder (last, unquoted, as NSIS wants it)
;   /DesktopShortcut  also a desktop shortcut (the components page offers it too)
; Exit codes: 0 done, 1 cancelled, 2 stopped (not 64-bit Windows 10, Triage Desk running,
; or the previous version's uninstaller failed).
;
; Per-machine install, in $PROGRAMFILES64\Triage Desk, as an administrator. Ops laptops are
; managed: software arrives through a deployment tool that runs installers as SYSTEM (a
; per-user install would land in SYSTEM's profile), one copy serves every account, and a
; user cannot alter what the app runs. User data is per user whatever the install: see the
; uninstall section for what is left alone.

!ifndef PAYLOAD
  !error "PAYLOAD is not defined: makensis -DPAYLOAD=<the one-folder build> ..."
!endif
!ifndef VERSION
  !error "VERSION is not defined: makensis -DVERSION=<x.y.z> ..."
!endif
!ifndef OUTFILE
  !define OUTFILE "TriageDesk-${VERSION}-setup.exe"
!endif
!ifndef TARGET
  !define TARGET x86-unicode
!endif
!ifndef ICON
  !define ICON "${__FILEDIR__}\triage-desk.ico"
!endif

!define APP_NAME "Triage Desk"
!define APP_EXE "triage-desk.exe"
!define CLI_EXE "triage-app.exe"
!define PUBLISHER "Triage Desk maintainers"
; The Add/Remove Programs entry, in the 64-bit view of HKLM (SetRegView 64 below).
!define UNINST_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\TriageDesk"

Target ${TARGET}
SetCompressor /SOLID lzma
Name "${APP_NAME}"
OutFile "${OUTFILE}"
InstallDir "$PROGRAMFILES64\${APP_NAME}"
RequestExecutionLevel admin
ManifestDPIAware true
BrandingText "${APP_NAME} ${VERSION}"

!ifdef VERSION_NUMERIC
  VIProductVersion "${VERSION_NUMERIC}"
  VIFileVersion "${VERSION_NUMERIC}"
  VIAddVersionKey "ProductName" "${APP_NAME}"
  VIAddVersionKey "ProductVersion" "${VERSION}"
  VIAddVersionKey "FileVersion" "${VERSION}"
  VIAddVersionKey "FileDescription" "${APP_NAME} ${VERSION} setup"
  VIAddVersionKey "CompanyName" "${PUBLISHER}"
  VIAddVersionKey "LegalCopyright" "MIT License"
!endif

!include MUI2.nsh
!include LogicLib.nsh
!include x64.nsh
!include WinVer.nsh
!include FileFunc.nsh

!define MUI_ICON "${ICON}"
!define MUI_UNICON "${ICON}"
!define MUI_ABORTWARNING
; No "Run Triage Desk" on the finish page: it would run elevated, as the administrator who
; approved the prompt, and make its workspace in that account's profile.
!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_COMPONENTS
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"

; A running exe cannot be opened for writing: replacing or removing the folder under a
; running app (the window, or a batch on the command line) would fail half-way, so stop
; first (silently too: exit code 2).
!macro STOP_IF_RUNNING_EXE PATH
  ${If} ${FileExists} "${PATH}"
    ClearErrors
    FileOpen $R9 "${PATH}" a
    ${If} ${Errors}
      MessageBox MB_OK|MB_ICONSTOP "${APP_NAME} is running. Close it, then try again." /SD IDOK
      SetErrorLevel 2
      Quit
    ${EndIf}
    FileClose $R9
  ${EndIf}
!macroend
!macro STOP_IF_RUNNING DIR
  !insertmacro STOP_IF_RUNNING_EXE "${DIR}\${APP_EXE}"
  !insertmacro STOP_IF_RUNNING_EXE "${DIR}\${CLI_EXE}"
!macroend

; Upgrade: the installed version's own uninstaller runs first, silently and synchronously
; (_?= keeps it in place rather than copying itself to %TEMP%), so files the new version no
; longer ships do not linger and a move to another folder leaves nothing behind. It cannot
; delete itself when run that way: that is done here.
Function RemovePrevious
  ReadRegStr $0 HKLM "${UNINST_KEY}" "InstallLocation"
  ${If} $0 == ""
  ${OrIfNot} ${FileExists} "$0\Uninstall.exe"
    Return
  ${EndIf}
  !insertmacro STOP_IF_RUNNING "$0"
  ReadRegStr $1 HKLM "${UNINST_KEY}" "DisplayVersion"
  DetailPrint "Removing ${APP_NAME} $1 from $0"
  ClearErrors
  ExecWait '"$0\Uninstall.exe" /S _?=$0' $2
  ${If} ${Errors}
  ${OrIf} $2 != 0
    MessageBox MB_OK|MB_ICONSTOP "The installed ${APP_NAME} $1 could not be removed ($2)." /SD IDOK
    SetErrorLevel 2
    Quit
  ${EndIf}
  Delete "$0\Uninstall.exe"
  RMDir "$0"
FunctionEnd

Section "${APP_NAME}" SecApp
  SectionIn RO
  Call RemovePrevious
  !insertmacro STOP_IF_RUNNING "$INSTDIR"
  ; A copy the registry does not know of: the bundle's folder is replaced whole.
  ${If} ${FileExists} "$INSTDIR\${APP_EXE}"
    RMDir /r "$INSTDIR\_internal"
  ${EndIf}
  SetOutPath "$INSTDIR"
  File /r "${PAYLOAD}\*"
  WriteUninstaller "$INSTDIR\Uninstall.exe"
  CreateShortcut "$SMPROGRAMS\${APP_NAME}.lnk" "$INSTDIR\${APP_EXE}" "" "$INSTDIR\${APP_EXE}" 0

  WriteRegStr HKLM "${UNINST_KEY}" "DisplayName" "${APP_NAME}"
  WriteRegStr HKLM "${UNINST_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKLM "${UNINST_KEY}" "Publisher" "${PUBLISHER}"
  WriteRegStr HKLM "${UNINST_KEY}" "DisplayIcon" "$INSTDIR\${APP_EXE},0"
  WriteRegStr HKLM "${UNINST_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKLM "${UNINST_KEY}" "UninstallString" '"$INSTDIR\Uninstall.exe"'
  WriteRegStr HKLM "${UNINST_KEY}" "QuietUninstallString" '"$INSTDIR\Uninstall.exe" /S'
  WriteRegDWORD HKLM "${UNINST_KEY}" "NoModify" 1
  WriteRegDWORD HKLM "${UNINST_KEY}" "NoRepair" 1
  ${GetSize} "$INSTDIR" "/S=0K" $0 $1 $2
  IntFmt $0 "0x%08X" $0
  WriteRegDWORD HKLM "${UNINST_KEY}" "EstimatedSize" "$0"
SectionEnd

Section /o "Desktop shortcut" SecDesktop
  CreateShortcut "$DESKTOP\${APP_NAME}.lnk" "$INSTDIR\${APP_EXE}" "" "$INSTDIR\${APP_EXE}" 0
SectionEnd

Function .onInit
  SetShellVarContext all
  SetRegView 64
  ${IfNot} ${RunningX64}
  ${OrIfNot} ${AtLeastWin10}
    MessageBox MB_OK|MB_ICONSTOP "${APP_NAME} needs 64-bit Windows 10 or newer." /SD IDOK
    SetErrorLevel 2
    Quit
  ${EndIf}
  ; An upgrade goes where the installed version is, unless /D named a folder.
  ReadRegStr $0 HKLM "${UNINST_KEY}" "InstallLocation"
  ${If} $0 != ""
  ${AndIf} $INSTDIR == "$PROGRAMFILES64\${APP_NAME}"
    StrCpy $INSTDIR $0
  ${EndIf}
  ${GetParameters} $1
  ClearErrors
  ${GetOptions} $1 "/DesktopShortcut" $2
  ${IfNot} ${Errors}
    SectionSetFlags ${SecDesktop} ${SF_SELECTED}
  ${EndIf}
FunctionEnd

!insertmacro MUI_FUNCTION_DESCRIPTION_BEGIN
  !insertmacro MUI_DESCRIPTION_TEXT ${SecApp} "The app, and its Start menu entry."
  !insertmacro MUI_DESCRIPTION_TEXT ${SecDesktop} "A shortcut on every account's desktop."
!insertmacro MUI_FUNCTION_DESCRIPTION_END

Function un.onInit
  SetShellVarContext all
  SetRegView 64
FunctionEnd

; Removes what the installer put there, by name: never the folder recursively, so an
; install pointed at a folder holding other files (/D=C:\Tools) takes only its own away.
; build_installer.py refuses a payload with anything else at its top: add it here first.
; Left alone, because they are the user's: the workspaces, the demo and the plugins in
; %LOCALAPPDATA%\triage-desk (platformdirs' user_data_dir for "triage-desk"), the window's
; settings in HKCU\Software\TriageDesk\triage-desk (QSettings' native format) and database
; passwords in the Credential Manager (keyring). They are also per account, and this runs as
; the administrator, so they could not be reached for every user anyway.
Section "Uninstall"
  !insertmacro STOP_IF_RUNNING "$INSTDIR"
  Delete "$SMPROGRAMS\${APP_NAME}.lnk"
  Delete "$DESKTOP\${APP_NAME}.lnk"
  RMDir /r "$INSTDIR\_internal"
  Delete "$INSTDIR\${APP_EXE}"
  Delete "$INSTDIR\${CLI_EXE}"
  Delete "$INSTDIR\Uninstall.exe"
  RMDir "$INSTDIR"
  DeleteRegKey HKLM "${UNINST_KEY}"
SectionEnd
