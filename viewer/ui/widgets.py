"""Small layout helpers so a panel fits a narrow dock with nothing cut (the default
layout's docks are about 310-360 px wide at 1280x720, ``viewer/ui/layout.py``): rows that
wrap onto the next line when the next item would not fit, widths of labelled items, and
wrapped disabled text. ImGui calls only; no state."""

from __future__ import annotations


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


def text_wrapped(imgui, text: str, colour=None) -> None:
    """Text wrapped at the visible right edge of the region (ImGui's ``text_wrapped``
    wraps at the work rectangle, which a window that may scroll sideways widens to its
    widest content, so its lines would never wrap narrower again)."""
    right = imgui.get_cursor_pos_x() + imgui.get_content_region_avail().x
    imgui.push_text_wrap_pos(max(right, imgui.get_cursor_pos_x() + 1.0))
    if colour is not None:
        imgui.push_style_color(imgui.Col_.text, colour)
    try:
        imgui.text(text)
    finally:
        if colour is not None:
            imgui.pop_style_color()
        imgui.pop_text_wrap_pos()


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
           "text_wrapped_disabled", "tooltip"]
