import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/submissions/store/index.js';
import { describeStoreContract } from './store-contract.js';

describeStoreContract('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'frontdoor-store-'));
  const file = join(dir, 'nested', 'frontdoor.sqlite');
  return {
    open: async () => openSqliteStore(file),
    destroy: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

describe('SQLite durability settings', () => {
  it('uses WAL and synchronous=FULL on its connection', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'frontdoor-store-'));
    const file = join(dir, 'frontdoor.sqlite');
    const store = openSqliteStore(file);
    try {
      expect(store.durability).toEqual({ journalMode: 'wal', synchronous: 2 });
      // WAL is a property of the file: another connection sees it too.
      const db = new Database(file, { readonly: true });
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      db.close();
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
