// DrawingML for the report's charts: one line chart part per item, and the sheet drawing that
// anchors them on the "Charts" sheet. Element order follows the ECMA-376 schema (Excel refuses
// a part whose children are out of order).
import { xmlText } from './xml-text.js';

const NS_C = 'http://schemas.openxmlformats.org/drawingml/2006/chart';
const NS_A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const NS_R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_XDR = 'http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing';
const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** Office's default palette, so consecutive charts are told apart. */
const COLORS = ['4472C4', 'ED7D31', 'A5A5A5', 'FFC000', '5B9BD5', '70AD47', '264478', '9E480E', '636363', '997300'];

export interface ChartPart {
  title: string;
  /** The cell holding the series name, e.g. `'Data'!$B$1`. */
  nameRef: string;
  /** Categories (times), e.g. `'Data'!$A$2:$A$101`. */
  categoriesRef: string;
  /** Values, e.g. `'Data'!$B$2:$B$101`. */
  valuesRef: string;
  /** The chart's position among the report's, from 0 (picks its colour). */
  index: number;
}

/** Axis ids only need to be unique within a chart. */
const CAT_AXIS = 500_000_001;
const VAL_AXIS = 500_000_002;

/**
 * A line chart with one series. The x axis is a category axis labelled with the times, not a
 * date axis: Excel's date axis counts whole days at the finest, which would fold a day of
 * minute points into one category. Blank cells (times where another series has a point and
 * this one has none) are spanned, so the line stays continuous.
 */
export function chartXml(c: ChartPart): string {
  const color = COLORS[c.index % COLORS.length]!;
  return HEAD
    + `<c:chartSpace xmlns:c="${NS_C}" xmlns:a="${NS_A}" xmlns:r="${NS_R}">`
    + '<c:roundedCorners val="0"/>'
    + '<c:chart>'
    + '<c:title><c:tx><c:rich><a:bodyPr/><a:lstStyle/><a:p><a:pPr><a:defRPr sz="1200" b="1"/></a:pPr>'
    + `<a:r><a:rPr lang="en-US" sz="1200" b="1"/><a:t>${xmlText(c.title)}</a:t></a:r></a:p></c:rich></c:tx>`
    + '<c:overlay val="0"/></c:title>'
    + '<c:autoTitleDeleted val="0"/>'
    + '<c:plotArea><c:layout/>'
    + '<c:lineChart><c:grouping val="standard"/><c:varyColors val="0"/>'
    + '<c:ser><c:idx val="0"/><c:order val="0"/>'
    + `<c:tx><c:strRef><c:f>${xmlText(c.nameRef)}</c:f></c:strRef></c:tx>`
    + `<c:spPr><a:ln w="19050" cap="rnd"><a:solidFill><a:srgbClr val="${color}"/></a:solidFill><a:round/></a:ln></c:spPr>`
    + '<c:marker><c:symbol val="none"/></c:marker>'
    + `<c:cat><c:numRef><c:f>${xmlText(c.categoriesRef)}</c:f></c:numRef></c:cat>`
    + `<c:val><c:numRef><c:f>${xmlText(c.valuesRef)}</c:f></c:numRef></c:val>`
    + '<c:smooth val="0"/>'
    + '</c:ser>'
    + '<c:marker val="1"/>'
    + `<c:axId val="${CAT_AXIS}"/><c:axId val="${VAL_AXIS}"/>`
    + '</c:lineChart>'
    + `<c:catAx><c:axId val="${CAT_AXIS}"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/>`
    + '<c:axPos val="b"/><c:numFmt formatCode="yyyy-mm-dd hh:mm" sourceLinked="0"/>'
    + '<c:majorTickMark val="out"/><c:minorTickMark val="none"/><c:tickLblPos val="low"/>'
    + `<c:crossAx val="${VAL_AXIS}"/><c:crosses val="autoZero"/><c:auto val="0"/><c:lblAlgn val="ctr"/><c:lblOffset val="100"/>`
    + '<c:noMultiLvlLbl val="0"/></c:catAx>'
    + `<c:valAx><c:axId val="${VAL_AXIS}"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/>`
    + '<c:axPos val="l"/><c:majorGridlines/><c:numFmt formatCode="General" sourceLinked="1"/>'
    + '<c:majorTickMark val="out"/><c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/>'
    + `<c:crossAx val="${CAT_AXIS}"/><c:crosses val="autoZero"/><c:crossBetween val="between"/></c:valAx>`
    + '</c:plotArea>'
    + '<c:legend><c:legendPos val="b"/><c:overlay val="0"/></c:legend>'
    + '<c:plotVisOnly val="1"/><c:dispBlanksAs val="span"/>'
    + '</c:chart>'
    + '</c:chartSpace>';
}

/** Rows and columns one chart takes on the "Charts" sheet (default cell sizes). */
const CHART_COLS = 12;
const CHART_ROWS = 20;

/** The drawing of the "Charts" sheet: chart k (from 1, relationship rId<k>) stacked under chart k-1. */
export function drawingXml(count: number): string {
  const anchors: string[] = [];
  for (let k = 1; k <= count; k++) {
    const top = (k - 1) * (CHART_ROWS + 1);
    anchors.push(
      '<xdr:twoCellAnchor editAs="oneCell">'
      + `<xdr:from><xdr:col>0</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${top}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from>`
      + `<xdr:to><xdr:col>${CHART_COLS}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${top + CHART_ROWS}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to>`
      + '<xdr:graphicFrame macro="">'
      + `<xdr:nvGraphicFramePr><xdr:cNvPr id="${k + 1}" name="Chart ${k}"/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr>`
      + '<xdr:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></xdr:xfrm>'
      + `<a:graphic><a:graphicData uri="${NS_C}"><c:chart xmlns:c="${NS_C}" xmlns:r="${NS_R}" r:id="rId${k}"/></a:graphicData></a:graphic>`
      + '</xdr:graphicFrame><xdr:clientData/></xdr:twoCellAnchor>',
    );
  }
  return HEAD + `<xdr:wsDr xmlns:xdr="${NS_XDR}" xmlns:a="${NS_A}">` + anchors.join('') + '</xdr:wsDr>';
}

/** The drawing's relationships: rId<k> → chart<k>.xml. */
export function drawingRelsXml(count: number): string {
  const rels: string[] = [];
  for (let k = 1; k <= count; k++) {
    rels.push(`<Relationship Id="rId${k}" Type="${NS_R}/chart" Target="../charts/chart${k}.xml"/>`);
  }
  return HEAD + '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' + rels.join('') + '</Relationships>';
}
