"""The address arithmetic of the warp-specialised mma.sync consumers, checked by enumeration.

TMA's 128-byte swizzle stores 16-byte chunk c of row r of a 1024-byte-aligned box with 128-byte
rows at byte r * 128 + 16 * (c ^ (r % 8)) (address bits 4-6 XOR bits 7-9). The multistage
kernels' layout (MmaSync.cpp, `swizzled`) must be that same layout for rows of 128 bytes, and the
consumers' fragment address (one register per operand and slice, XOR-ed per K step) must be the
address of the fragment's row and chunk in it, for every lane, K step, 16-row block and warp
origin, for A (matrix bit 0 steps M, bit 1 steps K) and B (the other way round). Exits 1 with the
first mismatch.
"""
import sys


def tma_128b(row, chunk):
    off = row * 128 + chunk * 16
    return off ^ (((off >> 7) & 7) << 4)


def multistage(row, chunk, cpr=8):
    idx = row * cpr + chunk
    line, within, x = idx // 8, idx % 8, (idx // max(cpr, 8)) % 8
    return (line * 8 + (within ^ x)) * 16


def consumer(warp_origin_rows, lane, kk, block, mn_bit, k_bit):
    r = lane % 8
    q = warp_origin_rows * 128 + (mn_bit * 8 + r) * 128 + ((k_bit ^ r) * 16)
    return (q ^ (kk * 32)) + block * 2048


def main():
    checked = 0
    for warp_origin in range(0, 256, 16):
        for lane in range(32):
            j = lane // 8
            j_low, j_high = j % 2, j // 2
            for operand, (mn_bit, k_bit) in (("A", (j_low, j_high)), ("B", (j_high, j_low))):
                for kk in range(4):
                    for block in range((256 - warp_origin) // 16):
                        row = warp_origin + block * 16 + mn_bit * 8 + lane % 8
                        chunk = 2 * kk + k_bit
                        want = tma_128b(row, chunk)
                        got = (multistage(row, chunk),
                               consumer(warp_origin, lane, kk, block, mn_bit, k_bit))
                        if got != (want, want):
                            print("mismatch: %s warp origin %d lane %d kk %d block %d: TMA %d, "
                                  "multistage %d, consumer %d" % (operand, warp_origin, lane, kk,
                                                                  block, want, *got))
                            return 1
                        checked += 1
    print("swizzle addresses: %d fragment rows agree" % checked)
    return 0


if __name__ == "__main__":
    sys.exit(main())
