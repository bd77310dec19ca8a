"""``acl.float16_to_float`` / ``acl.float_to_float16``: CANN's own half-precision conversions, bit for bit.

Ported from the arithmetic of hicann/runtime src/acl/aclrt_impl/types/fp16_impl.cpp (Fp16ToFloat,
FloatToFp16); formats from py_init_acl.cpp (``"H"`` → a C float; ``"f"`` → an unsigned short).
Inside the finite range they agree with IEEE / numpy (round to nearest even); at the edges CANN is
not IEEE: FloatToFp16 saturates — Inf, NaN and anything that rounds past 65504 become ±65504
(0x7BFF / 0xFBFF) — and Fp16ToFloat reads exponent 31 as an ordinary exponent, so half +Inf
(0x7C00) gives 65536.0 and the NaN 0x7E00 gives 98304.0.
"""
from __future__ import annotations

import struct

from ..core.args import binding


def half_to_float(value: int) -> float:
    """Fp16ToFloat: the half bits ``value`` as CANN turns them into a float (no Inf/NaN meaning)."""
    sign, exp, man = (value >> 15) & 1, (value >> 10) & 0x1F, value & 0x3FF
    if exp:
        man |= 0x400
    else:
        exp = 1
    while man and not man & 0x400:
        man <<= 1
        exp -= 1
    if man == 0:
        e_ret = m_ret = 0
    else:
        e_ret, m_ret = exp + 127 - 15, (man & 0x3FF) << 13
    return struct.unpack("<f", struct.pack("<I", (sign << 31) | (e_ret << 23) | m_ret))[0]


def _round_one(man: int, trunc_len: int) -> bool:
    """IsRoundOne: round half to even on the ``trunc_len`` bits being dropped."""
    shift = trunc_len - 2
    last, high = (0x4 << shift), (0x2 << shift)
    return bool(man & high) and bool((man & (high - 1)) or (man & last))


def float_to_half(value: float) -> int:
    """FloatToFp16: a C float to half bits, saturating Inf/NaN/overflow to ±65504."""
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    sign, e_f, m_f = bits >> 31, (bits >> 23) & 0xFF, bits & 0x7FFFFF
    if e_f > 0x8F:
        e_ret, m_ret = 30, 0x3FF
    elif e_f <= 0x70:
        e_ret = 0
        if e_f >= 0x67:
            tmp = (m_f | 0x800000) << (e_f - 0x67)
            m_ret = (tmp >> 23) + (1 if _round_one(tmp, 23) else 0)
        elif e_f == 0x66 and m_f > 0:
            m_ret = 1
        else:
            m_ret = 0
    else:
        e_ret = e_f - 0x70
        m_ret = (m_f >> 13) + (1 if _round_one(m_f, 13) else 0)
        if m_ret & 0x400:
            e_ret += 1
    if e_ret >= 31:  # Fp16Normalize
        e_ret, m_ret = 30, 0x3FF
    elif e_ret == 0 and m_ret == 0x400:
        e_ret, m_ret = 1, 0
    return ((sign << 15) | (e_ret << 10) | (m_ret & 0x3FF)) & 0xFFFF


@binding("acl.float16_to_float", "H")
def float16_to_float(api, value):
    """The float an aclFloat16 (16-bit int, masked like the C unsigned short) stands for."""
    return half_to_float(value)


@binding("acl.float_to_float16", "f")
def float_to_float16(api, value):
    """The aclFloat16 bits (an int 0..65535) of a number, rounded to nearest even, saturating at ±65504."""
    return float_to_half(value)
