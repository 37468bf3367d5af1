import { crc32, deflateRawSync } from 'node:zlib';
import { LEVELS } from './codings.js';

/**
 * A gzip member for `head + suffix` where the suffix is the same for many responses and the head
 * differs per response (an /ask answer: its `_meta` holds the request id, its content is shared).
 * The suffix is deflated once; each response is the gzip header, the head as a stored deflate
 * block, the shared deflated suffix and the trailer. DEFLATE allows this (RFC 1951 §3.2.3: a
 * stored block ends on a byte boundary, and the suffix's back-references reach only into the
 * suffix); the trailer's CRC-32 of the whole is the head's combined with the suffix's
 * (zlib's crc32_combine), so a response costs a CRC of its head, not a compression.
 */
export class GzipSplice {
  /** The suffix deflated (raw DEFLATE, its last block final). */
  readonly deflated: Buffer;
  readonly #suffixLength: number;
  readonly #suffixCrc: number;
  /** x^(8·suffix length) mod P: shifts the head's CRC past the suffix. */
  readonly #shift: number;

  constructor(suffix: Buffer) {
    this.deflated = deflateRawSync(suffix, { level: LEVELS.kept.gzip });
    this.#suffixLength = suffix.length;
    this.#suffixCrc = crc32(suffix);
    this.#shift = x2nModP(suffix.length, 3);
  }

  /** The member's bytes before and after `deflated`, for a head of at most 65,535 bytes. */
  wrap(head: Buffer): { before: Buffer; after: Buffer } {
    if (head.length > 0xffff) throw new RangeError('a spliced head is at most 65,535 bytes');
    const before = Buffer.allocUnsafe(GZIP_HEADER.length + 5 + head.length);
    GZIP_HEADER.copy(before, 0);
    let at = GZIP_HEADER.length;
    // Stored block, not final (BFINAL 0, BTYPE 00, padded to the byte): LEN, then NLEN.
    before[at++] = 0;
    before.writeUInt16LE(head.length, at);
    before.writeUInt16LE(~head.length & 0xffff, at + 2);
    head.copy(before, at + 4);
    const crc = (multModP(this.#shift, crc32(head)) ^ this.#suffixCrc) >>> 0;
    const after = Buffer.allocUnsafe(8);
    after.writeUInt32LE(crc, 0);
    after.writeUInt32LE((head.length + this.#suffixLength) >>> 0, 4);
    return { before, after };
  }

  /** What the splice keeps, in bytes (the deflated suffix). */
  get bytes(): number {
    return this.deflated.length;
  }

  /** The length of the suffix it stands for. */
  get identityBytes(): number {
    return this.#suffixLength;
  }
}

/** ID1 ID2, CM deflate, no flags, MTIME 0 (deterministic), XFL 0, OS 255 (unknown). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/** The CRC-32 polynomial, reflected. */
const POLY = 0xedb88320;

/** a·b modulo the CRC polynomial, bit-reflected (zlib's multmodp). */
function multModP(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** x^(2^n) mod P for n = 0..31 (zlib's x2n_table). */
const X2N: number[] = (() => {
  const table = [0x40000000];
  for (let n = 1; n < 32; n++) table.push(multModP(table[n - 1]!, table[n - 1]!));
  return table;
})();

/** x^(n·2^k) mod P (zlib's x2nmodp): with k = 3, the shift past n bytes. */
function x2nModP(n: number, k: number): number {
  let p = 0x80000000;
  while (n) {
    if (n & 1) p = multModP(X2N[k & 31]!, p);
    n = Math.floor(n / 2);
    k++;
  }
  return p >>> 0;
}
