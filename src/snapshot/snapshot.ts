/**
 * A file that keeps derived data (the loaded site and its search index) between runs, so a restart
 * with unchanged content skips Markdown parsing and index building. Generic: the payload is any
 * value the structured-serialisation algorithm takes (plain objects, arrays, Maps, strings, typed
 * arrays), written with v8.serialize, so a field added to the index is carried without change here.
 *
 * Layout: MAGIC, a 4-byte big-endian header length, the header (JSON: the key, the stored payload's
 * length and CRC-32, its length once inflated), then the payload, deflated (raw deflate, level
 * SNAPSHOT_DEFLATE_LEVEL: most of a site's snapshot is text, which it stores ~3.7× smaller). A snapshot is used only when its key equals the caller's key field
 * by field, its length is whole and its checksum matches; otherwise the caller is told why and
 * rebuilds. It is written to a temporary file and renamed, so a crash leaves the old file or the
 * new one, never half of one.
 */

import { kMaxLength } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { DefaultDeserializer, serialize } from 'node:v8';
import { MessageChannel } from 'node:worker_threads';
import { promisify } from 'node:util';
import { crc32, deflateRaw, inflateRaw } from 'node:zlib';

const deflateRawAsync = promisify(deflateRaw);
const inflateRawAsync = promisify(inflateRaw);

const MAGIC = Buffer.from('FRONTDOOR-SNAPSHOT\n', 'latin1');
/** The layout above (2: the payload is deflated); another value is rejected like another key. */
export const SNAPSHOT_FORMAT = 2;
/**
 * Measured on javascript.info's snapshot (85 MB serialised): level 1 stores 22.9 MB, level 3
 * 21.1 MB for 1.5× the time, level 6 18.9 MB for 4×; inflating costs the same at every level.
 */
const SNAPSHOT_DEFLATE_LEVEL = 1;
/** A header longer than this is corrupt (it holds a few short strings). */
const MAX_HEADER_BYTES = 64 * 1024;

/** What the payload was built from: every field must match for the snapshot to be used. */
export type SnapshotKey = Readonly<Record<string, string | number>>;

interface Header {
  format: number;
  key: SnapshotKey;
  /** The stored (deflated) payload's length and CRC-32. */
  payloadBytes: number;
  crc32: number;
  /** The serialised payload's length: inflating stops there. */
  inflatedBytes: number;
}

export type SnapshotRead<T> =
  | { ok: true; value: T; bytes: number; /** The key it was written with. */ key: SnapshotKey }
  | { ok: false; reason: 'missing' | 'stale' | 'corrupt'; detail: string };

export interface ReadSnapshotOptions {
  /**
   * Key fields the caller does not know yet (a content hash still being computed): not compared
   * here. The caller must compare them once known (snapshotKeyDifference with the read `key`) and
   * not use the value when they differ.
   */
  deferredFields?: readonly string[];
}

/**
 * The snapshot's value when it was written with `key` (every field equal, but deferredFields) and
 * is whole; otherwise why not.
 */
export async function readSnapshot<T>(
  file: string,
  key: SnapshotKey,
  options: ReadSnapshotOptions = {},
): Promise<SnapshotRead<T>> {
  let handle: FileHandle;
  try {
    // Non-blocking: opening a FIFO left at the snapshot's path for reading would wait for a writer
    // for ever (and the start-up with it); opened this way, it is found not to be a file below.
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, reason: 'missing', detail: 'no snapshot yet' };
    return { ok: false, reason: 'corrupt', detail: `the snapshot cannot be read (${code ?? String(error)})` };
  }
  try {
    return await readOpenSnapshot<T>(handle, key, new Set(options.deferredFields));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, reason: 'corrupt', detail: `the snapshot cannot be read (${code ?? String(error)})` };
  } finally {
    await handle.close();
  }
}

/**
 * The header is read and compared first: a stale snapshot (the usual case on a reload, whose
 * content just changed) costs a few hundred bytes of reading, not the whole file.
 */
