import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/submissions/store/index.js';
import { openSqliteConnection, sqliteDriverName } from '../../src/sqlite/index.js';
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
      const db = openSqliteConnection(file, { readonly: true });
      expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
      db.close();
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SQLite driver', () => {
  it('is node:sqlite where Node has it (22.13+) and better-sqlite3 on Node 20', () => {
    const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
    const builtIn = major > 22 || (major === 22 && minor >= 13);
    expect(sqliteDriverName()).toBe(builtIn ? 'node:sqlite' : 'better-sqlite3');
  });

  it('binds exactly the named parameters the SQL uses, undefined as NULL', () => {
    const dir = mkdtempSync(join(tmpdir(), 'frontdoor-driver-'));
    const db = openSqliteConnection(join(dir, 'x.sqlite'));
    try {
      db.exec('CREATE TABLE t (a TEXT, b TEXT)');
      db.prepare('INSERT INTO t (a, b) VALUES (@a, @b)').run({ a: 'x', b: undefined, unused: 'y' });
      db.prepare('INSERT INTO t (a, b) VALUES (?, ?)').run('p', null);
      expect(db.prepare<{ a: string; b: null }>('SELECT a, b FROM t ORDER BY a').all()).toEqual([
        { a: 'p', b: null },
        { a: 'x', b: null },
      ]);
      expect(() =>
        db.immediate(() => {
          db.prepare('INSERT INTO t (a) VALUES (?)').run('rolled back');
          throw new Error('abort');
        }),
      ).toThrow('abort');
      expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 2 });
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
