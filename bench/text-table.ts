// Rows of cells as a plain-text table, each column as wide as its widest cell (the bench's printed figures).
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join("  ")).join("\n");
}