async function readOpenSnapshot<T>(
  handle: FileHandle,
  key: SnapshotKey,
  deferred: ReadonlySet<string>,
): Promise<SnapshotRead<T>> {
  const corrupt = (detail: string) => ({ ok: false, reason: 'corrupt', detail }) as const;
  const stats = await handle.stat();
  if (!stats.isFile()) return corrupt('not a regular file (a pipe, socket, device or folder)');
  const fileBytes = stats.size;
  const readAt = async (position: number, length: number): Promise<Buffer> => {
    const buffer = Buffer.allocUnsafe(length);
    let filled = 0;
    while (filled < length) {
      const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  };
  const start = await readAt(0, MAGIC.length + 4);
  if (start.length < MAGIC.length + 4 || !start.subarray(0, MAGIC.length).equals(MAGIC))
    return corrupt('not a snapshot file (wrong start)');
  const headerBytes = start.readUInt32BE(MAGIC.length);
  const headerStart = MAGIC.length + 4;
  if (headerBytes > MAX_HEADER_BYTES || headerStart + headerBytes > fileBytes)
    return corrupt('the header is cut short or too long');
  let header: Header;
  try {
    header = JSON.parse((await readAt(headerStart, headerBytes)).toString('utf8')) as Header;
  } catch {
    return corrupt('the header is not valid JSON');
  }
  if (header.format !== SNAPSHOT_FORMAT)
    return {
      ok: false,
      reason: 'stale',
      detail: `format ${header.format}, this server writes ${SNAPSHOT_FORMAT}`,
    };
  const stored = header.key ?? {};
  const changed = snapshotKeyDifference(stored, key, deferred);
  if (changed !== null) return { ok: false, reason: 'stale', detail: changed };
  const payloadStart = headerStart + headerBytes;
  if (fileBytes - payloadStart !== header.payloadBytes)
    return corrupt(
      `the payload has ${fileBytes - payloadStart} bytes, the header says ${header.payloadBytes} (truncated?)`,
    );
  const payload = await readAt(payloadStart, header.payloadBytes);
  if (payload.length !== header.payloadBytes)
    return corrupt(
      `the payload has ${payload.length} bytes, the header says ${header.payloadBytes} (truncated?)`,
    );
  if (crc32(payload) !== header.crc32) return corrupt('the payload checksum does not match');
  if (
    !Number.isSafeInteger(header.inflatedBytes) ||
    header.inflatedBytes < 1 ||
    header.inflatedBytes > kMaxLength
  )
    return corrupt(`the header's inflated length ${JSON.stringify(header.inflatedBytes)} is not a length`);
  let serialised: Buffer;
  try {
    serialised = await inflateRawAsync(payload, { maxOutputLength: header.inflatedBytes });
  } catch (error) {
    return corrupt(`the payload cannot be inflated (${(error as Error).message})`);
  } finally {
    release(payload);
  }
  if (serialised.length !== header.inflatedBytes)
    return corrupt(
      `the payload inflates to ${serialised.length} bytes, the header says ${header.inflatedBytes}`,
    );
  try {
    return { ok: true, value: deserializeCopying(serialised) as T, bytes: fileBytes, key: stored };
  } catch (error) {
    return corrupt(`the payload cannot be deserialised (${(error as Error).message})`);
  } finally {
    release(serialised);
  }
}

/**
 * Frees a buffer's memory now instead of at the next full collection, which may be long after a
 * start-up that allocates little else (the 34 MB payload of the docs corpus stayed resident). A
 * buffer transferred into a message that is never received is freed with the closed channel.
 */
function release(buffer: Buffer): void {
  // Only a buffer that is all of its memory: a small one is a slice of Node's shared pool.
  if (buffer.byteOffset !== 0 || buffer.byteLength !== buffer.buffer.byteLength) return;
  const { port1, port2 } = new MessageChannel();
  try {
    port1.postMessage(null, [buffer.buffer as ArrayBuffer]);
  } finally {
    port1.close();
    port2.close();
  }
}

/**
 * Node's deserializer returns each typed array as a view onto the input buffer: one 4-byte
 * Uint32Array would keep the whole file (tens of MB) in memory. This one copies each into its own.
 */
class CopyingDeserializer extends DefaultDeserializer {
  _readHostObject(): unknown {
    const readView = (DefaultDeserializer.prototype as unknown as { _readHostObject(): ArrayBufferView })
      ._readHostObject;
    const view = readView.call(this);
    if (view instanceof DataView)
      return new DataView(view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength));
    if (Buffer.isBuffer(view)) return Buffer.from(view);
    const TypedArray = view.constructor as new (source: ArrayBufferView) => ArrayBufferView;
    return new TypedArray(view);
  }
}

