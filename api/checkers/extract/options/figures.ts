import { z } from '@hono/zod-openapi';
import type { PDFPageProxy } from 'pdfjs-dist/types/src/display/api.d.ts';
import { round, unionBox } from './page-lines.ts';
import { pdfLibraries } from '../../../documents/pdf.ts';
import { eachPdfPage } from './pdf-pages.ts';
import { parseSettings } from './settings.ts';
import type { Box, OptionInput } from './types.ts';

export const figuresSettings = z
  .object({ min_size: z.number().min(0).max(600).default(16).describe('Smallest width and height in points: smaller images (rules, icons, bullets) are left out') })
  .strict()
  .openapi('FiguresSettings');

export const foundFigure = z
  .object({
    page: z.number().int(),
    bbox: z.array(z.number()).length(4).describe('[x, y, width, height] in points from the top-left'),
    kind: z.enum(['image', 'inline_image', 'image_mask']),
    pixel_width: z.number().int().nullable(),
    pixel_height: z.number().int().nullable(),
    covers_page: z.boolean().describe('The image covers most of the page, as a scanned page does'),
  })
  .openapi('FoundFigure');

export const figuresOutput = z.array(foundFigure).openapi('FiguresOutput');

export type FoundFigure = z.infer<typeof foundFigure>;

type Matrix = [number, number, number, number, number, number];

type Operators = Awaited<ReturnType<typeof pdfLibraries>>['pdfjs']['OPS'];

function paintKinds(OPS: Operators): Map<number, FoundFigure['kind']> {
  return new Map<number, FoundFigure['kind']>([
    [OPS.paintImageXObject, 'image'],
    [OPS.paintImageXObjectRepeat, 'image'],
    [OPS.paintInlineImageXObject, 'inline_image'],
    [OPS.paintInlineImageXObjectGroup, 'inline_image'],
    [OPS.paintImageMaskXObject, 'image_mask'],
  ]);
}

/**
 * Images drawn on each PDF page, found in the page's drawing operators: the current transformation
 * matrix at the paint maps the image's unit square to its place on the page.
 */
export async function figures(input: OptionInput): Promise<FoundFigure[]> {
  const { min_size } = parseSettings(figuresSettings, input.settings);
  const { OPS } = (await pdfLibraries()).pdfjs;
  const paints = paintKinds(OPS);
  const found = await eachPdfPage(input.document, input.pages, (page) => pageFigures(page, OPS, paints));
  return found.filter((figure) => figure.bbox[2]! >= min_size && figure.bbox[3]! >= min_size);
}

async function pageFigures(page: PDFPageProxy, OPS: Operators, paints: Map<number, FoundFigure['kind']>): Promise<FoundFigure[]> {
  const viewport = page.getViewport({ scale: 1 });
  const operators = await page.getOperatorList();
  const stack: Matrix[] = [];
  let matrix: Matrix = [1, 0, 0, 1, 0, 0];
  const found: FoundFigure[] = [];
  operators.fnArray.forEach((operator, i) => {
    const args = (operators.argsArray[i] ?? []) as unknown[];
    if (operator === OPS.save) stack.push(matrix);
    else if (operator === OPS.restore) matrix = stack.pop() ?? matrix;
    else if (operator === OPS.transform) matrix = multiply(Array.from(args as number[]) as Matrix, matrix);
    else if (operator === OPS.paintFormXObjectBegin) {
      stack.push(matrix);
      if (args[0]) matrix = multiply(Array.from(args[0] as number[]) as Matrix, matrix);
    } else if (operator === OPS.paintFormXObjectEnd) matrix = stack.pop() ?? matrix;
    else {
      const kind = paints.get(operator);
      if (!kind) return;
      const corners = [[0, 0], [1, 0], [0, 1], [1, 1]].map(([u, v]) => {
        const x = matrix[0] * u! + matrix[2] * v! + matrix[4];
        const y = matrix[1] * u! + matrix[3] * v! + matrix[5];
        const [left, top] = viewport.convertToViewportPoint(x, y) as [number, number];
        return [left, top, 0, 0] as Box;
      });
      const bbox = unionBox(corners)!;
      const [pixelWidth, pixelHeight] = kind === 'image' && typeof args[1] === 'number' && typeof args[2] === 'number' ? [args[1], args[2]] : [null, null];
      const covers = (bbox[2] * bbox[3]) / (viewport.width * viewport.height) >= 0.8;
      found.push({ page: page.pageNumber, bbox: bbox.map(round) as Box, kind, pixel_width: pixelWidth, pixel_height: pixelHeight, covers_page: covers });
    }
  });
  return found;
}

/** `a` applied after `b`: the PDF `cm` operator's product (new matrix × current). */
function multiply(a: Matrix, b: Matrix): Matrix {
  return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3], a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]];
}
