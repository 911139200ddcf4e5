"""Small layout helpers so a panel fits a narrow dock with nothing cut (the default
layout's docks are about 310-360 px wide at 1280x720, ``viewer/ui/layout.py``): rows that
wrap onto the next line when the next item would not fit, widths of labelled items, and
wrapped disabled text. ImGui calls only; the one state is ``text_wrapped``'s cache of
lines already wrapped (text, width, font size)."""

from __future__ import annotations

import re


def label_text(label: str) -> str:
    """What ImGui shows of a label ("name##id" shows "name"; "###id" parts are hidden)."""
    return label.split("##", 1)[0]


def labelled_width(imgui, width: float, label: str) -> float:
    """Width of an item of frame ``width`` with its label drawn beside it."""
    text = label_text(label)
    if not text:
        return width
    return width + imgui.get_style().item_inner_spacing.x + imgui.calc_text_size(text).x


def button_width(imgui, label: str, small: bool = False) -> float:
    pad = 0.0 if small else imgui.get_style().frame_padding.x
    return imgui.calc_text_size(label_text(label)).x + 2.0 * pad


def checkbox_width(imgui, label: str) -> float:
    return labelled_width(imgui, imgui.get_frame_height(), label)


def same_line_if_fits(imgui, width: float) -> bool:
    """Keep the next item (``width`` px) on the line of the last one when it fits before
    the region's right edge, else let it start the next line. True when it stays."""
    spacing = imgui.get_style().item_spacing.x
    right = imgui.get_cursor_screen_pos().x + imgui.get_content_region_avail().x
    if imgui.get_item_rect_max().x + spacing + width <= right:
        imgui.same_line()
        return True
    return False


_NUMBER = re.compile(r"[-+(]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")
_UNIT = re.compile(r"(m|cm|mm|km|s|ms|us|px|fps|hz|khz|db|kb|mb|gb|kib|mib|gib|%|x|deg|"
                   r"degrees|frames?|particles?)[,.;:)]*", re.IGNORECASE)


def _words(paragraph: str) -> list[str]:
    """The paragraph's words as wrapping may move them: split at spaces only (ImGui's own
    wrap also breaks after '.', ',' and ';', inside "0.5"), a number and its unit one word
    ("60 m", "0.25 s")."""
    words: list[str] = []
    for w in paragraph.split(" "):
        if words and _UNIT.fullmatch(w) and _NUMBER.fullmatch(words[-1]):
            words[-1] += " " + w
        else:
            words.append(w)
    return words


def wrap_lines(text: str, width: float, measure) -> list[str]:
    """``text`` in lines no wider than ``width`` (``measure(s)``: its width), broken at
    spaces, a number kept with its unit; a word wider than ``width`` on its own lines: a
    number whole, anything else (a path) cut after a separator where one fits, else where
    the width ends. Newlines in ``text`` stay."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in _words(paragraph):
            trial = word if not line else f"{line} {word}"
            if measure(trial) <= width or (not line and _keep_whole(word)):
                line = trial
                continue
            if line:
                lines.append(line)
            *full, line = _pieces(word, width, measure)
            lines.extend(full)
        lines.append(line)
    return lines


_SEPARATORS = "/\\_-.,:;"


def _keep_whole(word: str) -> bool:
    """A number (with its unit) is never cut, however narrow the region."""
    return bool(_NUMBER.fullmatch(word.split(" ")[0].rstrip(",.;:)")))


def _pieces(word: str, width: float, measure) -> list[str]:
    """``word`` cut into pieces no wider than ``width`` (at least one character each), each
    ending after the last separator that fits (a path breaks after a '/'), else where the
    width ends."""
    if measure(word) <= width or _keep_whole(word):
        return [word]
    pieces: list[str] = []
    start = 0
    while start < len(word):
        end = start + 1
        while end < len(word) and measure(word[start:end + 1]) <= width:
            end += 1
        if end < len(word):
            cut = max(word.rfind(sep, start, end) for sep in _SEPARATORS)
            if cut > start:   # not a piece of the separator alone
                end = cut + 1
        pieces.append(word[start:end])
        start = end
    return pieces


_WRAPPED: dict[tuple, list[str]] = {}   # (text, width, font size) -> lines (per frame reuse)
_WRAPPED_MAX = 512


def text_wrapped(imgui, text: str, colour=None) -> None:
    """Text wrapped at the visible right edge of the region (ImGui's ``text_wrapped``
    wraps at the work rectangle, which a window that may scroll sideways widens to its
    widest content, so its lines would never wrap narrower again), at spaces only: a
    number stays whole and with its unit (``wrap_lines``)."""
    width = max(imgui.get_content_region_avail().x, 1.0)
    key = (text, round(width), imgui.get_font_size())
    lines = _WRAPPED.get(key)
    if lines is None:
        if len(_WRAPPED) >= _WRAPPED_MAX:
            _WRAPPED.clear()
        lines = _WRAPPED[key] = wrap_lines(text, width, lambda s: imgui.calc_text_size(s).x)
    if colour is not None:
        imgui.push_style_color(imgui.Col_.text, colour)
    try:
        imgui.text("\n".join(lines))
    finally:
        if colour is not None:
            imgui.pop_style_color()


def text_wrapped_disabled(imgui, text: str) -> None:
    """``text_disabled`` wrapped at the region's visible edge."""
    text_wrapped(imgui, text, imgui.get_style_color_vec4(imgui.Col_.text_disabled))


def text_wrapped_colored(imgui, colour, text: str) -> None:
    text_wrapped(imgui, text, colour)


def tooltip(imgui, text: str) -> None:
    """A tooltip on the last item (a short label's long form)."""
    if imgui.is_item_hovered():
        imgui.set_tooltip(text)


__all__ = ["button_width", "checkbox_width", "label_text", "labelled_width",
           "same_line_if_fits", "text_wrapped", "text_wrapped_colored",
           "text_wrapped_disabled", "tooltip", "wrap_lines"]
