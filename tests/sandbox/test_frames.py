"""The frame checks of sandbox/frames.py, on frames made here and on the counter fixture game."""
import io

import pytest
from PIL import Image

from sandbox import frames


def png(size=(8, 6), colour=(0, 0, 0, 0), dots=()):
    image = Image.new("RGBA", size, colour)
    for xy, dot in dots:
        image.putpixel(xy, dot)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def test_a_blank_canvas_is_flat_and_one_drawn_pixel_is_not():
    assert frames.is_flat(png())
    assert frames.is_flat(png(colour=(20, 30, 40, 255)))
    assert not frames.is_flat(png(dots=[((7, 5), (0, 0, 0, 255))]))


def test_differing_pixels_counts_every_pixel_that_differs_in_any_channel():
    base = png(colour=(10, 10, 10, 255))
    assert frames.differing_pixels(base, base) == 0
    changed = png(colour=(10, 10, 10, 255), dots=[((0, 0), (10, 10, 11, 255)), ((3, 2), (10, 10, 10, 254))])
    assert frames.differing_pixels(base, changed) == 2


def test_frames_of_different_sizes_are_refused_with_both_sizes():
    with pytest.raises(ValueError, match="8x6 and 9x6"):
        frames.differing_pixels(png(), png(size=(9, 6)))


def test_actions_that_never_lose_say_so(counter_task):
    with pytest.raises(frames.NoLoss, match="counter/score-3@1 seed 1"):
        frames.post_reset_frame(counter_task, 1, actions=[{"type": "wait"}] * 3)
