// Writes the report's XLSX package: sheet "Charts" with one native line chart per series, sheet
// "Data" with the numbers behind them.
//
// Why the whole package by hand rather than exceljs plus added chart parts: exceljs writes no
// charts, so its output would have to be unzipped, its sheet XML, relationships and content
// types patched, and zipped again; that couples us to the part names and ids exceljs chooses
// (which change between its versions) and costs a second pass over a file that may be tens of
// MB. The package a report needs is small and fixed (workbook, styles, two sheets, one drawing,
// N charts, their relationships); every part is written here in one pass, as strings, which
// is several times faster than exceljs' cell objects for 100,000 cells. The zip container is
// ours too (zip.ts, node:zlib's native deflate): fflate, a pure-JS zip library, was tried first
// and its deflate alone took 300-450 ms of a 10 × 10,000-point report, native zlib ~125 ms.
//
// Layout decisions:
// - One shared time column (A) for all series, with blank cells where a series has no point
//   at that time; charts span the blanks. Series of the same downsample share their bucket
//   times, so this is usually a dense table; the header row holds the chart titles. Each
//   chart references the rows from its series' first point to its last.
// - Times are spreadsheet date serials (days since 1899-12-30) in UTC, formatted
//   yyyy-mm-dd hh:mm:ss; a spreadsheet has no time zone, and the API's times are UTC ms.
// - Strings are written inline (no shared-strings part): there are only the header cells.
// - Charts carry no cached values: spreadsheet programs read the referenced cells.
import { chartXml, drawingRelsXml, drawingXml } from './chart-xml.js';
import { columnName, sheetCell, sheetRange, xmlText } from './xml-text.js';
import { zip } from './zip.js';

export interface ReportSeries {
  title: string;
  /** [timestamp ms, value], ascending by time, one point per time. */
  points: ReadonlyArray<readonly [number, number]>;
}

export const DATA_SHEET = 'Data';
export const CHARTS_SHEET = 'Charts';
export const TIME_HEADER = 'Time (UTC)';

const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const NS_MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const NS_R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument';

/** ms since the epoch → days since 1899-12-30 (the 1900 date system, past its leap-year bug). */
const DAY_MS = 86_400_000;
const EPOCH_SERIAL = 25_569;
export const dateSerial = (ms: number): number => ms / DAY_MS + EPOCH_SERIAL;

/** Style indexes of styles.xml's cellXfs. */
const STYLE_DATE = 1;
const STYLE_HEADER = 2;

const rels = (list: Array<[id: string, type: string, target: string]>): string =>
  HEAD + `<Relationships xmlns="${NS_PKG_REL}">`
  + list.map(([id, type, target]) => `<Relationship Id="${id}" Type="${type}" Target="${target}"/>`).join('')
  + '</Relationships>';

function contentTypes(charts: number): string {
  const parts: Array<[string, string]> = [
    ['/xl/workbook.xml', `${CT}.spreadsheetml.sheet.main+xml`],
    ['/xl/worksheets/sheet1.xml', `${CT}.spreadsheetml.worksheet+xml`],
    ['/xl/worksheets/sheet2.xml', `${CT}.spreadsheetml.worksheet+xml`],
    ['/xl/styles.xml', `${CT}.spreadsheetml.styles+xml`],
    ['/xl/drawings/drawing1.xml', `${CT}.drawing+xml`],
    ['/docProps/core.xml', 'application/vnd.openxmlformats-package.core-properties+xml'],
    ['/docProps/app.xml', `${CT}.extended-properties+xml`],
  ];
  for (let k = 1; k <= charts; k++) parts.push([`/xl/charts/chart${k}.xml`, `${CT}.drawingml.chart+xml`]);
  return HEAD + '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    + '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    + '<Default Extension="xml" ContentType="application/xml"/>'
    + parts.map(([name, type]) => `<Override PartName="${name}" ContentType="${type}"/>`).join('')
    + '</Types>';
}

const STYLES = HEAD + `<styleSheet xmlns="${NS_MAIN}">`
  + '<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd hh:mm:ss"/></numFmts>'
  + '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>'
  + '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>'
  + '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
  + '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
  + '<cellXfs count="3">'
  + '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
  + '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
  + '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>'
  + '</cellXfs>'
  + '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
  + '</styleSheet>';

function workbookXml(): string {
  return HEAD + `<workbook xmlns="${NS_MAIN}" xmlns:r="${NS_R}">`
    + '<bookViews><workbookView activeTab="0"/></bookViews>'
    + `<sheets><sheet name="${CHARTS_SHEET}" sheetId="1" r:id="rId1"/><sheet name="${DATA_SHEET}" sheetId="2" r:id="rId2"/></sheets>`
    + '</workbook>';
}

function chartsSheetXml(): string {
  return HEAD + `<worksheet xmlns="${NS_MAIN}" xmlns:r="${NS_R}">`
    + '<sheetViews><sheetView tabSelected="1" workbookViewId="0"/></sheetViews>'
    + '<sheetData/><drawing r:id="rId1"/></worksheet>';
}

function coreXml(createdAt: number): string {
  const when = new Date(createdAt).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return HEAD + '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
    + 'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" '
    + 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
    + '<dc:title>Vigil report</dc:title><dc:creator>Vigil</dc:creator>'
    + `<dcterms:created xsi:type="dcterms:W3CDTF">${when}</dcterms:created>`
    + `<dcterms:modified xsi:type="dcterms:W3CDTF">${when}</dcterms:modified>`
    + '</cp:coreProperties>';
}

