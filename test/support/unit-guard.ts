import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

/*
 * Setup file of the `unit` project: a unit test that opens a listening socket or starts a child
 * process fails at once, naming where it belongs, so the quick loop stays quick. Outgoing
 * connections (fetch, SMTP) fail on their own: with nothing listening there is no one to reach.
 */
const MOVE = 'is an integration test: move its file to test/integration/<room>/ (vitest.config.ts)';

net.Server.prototype.listen = function refuseListen(): never {
  throw new Error(`This test listens on a socket, so it ${MOVE}`);
};
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const) {
  (childProcess as unknown as Record<string, unknown>)[name] = () => {
    throw new Error(`This test starts a child process (${name}), so it ${MOVE}`);
  };
}
// `import { spawn } from 'node:child_process'` reads the patched functions only after this.
syncBuiltinESMExports();