function deserializeCopying(payload: Buffer): unknown {
  const deserializer = new CopyingDeserializer(payload);
  deserializer.readHeader();
  return deserializer.readValue();
}

/** The first key field that differs (`ignored` aside), as a sentence, or null when the keys are equal. */
export function snapshotKeyDifference(
  stored: SnapshotKey,
  wanted: SnapshotKey,
  ignored: ReadonlySet<string> = new Set(),
): string | null {
  for (const name of new Set([...Object.keys(wanted), ...Object.keys(stored)]))
    if (!ignored.has(name) && stored[name] !== wanted[name])
      return `${name} was ${JSON.stringify(stored[name] ?? null)}, now ${JSON.stringify(wanted[name] ?? null)}`;
  return null;
}

/**
 * A temporary file of a snapshot left this long ago is abandoned: its writer was killed or its
 * worker terminated mid-write (a write takes about a second), so it is removed before the next
 * write. Younger ones may belong to another process writing the same file, and are left.
 */
export const ABANDONED_TEMPORARY_MS = 10 * 60 * 1000;

/** Removes the abandoned temporary files of `file` (`<file>.<random>.tmp`, see writeSnapshot). */
async function removeAbandonedTemporaries(file: string, nowMs: number): Promise<void> {
  const folder = dirname(file);
  const prefix = `${basename(file)}.`;
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return;
  }
  for (const name of names) {
    if (!(name.startsWith(prefix) && /^[0-9a-f]{12}\.tmp$/.test(name.slice(prefix.length)))) continue;
    const path = join(folder, name);
    try {
      if (nowMs - (await stat(path)).mtimeMs >= ABANDONED_TEMPORARY_MS) await rm(path, { force: true });
    } catch {
      // Gone meanwhile, or not ours to remove: the write below does not depend on it.
    }
  }
}

/**
 * Writes the snapshot atomically (temporary file, fsync, rename), after removing the temporary
 * files an earlier writer abandoned. Returns its size in bytes.
 */
export async function writeSnapshot(file: string, key: SnapshotKey, value: unknown): Promise<number> {
  const serialised = serialize(value);
  // On the thread pool: a worker's or the main thread's event loop keeps running meanwhile.
  const payload = await deflateRawAsync(serialised, { level: SNAPSHOT_DEFLATE_LEVEL });
  const header: Header = {
    format: SNAPSHOT_FORMAT,
    key,
    payloadBytes: payload.length,
    crc32: crc32(payload),
    inflatedBytes: serialised.length,
  };
  release(serialised);
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(headerBytes.length);
  await mkdir(dirname(file), { recursive: true });
  await removeAbandonedTemporaries(file, Date.now());
  await writeFileAtomically(file, [MAGIC, length, headerBytes, payload]);
  return MAGIC.length + 4 + headerBytes.length + payload.length;
}

/**
 * Writes `chunks` to `file` through a temporary file beside it (`<file>.<random>.tmp`), fsynced,
 * then renamed over it: a reader sees the old file or the new one, never half of one. The folder
 * must exist. Also the crawler's way of writing its mirror.
 */
export async function writeFileAtomically(file: string, chunks: readonly Uint8Array[]): Promise<void> {
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const handle = await open(temporary, 'w');
    try {
      await handle.writev([...chunks]);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
