"""Independent Python reimplementation of Paideia's seeded PRNG (xoshiro128** seeded by SplitMix64).

Written from the published algorithm descriptions (Blackman & Vigna 2018; Vigna 2015 SplitMix64),
not from the TypeScript code. Run offline: `python3 random_reference.py > random_reference.json`.
"""
import json

M32 = 0xFFFFFFFF
M64 = 0xFFFFFFFFFFFFFFFF


def splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & M64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return state, z ^ (z >> 31)


def rotl(x, k):
    return ((x << k) | (x >> (32 - k))) & M32


class Rng:
    def __init__(self, seed):
        st, z1 = splitmix64(seed)
        st, z2 = splitmix64(st)
        self.s = [z1 & M32, z1 >> 32, z2 & M32, z2 >> 32]

    def u32(self):
        s = self.s
        result = (rotl((s[1] * 5) & M32, 7) * 9) & M32
        t = (s[1] << 9) & M32
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 11)
        return result

    def float(self):
        a = self.u32() >> 5
        b = self.u32() >> 6
        return (a * 2**26 + b) / 2**53

    def int(self, n):
        # Lemire (2019): multiply-shift, reject when the low word falls below 2^32 mod n.
        threshold = 2**32 % n
        while True:
            m = self.u32() * n
            if (m & M32) >= threshold:
                return m >> 32

    def shuffle(self, items):
        items = list(items)
        for i in range(len(items) - 1, 0, -1):
            j = self.int(i + 1)
            items[i], items[j] = items[j], items[i]
        return items

    def sample(self, items, k):
        c = list(items)
        for i in range(k):
            j = i + self.int(len(c) - i)
            c[i], c[j] = c[j], c[i]
        return c[:k]


def main():
    # Published first SplitMix64 output for state 0 (Vigna's reference code).
    assert splitmix64(0)[1] == 0xE220A8397B1DCDAF
    out = {"generator": "xoshiro128** seeded by SplitMix64", "seeds": []}
    for seed in [0, 1, 42, 20260301, 2**32 + 7, 2**53 - 1]:
        r = Rng(seed)
        u = [r.u32() for _ in range(20)]
        r = Rng(seed)
        f = [r.float() for _ in range(10)]
        r = Rng(seed)
        ints = {str(n): [r.int(n) for _ in range(10)] for n in [1, 2, 3, 7, 1000, 2**21, 2**21 + 1, 3 * 10**6 + 17, 2**31 + 1, 2**32 - 1, 2**32]}
        r = Rng(seed)
        sh = r.shuffle(range(10))
        r = Rng(seed)
        sa = r.sample(range(20), 5)
        out["seeds"].append({"seed": seed, "uint32": u, "float": f, "int": ints, "shuffle10": sh, "sample20_5": sa})
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
