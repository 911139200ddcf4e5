"""Stats panel: frame time, simulation time, particles and emitters alive, draw calls,
instances. ``FrameStats`` is the model; the app fills it every frame."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class FrameStats:
    frame_ms: float = 0.0        # smoothed wall time per frame
    fps: float = 0.0
    sim_time: float = 0.0        # seconds of simulation shown
    sim_frame: int = 0
    particles: int = 0           # alive, all emitters
    emitters: int = 0            # alive
    draw_calls: int = 0
    instances: int = 0
    updates: int = 0             # object updates CPhysics::UseTime let through
    rng_draws: int = 0
    # the frame's wall time split (smoothed ms): the simulation (the session's tick), the
    # 3D view (scene render and comparison composite, as the CPU submits them), the UI
    # (panels built, ImGui drawn); what is left is the window's swap and waiting
    sim_ms: float = 0.0
    render_ms: float = 0.0
    ui_ms: float = 0.0
    _smoothing: float = 0.1

    def add_frame(self, dt: float) -> None:
        ms = max(dt, 0.0) * 1000.0
        self.frame_ms = ms if self.frame_ms == 0.0 else \
            self.frame_ms + (ms - self.frame_ms) * self._smoothing
        self.fps = 1000.0 / self.frame_ms if self.frame_ms > 0 else 0.0

    def add_split(self, sim_s: float, render_s: float, ui_s: float) -> None:
        """One frame's simulation, render and UI seconds, smoothed as the frame time."""
        for name, s in (("sim_ms", sim_s), ("render_ms", render_s), ("ui_ms", ui_s)):
            ms = max(float(s), 0.0) * 1000.0
            old = getattr(self, name)
            setattr(self, name, ms if old == 0.0 else old + (ms - old) * self._smoothing)

    def rows(self) -> list[tuple[str, str]]:
        return [
            ("frame", f"{self.frame_ms:6.2f} ms ({self.fps:5.1f} fps)"),
            ("  simulation", f"{self.sim_ms:6.2f} ms"),
            ("  render", f"{self.render_ms:6.2f} ms"),
            ("  UI", f"{self.ui_ms:6.2f} ms"),
            ("sim time", f"{self.sim_time:8.3f} s (frame {self.sim_frame})"),
            ("particles", str(self.particles)),
            ("emitters", str(self.emitters)),
            ("draw calls", str(self.draw_calls)),
            ("instances", str(self.instances)),
            ("sim updates", str(self.updates)),
            ("rng draws", str(self.rng_draws)),
        ]


def draw_stats_panel(stats: FrameStats) -> list:
    from imgui_bundle import imgui

    visible, _ = imgui.begin("Stats", None, imgui.WindowFlags_.horizontal_scrollbar)
    try:
        if visible and imgui.begin_table("stats", 2, imgui.TableFlags_.sizing_fixed_fit):
            for name, value in stats.rows():
                imgui.table_next_row()
                imgui.table_next_column()
                imgui.text(name)
                imgui.table_next_column()
                imgui.text(value)
            imgui.end_table()
    finally:
        imgui.end()
    return []
