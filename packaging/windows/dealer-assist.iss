; Inno Setup script: wraps the Windows bundle (dist\dealer-assist, built by packaging\build.py)
; into one installer, DealerAssistSetup-<version>.exe. Build on Windows (docs/packaging.md):
;   py packaging\build.py
;   iscc packaging\windows\dealer-assist.iss
; Kept in step with packaging/dealer-assist.spec: the same bundle folder (every data file the
; spec collects is inside it), the same icon, the same version (tests/test_packaging.py checks).
#define AppVersion "0.2.0"

[Setup]
; One fixed AppId: a newer installer upgrades the same installation in place.
AppId={{6B1C8E52-3D47-4F0A-9B8E-DA0A55157A20}
AppName=Dealer Assist
AppVersion={#AppVersion}
AppVerName=Dealer Assist {#AppVersion}
AppPublisher=Dealer Assist
DefaultDirName={autopf}\Dealer Assist
DefaultGroupName=Dealer Assist
OutputDir=..\..\dist
OutputBaseFilename=DealerAssistSetup-{#AppVersion}
SetupIconFile=..\icons\dealer-assist.ico
UninstallDisplayIcon={app}\dealer-assist.exe
Compression=lzma2
SolidCompression=yes
PrivilegesRequired=admin
ArchitecturesInstallIn64BitMode=x64compatible
ArchitecturesAllowed=x64compatible

[Files]
Source: "..\..\dist\dealer-assist\*"; DestDir: "{app}"; Flags: recursesubdirs ignoreversion

[Icons]
Name: "{group}\Dealer Assist"; Filename: "{app}\dealer-assist.exe"
Name: "{commondesktop}\Dealer Assist"; Filename: "{app}\dealer-assist.exe"

[Run]
Filename: "{app}\dealer-assist.exe"; Description: "Start Dealer Assist"; Flags: postinstall nowait skipifsilent

; The uninstaller removes the program folder only. The database (the SQLite file in
; %LOCALAPPDATA%\dealer-assist, or the cardroom's server) and the station's settings
; (HKCU\Software\Dealer Assist) are records the gaming board may ask for: they stay, and a
; reinstall finds them: nothing here deletes files or registry keys at uninstall.
[Code]
procedure CurUninstallStepChanged(CurUninstallStep: TUninstallStep);
begin
  if (CurUninstallStep = usPostUninstall) and not UninstallSilent then
    MsgBox('Dealer Assist was removed. Its database and this station''s settings were kept: '
      + ExpandConstant('{localappdata}') + '\dealer-assist holds the records.',
      mbInformation, MB_OK);
end;
