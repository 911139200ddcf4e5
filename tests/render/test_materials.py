"""Blend state per surface type: D3DPolyRender::SetSurface 0x0059C4D0."""

from viewer.render import materials as M


def test_SetSurface_0x0059C4D0_opaque_surface_writes_depth_unblended():
    s = M.surface_blend(M.BASE1_IMAGE)
    assert s.blend is None and s.alpha_ref is None and s.depth_write
    assert s.draw_list == M.LIST_OPAQUE


def test_SetSurface_0x0059C4D0_alpha_is_srcalpha_invsrcalpha():
    s = M.surface_blend(M.BASE1_IMAGE | M.ALPHA)
    assert s.blend == (M.SRCALPHA, M.INVSRCALPHA) and not s.depth_write
    assert s.draw_list == M.LIST_ALPHA


def test_SetSurface_0x0059C4D0_alpha_additive_is_srcalpha_one():
    assert M.surface_blend(M.ALPHA | M.ADDITIVE).blend == (M.SRCALPHA, M.ONE)


def test_SetSurface_0x0059C4D0_invalpha():
    assert M.surface_blend(M.INVALPHA).blend == (M.INVSRCALPHA, M.SRCALPHA)
    assert M.surface_blend(M.INVALPHA | M.ADDITIVE).blend == (M.INVSRCALPHA, M.ONE)


def test_SetSurface_0x0059C4D0_additive_alone_is_one_one():
    s = M.surface_blend(M.ADDITIVE)
    assert s.blend == (M.ONE, M.ONE) and s.additive and not s.depth_write


def test_SetSurface_0x0059C4D0_clipmap_alpha_test_ref_100_paletted_else_200():
    s = M.surface_blend(M.BASE1_CLIPMAP, paletted=True)
    assert s.alpha_ref == M.ALPHA_REF_PALETTED == 100
    assert s.blend == (M.ONE, M.INVSRCALPHA) and s.depth_write
    assert s.draw_list == M.LIST_CLIP
    assert M.surface_blend(M.BASE1_CLIPMAP, paletted=False).alpha_ref == 200


def test_SetSurface_0x0059C4D0_translucent_on_plain_surface_is_srcalpha_invsrcalpha():
    s = M.surface_blend(M.BASE1_IMAGE | M.TRANSLUCENT)
    assert s.blend == (M.SRCALPHA, M.INVSRCALPHA) and s.alpha_ref is None


def test_SetSurface_0x0059C4D0_translucent_overrides_clipmap_alpha_test():
    s = M.surface_blend(M.BASE1_CLIPMAP | M.TRANSLUCENT)
    assert s.blend == (M.SRCALPHA, M.INVSRCALPHA) and s.alpha_ref is None
    assert not s.depth_write


def test_SetSurface_0x0059C4D0_translucent_keeps_additive_blend():
    assert M.surface_blend(M.ADDITIVE | M.TRANSLUCENT).blend == (M.ONE, M.ONE)
    assert M.surface_blend(M.ALPHA | M.TRANSLUCENT).blend == (M.SRCALPHA, M.INVSRCALPHA)


def test_SetSurface_0x0059C4D0_part_translucency_forces_srcalpha_on_opaque_subset():
    s = M.surface_blend(M.BASE1_IMAGE, part_translucent=True)
    assert s.blend == (M.SRCALPHA, M.INVSRCALPHA) and s.draw_list == M.LIST_ALPHA


def test_SetSurface_0x0059C4D0_pure_additive_ignores_part_translucency():
    # ONE/ONE keeps its blend: such particles do not fade, they pop off at t = 1
    assert M.surface_blend(M.ADDITIVE, part_translucent=True).blend == (M.ONE, M.ONE)
