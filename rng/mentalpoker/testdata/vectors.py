#!/usr/bin/env python3
"""Test vectors of docs/fairness.md's mental-poker worked example, computed
independently of the Go package and of circl: ristretto255 (RFC 9496) and
hash_to_ristretto255 with expand_message_xmd(SHA-512) (RFC 9380 appendix B
and section 5.3.1) written out below from the RFCs, in plain Python
integers, checked first against the RFCs' own published vectors.

    python3 rng/mentalpoker/testdata/vectors.py > rng/mentalpoker/testdata/vectors.txt
"""
import hashlib
import struct

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = (-121665 * pow(121666, P - 2, P)) % P
SQRT_M1 = 19681161376707505956807079304988542015446066515923890162744021073123829784752
INVSQRT_A_MINUS_D = 54469307008909316920995813868745141605393597292927456921205312896311721017578
ONE_MINUS_D_SQ = 1159843021668779879193775521855586647937357759715417654439879720876111806838
D_MINUS_ONE_SQ = 40440834346308536858101042469323190826248399146238708352240133220865137265952
SQRT_AD_MINUS_ONE = 25063068953384623474111414158702152701244531502492656460079210482610430750235


def neg(x): return (-x) % P
def is_neg(x): return x % P & 1
def ct_abs(x): return neg(x) if is_neg(x) else x % P


