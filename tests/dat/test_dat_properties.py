"""Property tests: truncated or byte-flipped records and files either decode or raise
DatError -- never hang, never raise anything else (hypothesis, modest example counts)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from viewer.dat import records as R
from viewer.dat import samples
from viewer.dat.container import DatFile
from viewer.dat.writer import build_dat
from viewer.errors import DatError

RECORDS = samples.sample_records()
ENCODED = {did: R.encode(rec) for did, rec in RECORDS.items()}
DIDS = sorted(ENCODED)
SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _decode_or_daterror(did: int, data: bytes):
    """A record of the DID's kind, or a one-line DatError naming the DID and an offset
    inside the data."""
    try:
        rec = R.decode(did, data)
    except DatError as err:
        assert err.did == did
        assert err.offset is None or 0 <= err.offset <= len(data)
        assert "\n" not in str(err) and f"0x{did:08X}" in str(err)
        return None
    assert type(rec) is type(RECORDS[did])
    return rec


@SETTINGS
@given(st.sampled_from(DIDS), st.data())
def test_truncated_record_raises_DatError(did, data):
    full = ENCODED[did]
    cut = data.draw(st.integers(0, len(full) - 1))
    try:
        R.decode(did, full[:cut])
    except DatError as err:
        assert err.did == did
    else:
        # only possible where a shorter prefix is itself a complete record: Region's raw tail
        assert isinstance(RECORDS[did], R.Region)


@SETTINGS
@given(st.sampled_from(DIDS), st.data())
def test_byte_flips_decode_or_raise_DatError(did, data):
    raw = bytearray(ENCODED[did])
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(raw) - 1))
        raw[i] = data.draw(st.integers(0, 255))
    _decode_or_daterror(did, bytes(raw))


@SETTINGS
@given(st.sampled_from(DIDS), st.binary(max_size=64))
def test_random_bytes_decode_or_raise_DatError(did, blob):
    _decode_or_daterror(did, blob)


@SETTINGS
@given(st.sampled_from(DIDS), st.data())
def test_decode_encode_is_stable_when_a_flipped_record_still_decodes(did, data):
    raw = bytearray(ENCODED[did])
    i = data.draw(st.integers(0, len(raw) - 1))
    raw[i] ^= data.draw(st.integers(1, 255))
    try:
        rec = R.decode(did, bytes(raw))
    except DatError:
        return
    try:
        again = R.encode(rec)
    except DatError:
        return  # e.g. a flipped flag the encoder refuses to write inconsistently
    assert R.decode(did, again) == rec or R.encode(R.decode(did, again)) == again


_FILE = build_dat(ENCODED, block_size=256)


_CLEAN = DatFile(data=_FILE)


def _read_or_daterror(read, did: int):
    try:
        return read(did)
    except DatError as err:
        assert "\n" not in str(err)
        return None


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_corrupted_dat_file_reads_or_raises_DatError(data):
    """Flipped bytes past the header: the file opens or raises DatError; every entry it
    lists decodes to its DID's record kind or raises DatError; a lookup finds bytes or
    nothing or raises DatError."""
    raw = bytearray(_FILE)
    for _ in range(data.draw(st.integers(1, 8))):
        i = data.draw(st.integers(0x140, len(raw) - 1))
        raw[i] = data.draw(st.integers(0, 255))
    try:
        d = DatFile(data=bytes(raw))
        for e in d.entries():
            try:
                rec = R.decode(e.did, d.read_entry(e))
            except DatError as err:
                assert "\n" not in str(err)
            else:
                if e.did in RECORDS:
                    assert type(rec) is type(RECORDS[e.did])
        for did in DIDS:
            got = _read_or_daterror(d.get, did)
            assert got is None or isinstance(got, bytes)
    except DatError as err:
        assert "\n" not in str(err)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, len(_FILE) - 1))
def test_truncated_dat_file_raises_DatError_or_reads(cut):
    """A truncated file: each record reads back exactly as in the whole file, or DatError."""
    try:
        d = DatFile(data=_FILE[:cut])
    except DatError as err:
        assert "\n" not in str(err)
        return
    for did in DIDS:
        got = _read_or_daterror(d.read, did)
        assert got is None or got == _CLEAN.read(did)
