// Text and names as they may appear inside the package's XML parts.

// Characters XML 1.0 cannot carry at all (C0 controls but tab, newline and carriage return;
// lone surrogates; U+FFFE, U+FFFF): dropped, since there is no escape for them.
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const SPECIAL = /[&<>"']/g;
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Escapes text for element content and attribute values alike. */
export function xmlText(text: string): string {
  return text.replace(NOT_XML, '').replace(SPECIAL, (c) => ENTITY[c]!);
}

/** The column letters of a 1-based column number (1 → A, 27 → AA). */
export function columnName(n: number): string {
  let s = '';
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26)) s = String.fromCharCode(65 + ((k - 1) % 26)) + s;
  return s;
}

/** An absolute range on a sheet, as chart formulas write it: `'Data'!$B$2:$B$101`. */
export function sheetRange(sheet: string, column: number, firstRow: number, lastRow: number): string {
  const col = columnName(column);
  return `'${sheet.replace(/'/g, "''")}'!$${col}$${firstRow}:$${col}$${lastRow}`;
}

/** An absolute single cell: `'Data'!$B$1`. */
export function sheetCell(sheet: string, column: number, row: number): string {
  return `'${sheet.replace(/'/g, "''")}'!$${columnName(column)}$${row}`;
}
