/**
 * A plain-text table: columns padded to their widest cell, two spaces apart, numbers (columns
 * listed in `numeric`) aligned right.
 */
export function formatTable(
  header: string[],
  rows: string[][],
  numeric: ReadonlySet<number> = new Set(),
): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) =>
        numeric.has(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!),
      )
      .join('  ')
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}
