; Inno Setup script: wraps the PyInstaller bundle (dist\dealer-assist) into one installer.
; Build on Windows after PyInstaller:  iscc packaging\windows\dealer-assist.iss
[Setup]
AppName=Dealer Assist
AppVersion=0.1.0
AppPublisher=Dealer Assist
DefaultDirName={autopf}\Dealer Assist
DefaultGroupName=Dealer Assist
OutputBaseFilename=DealerAssistSetup
Compression=lzma2
SolidCompression=yes
PrivilegesRequired=admin

[Files]
Source: "..\..\dist\dealer-assist\*"; DestDir: "{app}"; Flags: recursesubdirs ignoreversion

[Icons]
Name: "{group}\Dealer Assist"; Filename: "{app}\dealer-assist.exe"
Name: "{commondesktop}\Dealer Assist"; Filename: "{app}\dealer-assist.exe"

[Run]
Filename: "{app}\dealer-assist.exe"; Description: "Start Dealer Assist"; Flags: postinstall nowait skipifsilent