def sqrt_ratio_m1(u, v):
    """RFC 9496 section 4.2."""
    u, v = u % P, v % P
    r = (u * pow(v, 3, P)) * pow(u * pow(v, 7, P), (P - 5) // 8, P) % P
    check = v * r * r % P
    correct = check == u
    flipped = check == neg(u)
    flipped_i = check == neg(u) * SQRT_M1 % P
    if flipped or flipped_i:
        r = SQRT_M1 * r % P
    return correct or flipped, ct_abs(r)


def add(p, q):
    """Extended twisted Edwards addition, a = -1."""
    x1, y1, z1, t1 = p
    x2, y2, z2, t2 = q
    a = (y1 - x1) * (y2 - x2) % P
    b = (y1 + x1) * (y2 + x2) % P
    c = t1 * 2 * D * t2 % P
    d = z1 * 2 * z2 % P
    e, f, g, h = b - a, d - c, d + c, b + a
    return (e * f % P, g * h % P, f * g % P, e * h % P)


IDENTITY = (0, 1, 1, 0)


def mul(k, p):
    out = IDENTITY
    for bit in bin(k % L)[2:]:
        out = add(out, out)
        if bit == '1':
            out = add(out, p)
    return out


def encode(p):
    """RFC 9496 section 4.3.2."""
    x0, y0, z0, t0 = p
    u1 = (z0 + y0) * (z0 - y0) % P
    u2 = x0 * y0 % P
    _, invsqrt = sqrt_ratio_m1(1, u1 * u2 * u2)
    den1 = invsqrt * u1 % P
    den2 = invsqrt * u2 % P
    z_inv = den1 * den2 * t0 % P
    ix0, iy0 = x0 * SQRT_M1 % P, y0 * SQRT_M1 % P
    rotate = is_neg(t0 * z_inv)
    x, y = (iy0, ix0) if rotate else (x0, y0)
    den_inv = den1 * INVSQRT_A_MINUS_D % P if rotate else den2
    if is_neg(x * z_inv):
        y = neg(y)
    s = ct_abs(den_inv * (z0 - y))
    return s.to_bytes(32, 'little')


def elligator(b):
    """RFC 9496 section 4.3.4 MAP, on 32 bytes (top bit masked)."""
    t = int.from_bytes(b, 'little') & ((1 << 255) - 1)
    r = SQRT_M1 * t * t % P
    u = (r + 1) * ONE_MINUS_D_SQ % P
    v = (-1 - r * D) * (r + D) % P
    was_square, s = sqrt_ratio_m1(u, v)
    if not was_square:
        s = neg(ct_abs(s * t))
    c = P - 1 if was_square else r
    n = (c * (r - 1) * D_MINUS_ONE_SQ - v) % P
    w0, w1 = 2 * s * v % P, n * SQRT_AD_MINUS_ONE % P
    w2, w3 = (1 - s * s) % P, (1 + s * s) % P
    return (w0 * w3 % P, w2 * w1 % P, w1 * w3 % P, w0 * w2 % P)


def from_uniform(b64):
    """RFC 9496 section 4.3.4: element derivation from 64 bytes."""
    return add(elligator(b64[:32]), elligator(b64[32:]))


def expand_message_xmd(msg, dst, n):
    """RFC 9380 section 5.3.1 with SHA-512 (b = 64, r = 128 bytes)."""
    ell = -(-n // 64)
    dst_prime = dst + bytes([len(dst)])
    b0 = hashlib.sha512(bytes(128) + msg + n.to_bytes(2, 'big') + b'\0' + dst_prime).digest()
    out, prev = b'', bytes(64)
    for i in range(1, ell + 1):
        prev = hashlib.sha512(bytes(x ^ y for x, y in zip(b0, prev)) + bytes([i]) + dst_prime).digest()
        out += prev
    return out[:n]


def hash_to_group(msg, dst):
    """RFC 9380 appendix B: hash_to_ristretto255."""
    return from_uniform(expand_message_xmd(msg, dst, 64))


# The base point: y = 4/5, x even.
_y = 4 * pow(5, P - 2, P) % P
_x2 = (_y * _y - 1) * pow(D * _y * _y + 1, P - 2, P) % P
_x = pow(_x2, (P + 3) // 8, P)
if _x * _x % P != _x2:
    _x = _x * SQRT_M1 % P
if _x & 1:
    _x = P - _x
G = (_x, _y, 1, _x * _y % P)


def self_check():
    # RFC 9496 appendix A.1: encodings of 0·B .. 3·B.
    small = ["0000000000000000000000000000000000000000000000000000000000000000",
             "e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76",
             "6a493210f7499cd17fecb510ae0cea23a110e8d5b901f8acadd3095c73a3b919",
             "94741f5d5d52755ece4f23f044ee27d5d1ea1e2bd196b462166b16152a9d0259"]
    for k, want in enumerate(small):
        assert encode(mul(k, G)).hex() == want, k
    # RFC 9496 appendix A.3: element derivation from SHA-512 of a label.
    for label, want in [
            ("Ristretto is traditionally a short shot of espresso coffee",
             "3066f82a1a747d45120d1740f14358531a8f04bbffe6a819f86dfe50f44a0a46"),
            ("and is not a Ristretto as some believe.",
             "80bd07262511cdde4863f8a7434cef696750681cb9510eea557088f76d9e5065")]:
        assert encode(from_uniform(hashlib.sha512(label.encode()).digest())).hex() == want, label
    # RFC 9380 appendix K.3: expand_message_xmd(SHA-512), 32 bytes.
    dst = b"QUUX-V01-CS02-with-expander-SHA512-256"
    assert expand_message_xmd(b"", dst, 32).hex() == "6b9a7312411d92f921c6f68ca0b6380730a1a4d982c507211a90964c394179ba"
    assert expand_message_xmd(b"abc", dst, 32).hex() == "0da749f12fbe5483eb066a5f595055679b976e93abe9be6f0f6318bce7aca8dc"


def field(b): return struct.pack(">I", len(b)) + b
def scalar(label): return int.from_bytes(hashlib.sha512(label.encode()).digest(), 'little') % L


def main():
    self_check()
    game, hand = "fairboard-example", 1
    dst = b"fairboard/mentalpoker/card/v1"
    cards = [hash_to_group(field(game.encode()) + struct.pack(">QI", hand, i), dst) for i in range(5)]
    a = scalar("fairboard example: seat 0 common key")
    k = scalar("fairboard example: seat 0 key for position 0")
    print("game", game)
    print("hand", hand)
    for i, c in enumerate(cards):
        print("card%d" % i, encode(c).hex())
    print("a", a.to_bytes(32, 'little').hex())
    print("A", encode(mul(a, G)).hex())
    for i, c in enumerate(cards):
        print("aCard%d" % i, encode(mul(a, c)).hex())
    print("k", k.to_bytes(32, 'little').hex())
    print("K", encode(mul(k, G)).hex())
    print("kCard0", encode(mul(k, cards[0])).hex())


main()
