"""Comparison with retail recordings: reference tracks, view modes, difference figures and
time alignment. Pure numpy (plus PyAV through viewer.media and scikit-image for SSIM): no
GL, so the GUI viewport, the headless ``vfxviewer compare`` and the tests share it."""
