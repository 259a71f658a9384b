"""Draw the app's icon (packaging/icons/): a playing card on table felt, PNG and Windows ICO.

Run once when the design changes (``python packaging/make_icon.py``); the files are committed so
the Linux and Windows bundles carry the same picture. ICO entries are PNG-compressed (accepted
by Windows since Vista), one per size Explorer asks for.
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QGuiApplication, QImage, QPainter, QPainterPath

OUT = Path(__file__).resolve().parent / "icons"
SIZES = (16, 24, 32, 48, 64, 128, 256)


def draw(size: int) -> QImage:
    img = QImage(size, size, QImage.Format.Format_ARGB32)
    img.fill(Qt.GlobalColor.transparent)
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    s = size / 256
    felt = QPainterPath()
    felt.addRoundedRect(QRectF(8 * s, 8 * s, 240 * s, 240 * s), 44 * s, 44 * s)
    p.fillPath(felt, QColor("#1F6B3A"))
    card = QPainterPath()
    card.addRoundedRect(QRectF(62 * s, 34 * s, 132 * s, 188 * s), 16 * s, 16 * s)
    p.fillPath(card, QColor("#FAFAF5"))
    p.setPen(QColor("#111111"))
    font = QFont("DejaVu Sans")
    font.setPixelSize(max(8, int(150 * s)))
    font.setBold(True)
    p.setFont(font)
    p.drawText(QRectF(62 * s, 34 * s, 132 * s, 188 * s), Qt.AlignmentFlag.AlignCenter, "\u2660")
    p.end()
    return img


def png_bytes(img: QImage) -> bytes:
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    img.save(buf, "PNG")
    return bytes(data.data())


def write_ico(path: Path, images: dict[int, bytes]) -> None:
    head = struct.pack("<HHH", 0, 1, len(images))
    entries, blobs = b"", b""
    offset = 6 + 16 * len(images)
    for size, blob in images.items():
        dim = 0 if size >= 256 else size
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(blob), offset)
        blobs += blob
        offset += len(blob)
    path.write_bytes(head + entries + blobs)


def main() -> int:
    QGuiApplication.instance() or QGuiApplication(sys.argv)
    OUT.mkdir(exist_ok=True)
    pngs = {size: png_bytes(draw(size)) for size in SIZES}
    (OUT / "dealer-assist.png").write_bytes(pngs[256])
    write_ico(OUT / "dealer-assist.ico", pngs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
