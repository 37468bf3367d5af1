/**
 * Part 8 of `npm run bench`: loading a hostile page takes time linear in its size. One page with front matter of
 * 1,000 to 100,000 keys, one with 1,000 to 100,000 identical `## Same heading` sections, each
 * loaded by src/content's loadSite (read, front matter, Markdown, anchors, sections: what a start-up
 * or a reload's parse worker does with it). The time per MB of front matter and per heading must
 * stay flat: at 100,000 at most SCALING_TARGET times what it is at 10,000 (1,000 is shown too, but
 * fixed costs weigh in it). Quadratic work (yaml's duplicate-key check, the anchor de-duplication,
 * both fixed in issue 37) made the 10× step cost ~10× per unit.
 *
 * `npx tsx bench/content-scaling.ts` runs it alone.
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadSite } from '../src/content/index.js';

/**
 * Per-unit time at 100,000 over that at 10,000. Quadratic work makes it ~10; linear work 1, plus
 * the garbage collector's share, which grows with the heap (half of the 100,000-heading load's
 * 1.6 s in a profile, 1.2–2× per unit on this machine).
 */
export const SCALING_TARGET = 3;

const SIZES = [1_000, 10_000, 100_000] as const;
const RUNS = 3;

export interface ScalingRow {
  kind: 'front matter keys' | 'headings';
  count: number;
  bytes: number;
  /** Median of RUNS loads. */
  ms: number;
  /** ms per MB of the file. */
  msPerMb: number;
  /** µs per key or heading. */
  usPerUnit: number;
}

export interface ScalingResult {
  rows: ScalingRow[];
  /** Per-unit time at 100,000 ÷ at 10,000, for front matter and for headings. */
  frontMatterRatio: number;
  headingRatio: number;
  pass: boolean;
}

function frontMatterPage(keys: number): string {
  const lines = ['---', 'title: Many keys'];
  for (let i = 0; i < keys; i++) lines.push(`k${i}: ${i}`);
  return `${lines.join('\n')}\n---\n\nA page whose front matter is long.\n`;
}

function headingPage(headings: number): string {
  let page = '# Many headings\n\n';
  for (let i = 0; i < headings; i++) page += `## Same heading\n\nParagraph ${i}.\n\n`;
  return page;
}

async function measure(kind: ScalingRow['kind'], count: number, text: string): Promise<ScalingRow> {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'fd-bench-scaling-'));
  try {
    writeFileSync(path.join(folder, 'page.md'), text);
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      const { site } = await loadSite(folder, { maxFileBytes: 64 * 1024 * 1024, workers: 0 });
      times.push(performance.now() - started);
      if (site.pages.length !== 1) throw new Error(`${kind} ${count}: the page did not load`);
    }
    times.sort((a, b) => a - b);
    const ms = times[Math.floor(RUNS / 2)]!;
    const bytes = Buffer.byteLength(text);
    return { kind, count, bytes, ms, msPerMb: ms / (bytes / 1024 / 1024), usPerUnit: (ms * 1000) / count };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

export async function runContentScalingBench(): Promise<ScalingResult> {
  // markdown-it and yaml loaded and warmed up before the first measurement.
  await measure('headings', 500, headingPage(500));
  await measure('front matter keys', 500, frontMatterPage(500));
  const rows: ScalingRow[] = [];
  for (const count of SIZES) rows.push(await measure('front matter keys', count, frontMatterPage(count)));
  for (const count of SIZES) rows.push(await measure('headings', count, headingPage(count)));
  const perUnit = (kind: ScalingRow['kind'], count: number) =>
    rows.find((row) => row.kind === kind && row.count === count)!.usPerUnit;
  const frontMatterRatio = perUnit('front matter keys', 100_000) / perUnit('front matter keys', 10_000);
  const headingRatio = perUnit('headings', 100_000) / perUnit('headings', 10_000);
  return {
    rows,
    frontMatterRatio,
    headingRatio,
    pass: frontMatterRatio <= SCALING_TARGET && headingRatio <= SCALING_TARGET,
  };
}

export function scalingReport(result: ScalingResult): string {
  const lines = [
    '| page | count | KB | ms | ms per MB | µs per key or heading |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const row of result.rows)
    lines.push(
      `| ${row.kind} | ${row.count.toLocaleString('en-US')} | ${(row.bytes / 1024).toFixed(0)} | ${row.ms.toFixed(0)} | ${row.msPerMb.toFixed(0)} | ${row.usPerUnit.toFixed(1)} |`,
    );
  lines.push(
    `per-unit time at 100,000 ÷ at 10,000: front matter ${result.frontMatterRatio.toFixed(2)}, headings ${result.headingRatio.toFixed(2)} (target ≤ ${SCALING_TARGET}): ${result.pass ? 'PASS' : 'FAIL'}`,
  );
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await runContentScalingBench();
  console.log(scalingReport(result));
  if (!result.pass) process.exitCode = 1;
}
