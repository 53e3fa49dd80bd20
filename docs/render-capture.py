#!/usr/bin/env python3
"""Render a terminal capture (`tmux capture-pane -e -p`, ANSI SGR colours) as a PNG.

Used to make the README's screenshot from a real run of the lab:

    tmux capture-pane -e -p -t lab > capture.ans
    python3 docs/render-capture.py capture.ans docs/screenshot.png

Needs Pillow (`pip install Pillow`) and a monospace TrueType font (DejaVu Sans Mono by default).
"""
import re
import sys
import unicodedata

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = "/usr/share/fonts/truetype/dejavu/"
BACKGROUND = (24, 24, 28)
FOREGROUND = (214, 214, 214)
# xterm's 16 colours.
PALETTE16 = [
    (0, 0, 0), (205, 49, 49), (13, 188, 121), (229, 229, 16),
    (36, 114, 200), (188, 63, 188), (17, 168, 205), (229, 229, 229),
    (102, 102, 102), (241, 76, 76), (35, 209, 139), (245, 245, 67),
    (59, 142, 234), (214, 112, 214), (41, 184, 219), (255, 255, 255),
]
SGR = re.compile(r"\x1b\[([0-9;]*)m")


def colour256(n):
    if n < 16:
        return PALETTE16[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return (steps[n // 36], steps[(n // 6) % 6], steps[n % 6])
    level = 8 + (n - 232) * 10
    return (level, level, level)


def apply(params, style):
    codes = [int(p) if p else 0 for p in params.split(";")] if params else [0]
    i = 0
    while i < len(codes):
        c = codes[i]
        if c == 0:
            style.clear()
        elif c == 1:
            style["bold"] = True
        elif c == 2:
            style["dim"] = True
        elif c == 4:
            style["underline"] = True
        elif c == 7:
            style["reverse"] = True
        elif c == 22:
            style.pop("bold", None)
            style.pop("dim", None)
        elif c == 24:
            style.pop("underline", None)
        elif c == 27:
            style.pop("reverse", None)
        elif 30 <= c <= 37:
            style["fg"] = PALETTE16[c - 30]
        elif 90 <= c <= 97:
            style["fg"] = PALETTE16[c - 90 + 8]
        elif c == 39:
            style.pop("fg", None)
        elif 40 <= c <= 47:
            style["bg"] = PALETTE16[c - 40]
        elif 100 <= c <= 107:
            style["bg"] = PALETTE16[c - 100 + 8]
        elif c == 49:
            style.pop("bg", None)
        elif c in (38, 48) and i + 1 < len(codes):
            key = "fg" if c == 38 else "bg"
            if codes[i + 1] == 5 and i + 2 < len(codes):
                style[key] = colour256(codes[i + 2])
                i += 2
            elif codes[i + 1] == 2 and i + 4 < len(codes):
                style[key] = tuple(codes[i + 2:i + 5])
                i += 4
        i += 1


def cells(line):
    """Yields (character, style, width) for each printed character of an ANSI line."""
    style = {}
    pos = 0
    for match in SGR.finditer(line):
        for ch in line[pos:match.start()]:
            yield ch, dict(style)
        apply(match.group(1), style)
        pos = match.end()
    for ch in line[pos:]:
        yield ch, dict(style)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: render-capture.py CAPTURE.ans OUT.png")
    lines = open(sys.argv[1], encoding="utf-8").read().rstrip("\n").split("\n")
    size = 16
    regular = ImageFont.truetype(FONT_DIR + "DejaVuSansMono.ttf", size)
    bold = ImageFont.truetype(FONT_DIR + "DejaVuSansMono-Bold.ttf", size)
    cell_w = round(regular.getlength("M"))
    cell_h = size + 4
    columns = max(sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch, _ in cells(l)) for l in lines)
    margin = 12
    image = Image.new("RGB", (columns * cell_w + 2 * margin, len(lines) * cell_h + 2 * margin), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(lines):
        col = 0
        for ch, style in cells(line):
            width = 2 if unicodedata.east_asian_width(ch) in "WF" else 1
            fg = style.get("fg", FOREGROUND)
            bg = style.get("bg")
            if style.get("reverse"):
                fg, bg = (bg or BACKGROUND), fg
            if style.get("dim"):
                fg = tuple(v * 6 // 10 for v in fg)
            x = margin + col * cell_w
            y = margin + row * cell_h
            if bg is not None:
                draw.rectangle([x, y, x + width * cell_w - 1, y + cell_h - 1], fill=bg)
            if ch != " ":
                draw.text((x, y + 2), ch, font=bold if style.get("bold") else regular, fill=fg)
            if style.get("underline"):
                draw.line([x, y + cell_h - 2, x + width * cell_w - 1, y + cell_h - 2], fill=fg)
            col += width
    image.save(sys.argv[2])


if __name__ == "__main__":
    main()
