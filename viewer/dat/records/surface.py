"""Surface (0x08), SurfaceTexture (0x05), RenderSurface (0x06) and Palette (0x04):
CSurface::Serialize 0x005365F0, ImgTex::Serialize 0x0053F580, RenderSurface::Serialize
0x004444E0, Palette::UnPack 0x0053E310."""

from __future__ import annotations

from dataclasses import dataclass, replace

from viewer.dat.binary import Reader, Writer
from viewer.dat.records.common import PixelFormat, SurfaceType, TextureType, as_enum

_IMAGE_MASK = SurfaceType.Base1Image | SurfaceType.Base1ClipMap
PALETTED_FORMATS = (PixelFormat.P8, PixelFormat.INDEX16)


@dataclass(frozen=True, slots=True)
class Surface:
    """CSurface::Serialize 0x005365F0: no id on disk. Image surfaces carry texture and
    palette DIDs, solid ones a colour; the other side is None. ``type`` is as stored; the
    client's load-time ``|= Translucent`` (CSurface::InitEnd 0x00536400) is not applied."""

    type: SurfaceType
    orig_texture_id: int | None
    orig_palette_id: int | None
    color_value: int | None      # ColorARGB 0xAARRGGBB
    translucency: float
    luminosity: float
    diffuse: float

    def as_loaded(self) -> Surface:
        """The surface as the client holds it after CSurface::InitEnd 0x00536400:
        Translucent is set when translucency > 0.0002."""
        if self.translucency > 0.0002 and not self.type & SurfaceType.Translucent:
            return replace(self, type=self.type | SurfaceType.Translucent)
        return self

    @classmethod
    def read(cls, r: Reader) -> Surface:
        t = SurfaceType(r.u32("type"))
        tex = pal = color = None
        if t & _IMAGE_MASK:
            tex, pal = r.fmt("II", "texture and palette")
        else:
            color = r.u32("color_value")
        tr, lum, dif = r.fmt("3f", "translucency, luminosity, diffuse")
        return cls(t, tex, pal, color, tr, lum, dif)

    def write(self, w: Writer) -> None:
        w.u32(int(self.type))
        if self.type & _IMAGE_MASK:
            if self.orig_texture_id is None or self.orig_palette_id is None:
                raise ValueError("Surface: image surfaces need orig_texture_id and "
                                 "orig_palette_id")
            w.fmt("II", self.orig_texture_id, self.orig_palette_id)
        else:
            if self.color_value is None:
                raise ValueError("Surface: solid surfaces need color_value")
            w.u32(self.color_value)
        w.fmt("3f", self.translucency, self.luminosity, self.diffuse)


@dataclass(frozen=True, slots=True)
class SurfaceTexture:
    """ImgTex::Serialize 0x0053F580: id, data_category, u8 texture_type, u32 count
    (unaligned, at offset 9), count x RenderSurface DID."""

    id: int
    data_category: int
    texture_type: TextureType | int
    textures: tuple[int, ...]

    @classmethod
    def read(cls, r: Reader) -> SurfaceTexture:
        id_, cat, tt = r.fmt("IIB", "SurfaceTexture header")
        n = r.count(r.u32("num_textures"), 4, "textures")
        return cls(id_, cat, as_enum(TextureType, tt), r.fmt(f"{n}I", "textures"))

    def write(self, w: Writer) -> None:
        w.fmt("IIB", self.id, self.data_category, int(self.texture_type))
        w.u32(len(self.textures))
        w.fmt(f"{len(self.textures)}I", *self.textures)


@dataclass(frozen=True, slots=True)
class RenderSurface:
    """RenderSurface::Serialize 0x004444E0. ``source_data`` is the raw image (one level);
    ``default_palette_id`` is present only for P8 and INDEX16."""

    id: int
    data_category: int
    width: int
    height: int
    format: PixelFormat | int
    source_data: bytes
    default_palette_id: int | None

    @classmethod
    def read(cls, r: Reader) -> RenderSurface:
        id_, cat, w, h, fmt, size = r.fmt("IIiiIi", "RenderSurface header")
        if size < 0:
            raise r.error(f"RenderSurface image_size {size} is negative", r.pos - 4)
        data = r.bytes(size, "RenderSurface source_data")
        pal = r.u32("default_palette_id") if fmt in (0x29, 0x65) else None
        return cls(id_, cat, w, h, as_enum(PixelFormat, fmt), data, pal)

    def write(self, w: Writer) -> None:
        paletted = int(self.format) in (0x29, 0x65)
        if paletted != (self.default_palette_id is not None):
            raise ValueError("RenderSurface: default_palette_id must be present exactly for "
                             "P8 and INDEX16")
        w.fmt("IIiiIi", self.id, self.data_category, self.width, self.height,
              int(self.format), len(self.source_data))
        w.bytes(self.source_data)
        if paletted:
            w.u32(self.default_palette_id)


@dataclass(frozen=True, slots=True)
class Palette:
    """Palette::UnPack 0x0053E310: colours are ColorARGB u32 0xAARRGGBB."""

    id: int
    colors: tuple[int, ...]

    @classmethod
    def read(cls, r: Reader) -> Palette:
        id_ = r.u32("id")
        n = r.count(r.i32("num_colors"), 4, "colors")
        return cls(id_, r.fmt(f"{n}I", "colors"))

    def write(self, w: Writer) -> None:
        w.u32(self.id)
        w.i32(len(self.colors))
        w.fmt(f"{len(self.colors)}I", *self.colors)
