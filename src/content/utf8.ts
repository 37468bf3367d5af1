const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decodes UTF-8 text; on invalid bytes returns the 1-based line of the first one instead. */
export function decodeUtf8(bytes: Uint8Array): { text: string } | { invalidLine: number } {
  try {
    return { text: decoder.decode(bytes) };
  } catch {
    const offset = firstInvalidUtf8Offset(bytes);
    let line = 1;
    for (let i = 0; i < offset; i += 1) if (bytes[i] === 0x0a) line += 1;
    return { invalidLine: line };
  }
}

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence. */
function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    let length: number;
    let min: number;
    if (lead < 0x80) {
      i += 1;
      continue;
    } else if (lead >= 0xc2 && lead <= 0xdf) [length, min] = [2, 0x80];
    else if (lead >= 0xe0 && lead <= 0xef) [length, min] = [3, 0x800];
    else if (lead >= 0xf0 && lead <= 0xf4) [length, min] = [4, 0x10000];
    else return i;
    let codePoint = lead & (0xff >> (length + 1));
    for (let k = 1; k < length; k += 1) {
      const next = bytes[i + k];
      if (next === undefined || (next & 0xc0) !== 0x80) return i;
      codePoint = (codePoint << 6) | (next & 0x3f);
    }
    // Overlong forms, surrogates and values past U+10FFFF are invalid too.
    if (codePoint < min || (codePoint >= 0xd800 && codePoint <= 0xdfff) || codePoint > 0x10ffff) return i;
    i += length;
  }
  return bytes.length;
}