const APP = HEAD + `<Properties xmlns="${NS_R.replace('relationships', 'extended-properties')}"><Application>Vigil</Application></Properties>`;

/** The rows of the data sheet each series spans (1-based sheet rows; header is row 1). */
interface Span {
  first: number;
  last: number;
}

/** The union of the series' times, ascending, once each. */
function sharedTimes(series: readonly ReportSeries[]): Float64Array {
  const total = series.reduce((n, s) => n + s.points.length, 0);
  const all = new Float64Array(total);
  let k = 0;
  for (const s of series) for (const p of s.points) all[k++] = p[0];
  all.sort();
  let n = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[n - 1]) all[n++] = all[i]!;
  return all.subarray(0, n);
}

/** The "Data" sheet: column A the times, column k+2 series k; and the rows each series spans. */
function dataSheetXml(series: readonly ReportSeries[]): { xml: string; spans: Span[] } {
  const times = sharedTimes(series);
  const cols = series.length + 1;
  const lastCol = columnName(cols);
  const names = Array.from({ length: cols }, (_, i) => columnName(i + 1));
  const spans: Span[] = series.map(() => ({ first: 0, last: 0 }));
  const next = new Array<number>(series.length).fill(0);
  const out: string[] = [];
  out.push(HEAD + `<worksheet xmlns="${NS_MAIN}" xmlns:r="${NS_R}">`
    + `<dimension ref="A1:${lastCol}${times.length + 1}"/>`
    + '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>'
    + '<sheetFormatPr defaultRowHeight="15"/>'
    + `<cols><col min="1" max="1" width="21" customWidth="1"/><col min="2" max="${cols}" width="24" customWidth="1"/></cols>`
    + '<sheetData>');
  let header = `<row r="1"><c r="A1" t="inlineStr" s="${STYLE_HEADER}"><is><t>${TIME_HEADER}</t></is></c>`;
  series.forEach((s, i) => {
    header += `<c r="${names[i + 1]}1" t="inlineStr" s="${STYLE_HEADER}"><is><t>${xmlText(s.title)}</t></is></c>`;
  });
  out.push(header + '</row>');
  for (let i = 0; i < times.length; i++) {
    const t = times[i]!;
    const r = i + 2;
    let row = `<row r="${r}"><c r="A${r}" s="${STYLE_DATE}"><v>${dateSerial(t)}</v></c>`;
    for (let s = 0; s < series.length; s++) {
      const points = series[s]!.points;
      const p = points[next[s]!];
      if (p === undefined || p[0] !== t) continue;
      next[s]!++;
      row += `<c r="${names[s + 1]}${r}"><v>${p[1]}</v></c>`;
      const span = spans[s]!;
      if (span.first === 0) span.first = r;
      span.last = r;
    }
    out.push(row + '</row>');
  }
  out.push('</sheetData></worksheet>');
  // A series without points still gets a (blank) one-row range, so its chart is valid.
  for (const span of spans) if (span.first === 0) span.first = span.last = 2;
  return { xml: out.join(''), spans };
}

/** The XLSX file of the report: a chart per series on "Charts", the numbers on "Data". */
export function writeReportXlsx(series: readonly ReportSeries[], createdAt: number): Buffer {
  for (const s of series) {
    for (let i = 0; i < s.points.length; i++) {
      if (!Number.isFinite(s.points[i]![1]) || (i > 0 && !(s.points[i]![0] > s.points[i - 1]![0]))) {
        throw new Error('writeReportXlsx: points must be finite and strictly ascending in time');
      }
    }
  }
  const { xml: data, spans } = dataSheetXml(series);
  const files: Array<[string, string]> = [
    ['[Content_Types].xml', contentTypes(series.length)],
    ['_rels/.rels', rels([
      ['rId1', `${NS_R}/officeDocument`, 'xl/workbook.xml'],
      ['rId2', 'http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties', 'docProps/core.xml'],
      ['rId3', `${NS_R}/extended-properties`, 'docProps/app.xml'],
    ])],
    ['docProps/core.xml', coreXml(createdAt)],
    ['docProps/app.xml', APP],
    ['xl/workbook.xml', workbookXml()],
    ['xl/_rels/workbook.xml.rels', rels([
      ['rId1', `${NS_R}/worksheet`, 'worksheets/sheet1.xml'],
      ['rId2', `${NS_R}/worksheet`, 'worksheets/sheet2.xml'],
      ['rId3', `${NS_R}/styles`, 'styles.xml'],
    ])],
    ['xl/styles.xml', STYLES],
    ['xl/worksheets/sheet1.xml', chartsSheetXml()],
    ['xl/worksheets/_rels/sheet1.xml.rels', rels([['rId1', `${NS_R}/drawing`, '../drawings/drawing1.xml']])],
    ['xl/worksheets/sheet2.xml', data],
    ['xl/drawings/drawing1.xml', drawingXml(series.length)],
    ['xl/drawings/_rels/drawing1.xml.rels', drawingRelsXml(series.length)],
  ];
  series.forEach((s, i) => {
    const span = spans[i]!;
    files.push([`xl/charts/chart${i + 1}.xml`, chartXml({
      title: s.title,
      nameRef: sheetCell(DATA_SHEET, i + 2, 1),
      categoriesRef: sheetRange(DATA_SHEET, 1, span.first, span.last),
      valuesRef: sheetRange(DATA_SHEET, i + 2, span.first, span.last),
      index: i,
    })]);
  });
  // Level 6 (zlib's default): the data sheet is repetitive XML and shrinks about fivefold.
  return zip(files, createdAt, 6);
}
